/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-details-pane.c: the side pane with the selected event's fields. */
#include "sl-details-pane.h"
#include "sl-event-info.h"
#include "sl-timeline-layout.h"

#include <glib/gi18n.h>

struct _SlDetailsPane {
  GtkBox     parent_instance;
  GtkWidget *range_label;
  GtkWidget *placeholder;
  GtkWidget *grid;
};

G_DEFINE_FINAL_TYPE (SlDetailsPane, sl_details_pane, GTK_TYPE_BOX)

static void
sl_details_pane_class_init (SlDetailsPaneClass *klass)
{
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "detailspane");
}

static void
sl_details_pane_init (SlDetailsPane *self)
{
  GtkWidget *heading;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 8);
  gtk_widget_set_margin_start (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self), 12);

  heading = gtk_label_new (_("Details"));
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  gtk_box_append (GTK_BOX (self), heading);

  self->range_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->range_label), 0);
  gtk_label_set_wrap (GTK_LABEL (self->range_label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (self->range_label), TRUE);
  gtk_widget_set_visible (self->range_label, FALSE);
  gtk_box_append (GTK_BOX (self), self->range_label);

  self->placeholder = gtk_label_new (_("Click an event on the timeline to see everything about it here. "
                                       "Shift+drag or drag on the ruler to measure a time range."));
  gtk_label_set_wrap (GTK_LABEL (self->placeholder), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->placeholder), 0);
  gtk_widget_add_css_class (self->placeholder, "dim-label");
  gtk_box_append (GTK_BOX (self), self->placeholder);

  self->grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (self->grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (self->grid), 12);
  gtk_box_append (GTK_BOX (self), self->grid);
}

GtkWidget *
sl_details_pane_new (void)
{
  return g_object_new (SL_TYPE_DETAILS_PANE, NULL);
}

void
sl_details_pane_show (SlDetailsPane    *self,
                      SlTimelineModel  *model,
                      const SlEventRef *event)
{
  g_autoptr(GPtrArray) fields = NULL;
  GtkWidget *child;

  g_return_if_fail (SL_IS_DETAILS_PANE (self));

  while ((child = gtk_widget_get_first_child (self->grid)))
    gtk_grid_remove (GTK_GRID (self->grid), child);

  if (model == NULL || event == NULL || event->kind == SL_EVENT_NONE)
    {
      gtk_widget_set_visible (self->placeholder, TRUE);
      return;
    }
  gtk_widget_set_visible (self->placeholder, FALSE);
  fields = sl_event_info_fields (model, event, NULL);
  for (guint i = 0; i < fields->len; i++)
    {
      const SlEventField *f = g_ptr_array_index (fields, i);
      GtkWidget *label = gtk_label_new (f->label);
      GtkWidget *value = gtk_label_new (f->value);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_yalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_label_set_xalign (GTK_LABEL (value), 0);
      gtk_label_set_wrap (GTK_LABEL (value), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (value), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (value), 40);
      gtk_widget_set_hexpand (value, TRUE);
      if (i == 0)
        gtk_widget_add_css_class (value, "heading");
      gtk_grid_attach (GTK_GRID (self->grid), label, 0, i, 1, 1);
      gtk_grid_attach (GTK_GRID (self->grid), value, 1, i, 1, 1);
    }
}

void
sl_details_pane_set_range (SlDetailsPane   *self,
                           SlTimelineModel *model,
                           gboolean         has_range,
                           gint64           start,
                           gint64           end)
{
  g_autofree char *dur = NULL, *from = NULL, *text = NULL;

  g_return_if_fail (SL_IS_DETAILS_PANE (self));
  if (model == NULL || !has_range)
    {
      gtk_widget_set_visible (self->range_label, FALSE);
      return;
    }
  dur = sl_format_duration (end - start);
  from = sl_format_timestamp (start - model->profile->start_ns);
  /* Translators: a measured time range: its length, then where it starts */
  text = g_strdup_printf (_("Selected range: %s from %s (Z zooms to it)"), dur, from);
  gtk_label_set_text (GTK_LABEL (self->range_label), text);
  gtk_widget_set_visible (self->range_label, TRUE);
}
