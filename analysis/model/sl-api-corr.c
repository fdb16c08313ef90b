/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-api-corr.c: the correlation ids of the profile's CUDA API calls,
 * packed to 2 bytes a call (SlApiCalls in sl-profile.h says how).
 *
 * Why: the loader needs every id only to link GPU work to its launching
 * call; afterwards an id is read for one call at a time (details,
 * sl_kernels_corr), and 2 bytes saved on each of millions of calls is a
 * byte per event. */
#include "sl-profile-private.h"

#define FAR G_MAXUINT16

guint32
sl_api_corr (const SlApiCalls *api, guint i)
{
  g_return_val_if_fail (api != NULL, 0);
  if (i >= api->spans.n)
    return 0;
  if (api->corr_delta == NULL)
    return api->corr != NULL ? api->corr[i] : 0;
  if (api->corr_delta[i] != FAR)
    return api->corr_base[i / SL_CORR_STEP] + api->corr_delta[i];
  guint k = _sl_index_table_find (api->corr_far_index, api->n_corr_far, i);
  return k < api->n_corr_far ? api->corr_far[k] : 0;
}

/* The block's base: its smallest id, unless that lies far below most of
 * the block (the last calls of another process), then its first id. */
static guint32
block_base (const guint32 *corr, guint first, guint end)
{
  guint32 min = corr[first];

  for (guint i = first + 1; i < end; i++)
    min = MIN (min, corr[i]);
  return (guint64) corr[first] - min < FAR ? min : corr[first];
}

void
_sl_api_corr_pack (SlApiCalls *api)
{
  guint n = api->spans.n;
  GArray *far_index, *far;

  if (api->corr == NULL || api->corr_delta != NULL)
    return;
  far_index = g_array_new (FALSE, FALSE, sizeof (guint32));
  far = g_array_new (FALSE, FALSE, sizeof (guint32));
  api->corr_base = g_new (guint32, n / SL_CORR_STEP + 1);
  api->corr_delta = g_new (guint16, MAX (n, 1));
  for (guint b = 0; (gsize) b * SL_CORR_STEP < n; b++)
    {
      guint first = b * SL_CORR_STEP, end = MIN (n, first + SL_CORR_STEP);
      guint32 base = block_base (api->corr, first, end);

      api->corr_base[b] = base;
      for (guint i = first; i < end; i++)
        {
          guint32 c = api->corr[i];
          if (c >= base && c - base < FAR)
            api->corr_delta[i] = (guint16) (c - base);
          else
            {
              api->corr_delta[i] = FAR;
              g_array_append_val (far_index, i);
              g_array_append_val (far, c);
            }
        }
    }
  api->n_corr_far = far->len;
  api->corr_far_index = (guint32 *) g_array_free (far_index, far->len == 0);
  api->corr_far = (guint32 *) g_array_free (far, far->len == 0);
  g_clear_pointer (&api->corr, g_free);
}
