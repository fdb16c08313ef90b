/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-graph-launches.c: calls with several kernels, found in one pass over
 * all kernels with a "seen" bitmap; only the (few) calls seen twice get a
 * hash entry. */
#include "sl-graph-launches.h"

static void
count_kernel (SlGraphLaunches *g, guint32 *seen, guint32 api)
{
  guint32 bit = 1u << (api & 31);
  gpointer key = GUINT_TO_POINTER (api);
  gint64 *first;

  if (!(seen[api >> 5] & bit))
    {
      seen[api >> 5] |= bit;
      return;
    }
  if (!(g->is_graph[api >> 5] & bit))
    {
      /* the second kernel: the first one's start is found after the pass */
      g->is_graph[api >> 5] |= bit;
      g->n_calls++;
      g_hash_table_insert (g->kernels, key, GUINT_TO_POINTER (1));
      first = g_new (gint64, 1);
      *first = G_MAXINT64;
      g_hash_table_insert (g->first, key, first);
    }
  g_hash_table_insert (g->kernels, key,
                       GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (g->kernels, key)) + 1));
}

/* The earliest kernel of each graph call, once they are known. */
static void
find_first_starts (SlGraphLaunches *g, const SlProfile *profile)
{
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlKernels *k = &profile->streams[s].kernels;

      for (guint i = 0; i < k->spans.n; i++)
        if (k->api[i] != SL_NONE && sl_graph_launches_contains (g, k->api[i]))
          {
            gint64 *first = g_hash_table_lookup (g->first, GUINT_TO_POINTER (k->api[i]));
            *first = MIN (*first, k->spans.start[i]);
          }
    }
}

static gpointer
graph_launches_build (const SlProfile *profile)
{
  SlGraphLaunches *g = g_new0 (SlGraphLaunches, 1);
  guint words = profile->api.spans.n / 32 + 1;
  g_autofree guint32 *seen = g_new0 (guint32, words);

  g->n_api = profile->api.spans.n;
  g->is_graph = g_new0 (guint32, words);
  g->kernels = g_hash_table_new (NULL, NULL);
  g->first = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlKernels *k = &profile->streams[s].kernels;

      for (guint i = 0; i < k->spans.n; i++)
        if (k->api[i] != SL_NONE && k->api[i] < g->n_api)
          count_kernel (g, seen, k->api[i]);
    }
  if (g->n_calls > 0)
    find_first_starts (g, profile);
  return g;
}

static void
graph_launches_free (gpointer data)
{
  SlGraphLaunches *g = data;

  g_free (g->is_graph);
  g_hash_table_unref (g->kernels);
  g_hash_table_unref (g->first);
  g_free (g);
}

const SlGraphLaunches *
sl_graph_launches_get (const SlProfile *profile)
{
  g_return_val_if_fail (profile != NULL, NULL);
  return sl_profile_get_derived (profile, "sl-graph-launches", graph_launches_build, graph_launches_free);
}

guint
sl_graph_launches_kernels (const SlGraphLaunches *g, guint32 api)
{
  if (!sl_graph_launches_contains (g, api))
    return 1;
  return GPOINTER_TO_UINT (g_hash_table_lookup (g->kernels, GUINT_TO_POINTER (api)));
}

gint64
sl_graph_launches_first (const SlGraphLaunches *g, guint32 api)
{
  const gint64 *first = g_hash_table_lookup (g->first, GUINT_TO_POINTER (api));

  return first != NULL ? *first : G_MAXINT64;
}
