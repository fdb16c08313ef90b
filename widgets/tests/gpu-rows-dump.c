/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gpu-rows-dump.c: the timeline model's GPU rows of a profile as JSON, for
 * test-gpu-rows.py to check against SQL: each GPU's utilization in N
 * columns over the whole run (from the table and from the kernels), and
 * every projected NVTX span.  Usage: gpu-rows-dump PROFILE [N] */
#include "sl-timeline-gpu-rows.h"
#include "sl-profile-loader.h"

#include <stdio.h>
#include <stdlib.h>

static void
dump_util (const SlTimelineModel *m, guint g, guint n)
{
  const SlProfile *p = m->profile;
  double px = (double) (p->end_ns - p->start_ns) / n;
  g_autofree float *table = g_new (float, n), *exact = g_new (float, n);

  if (!sl_timeline_gpu_util_columns (m, g, p->start_ns, px, n, table))
    return;
  sl_timeline_gpu_util_exact (m, g, p->start_ns, px, n, exact);
  printf ("{\"device\": %u, \"t0\": %" G_GINT64_FORMAT ", \"px_ns\": %.6f, \"bin_ns\": %.6f, \"table\": [",
          p->gpus[g].device, p->start_ns, px, m->util[g].bin_ns);
  for (guint i = 0; i < n; i++)
    printf ("%s%.6f", i ? ", " : "", table[i]);
  printf ("], \"exact\": [");
  for (guint i = 0; i < n; i++)
    printf ("%s%.6f", i ? ", " : "", exact[i]);
  printf ("]}");
}

static void
dump_projected (const SlTimelineModel *m, guint g, gboolean *first)
{
  const SlProfile *p = m->profile;
  const SlProjected *pr = &m->projected[g];

  for (guint i = 0; i < pr->spans.n; i++)
    {
      guint32 t;
      guint local;

      if (!sl_timeline_projected_range (m, g, i, &t, &local))
        continue;
      printf ("%s{\"device\": %u, \"tid\": %u, \"start\": %" G_GINT64_FORMAT ", \"gpu_start\": %" G_GINT64_FORMAT
              ", \"gpu_end\": %" G_GINT64_FORMAT ", \"gpu_time\": %" G_GINT64_FORMAT "}",
              *first ? "" : ",\n  ", p->gpus[g].device, p->threads[t].tid, p->threads[t].nvtx.spans.start[local],
              pr->spans.start[i], sl_spans_end (&pr->spans, i), sl_timeline_projected_gpu_time (m, g, i));
      *first = FALSE;
    }
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlTimelineModel) model = NULL;
  guint n = argc > 2 ? (guint) atoi (argv[2]) : 1000;
  gboolean first = TRUE;

  if (argc < 2)
    return 2;
  profile = sl_profile_load (argv[1], NULL, NULL, NULL, &error);
  if (profile == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  model = sl_timeline_model_new (profile, NULL);
  printf ("{\"util\": [");
  for (guint g = 0; g < profile->n_gpus; g++)
    if (model->util[g].cum != NULL)
      {
        printf (first ? "\n  " : ",\n  ");
        dump_util (model, g, n);
        first = FALSE;
      }
  printf ("],\n\"projected\": [");
  first = TRUE;
  for (guint g = 0; g < profile->n_gpus; g++)
    dump_projected (model, g, &first);
  printf ("]}\n");
  return 0;
}
