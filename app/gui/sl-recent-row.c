/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-recent-row.c: a recent profile's name and where it is. */
#include "sl-recent-row.h"

struct _SlRecentRow {
  GtkListBoxRow parent_instance;

  GtkLabel     *name_label;
  GtkLabel     *location_label;
  char         *uri;
};

G_DEFINE_FINAL_TYPE (SlRecentRow, sl_recent_row, GTK_TYPE_LIST_BOX_ROW)

GtkWidget *
sl_recent_row_new (GtkRecentInfo *info)
{
  SlRecentRow *self = g_object_new (SL_TYPE_RECENT_ROW, NULL);
  g_autofree char *location = gtk_recent_info_get_uri_display (info);

  self->uri = g_strdup (gtk_recent_info_get_uri (info));
  gtk_label_set_text (self->name_label, gtk_recent_info_get_display_name (info));
  gtk_label_set_text (self->location_label, location);
  return GTK_WIDGET (self);
}

const char *
sl_recent_row_get_uri (SlRecentRow *self)
{
  g_return_val_if_fail (SL_IS_RECENT_ROW (self), NULL);
  return self->uri;
}

static void
sl_recent_row_finalize (GObject *object)
{
  g_free (SL_RECENT_ROW (object)->uri);
  G_OBJECT_CLASS (sl_recent_row_parent_class)->finalize (object);
}

static void
sl_recent_row_class_init (SlRecentRowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = sl_recent_row_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sightline/Sightline/sl-recent-row.ui");
  gtk_widget_class_bind_template_child (widget_class, SlRecentRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, SlRecentRow, location_label);
}

static void
sl_recent_row_init (SlRecentRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
