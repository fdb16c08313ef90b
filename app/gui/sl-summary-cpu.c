/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-summary-cpu.c: the CPU samples of the summary's scope and of its gaps. */
#include "sl-summary-cpu.h"
#include "sl-tooltip.h"
#include "sl-locale-format.h"
#include "sl-cpu-stacks.h"

#include <inttypes.h>
#include <glib/gi18n.h>

#define TOP_FUNCTIONS 10
#define TOP_STACKS    5
#define STACK_FRAMES  8    /* frames shown of a gap's stack, leaf first */

struct _SlSummaryCpu {
  SlCpuActivity *cpu;
  GArray        *functions;   /* SlCpuFunction */
  guint64        samples;
};

SlSummaryCpu *
sl_summary_cpu_compute (SlCpuActivity *cpu,
                        gint64         start,
                        gint64         end)
{
  SlSummaryCpu *self;

  if (cpu == NULL || cpu->n_samples == 0)
    return NULL;
  self = g_new0 (SlSummaryCpu, 1);
  self->cpu = sl_cpu_activity_ref (cpu);
  self->functions = sl_cpu_top_functions (cpu, start, end, NULL, 0, TOP_FUNCTIONS);
  self->samples = sl_cpu_count_samples (cpu, start, end, NULL, 0);
  return self;
}

void
sl_summary_cpu_free (SlSummaryCpu *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->functions);
  sl_cpu_activity_unref (self->cpu);
  g_free (self);
}

static GtkWidget *
text_cell (const char *text, gboolean numeric)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0 : 0.0);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  else
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_set_hexpand (label, TRUE);
      sl_tooltip_set_text (label, text);
    }
  return label;
}

/* "123 (4.5 %)" */
static GtkWidget *
count_cell (guint64 n, guint64 of)
{
  g_autofree char *text = sl_locale_adopt (g_strdup_printf ("%" G_GUINT64_FORMAT " (%.1f %%)", n,
                                                            of ? 100.0 * n / of : 0.0));

  return text_cell (text, TRUE);
}

static void
add_heading (GtkBox *box, const char *text, gboolean dim)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, dim ? "dim-label" : "heading");
  if (!dim)
    gtk_widget_set_margin_top (label, 10);
  gtk_box_append (box, label);
}

void
sl_summary_cpu_fill (GtkBox             *box,
                     const SlSummaryCpu *self)
{
  static const char *const titles[] = { N_("Function"), N_("Self"), N_("Total") };
  g_autofree char *count = NULL;
  GtkWidget *grid;

  g_return_if_fail (GTK_IS_BOX (box));
  if (self == NULL)
    return;
  add_heading (box, _("CPU samples"), FALSE);
  count = g_strdup_printf (ngettext ("%" PRIu64 " sample in this range; self: the function was running, total: it was on the stack",
                                     "%" PRIu64 " samples in this range; self: the function was running, total: it was on the stack",
                                     (gulong) MIN (self->samples, G_MAXULONG)), self->samples);
  add_heading (box, count, TRUE);
  if (self->functions->len == 0)
    return;
  grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 10);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    {
      GtkWidget *label = text_cell (_(titles[i]), i > 0);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_grid_attach (GTK_GRID (grid), label, i, 0, 1, 1);
    }
  for (guint i = 0; i < self->functions->len; i++)
    {
      const SlCpuFunction *f = &g_array_index (self->functions, SlCpuFunction, i);

      gtk_grid_attach (GTK_GRID (grid), text_cell (sl_cpu_activity_name (self->cpu, f->symbol), FALSE), 0, i + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), count_cell (f->self, self->samples), 1, i + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), count_cell (f->total, self->samples), 2, i + 1, 1, 1);
    }
  gtk_box_append (box, grid);
}

JsonNode *
sl_summary_cpu_to_json (const SlSummaryCpu *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_int (b, "samples", (gint64) self->samples);
  json_builder_set_member_name (b, "functions");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->functions->len; i++)
    {
      const SlCpuFunction *f = &g_array_index (self->functions, SlCpuFunction, i);

      json_builder_begin_object (b);
      sl_json_member_string (b, "name", sl_cpu_activity_name (self->cpu, f->symbol));
      sl_json_member_int (b, "self", (gint64) f->self);
      sl_json_member_int (b, "total", (gint64) f->total);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* What a gap's expander lists when it is opened. */
typedef struct {
  SlCpuActivity *cpu;
  GArray        *pids;       /* guint32 */
  gint64         start, end;
} GapQuery;

static void
gap_query_free (gpointer data)
{
  GapQuery *q = data;

  sl_cpu_activity_unref (q->cpu);
  g_array_unref (q->pids);
  g_free (q);
}

/* "12 samples" then the stack's frames, leaf first. */
static GtkWidget *
stack_label (const SlCpuActivity *cpu, const SlCpuStackCount *sc)
{
  GString *text = g_string_new (NULL);
  guint n = 0, first = sl_cpu_activity_stack_frames (cpu, sc->stack, &n);
  GtkWidget *label;

  g_string_append_printf (text, ngettext ("%" PRIu64 " sample", "%" PRIu64 " samples",
                                          (gulong) MIN (sc->samples, G_MAXULONG)), sc->samples);
  for (guint k = 0; k < MIN (n, STACK_FRAMES); k++)
    g_string_append_printf (text, "\n  %s", sl_cpu_activity_name (cpu, cpu->frame_symbol[first + k]));
  if (n > STACK_FRAMES)
    g_string_append (text, "\n  …");
  label = gtk_label_new (text->str);
  g_string_free (text, TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  return label;
}

/* Counted when first opened: a gap is short, its samples few. */
static void
gap_expanded_cb (GtkExpander *expander, GParamSpec *pspec, gpointer data)
{
  GapQuery *q = data;
  g_autoptr(GArray) stacks = NULL;
  GtkWidget *box;
  guint64 n;

  if (!gtk_expander_get_expanded (expander) || gtk_expander_get_child (expander) != NULL)
    return;
  n = sl_cpu_count_samples (q->cpu, q->start, q->end, (const guint32 *) (void *) q->pids->data, q->pids->len);
  stacks = sl_cpu_top_stacks (q->cpu, q->start, q->end, (const guint32 *) (void *) q->pids->data, q->pids->len,
                              TOP_STACKS);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_margin_start (box, 12);
  if (n == 0)
    add_heading (GTK_BOX (box), _("No CPU samples in the GPU's processes during this gap."), TRUE);
  for (guint i = 0; i < stacks->len; i++)
    gtk_box_append (GTK_BOX (box), stack_label (q->cpu, &g_array_index (stacks, SlCpuStackCount, i)));
  gtk_expander_set_child (expander, box);
}

GtkWidget *
sl_summary_cpu_gap_expander (SlSession *session,
                             guint32    device,
                             gint64     start,
                             gint64     end)
{
  SlTimelineModel *model = sl_session_get_model (session);
  GtkWidget *expander;
  GapQuery *q;

  if (model == NULL || model->cpu == NULL || model->cpu->n_samples == 0)
    return NULL;
  q = g_new0 (GapQuery, 1);
  q->cpu = sl_cpu_activity_ref (model->cpu);
  q->pids = sl_cpu_gpu_pids (model->profile, device);
  q->start = start;
  q->end = end;
  expander = gtk_expander_new (_("CPU stacks during this GPU gap"));
  gtk_widget_add_css_class (expander, "summary-gap-stacks");
  g_object_set_data_full (G_OBJECT (expander), "sl-gap-query", q, gap_query_free);
  g_signal_connect (expander, "notify::expanded", G_CALLBACK (gap_expanded_cb), q);
  return expander;
}
