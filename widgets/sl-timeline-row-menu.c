/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-row-menu.c: a row label's context menu, built when opened:
 * its hidden rows change as the user works. */
#include "sl-timeline-row-menu.h"
#include "sl-timeline-rows.h"

#include <glib/gi18n-lib.h>

/* One item per hidden row, by its title when this model has it. */
static GMenuModel *
hidden_rows_menu (const SlTimelineLayout *l)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GPtrArray) keys = sl_row_layout_get_hidden_keys (sl_timeline_layout_get_row_layout (l));

  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = keys->pdata[i];
      guint r = sl_timeline_layout_find_key (l, key);
      g_autofree char *title = r != SL_NONE ? sl_timeline_row_title (l->model, r) : g_strdup (key);
      g_autoptr(GMenuItem) item = g_menu_item_new (title, NULL);

      g_menu_item_set_action_and_target_value (item, "timeline.show-row", g_variant_new_string (key));
      g_menu_append_item (menu, item);
    }
  return G_MENU_MODEL (menu);
}

GMenuModel *
sl_timeline_row_menu_new (const SlTimelineLayout *l,
                          guint                   row)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) rows = g_menu_new ();
  g_autoptr(GMenu) all = g_menu_new ();
  g_autoptr(GMenuModel) hidden = hidden_rows_menu (l);

  if (row != SL_NONE)
    {
      g_menu_append (rows, _("Hide Row"), "timeline.hide-row");
      g_menu_append (rows, sl_timeline_layout_row_pinned (l, row) ? _("Unpin") : _("Pin to Top"),
                     "timeline.pin-row");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (rows));
    }
  if (g_menu_model_get_n_items (hidden) > 0)
    g_menu_append_submenu (all, _("Show Hidden Rows"), hidden);
  g_menu_append (all, _("Show All Rows"), "timeline.show-all-rows");
  g_menu_append (all, _("Reset Row Layout"), "timeline.reset-row-layout");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (all));
  return G_MENU_MODEL (menu);
}
