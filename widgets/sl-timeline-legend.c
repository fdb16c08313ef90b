/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-legend.c: one swatch and name per palette entry in use. */
#include "sl-timeline-legend.h"
#include "sl-timeline-colors.h"

struct _SlTimelineLegend {
  GtkWidget  parent_instance;
  GtkWidget *flow;
};

G_DEFINE_FINAL_TYPE (SlTimelineLegend, sl_timeline_legend, GTK_TYPE_WIDGET)

/* Marks the palette entries that @model draws: the distinct functions' and
 * API names' colours, and the copies' (a sample of 10 000 per stream tells
 * their directions). */
static void
colors_in_use (const SlTimelineModel *model, gboolean used[256])
{
  const SlProfile *p = model->profile;

  for (guint s = 0; s < p->n_streams; s++)
    {
      const SlStream *st = &p->streams[s];
      for (guint i = 0; i < st->memcpy.spans.n && i < 10000; i++)
        used[sl_timeline_colors_for_memcpy (st->memcpy.kind[i])] = TRUE;
      if (st->memset.spans.n)
        used[SL_COLOR_MEMSET] = TRUE;
    }
  for (guint f = 0; f < p->n_funcs; f++)
    used[model->func_color[f]] = TRUE;
  if (p->api.spans.n)
    for (guint n = 0; n < model->n_api_color; n++)
      if (model->api_color[n])
        used[model->api_color[n]] = TRUE;
}

static GtkWidget *
swatch_label (guint8 color)
{
  g_autofree char *markup = g_markup_printf_escaped ("<span foreground=\"#%06x\">■</span> %s",
                                                     sl_timeline_color_rgb (color),
                                                     sl_timeline_color_label (color));
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_widget_add_css_class (label, "caption");
  return label;
}

void
sl_timeline_legend_set_model (SlTimelineLegend *self,
                              SlTimelineModel  *model)
{
  gboolean used[256] = { FALSE };
  GtkWidget *child;

  g_return_if_fail (SL_IS_TIMELINE_LEGEND (self));

  while ((child = gtk_widget_get_first_child (self->flow)))
    gtk_flow_box_remove (GTK_FLOW_BOX (self->flow), child);
  if (model == NULL)
    return;
  colors_in_use (model, used);
  /* NVTX hues and colours are the user's own: not in the legend */
  for (guint c = 1; c < SL_COLOR_HASHED_FIRST; c++)
    if (used[c])
      gtk_flow_box_append (GTK_FLOW_BOX (self->flow), swatch_label (c));
}

GtkWidget *
sl_timeline_legend_new (void)
{
  return g_object_new (SL_TYPE_TIMELINE_LEGEND, NULL);
}

static void
sl_timeline_legend_dispose (GObject *object)
{
  g_clear_pointer (&SL_TIMELINE_LEGEND (object)->flow, gtk_widget_unparent);
  G_OBJECT_CLASS (sl_timeline_legend_parent_class)->dispose (object);
}

static void
sl_timeline_legend_class_init (SlTimelineLegendClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sl_timeline_legend_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "timelinelegend");
}

static void
sl_timeline_legend_init (SlTimelineLegend *self)
{
  self->flow = gtk_flow_box_new ();
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (self->flow), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (self->flow), 20);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (self->flow), 12);
  gtk_widget_set_parent (self->flow, GTK_WIDGET (self));
}
