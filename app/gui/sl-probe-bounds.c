/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-probe-bounds.c: see sl-probe-bounds.h. */
#include "sl-probe-bounds.h"

void
sl_probe_add_bounds (JsonBuilder *b, const char *name, GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  graphene_rect_t r;
  double sx = 0, sy = 0;

  json_builder_set_member_name (b, name);
  if (root == NULL || !gtk_widget_compute_bounds (widget, GTK_WIDGET (root), &r))
    {
      json_builder_add_null_value (b);
      return;
    }
  gtk_native_get_surface_transform (GTK_NATIVE (root), &sx, &sy);
  json_builder_begin_array (b);
  json_builder_add_double_value (b, r.origin.x + sx);
  json_builder_add_double_value (b, r.origin.y + sy);
  json_builder_add_double_value (b, r.size.width);
  json_builder_add_double_value (b, r.size.height);
  json_builder_end_array (b);
}
