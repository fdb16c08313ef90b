/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-details-pane.c: the side pane with the selected event's fields.
 *
 * A kernel's launch configuration lives in the file, not in the model: the
 * pane shows the other fields at once and adds those when a worker has read
 * them, so a click never waits for the disk. */
#include "sl-details-pane.h"
#include "sl-locale-format.h"
#include "sl-event-info.h"
#include "sl-kernel-details.h"
#include "sl-int.h"
#include "sl-text-breaks.h"
#include "sl-timeline-ruler.h"

#include <glib/gi18n.h>
#include <string.h>

struct _SlDetailsPane {
  GtkBox        parent_instance;

  GtkWidget    *range_label;
  GtkWidget    *placeholder;
  GtkWidget    *grid;

  SlSession    *session;
  GCancellable *details_cancellable;
  /* the launch configuration read last, and of which kernel: a new model of
   * the same session (a staged load's next stage) keeps the file, so the
   * same kernel shows it again without "reading…" rows replacing the link
   * rows under the pointer */
  SlEventRef       read_event;
  SlKernelDetails *read_details;
  gint64        wall_utc_ns, wall_origin_ns;   /* 0: no time of day */
};

enum {
  UPDATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SlDetailsPane, sl_details_pane, GTK_TYPE_BOX)

/* Removes the rows from @first on. */
static void
clear_rows_from (SlDetailsPane *self, int first)
{
  GtkWidget *child = gtk_widget_get_first_child (self->grid);

  while (child != NULL)
    {
      GtkWidget *next = gtk_widget_get_next_sibling (child);
      int row;

      gtk_grid_query_child (GTK_GRID (self->grid), child, NULL, &row, NULL, NULL);
      if (row >= first)
        gtk_grid_remove (GTK_GRID (self->grid), child);
      child = next;
    }
}

static gboolean
same_links (GArray *a, GArray *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return a->len == b->len && memcmp (a->data, b->data, (gsize) a->len * sizeof (SlEventRef)) == 0;
}

/* Whether row @row already shows @field: the same label, text and links. */
static gboolean
row_shows (SlDetailsPane *self, int row, const SlEventField *field)
{
  GtkWidget *label = gtk_grid_get_child_at (GTK_GRID (self->grid), 0, row);
  GtkWidget *value = gtk_grid_get_child_at (GTK_GRID (self->grid), 1, row);

  return label != NULL && value != NULL &&
         g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), field->label) == 0 &&
         g_strcmp0 (g_object_get_data (G_OBJECT (value), "sl-field-value"), field->value) == 0 &&
         same_links (g_object_get_data (G_OBJECT (value), "sl-links"), field->links);
}

/* A copy of a wrapped name is the name: without its break opportunities. */
static void
copy_without_breaks_cb (GtkLabel *value)
{
  int start, end;
  g_autofree char *part = NULL;
  g_autofree char *plain = NULL;
  const char *text = gtk_label_get_text (value);

  if (!gtk_label_get_selection_bounds (value, &start, &end))
    return;
  part = g_utf8_substring (text, start, end);
  plain = sl_text_strip_breaks (part);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (value)), plain);
}

/* Long C++ and API names wrap at "::", "<", "," or "_", else between two
 * characters, never with a hyphen Pango would add inside a word. */
