/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark-popover.c: name, note and colour of a bookmark.
 *
 * Built in code (a handful of widgets): Enter in the name confirms, so
 * Ctrl+D, a name, Enter is all a quick bookmark takes. */
#include "sl-bookmark-popover.h"

#include <glib/gi18n.h>

struct _SlBookmarkPopover {
  GtkPopover       parent_instance;

  SlBookmarkStore *store;
  SlBookmark      *bookmark;
  gboolean         editing;
  GtkWidget       *name;
  GtkWidget       *note;
  GtkWidget       *colors;   /* the palette's toggle buttons */
  GtkWidget       *error;
};

G_DEFINE_FINAL_TYPE (SlBookmarkPopover, sl_bookmark_popover, GTK_TYPE_POPOVER)

static void
draw_swatch (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  GdkRGBA rgba;

  if (!gdk_rgba_parse (&rgba, data))
    return;
  gdk_cairo_set_source_rgba (cr, &rgba);
  cairo_arc (cr, width / 2.0, height / 2.0, MIN (width, height) / 2.0, 0, 2 * G_PI);
  cairo_fill (cr);
}

/* A screen reader says the swatch's colour by name, not its hex code. */
static const char *
color_name (const char *color)
{
  static const struct { const char *hex, *name; } names[] = {
    { "#3584e4", N_("Blue") }, { "#e5a50a", N_("Yellow") }, { "#2ec27e", N_("Green") },
    { "#e01b24", N_("Red") }, { "#9141ac", N_("Purple") }, { "#ff7800", N_("Orange") },
    { "#986a44", N_("Brown") }, { "#5e5c64", N_("Grey") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (names[i].hex, color) == 0)
      return _(names[i].name);
  return color;
}

static GtkWidget *
color_button (const char *color, GtkWidget *group)
{
  GtkWidget *button = gtk_toggle_button_new ();
  GtkWidget *swatch = gtk_drawing_area_new ();

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 16);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), 16);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch, (gpointer) color, NULL);
  gtk_button_set_child (GTK_BUTTON (button), swatch);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, color_name (color));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, color_name (color), -1);
  g_object_set_data (G_OBJECT (button), "color", (gpointer) color);
  if (group != NULL)
    gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), GTK_TOGGLE_BUTTON (group));
  return button;
}

static const char *
chosen_color (SlBookmarkPopover *self)
{
  for (GtkWidget *b = gtk_widget_get_first_child (self->colors); b; b = gtk_widget_get_next_sibling (b))
    if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (b)))
      return g_object_get_data (G_OBJECT (b), "color");
  return self->bookmark->color;
}

static char *
note_text (SlBookmarkPopover *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->note));
  GtkTextIter a, b;

  gtk_text_buffer_get_bounds (buffer, &a, &b);
  return gtk_text_buffer_get_text (buffer, &a, &b, FALSE);
}

static void
confirm (SlBookmarkPopover *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *note = note_text (self);
  SlBookmark *b = self->bookmark;
  gboolean ok;

  g_free (b->name);
  b->name = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->name)));
  g_free (b->note);
  b->note = g_steal_pointer (&note);
  g_free (b->color);
  b->color = g_strdup (chosen_color (self));
  ok = self->editing ? sl_bookmark_store_update (self->store, b, &error)
                     : sl_bookmark_store_add (self->store, b, &error);
  if (!ok)
    {
      /* the change is kept in memory; say why the file was not written */
      gtk_label_set_text (GTK_LABEL (self->error), error->message);
      gtk_widget_set_visible (self->error, TRUE);
      return;
    }
  gtk_popover_popdown (GTK_POPOVER (self));
}

static GtkWidget *
buttons_row (SlBookmarkPopover *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *ok = gtk_button_new_with_mnemonic (self->editing ? _("_Save") : _("_Add"));

  gtk_widget_set_halign (box, GTK_ALIGN_END);
  gtk_widget_add_css_class (ok, "suggested-action");
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_popover_popdown), self);
  g_signal_connect_swapped (ok, "clicked", G_CALLBACK (confirm), self);
  gtk_box_append (GTK_BOX (box), cancel);
  gtk_box_append (GTK_BOX (box), ok);
  return box;
}

