/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-fuzz-regressions.c: inputs that once crashed the loader (found by
 * fuzzing) must now load or fail cleanly, also under ASan/UBSan. */
#include <string.h>
#include <glib.h>

#include "sightline.h"

static void
test_input (gconstpointer data)
{
  const char *path = data;
  g_autoptr(GError) error = NULL;
  SlProfile *profile = sl_profile_load (path, NULL, NULL, NULL, &error);

  if (profile != NULL)
    {
      g_assert_no_error (error);
      g_assert_cmpint (profile->end_ns, >=, profile->start_ns);
      sl_profile_unref (profile);
    }
  else
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == SL_PROFILE_ERROR);
      g_assert_nonnull (strstr (error->message, path));
    }
}

int
main (int argc, char **argv)
{
  const char *dir = argc > 1 && argv[argc - 1][0] != '-' ? argv[argc - 1] : NULL;
  g_autoptr(GDir) listing = NULL;
  const char *name;
  guint n = 0;

  g_test_init (&argc, &argv, NULL);
  dir = g_getenv ("SL_FUZZ_REGRESSIONS");
  g_assert_nonnull (dir);
  listing = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      if (g_str_has_prefix (name, ".") || g_str_has_suffix (name, ".md"))
        continue;
      char *test_name = g_strdup_printf ("/fuzz/regression/%s", name);
      g_test_add_data_func_full (test_name, g_build_filename (dir, name, NULL), test_input, g_free);
      g_free (test_name);
      n++;
    }
  g_assert_cmpuint (n, >, 0);
  return g_test_run ();
}