static GtkWidget *
value_label_new (const char *text)
{
  g_autofree char *shown = sl_text_add_breaks (text);
  GtkWidget *value = gtk_label_new (shown);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
  gtk_label_set_attributes (GTK_LABEL (value), attrs);
  pango_attr_list_unref (attrs);
  gtk_label_set_wrap (GTK_LABEL (value), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
  g_signal_connect_after (value, "copy-clipboard", G_CALLBACK (copy_without_breaks_cb), NULL);
  return value;
}

typedef struct {
  SlDetailsPane *pane;     /* (owned) */
  SlEventRef     event;
} LinkRequest;

/* After the click's signal: following the link rebuilds the grid, the
 * clicked label with it. */
static gboolean
follow_link_cb (gpointer data)
{
  LinkRequest *request = data;

  if (request->pane->session != NULL)
    sl_session_show_event (request->pane->session, &request->event);
  g_object_unref (request->pane);
  g_free (request);
  return G_SOURCE_REMOVE;
}

static gboolean
activate_link_cb (GtkLabel      *label,
                  const char    *uri,
                  SlDetailsPane *self)
{
  GArray *links = g_object_get_data (G_OBJECT (label), "sl-links");
  guint64 i = 0;
  LinkRequest *request;

  if (links == NULL || !g_ascii_string_to_unsigned (uri, 10, 0, G_MAXUINT, &i, NULL) || i >= links->len)
    return TRUE;
  request = g_new0 (LinkRequest, 1);
  request->pane = g_object_ref (self);
  request->event = g_array_index (links, SlEventRef, i);
  g_idle_add (follow_link_cb, request);
  return TRUE;
}

static void
set_links (SlDetailsPane *self, GtkWidget *value, const SlEventField *field)
{
  /* not selectable: a focused label that a followed link removes leaves
   * GTK asking whether it is inside the window */
  gtk_label_set_selectable (GTK_LABEL (value), FALSE);
  gtk_label_set_markup (GTK_LABEL (value), field->markup);
  g_object_set_data_full (G_OBJECT (value), "sl-links", g_array_ref (field->links),
                          (GDestroyNotify) g_array_unref);
  g_signal_connect (value, "activate-link", G_CALLBACK (activate_link_cb), self);
}

static void
add_field (SlDetailsPane *self, const SlEventField *field, int row)
{
  GtkWidget *label = gtk_label_new (field->label);
  GtkWidget *value = value_label_new (field->value);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  g_object_set_data_full (G_OBJECT (value), "sl-field-value", g_strdup (field->value), g_free);
  gtk_label_set_xalign (GTK_LABEL (value), 0);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (value), 40);
  gtk_widget_set_hexpand (value, TRUE);
  if (row == 0)
    gtk_widget_add_css_class (value, "heading");
  if (field->markup != NULL && field->links != NULL)
    set_links (self, value, field);
  gtk_grid_attach (GTK_GRID (self->grid), label, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (self->grid), value, 1, row, 1, 1);
}

/* With the wall clock on: when the event started, in local time, appended
 * to @fields. */
static void
add_time_of_day (SlDetailsPane *self, const SlEventRef *event, GPtrArray *fields)
{
  SlEventField *field;
  gint64 start, end;

  if (self->wall_utc_ns == 0 ||
      !sl_timeline_model_event_span (sl_session_get_model (self->session), event, &start, &end))
    return;
  field = g_new0 (SlEventField, 1);
  field->label = g_strdup (_("Time of day"));
  field->value = sl_ruler_wall_clock_label (sl_sat_add (self->wall_utc_ns, sl_sat_sub (start, self->wall_origin_ns)), 1);
  g_ptr_array_add (fields, field);
}

/* Fills the grid with @event's fields, with @details when they are known.
 * Rows that already show the same keep their widgets: a label under the
 * pointer is not destroyed mid-click when the launch configuration comes
 * in (GTK 4.8 then warns of broken active-state accounting). */
static void
show_event (SlDetailsPane *self, const SlEventRef *event, const SlKernelDetails *details)
{
  g_autoptr(GPtrArray) fields = NULL;
  guint kept = 0;

  gtk_widget_set_visible (self->placeholder, event == NULL);
  if (event != NULL)
    {
      fields = sl_event_info_fields (sl_session_get_model (self->session), event, details,
                                     sl_session_get_loading (self->session));
      add_time_of_day (self, event, fields);
      while (kept < fields->len && row_shows (self, (int) kept, g_ptr_array_index (fields, kept)))
        kept++;
    }
  clear_rows_from (self, (int) kept);
  for (guint i = kept; fields != NULL && i < fields->len; i++)
    add_field (self, g_ptr_array_index (fields, i), (int) i);
  g_signal_emit (self, signals[UPDATED], 0);
}

