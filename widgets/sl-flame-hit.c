/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-hit.c: the primitive under the pointer, and which flame graph
 * nodes hold a highlighted event. */
#include "sl-flame-view.h"

#include <math.h>

const SlFlamePrim *
sl_flame_view_hit (GArray *prims, double x, double y)
{
  const SlFlamePrim *exact = NULL, *near = NULL;
  guint row;

  g_return_val_if_fail (prims != NULL, NULL);
  if (y < 0)
    return NULL;
  row = (guint) floor (y / SL_FLAME_ROW_HEIGHT);
  /* the last drawn wins, as it is on top; a primitive narrower than a
   * pixel still takes the pixel it was drawn in, when nothing is exactly there */
  for (guint i = 0; i < prims->len; i++)
    {
      const SlFlamePrim *p = &g_array_index (prims, SlFlamePrim, i);

      if (p->row != row)
        continue;
      if (x >= p->x0 && x < p->x1)
        exact = p;
      else if (x >= floor (p->x0) && x < MAX (p->x1, floor (p->x0) + 1))
        near = p;
    }
  return exact ? exact : near;
}

guint8 *
sl_flame_view_match (const SlFlameLayout *layout, const SlHighlight *highlight)
{
  guint8 *matched = g_new0 (guint8, MAX (layout->n_nodes, 1));
  guint n = sl_highlight_get_n (highlight);

  for (guint i = 0; i < n; i++)
    {
      guint32 id = sl_flame_layout_find_event (layout, sl_highlight_get (highlight, i));

      for (; id != SL_NONE && !matched[id]; id = layout->nodes[id].parent)
        matched[id] = 1;
    }
  return matched;
}
