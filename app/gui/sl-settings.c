/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-settings.c: finding the schema and applying what has no widget of its
 * own.  The schema may be missing (running from a build tree that was not
 * installed, or a distribution that skipped it): then nothing is remembered
 * and nothing fails. */
#include "sl-settings.h"

static GSettingsSchema *
find_schema (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  GSettingsSchema *schema = source ? g_settings_schema_source_lookup (source, SL_APP_ID, TRUE) : NULL;

#ifdef SL_BUILD_SCHEMA_DIR
  /* running from the build tree: the schema compiled there */
  if (schema == NULL && g_getenv ("GSETTINGS_SCHEMA_DIR") == NULL)
    {
      g_autoptr(GSettingsSchemaSource) build =
        g_settings_schema_source_new_from_directory (SL_BUILD_SCHEMA_DIR, source, FALSE, NULL);
      if (build != NULL)
        schema = g_settings_schema_source_lookup (build, SL_APP_ID, FALSE);
    }
#endif
  return schema;
}

GSettings *
sl_settings_get (void)
{
  static GSettings *settings;
  static gboolean looked;

  if (!looked)
    {
      g_autoptr(GSettingsSchema) schema = find_schema ();
      looked = TRUE;
      if (schema != NULL)
        settings = g_settings_new_full (schema, NULL, NULL);
      else
        g_debug ("settings schema %s not found: preferences are not remembered", SL_APP_ID);
    }
  return settings;
}

static void
theme_changed_cb (GSettings *settings, const char *key, gpointer data)
{
  static int system_dark = -1;
  GtkSettings *gtk = gtk_settings_get_default ();
  g_autofree char *theme = g_settings_get_string (settings, "theme");
  gboolean dark;

  if (gtk == NULL)
    return;
  /* "system" is whatever GTK found before we changed it */
  if (system_dark < 0)
    g_object_get (gtk, "gtk-application-prefer-dark-theme", &system_dark, NULL);
  dark = g_str_equal (theme, "dark") || (g_str_equal (theme, "system") && system_dark);
  g_object_set (gtk, "gtk-application-prefer-dark-theme", dark, NULL);
}

void
sl_settings_apply_theme (void)
{
  GSettings *settings = sl_settings_get ();

  if (settings == NULL)
    return;
  g_signal_connect (settings, "changed::theme", G_CALLBACK (theme_changed_cb), NULL);
  theme_changed_cb (settings, "theme", NULL);
}

void
sl_settings_apply_cache_limit (void)
{
  GSettings *settings = sl_settings_get ();
  g_autofree char *limit = NULL;

  if (settings == NULL || g_getenv ("SIGHTLINE_CACHE_SIZE") != NULL)
    return;
  limit = g_strdup_printf ("%uM", g_settings_get_uint (settings, "cache-size-mb"));
  g_setenv ("SIGHTLINE_CACHE_SIZE", limit, TRUE);
}

void
sl_settings_save_window (GtkWindow *window)
{
  GSettings *settings = sl_settings_get ();
  int width = 0, height = 0;
  gboolean maximized;

  if (settings == NULL)
    return;
  maximized = gtk_window_is_maximized (window);

  /* a maximized window keeps the size it returns to */
  if (!maximized)
    {
      gtk_window_get_default_size (window, &width, &height);
      if (width > 0 && height > 0)
        {
          g_settings_set_int (settings, "window-width", width);
          g_settings_set_int (settings, "window-height", height);
        }
    }
  g_settings_set_boolean (settings, "window-maximized", maximized);
}

static gboolean
window_close_request_cb (GtkWindow *window, gpointer data)
{
  sl_settings_save_window (window);
  return FALSE;
}

void
sl_settings_track_window (GtkWindow *window)
{
  GSettings *settings = sl_settings_get ();

  if (settings == NULL)
    return;
  gtk_window_set_default_size (window,
                               MAX (360, g_settings_get_int (settings, "window-width")),
                               MAX (300, g_settings_get_int (settings, "window-height")));
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (window);
  g_signal_connect (window, "close-request", G_CALLBACK (window_close_request_cb), NULL);
}

static void
time_display_changed_cb (GSettings *settings, const char *key, GAction *absolute)
{
  g_autofree char *mode = g_settings_get_string (settings, "time-display");

  /* wall-clock is drawn relative until the ruler learns the time of day */
  g_action_change_state (absolute, g_variant_new_boolean (g_str_equal (mode, "absolute")));
}

void
sl_settings_track_time_display (GAction *absolute)
{
  GSettings *settings = sl_settings_get ();

  if (settings == NULL)
    return;
  time_display_changed_cb (settings, "time-display", absolute);
  g_signal_connect_object (settings, "changed::time-display", G_CALLBACK (time_display_changed_cb), absolute, 0);
}