typedef struct {
  SlDetailsPane *pane;     /* (owned) */
  SlEventRef     event;
} DetailsRequest;

static void
details_read_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      data)
{
  DetailsRequest *request = data;
  SlDetailsPane *self = request->pane;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlKernelDetails) details = sl_kernel_details_read_finish (result, &error);
  const SlEventRef *selected = self->session ? sl_session_get_selected_event (self->session) : NULL;

  /* a newer read of the same kernel is on its way (the model changed) */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (request->pane);
      g_free (request);
      return;
    }

  /* still the selected kernel: show it again, now with its launch
   * configuration, or without the rows saying it is being read */
  if (selected != NULL && memcmp (selected, &request->event, sizeof *selected) == 0)
    {
      show_event (self, selected, details);
      if (details != NULL)
        {
          g_clear_pointer (&self->read_details, sl_kernel_details_free);
          self->read_details = g_steal_pointer (&details);
          self->read_event = request->event;
        }
    }
  g_object_unref (request->pane);
  g_free (request);
}

static void
read_details (SlDetailsPane *self, const SlEventRef *event)
{
  DetailsRequest *request = g_new0 (DetailsRequest, 1);

  request->pane = g_object_ref (self);
  request->event = *event;
  self->details_cancellable = g_cancellable_new ();
  sl_kernel_details_read_async (sl_session_get_profile (self->session), event->owner, event->index,
                                self->details_cancellable, details_read_cb, request);
}

static void
selected_event_changed_cb (SlDetailsPane *self)
{
  const SlEventRef *event = self->session ? sl_session_get_selected_event (self->session) : NULL;

  g_cancellable_cancel (self->details_cancellable);
  g_clear_object (&self->details_cancellable);
  if (event != NULL && event->kind == SL_EVENT_KERNEL && self->read_details != NULL &&
      memcmp (event, &self->read_event, sizeof *event) == 0)
    show_event (self, event, self->read_details);
  else if (event != NULL && event->kind == SL_EVENT_KERNEL)
    {
      show_event (self, event, sl_event_info_details_reading ());
      read_details (self, event);
    }
  else
    show_event (self, event, NULL);
}

static void
selected_range_changed_cb (SlDetailsPane *self)
{
  const SlTimeRange *range = self->session ? sl_session_get_selected_range (self->session) : NULL;
  g_autofree char *dur = NULL, *from = NULL, *text = NULL;

  gtk_widget_set_visible (self->range_label, range != NULL);
  if (range == NULL)
    return;
  /* a selection is anywhere the user dragged: clamped, not wrapped */
  dur = sl_locale_duration (sl_span (range->start, range->end));
  from = sl_locale_timestamp (sl_sat_sub (range->start, sl_session_get_profile (self->session)->start_ns));
  /* Translators: a measured time range: its length, then where it starts */
  text = g_strdup_printf (_("Selected range: %s from %s (Z zooms to it)"), dur, from);
  gtk_label_set_text (GTK_LABEL (self->range_label), text);
}

void
sl_details_pane_set_session (SlDetailsPane *self,
                             SlSession     *session)
{
  g_return_if_fail (SL_IS_DETAILS_PANE (self));
  g_return_if_fail (session == NULL || SL_IS_SESSION (session));

  if (self->session == session)
    return;
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  g_clear_pointer (&self->read_details, sl_kernel_details_free);
  if (session != NULL)
    {
      g_signal_connect_object (session, "notify::selected-event", G_CALLBACK (selected_event_changed_cb),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::selected-range", G_CALLBACK (selected_range_changed_cb),
                               self, G_CONNECT_SWAPPED);
      /* a staged load's complete profile tells more about the same event */
      g_signal_connect_object (session, "notify::model", G_CALLBACK (selected_event_changed_cb),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::loading", G_CALLBACK (selected_event_changed_cb),
                               self, G_CONNECT_SWAPPED);
    }
  selected_event_changed_cb (self);
  selected_range_changed_cb (self);
}

