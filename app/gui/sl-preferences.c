/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-preferences.c: a plain GtkWindow of labelled choices (no libadwaita:
 * Debian 12's 1.2 would do, but the rest of the app does not use it).
 * Choices are radio buttons rather than drop-downs: each is one key press
 * away and reads as a list to screen readers. */
#include "sl-preferences.h"

#include <glib/gi18n.h>

struct _SlPreferences {
  GtkWindow  parent_instance;
  GSettings *settings;
  GtkWidget *grid;
  GtkWidget *first_choice;
  int        rows;
};

G_DEFINE_FINAL_TYPE (SlPreferences, sl_preferences, GTK_TYPE_WINDOW)

typedef struct {
  const char *nick;   /* the schema's enum value */
  const char *label;
} Choice;

static void
choice_toggled_cb (GtkCheckButton *button, SlPreferences *self)
{
  const char *key = g_object_get_data (G_OBJECT (button), "key");
  const char *nick = g_object_get_data (G_OBJECT (button), "nick");
  g_autofree char *now = NULL;

  if (!gtk_check_button_get_active (button))
    return;
  now = g_settings_get_string (self->settings, key);
  if (!g_str_equal (now, nick))
    g_settings_set_string (self->settings, key, nick);
}

/* Someone else (gsettings, another window) changed the key: show it. */
static void
choice_key_changed_cb (GSettings *settings, const char *key, GtkWidget *box)
{
  g_autofree char *value = g_settings_get_string (settings, key);

  for (GtkWidget *c = gtk_widget_get_first_child (box); c; c = gtk_widget_get_next_sibling (c))
    if (g_strcmp0 (g_object_get_data (G_OBJECT (c), "nick"), value) == 0)
      gtk_check_button_set_active (GTK_CHECK_BUTTON (c), TRUE);
}

static GtkWidget *
add_row (SlPreferences *self, const char *title, GtkWidget *control)
{
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_set_valign (label, GTK_ALIGN_START);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_grid_attach (GTK_GRID (self->grid), label, 0, self->rows, 1, 1);
  gtk_grid_attach (GTK_GRID (self->grid), control, 1, self->rows, 1, 1);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (control), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
  self->rows++;
  return label;
}

static void
add_choice (SlPreferences *self, const char *title, const char *key, const Choice *choices, guint n)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkCheckButton *group = NULL;
  g_autofree char *signal = g_strconcat ("changed::", key, NULL);

  gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *button = gtk_check_button_new_with_mnemonic (_(choices[i].label));
      g_object_set_data (G_OBJECT (button), "key", (gpointer) key);
      g_object_set_data (G_OBJECT (button), "nick", (gpointer) choices[i].nick);
      gtk_widget_set_name (button, choices[i].nick);
      if (group != NULL)
        gtk_check_button_set_group (GTK_CHECK_BUTTON (button), group);
      else
        group = GTK_CHECK_BUTTON (button);
      if (self->first_choice == NULL)
        self->first_choice = button;
      gtk_box_append (GTK_BOX (box), button);
      g_signal_connect (button, "toggled", G_CALLBACK (choice_toggled_cb), self);
    }
  choice_key_changed_cb (self->settings, key, box);
  g_signal_connect_object (self->settings, signal, G_CALLBACK (choice_key_changed_cb), box, 0);
  add_row (self, title, box);
}

static void
rules_chosen_cb (GtkNativeDialog *dialog, int response, SlPreferences *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      if (path != NULL)
        g_settings_set_string (self->settings, "category-rules", path);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
choose_rules_cb (GtkButton *button, SlPreferences *self)
{
  GtkFileChooserNative *native = gtk_file_chooser_native_new (_("Category Rules"), GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_OPEN,
                                                              _("_Choose"), _("_Cancel"));
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("JSON rules files"));
  gtk_file_filter_add_suffix (filter, "json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), filter);
  g_object_unref (filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  g_signal_connect (native, "response", G_CALLBACK (rules_chosen_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
add_rules_row (SlPreferences *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *entry = gtk_entry_new ();
  GtkWidget *choose = gtk_button_new_with_mnemonic (_("C_hoose…"));
  GtkWidget *label;

  gtk_widget_set_name (entry, "category-rules");
  gtk_widget_set_hexpand (entry, TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("Built-in categories"));
  g_settings_bind (self->settings, "category-rules", entry, "text", G_SETTINGS_BIND_DEFAULT);
  g_signal_connect (choose, "clicked", G_CALLBACK (choose_rules_cb), self);
  gtk_box_append (GTK_BOX (box), entry);
  gtk_box_append (GTK_BOX (box), choose);
  label = add_row (self, _("Category rules"), box);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
}

static void
add_cache_row (SlPreferences *self)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (64, 1048576, 256);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label;

  gtk_widget_set_name (spin, "cache-size-mb");
  g_settings_bind (self->settings, "cache-size-mb", spin, "value", G_SETTINGS_BIND_DEFAULT);
  gtk_box_append (GTK_BOX (box), spin);
  /* Translators: the unit after the cache size limit */
  gtk_box_append (GTK_BOX (box), gtk_label_new (_("MiB (applies from the next start)")));
  label = add_row (self, _("Profile cache limit"), box);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
}

static void
build (SlPreferences *self)
{
  static const Choice themes[] = {
    { "system", N_("Follow the _system") }, { "light", N_("_Light") }, { "dark", N_("_Dark") },
  };
  static const Choice times[] = {
    { "relative", N_("_Relative to the profile start") }, { "absolute", N_("_Absolute (capture clock)") },
    { "wall-clock", N_("_Wall clock from the session start") },
  };
  static const Choice names[] = {
    { "short", N_("S_hort kernel names") }, { "demangled", N_("De_mangled kernel names") },
  };

  add_choice (self, _("Style"), "theme", themes, G_N_ELEMENTS (themes));
  add_choice (self, _("Times"), "time-display", times, G_N_ELEMENTS (times));
  add_choice (self, _("Kernel names"), "kernel-names", names, G_N_ELEMENTS (names));
  add_rules_row (self);
  add_cache_row (self);
}

static void
sl_preferences_dispose (GObject *object)
{
  SlPreferences *self = SL_PREFERENCES (object);

  g_clear_object (&self->settings);
  G_OBJECT_CLASS (sl_preferences_parent_class)->dispose (object);
}

static void
sl_preferences_class_init (SlPreferencesClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sl_preferences_dispose;
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sl_preferences_init (SlPreferences *self)
{
  self->grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (self->grid), 18);
  gtk_grid_set_column_spacing (GTK_GRID (self->grid), 12);
  gtk_widget_set_margin_top (self->grid, 24);
  gtk_widget_set_margin_bottom (self->grid, 24);
  gtk_widget_set_margin_start (self->grid, 24);
  gtk_widget_set_margin_end (self->grid, 24);
  gtk_window_set_child (GTK_WINDOW (self), self->grid);
  gtk_window_set_title (GTK_WINDOW (self), _("Preferences"));
  gtk_window_set_default_size (GTK_WINDOW (self), 560, -1);
}

GtkWidget *
sl_preferences_new (GtkWindow *parent, GSettings *settings)
{
  SlPreferences *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  self = g_object_new (SL_TYPE_PREFERENCES, "transient-for", parent, "destroy-with-parent", TRUE, NULL);
  self->settings = g_object_ref (settings);
  build (self);
  gtk_window_set_focus (GTK_WINDOW (self), self->first_choice);
  return GTK_WIDGET (self);
}
