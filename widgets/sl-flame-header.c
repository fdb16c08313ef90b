/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-flame-header.c: the flame stack's header bar: mode switch, process,
 * breadcrumb back from zooms, "Show in timeline", status. */
#include "sl-flame-private.h"
#include "sl-accessible-name.h"

#include <glib/gi18n.h>

#include "sl-locale-format.h"

static void
mode_toggled_cb (GtkToggleButton *button, SlFlame *self)
{
  if (gtk_toggle_button_get_active (button))
    sl_flame_set_mode (self, button == GTK_TOGGLE_BUTTON (self->stack_button)
                             ? SL_FLAME_MODE_STACK : SL_FLAME_MODE_GRAPH);
}

static void
process_selected_cb (SlFlame *self)
{
  guint i = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->process_dropdown));
  SlProfile *profile = self->session ? sl_session_get_profile (self->session) : NULL;
  guint32 pid = SL_NONE;

  if (profile != NULL && i != GTK_INVALID_LIST_POSITION && i >= 1 && i - 1 < profile->n_processes)
    pid = profile->processes[i - 1].pid;
  if (pid == self->pid)
    return;
  self->pid = pid;
  _sl_flame_queue_rebuild (self);
}

static GtkWidget *
mode_button (SlFlame *self, const char *label, const char *tooltip, GtkWidget *group)
{
  GtkWidget *button = gtk_toggle_button_new_with_label (label);

  gtk_widget_set_tooltip_text (button, tooltip);
  if (group != NULL)
    gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), GTK_TOGGLE_BUTTON (group));
  g_signal_connect (button, "toggled", G_CALLBACK (mode_toggled_cb), self);
  return button;
}

void
_sl_flame_header_init (SlFlame *self)
{
  GtkWidget *modes = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *crumbs_scroll;

  self->header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_add_css_class (self->header, "toolbar");
  gtk_widget_add_css_class (modes, "linked");
  self->stack_button = mode_button (self, _("Stack"), _("NVTX ranges and their kernels in time order, on the timeline's axis"), NULL);
  self->graph_button = mode_button (self, _("Flame"), _("Identical NVTX paths merged; widths are GPU time"), self->stack_button);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->stack_button), TRUE);
  gtk_box_append (GTK_BOX (modes), self->stack_button);
  gtk_box_append (GTK_BOX (modes), self->graph_button);
  gtk_box_append (GTK_BOX (self->header), modes);

  self->process_names = gtk_string_list_new (NULL);
  self->process_dropdown = gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->process_names)), NULL);
  sl_accessible_name_set (self->process_dropdown, _("Process"));
  g_signal_connect_swapped (self->process_dropdown, "notify::selected", G_CALLBACK (process_selected_cb), self);
  gtk_box_append (GTK_BOX (self->header), self->process_dropdown);

  /* a long breadcrumb scrolls rather than widening the window */
  crumbs_scroll = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (crumbs_scroll), GTK_POLICY_EXTERNAL, GTK_POLICY_NEVER);
  gtk_widget_set_hexpand (crumbs_scroll, TRUE);
  self->crumbs = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (crumbs_scroll), self->crumbs);
  gtk_box_append (GTK_BOX (self->header), crumbs_scroll);

  self->status = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->status), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_box_append (GTK_BOX (self->header), self->status);
  self->show_button = gtk_button_new_with_label (_("Show in Timeline"));
  gtk_widget_set_tooltip_text (self->show_button, _("Select the clicked node's instances in the timeline (F3 steps through them)"));
  g_signal_connect_swapped (self->show_button, "clicked", G_CALLBACK (_sl_flame_show_in_timeline), self);
  gtk_box_append (GTK_BOX (self->header), self->show_button);
  gtk_widget_set_parent (self->header, GTK_WIDGET (self));
}

/* The process list of the session's profile. */
void
_sl_flame_header_set_model (SlFlame *self)
{
  SlProfile *profile = self->session ? sl_session_get_profile (self->session) : NULL;
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->process_names));
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint32 pid = self->pid;

  g_ptr_array_add (names, g_strdup (_("All processes")));
  for (guint i = 0; profile != NULL && i < profile->n_processes; i++)
    g_ptr_array_add (names, g_strdup_printf (_("PID %u: %s"), profile->processes[i].pid,
                                             sl_profile_process_name (profile, i)));
  g_ptr_array_add (names, NULL);
  g_signal_handlers_block_by_func (self->process_dropdown, process_selected_cb, self);
  gtk_string_list_splice (self->process_names, 0, n_old, (const char * const *) names->pdata);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->process_dropdown), 0);
  for (guint i = 0; profile != NULL && pid != SL_NONE && i < profile->n_processes; i++)
    if (profile->processes[i].pid == pid)
      gtk_drop_down_set_selected (GTK_DROP_DOWN (self->process_dropdown), i + 1);
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->process_dropdown)) == 0)
    self->pid = SL_NONE;
  g_signal_handlers_unblock_by_func (self->process_dropdown, process_selected_cb, self);
}

