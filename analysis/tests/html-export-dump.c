/* SPDX-License-Identifier: GPL-3.0-or-later */
/* html-export-dump.c: writes sl_export_html_write() of a profile to a file,
 * for test-html-report.py (until `sightline-cli export` drives it).
 * Usage: html-export-dump PROFILE OUT.html [--demangled] [--include-environment]
 *        [--bookmark NAME START END] [--cpu] */
#include <stdio.h>
#include <string.h>

#include "sightline.h"
#include "sl-export.h"
#include "sl-cpu-loader.h"

/* Bookmarks made by hand: the bookmarks library lands on another branch. */
static void
free_bookmark (gpointer data)
{
  SlBookmark *b = data;

  g_free (b->id);
  g_free (b->name);
  g_free (b->note);
  g_free (b->color);
  g_free (b);
}

static void
add_bookmark (GPtrArray *bookmarks, char **argv)
{
  SlBookmark *b = g_new0 (SlBookmark, 1);

  b->id = g_strdup ("test");
  b->name = g_strdup (argv[0]);
  b->note = g_strdup ("a note\n<b>not bold</b>");
  b->color = g_strdup ("#e01b24");
  b->start = g_ascii_strtoll (argv[1], NULL, 10);
  b->end = g_ascii_strtoll (argv[2], NULL, 10);
  g_ptr_array_add (bookmarks, b);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GPtrArray) bookmarks = g_ptr_array_new_with_free_func (free_bookmark);
  g_autoptr(SlCpuActivity) cpu = NULL;
  gboolean with_cpu = FALSE;
  char *env[] = { "TEST: SL_DUMMY=1", NULL };
  SlExportOptions options = { .format = SL_EXPORT_HTML, .names = SL_NAMES_SHORT, .bookmarks = bookmarks,
                              .environment = env };

  if (argc < 3)
    {
      fprintf (stderr, "usage: %s PROFILE OUT.html [options]\n", argv[0]);
      return 2;
    }
  for (int i = 3; i < argc; i++)
    if (strcmp (argv[i], "--demangled") == 0)
      options.names = SL_NAMES_DEMANGLED;
    else if (strcmp (argv[i], "--include-environment") == 0)
      options.include_environment = TRUE;
    else if (strcmp (argv[i], "--cpu") == 0)
      with_cpu = TRUE;
    else if (strcmp (argv[i], "--bookmark") == 0 && i + 3 < argc)
      add_bookmark (bookmarks, &argv[i + 1]), i += 3;
  profile = sl_profile_load (argv[1], NULL, NULL, NULL, &error);
  if (profile == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  if (with_cpu && (cpu = sl_cpu_activity_load (profile, NULL, &error)) == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  options.cpu = cpu;
  file = g_file_new_for_commandline_arg (argv[2]);
  out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  if (out == NULL || !sl_export_html_write (profile, &options, G_OUTPUT_STREAM (out), NULL, NULL, NULL, &error)
      || !g_output_stream_close (G_OUTPUT_STREAM (out), NULL, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  return 0;
}
