/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ui-state.c: what the window remembers between runs, in a key file
 * written whole (temporary file and rename) on each change: a handful of
 * keys, changed by hand, never in a hot path. */
#include "sl-ui-state.h"

#include <errno.h>

#define GROUP "window"

static char *
state_path (void)
{
  return g_build_filename (g_get_user_state_dir (), "sightline", "ui.ini", NULL);
}

static GKeyFile *
load (void)
{
  GKeyFile *file = g_key_file_new ();
  g_autofree char *path = state_path ();

  /* missing or damaged: start afresh, the keys are only conveniences */
  g_key_file_load_from_file (file, path, G_KEY_FILE_NONE, NULL);
  return file;
}

static void
save (GKeyFile *file)
{
  g_autofree char *path = state_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  if (g_mkdir_with_parents (dir, 0700) != 0 || !g_key_file_save_to_file (file, path, &error))
    g_debug ("cannot remember the window's state in %s: %s", path, error ? error->message : g_strerror (errno));
}

char *
sl_ui_state_get_string (const char *key, const char *fallback)
{
  g_autoptr(GKeyFile) file = load ();
  char *value = g_key_file_get_string (file, GROUP, key, NULL);

  return value != NULL ? value : g_strdup (fallback);
}

void
sl_ui_state_set_string (const char *key, const char *value)
{
  g_autoptr(GKeyFile) file = load ();
  g_autofree char *old = g_key_file_get_string (file, GROUP, key, NULL);

  if (g_strcmp0 (old, value) == 0)
    return;
  g_key_file_set_string (file, GROUP, key, value);
  save (file);
}

gboolean
sl_ui_state_get_boolean (const char *key, gboolean fallback)
{
  g_autoptr(GKeyFile) file = load ();
  g_autoptr(GError) error = NULL;
  gboolean value = g_key_file_get_boolean (file, GROUP, key, &error);

  return error == NULL ? value : fallback;
}

void
sl_ui_state_set_boolean (const char *key, gboolean value)
{
  sl_ui_state_set_string (key, value ? "true" : "false");
}