/* The texts of the grid's column @column, in row order (the children are
 * label, value, label, value …). */
static GStrv
column_texts (SlDetailsPane *self, int column)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (GtkWidget *child = gtk_widget_get_first_child (self->grid); child; child = gtk_widget_get_next_sibling (child))
    {
      int c;
      gtk_grid_query_child (GTK_GRID (self->grid), child, &c, NULL, NULL, NULL);
      if (c == column)
        {
          g_autofree char *text = sl_text_strip_breaks (gtk_label_get_text (GTK_LABEL (child)));
          g_strv_builder_add (builder, text);
        }
    }
  return g_strv_builder_end (builder);
}

GStrv
sl_details_pane_get_labels (SlDetailsPane *self)
{
  g_return_val_if_fail (SL_IS_DETAILS_PANE (self), NULL);
  return column_texts (self, 0);
}

GStrv
sl_details_pane_get_values (SlDetailsPane *self)
{
  g_return_val_if_fail (SL_IS_DETAILS_PANE (self), NULL);
  return column_texts (self, 1);
}

GPtrArray *
sl_details_pane_get_link_widgets (SlDetailsPane *self)
{
  GPtrArray *out = g_ptr_array_new ();

  g_return_val_if_fail (SL_IS_DETAILS_PANE (self), out);
  for (GtkWidget *child = gtk_widget_get_first_child (self->grid); child; child = gtk_widget_get_next_sibling (child))
    if (g_object_get_data (G_OBJECT (child), "sl-links") != NULL)
      g_ptr_array_add (out, child);
  return out;
}

const char *
sl_details_pane_get_field_label (SlDetailsPane *self,
                                 GtkWidget     *value)
{
  int row = 0;
  GtkWidget *label;

  g_return_val_if_fail (SL_IS_DETAILS_PANE (self), NULL);
  gtk_grid_query_child (GTK_GRID (self->grid), value, NULL, &row, NULL, NULL);
  label = gtk_grid_get_child_at (GTK_GRID (self->grid), 0, row);
  return label ? gtk_label_get_text (GTK_LABEL (label)) : NULL;
}

void
sl_details_pane_set_wall_clock (SlDetailsPane *self,
                                gint64         utc_ns,
                                gint64         origin_ns)
{
  g_return_if_fail (SL_IS_DETAILS_PANE (self));
  if (self->wall_utc_ns == utc_ns && self->wall_origin_ns == origin_ns)
    return;
  self->wall_utc_ns = utc_ns;
  self->wall_origin_ns = origin_ns;
  selected_event_changed_cb (self);
}

GtkWidget *
sl_details_pane_new (void)
{
  return g_object_new (SL_TYPE_DETAILS_PANE, NULL);
}

static void
sl_details_pane_dispose (GObject *object)
{
  SlDetailsPane *self = SL_DETAILS_PANE (object);

  g_cancellable_cancel (self->details_cancellable);
  g_clear_object (&self->details_cancellable);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_pointer (&self->read_details, sl_kernel_details_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_DETAILS_PANE);
  G_OBJECT_CLASS (sl_details_pane_parent_class)->dispose (object);
}

static void
sl_details_pane_class_init (SlDetailsPaneClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = sl_details_pane_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sightline/Sightline/sl-details-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, SlDetailsPane, range_label);
  gtk_widget_class_bind_template_child (widget_class, SlDetailsPane, placeholder);
  gtk_widget_class_bind_template_child (widget_class, SlDetailsPane, grid);
  gtk_widget_class_set_css_name (widget_class, "detailspane");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);

  /* the fields shown changed (a new event, or its launch configuration came in) */
  signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sl_details_pane_init (SlDetailsPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Details"), -1);
}