static GtkWidget *
palette_row (SlBookmarkPopover *self)
{
  const char * const *palette = sl_bookmark_palette ();
  GtkWidget *first = NULL;
  gboolean chosen = FALSE;

  self->colors = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  for (guint i = 0; palette[i] != NULL; i++)
    {
      GtkWidget *button = color_button (palette[i], first);
      gboolean mine = g_ascii_strcasecmp (palette[i], self->bookmark->color) == 0;

      first = first ? first : button;
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), mine && !chosen);
      chosen |= mine;
      gtk_box_append (GTK_BOX (self->colors), button);
    }
  /* a colour from elsewhere (an import) stays unless the user picks one */
  return self->colors;
}

static GtkWidget *
note_view (SlBookmarkPopover *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->note = gtk_text_view_new ();
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->note), GTK_WRAP_WORD_CHAR);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->note)), self->bookmark->note, -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->note);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), 72);
  gtk_scrolled_window_set_has_frame (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_widget_set_size_request (scroller, 280, -1);
  return scroller;
}

static GtkWidget *
caption (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static void
build (SlBookmarkPopover *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  self->name = gtk_entry_new ();
  gtk_editable_set_text (GTK_EDITABLE (self->name), self->bookmark->name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->name), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Name"), -1);
  gtk_widget_set_tooltip_text (self->name, _("Name"));
  g_signal_connect_swapped (self->name, "activate", G_CALLBACK (confirm), self);
  self->error = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->error), TRUE);
  gtk_widget_add_css_class (self->error, "error");
  gtk_widget_set_visible (self->error, FALSE);
  gtk_box_append (GTK_BOX (box), caption (_("Name")));
  gtk_box_append (GTK_BOX (box), self->name);
  gtk_box_append (GTK_BOX (box), caption (_("Note")));
  gtk_box_append (GTK_BOX (box), note_view (self));
  gtk_box_append (GTK_BOX (box), caption (_("Colour")));
  gtk_box_append (GTK_BOX (box), palette_row (self));
  gtk_box_append (GTK_BOX (box), self->error);
  gtk_box_append (GTK_BOX (box), buttons_row (self));
  gtk_popover_set_child (GTK_POPOVER (self), box);
}

static gboolean
unparent_idle (gpointer data)
{
  GtkWidget *self = data;

  if (gtk_widget_get_parent (self) != NULL && !gtk_widget_get_visible (self))
    gtk_widget_unparent (self);
  g_object_unref (self);
  return G_SOURCE_REMOVE;
}

/* Closed: unparent after the close is over (not inside its signal). */
static void
closed_cb (SlBookmarkPopover *self)
{
  g_idle_add (unparent_idle, g_object_ref (self));
}

GtkWidget *
sl_bookmark_popover_new (SlBookmarkStore *store, const SlBookmark *bookmark)
{
  SlBookmarkPopover *self;

  g_return_val_if_fail (SL_IS_BOOKMARK_STORE (store), NULL);
  g_return_val_if_fail (bookmark != NULL, NULL);
  self = g_object_new (SL_TYPE_BOOKMARK_POPOVER, NULL);
  self->store = g_object_ref (store);
  self->bookmark = sl_bookmark_copy (bookmark);
  self->editing = sl_bookmark_store_find (store, bookmark->id) != NULL;
  build (self);
  g_signal_connect (self, "closed", G_CALLBACK (closed_cb), NULL);
  return GTK_WIDGET (self);
}

void
sl_bookmark_popover_show (GtkWidget *popover, GtkWidget *parent, const GdkRectangle *rect)
{
  SlBookmarkPopover *self = SL_BOOKMARK_POPOVER (popover);

  gtk_widget_set_parent (popover, parent);
  if (rect != NULL)
    gtk_popover_set_pointing_to (GTK_POPOVER (popover), rect);
  gtk_popover_popup (GTK_POPOVER (popover));
  gtk_widget_grab_focus (self->name);
  gtk_editable_select_region (GTK_EDITABLE (self->name), 0, -1);
}

static void
sl_bookmark_popover_dispose (GObject *object)
{
  SlBookmarkPopover *self = SL_BOOKMARK_POPOVER (object);

  g_clear_object (&self->store);
  g_clear_pointer (&self->bookmark, sl_bookmark_free);
  G_OBJECT_CLASS (sl_bookmark_popover_parent_class)->dispose (object);
}

static void
sl_bookmark_popover_class_init (SlBookmarkPopoverClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sl_bookmark_popover_dispose;
}

static void
sl_bookmark_popover_init (SlBookmarkPopover *self)
{
}
