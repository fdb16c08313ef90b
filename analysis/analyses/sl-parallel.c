/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-parallel.c: two parts of a piece of work at once. */
#include "sl-parallel.h"

guint
sl_analysis_threads (void)
{
  static gsize threads = 0;

  if (g_once_init_enter (&threads))
    {
      const char *env = g_getenv ("SL_ANALYSIS_THREADS");
      gsize n = env != NULL ? CLAMP (g_ascii_strtoull (env, NULL, 10), 1, SL_PARALLEL_MAX_PARTS)
                            : CLAMP (g_get_num_processors (), 1, SL_PARALLEL_MAX_PARTS);
      g_once_init_leave (&threads, n);
    }
  return (guint) threads;
}

typedef struct {
  SlParallelFunc func;
  gpointer       data;
  guint          part;
  guint          n_parts;
} Part;

static gpointer
run_part (gpointer data)
{
  Part *p = data;

  p->func (p->part, p->n_parts, p->data);
  return NULL;
}

void
sl_parallel_run (guint n_parts, SlParallelFunc func, gpointer data)
{
  Part parts[SL_PARALLEL_MAX_PARTS];
  GThread *threads[SL_PARALLEL_MAX_PARTS] = { NULL };

  n_parts = CLAMP (n_parts, 1, SL_PARALLEL_MAX_PARTS);
  for (guint p = 1; p < n_parts; p++)
    {
      parts[p] = (Part) { func, data, p, n_parts };
      threads[p] = g_thread_try_new ("sl-part", run_part, &parts[p], NULL);
    }
  func (0, n_parts, data);
  for (guint p = 1; p < n_parts; p++)
    {
      if (threads[p] != NULL)
        g_thread_join (threads[p]);
      else
        run_part (&parts[p]);
    }
}
