/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-legend.c: one swatch and name per palette entry in use. */
#include "sl-timeline-legend.h"

#include "sl-timeline-colors.h"
#include "sl-timeline-samples.h"

#include <glib/gi18n-lib.h>

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

/* The thread states of the CPU samples, in their tick colours. */
static void
append_states (SlTimelineLegend *self, const SlCpuActivity *cpu)
{
  gboolean seen[SL_THREAD_STATE_COUNT] = { FALSE };

  for (guint t = 0; t < cpu->n_threads; t++)
    for (guint i = 0; i < cpu->threads[t].samples.n; i++)
      seen[MIN (cpu->threads[t].samples.state[i], SL_THREAD_STATE_COUNT - 1)] = TRUE;
  for (guint s = 0; s < SL_THREAD_STATE_COUNT; s++)
    if (seen[s])
      {
        /* Translators: the legend's entry of CPU samples in one thread state, "CPU: Running" */
        g_autofree char *text = g_strdup_printf (_("CPU: %s"), sl_thread_state_name (s));
        g_autofree char *markup = g_markup_printf_escaped ("<span foreground=\"#%06x\">■</span> %s",
                                                           sl_timeline_sample_state_rgb (s), text);
        GtkWidget *label = gtk_label_new (NULL);

        gtk_label_set_markup (GTK_LABEL (label), markup);
        gtk_widget_add_css_class (label, "caption");
        gtk_flow_box_append (GTK_FLOW_BOX (self->flow), label);
      }
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
  if (model->cpu != NULL)
    append_states (self, model->cpu);
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
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sl_timeline_legend_init (SlTimelineLegend *self)
{
  self->flow = gtk_flow_box_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Kernel categories"), -1);
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (self->flow), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (self->flow), 20);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (self->flow), 12);
  gtk_widget_set_parent (self->flow, GTK_WIDGET (self));
}