GPtrArray *
_sl_flame_crumb_names (SlFlame *self)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const SlFlameLayout *l = self->layout;

  g_ptr_array_add (names, g_strdup (_("All GPU work")));
  if (self->mode == SL_FLAME_MODE_STACK)
    for (guint i = 0; i < self->stack_names->len; i++)
      g_ptr_array_add (names, g_strdup (self->stack_names->pdata[i]));
  else if (l != NULL && self->zoom != 0 && self->zoom < l->n_nodes)
    {
      guint at = names->len;
      for (guint32 id = self->zoom; id != 0; id = l->nodes[id].parent)
        g_ptr_array_insert (names, at, g_strdup (l->nodes[id].name));
    }
  return names;
}

static void
crumb_clicked_cb (GtkButton *button, SlFlame *self)
{
  guint level = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "level"));

  if (self->mode == SL_FLAME_MODE_GRAPH && self->layout != NULL)
    {
      while (self->zoom != 0 && self->layout->nodes[self->zoom].depth > level)
        self->zoom = self->layout->nodes[self->zoom].parent;
      self->first_row = 0;
    }
  else if (self->mode == SL_FLAME_MODE_STACK && level < self->stack_crumbs->len)
    {
      SlTimeRange back = g_array_index (self->stack_crumbs, SlTimeRange, level);
      g_array_set_size (self->stack_crumbs, level);
      g_ptr_array_set_size (self->stack_names, level);
      if (self->session != NULL)
        sl_session_navigate_to (self->session, &back);
    }
  _sl_flame_changed (self);
}

static void
sync_crumbs (SlFlame *self)
{
  g_autoptr(GPtrArray) names = _sl_flame_crumb_names (self);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->crumbs)) != NULL)
    gtk_box_remove (GTK_BOX (self->crumbs), child);
  for (guint i = 0; i < names->len; i++)
    {
      GtkWidget *button = gtk_button_new_with_label (names->pdata[i]);
      GtkWidget *label = gtk_button_get_child (GTK_BUTTON (button));

      if (i > 0)
        gtk_box_append (GTK_BOX (self->crumbs), gtk_label_new ("›"));
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_set_sensitive (button, i + 1 < names->len);
      g_object_set_data (G_OBJECT (button), "level", GUINT_TO_POINTER (i));
      g_signal_connect (button, "clicked", G_CALLBACK (crumb_clicked_cb), self);
      gtk_box_append (GTK_BOX (self->crumbs), button);
    }
}

void
_sl_flame_header_sync (SlFlame *self)
{
  g_autofree char *status = NULL;

  g_signal_handlers_block_by_func (self->stack_button, mode_toggled_cb, self);
  g_signal_handlers_block_by_func (self->graph_button, mode_toggled_cb, self);
  /* only ever activate: the group deactivates the other one */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->mode == SL_FLAME_MODE_STACK ? self->stack_button
                                                                                   : self->graph_button), TRUE);
  g_signal_handlers_unblock_by_func (self->stack_button, mode_toggled_cb, self);
  g_signal_handlers_unblock_by_func (self->graph_button, mode_toggled_cb, self);
  sync_crumbs (self);
  gtk_widget_set_sensitive (self->show_button, self->selected_events->len > 0);
  if (self->session == NULL)
    status = g_strdup ("");
  else if (self->layout == NULL)
    status = g_strdup (_("Computing…"));
  else if (self->layout->n_kernels == 0)
    status = g_strdup (_("No kernels in scope"));
  else
    {
      g_autofree char *count = sl_locale_count ((gint64) self->layout->n_kernels);
      status = g_strdup_printf (ngettext ("%s kernel", "%s kernels", (gulong) MIN (self->layout->n_kernels, G_MAXULONG)),
                                count);
    }
  gtk_label_set_text (GTK_LABEL (self->status), status);
}
