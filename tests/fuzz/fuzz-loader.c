/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-loader.c: libFuzzer target feeding mutated SQLite files to the
 * loader.  Every input must either load or fail with a GError. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "sightline.h"

static char *input_path;

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  const char *dir = g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir ();
  input_path = g_strdup_printf ("%s/sl-fuzz-%d.sqlite", dir, (int) getpid ());
  /* Two loader threads per input would only add noise to the fuzzer. */
  g_setenv ("SL_LOADER_THREADS", "1", TRUE);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GError *error = NULL;
  SlProfile *profile;

  if (!g_file_set_contents (input_path, (const char *) data, (gssize) size, NULL))
    abort ();
  profile = sl_profile_load (input_path, NULL, NULL, NULL, &error);
  if (profile != NULL)
    {
      /* Touch what the views touch: names and every link. */
      for (guint s = 0; s < profile->n_streams; s++)
        for (guint i = 0; i < profile->streams[s].kernels.spans.n; i++)
          {
            (void) sl_profile_kernel_name (profile, profile->streams[s].kernels.func[i], TRUE);
            (void) sl_profile_api_thread (profile, profile->streams[s].kernels.api[i]);
            (void) sl_spans_end (&profile->streams[s].kernels.spans, i);
          }
      for (guint t = 0; t < profile->n_threads; t++)
        for (guint i = 0; i < profile->threads[t].nvtx.spans.n; i++)
          (void) sl_strings_get (profile->strings, profile->threads[t].nvtx.name[i]);
      sl_profile_unref (profile);
    }
  else if (error == NULL || error->domain != SL_PROFILE_ERROR || error->message[0] == '\0')
    abort ();
  g_clear_error (&error);
  g_unlink (input_path);
  return 0;
}
