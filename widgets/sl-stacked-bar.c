/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-stacked-bar.c: a cairo bar of proportional parts over a legend. */
#include "sl-stacked-bar.h"
#include "sl-locale-format.h"

#include <math.h>

#include <glib/gi18n.h>

struct _SlStackedBar {
  GtkWidget  parent_instance;

  GtkWidget *area;
  GtkWidget *legend;
  GArray    *parts;        /* SlStackedPart; labels not kept (the legend has them) */
  double     full;         /* the value the whole width stands for; 0: the parts' sum */
};

G_DEFINE_FINAL_TYPE (SlStackedBar, sl_stacked_bar, GTK_TYPE_WIDGET)

static void
set_rgb (cairo_t *cr, guint32 rgb)
{
  cairo_set_source_rgb (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0);
}

static void
draw_bar (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  SlStackedBar *self = data;
  double total = 0, x = 0;

  for (guint i = 0; i < self->parts->len; i++)
    total += g_array_index (self->parts, SlStackedPart, i).value;
  if (total <= 0)
    return;
  /* bars of several profiles side by side share one scale (see set_full) */
  if (self->full >= total)
    total = self->full;
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  for (guint i = 0; i < self->parts->len; i++)
    {
      const SlStackedPart *p = &g_array_index (self->parts, SlStackedPart, i);
      double w = p->value / total * width;
      /* integer-snapped edges, so neighbours neither overlap nor leave seams */
      double x0 = round (x), x1 = round (x + w);

      set_rgb (cr, p->rgb);
      cairo_rectangle (cr, x0, 0, x1 - x0, height);
      cairo_fill (cr);
      x += w;
    }
}

static GtkWidget *
legend_item (const SlStackedPart *p, double share)
{
  g_autofree char *pct = sl_locale_adopt (g_strdup_printf ("%.1f", share * 100.0));
  g_autofree char *markup = g_markup_printf_escaped ("<span foreground=\"#%06x\">■</span> %s %s %%",
                                                     p->rgb, p->label, pct);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "caption");
  return label;
}

void
sl_stacked_bar_set_parts (SlStackedBar *self, const SlStackedPart *parts, guint n_parts)
{
  GtkWidget *child;
  double total = 0;

  g_return_if_fail (SL_IS_STACKED_BAR (self));
  g_array_set_size (self->parts, 0);
  while ((child = gtk_widget_get_first_child (self->legend)))
    gtk_flow_box_remove (GTK_FLOW_BOX (self->legend), child);
  for (guint i = 0; i < n_parts; i++)
    if (parts[i].value > 0)
      {
        SlStackedPart p = parts[i];
        p.label = NULL;
        g_array_append_val (self->parts, p);
        total += p.value;
      }
  for (guint i = 0; i < n_parts; i++)
    if (parts[i].value > 0)
      gtk_flow_box_append (GTK_FLOW_BOX (self->legend), legend_item (&parts[i], parts[i].value / total));
  gtk_widget_queue_draw (self->area);
}

void
sl_stacked_bar_set_full (SlStackedBar *self, double full)
{
  g_return_if_fail (SL_IS_STACKED_BAR (self));
  self->full = full;
  gtk_widget_queue_draw (self->area);
}

static void
sl_stacked_bar_dispose (GObject *object)
{
  SlStackedBar *self = SL_STACKED_BAR (object);

  g_clear_pointer (&self->area, gtk_widget_unparent);
  g_clear_pointer (&self->legend, gtk_widget_unparent);
  g_clear_pointer (&self->parts, g_array_unref);
  G_OBJECT_CLASS (sl_stacked_bar_parent_class)->dispose (object);
}

static void
sl_stacked_bar_class_init (SlStackedBarClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sl_stacked_bar_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sl_stacked_bar_init (SlStackedBar *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 4);
  self->parts = g_array_new (FALSE, FALSE, sizeof (SlStackedPart));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Time breakdown"), -1);
  self->area = gtk_drawing_area_new ();
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->area), 18);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw_bar, self, NULL);
  gtk_widget_set_parent (self->area, GTK_WIDGET (self));
  self->legend = gtk_flow_box_new ();
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (self->legend), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (self->legend), 3);
  gtk_widget_set_parent (self->legend, GTK_WIDGET (self));
}

GtkWidget *
sl_stacked_bar_new (void)
{
  return g_object_new (SL_TYPE_STACKED_BAR, NULL);
}
