/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-gap-stacks.c: `gaps --stacks`: what the CPU of the processes
 * owning a GPU was doing while that GPU sat idle (Nsight's "CPU call
 * stacks during GPU idle"), from the samples inside each gap. */
#include <inttypes.h>
#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-cli-cpu.h"

#define GAP_STACKS     5
/* text output: the frames of a stack on one line, the leaf first */
#define TEXT_FRAMES    8

static char *
stack_line (const SlCpuActivity *a, guint32 stack)
{
  GString *line = g_string_new (NULL);
  guint n, first = sl_cpu_activity_stack_frames (a, stack, &n);

  for (guint f = 0; f < MIN (n, TEXT_FRAMES); f++)
    g_string_append_printf (line, "%s%s", f > 0 ? " ← " : "", sl_cpu_activity_name (a, a->frame_symbol[first + f]));
  if (n > TEXT_FRAMES)
    g_string_append (line, " ← …");
  return g_string_free (line, FALSE);
}

/* The processes whose samples count in @device's gaps: those owning that
 * GPU, narrowed to --pid's; when no owner is known, --pid's (none: all). */
static GArray *
gap_pids (const SlProfile *profile, const SlFilter *filter, guint32 device)
{
  GArray *pids = sl_cpu_gpu_pids (profile, device);
  guint kept = 0;

  if (pids->len == 0)
    {
      if (filter != NULL)
        g_array_append_vals (pids, filter->pids->data, filter->pids->len);
      return pids;
    }
  for (guint i = 0; i < pids->len; i++)
    if (sl_filter_match_pid (filter, g_array_index (pids, guint32, i)))
      g_array_index (pids, guint32, kept++) = g_array_index (pids, guint32, i);
  g_array_set_size (pids, kept);
  return pids;
}

void
sl_cli_gap_stacks_print (const SlCpuActivity *a, const SlProfile *profile, const SlFilter *filter,
                         const SlGapsDevice *dev)
{
  g_autoptr(GArray) pids = gap_pids (profile, filter, dev->device);

  for (guint i = 0; i < dev->n_top; i++)
    {
      const SlGap *gap = &dev->gaps[i];
      g_autofree char *dur = sl_format_duration_precise (gap->dur_ns);
      guint64 n = sl_cpu_count_samples (a, gap->start_ns, gap->end_ns, (guint32 *) pids->data, pids->len);
      g_autoptr(GArray) top = sl_cpu_top_stacks (a, gap->start_ns, gap->end_ns, (guint32 *) pids->data,
                                                 pids->len, GAP_STACKS);

      printf (_("\nCPU stacks during gap %u (%s at %" PRId64 " ns): %" PRIu64 " samples\n"),
              i + 1, dur, gap->start_ns, n);
      for (guint k = 0; k < top->len; k++)
        {
          const SlCpuStackCount *c = &g_array_index (top, SlCpuStackCount, k);
          g_autofree char *line = stack_line (a, c->stack);
          printf ("  %8" G_GUINT64_FORMAT "  %s\n", c->samples, line);
        }
    }
}

static JsonArray *
stacks_json (const SlCpuActivity *a, const SlGap *gap, const GArray *pids)
{
  JsonArray *stacks = json_array_new ();
  g_autoptr(GArray) top = sl_cpu_top_stacks (a, gap->start_ns, gap->end_ns, (guint32 *) pids->data,
                                             pids->len, GAP_STACKS);

  for (guint k = 0; k < top->len; k++)
    {
      const SlCpuStackCount *c = &g_array_index (top, SlCpuStackCount, k);
      JsonObject *o = json_object_new ();
      JsonArray *frames = json_array_new ();
      guint n, first = sl_cpu_activity_stack_frames (a, c->stack, &n);

      /* bare symbols, leaf first: what tools match against */
      for (guint f = first; f < first + n; f++)
        json_array_add_string_element (frames, sl_cpu_activity_name (a, a->frame_symbol[f]));
      json_object_set_int_member (o, "samples", (gint64) c->samples);
      json_object_set_array_member (o, "frames", frames);
      json_array_add_object_element (stacks, o);
    }
  return stacks;
}

void
sl_cli_gap_stacks_json (const SlCpuActivity *a, const SlProfile *profile, const SlFilter *filter,
                        const SlGaps *gaps, JsonNode *gaps_json)
{
  JsonArray *devices = json_object_get_array_member (json_node_get_object (gaps_json), "devices");

  for (guint d = 0; d < gaps->n_devices && d < json_array_get_length (devices); d++)
    {
      const SlGapsDevice *dev = &gaps->devices[d];
      JsonArray *list = json_object_get_array_member (json_array_get_object_element (devices, d), "gaps");
      g_autoptr(GArray) pids = gap_pids (profile, filter, dev->device);

      for (guint i = 0; i < dev->n_top && i < json_array_get_length (list); i++)
        {
          JsonObject *o = json_array_get_object_element (list, i);
          const SlGap *gap = &dev->gaps[i];
          json_object_set_int_member (o, "samples",
                                      (gint64) sl_cpu_count_samples (a, gap->start_ns, gap->end_ns,
                                                                     (guint32 *) pids->data, pids->len));
          json_object_set_array_member (o, "stacks", stacks_json (a, gap, pids));
        }
    }
}
