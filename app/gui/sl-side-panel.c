/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-side-panel.c: the side panel's pages under a switcher. */
#include "sl-side-panel.h"
#include "sl-bookmarks-page.h"
#include "sl-search-page.h"
#include "sl-summary-page.h"
#include "sl-tree-page.h"
#include "sl-ui-state.h"

#include <glib/gi18n.h>

#define PAGE_KEY "side-panel-page"

struct _SlSidePanel {
  GtkWidget  parent_instance;

  GtkWidget *box;
  GtkWidget *stack;
  SlSession *session;
};

G_DEFINE_FINAL_TYPE (SlSidePanel, sl_side_panel, GTK_TYPE_WIDGET)

typedef GtkWidget *(*PageNew) (void);

static const struct {
  const char *name;
  const char *title;
  PageNew     create;
} pages[] = {
  { "tree", N_("NVTX"), sl_tree_page_new },
  { "search", N_("Search"), sl_search_page_new },
  { "summary", N_("Summary"), sl_summary_page_new },
  { "bookmarks", N_("Bookmarks"), sl_bookmarks_page_new },
};

void
sl_side_panel_set_session (SlSidePanel *self, SlSession *session)
{
  g_return_if_fail (SL_IS_SIDE_PANEL (self));

  if (!g_set_object (&self->session, session))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    g_object_set (gtk_stack_get_child_by_name (GTK_STACK (self->stack), pages[i].name),
                  "session", session, NULL);
}

const char *
sl_side_panel_get_page (SlSidePanel *self)
{
  g_return_val_if_fail (SL_IS_SIDE_PANEL (self), NULL);
  return gtk_stack_get_visible_child_name (GTK_STACK (self->stack));
}

GtkWidget *
sl_side_panel_get_page_widget (SlSidePanel *self, const char *name)
{
  g_return_val_if_fail (SL_IS_SIDE_PANEL (self), NULL);
  return gtk_stack_get_child_by_name (GTK_STACK (self->stack), name);
}

void
sl_side_panel_present_page (SlSidePanel *self, const char *name)
{
  GtkWidget *page;

  g_return_if_fail (SL_IS_SIDE_PANEL (self));
  page = gtk_stack_get_child_by_name (GTK_STACK (self->stack), name);
  g_return_if_fail (page != NULL);
  gtk_stack_set_visible_child (GTK_STACK (self->stack), page);
  gtk_widget_child_focus (page, GTK_DIR_TAB_FORWARD);
}

static void
page_changed_cb (SlSidePanel *self)
{
  const char *name = gtk_stack_get_visible_child_name (GTK_STACK (self->stack));

  if (name != NULL)
    sl_ui_state_set_string (PAGE_KEY, name);
}

static void
add_pages (SlSidePanel *self)
{
  g_autofree char *remembered = sl_ui_state_get_string (PAGE_KEY, pages[0].name);

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    gtk_stack_add_titled (GTK_STACK (self->stack), pages[i].create (), pages[i].name, _(pages[i].title));
  if (gtk_stack_get_child_by_name (GTK_STACK (self->stack), remembered) != NULL)
    gtk_stack_set_visible_child_name (GTK_STACK (self->stack), remembered);
  g_signal_connect_swapped (self->stack, "notify::visible-child", G_CALLBACK (page_changed_cb), self);
}

static void
sl_side_panel_dispose (GObject *object)
{
  SlSidePanel *self = SL_SIDE_PANEL (object);

  g_clear_object (&self->session);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (sl_side_panel_parent_class)->dispose (object);
}

static void
sl_side_panel_class_init (SlSidePanelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = sl_side_panel_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sidepanel");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

/* Adwaita gives a switcher's tab 100 px at least: four tabs would hold a
 * narrow window's panel wider than the timeline can spare. */
static void
add_tab_style (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      GtkCssProvider *css = gtk_css_provider_new ();

      gtk_css_provider_load_from_data (css, "sidepanel stackswitcher > button { min-width: 0; "
                                            "padding-left: 10px; padding-right: 10px; }", -1);
      gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
      g_object_unref (css);
      g_once_init_leave (&done, 1);
    }
}

static void
sl_side_panel_init (SlSidePanel *self)
{
  GtkWidget *switcher = gtk_stack_switcher_new ();

  add_tab_style ();
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (self->stack));
  gtk_widget_set_margin_top (switcher, 6);
  gtk_widget_set_margin_bottom (switcher, 6);
  gtk_widget_set_halign (switcher, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (self->box), switcher);
  gtk_box_append (GTK_BOX (self->box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (self->box), self->stack);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Side panel"), -1);
  add_pages (self);
}

GtkWidget *
sl_side_panel_new (void)
{
  return g_object_new (SL_TYPE_SIDE_PANEL, NULL);
}
