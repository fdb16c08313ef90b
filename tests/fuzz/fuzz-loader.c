/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-loader.c: libFuzzer target feeding mutated SQLite files to the
 * loader.  Every input must either load or fail with a GError.
 *
 * An input that starts with "SLSIDE", then 'w' or 'j', then a 32-bit
 * little-endian length N, holds a database of N bytes followed by its -wal
 * or -journal: the recovery of such profiles (sl-recovery.c) is fuzzed
 * too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "sightline.h"

static char *input_path;
static char *wal_path;
static char *journal_path;

#define SIDE_MAGIC "SLSIDE"
#define SIDE_HEADER 11

/* Writes the input as the database and, for a SLSIDE input, its sidecar. */
static void
write_input (const uint8_t *data, size_t size)
{
  const char *sidecar = NULL;
  size_t db_size = size;

  if (size >= SIDE_HEADER && memcmp (data, SIDE_MAGIC, 6) == 0 && (data[6] == 'w' || data[6] == 'j'))
    {
      uint32_t n = (uint32_t) data[7] | (uint32_t) data[8] << 8 | (uint32_t) data[9] << 16 | (uint32_t) data[10] << 24;
      sidecar = data[6] == 'w' ? wal_path : journal_path;
      data += SIDE_HEADER;
      size -= SIDE_HEADER;
      db_size = n < size ? n : size;
    }
  if (!g_file_set_contents (input_path, (const char *) data, (gssize) db_size, NULL) ||
      (sidecar != NULL && !g_file_set_contents (sidecar, (const char *) data + db_size, (gssize) (size - db_size), NULL)))
    abort ();
}

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  const char *dir = g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir ();
  input_path = g_strdup_printf ("%s/sl-fuzz-%d.sqlite", dir, (int) getpid ());
  wal_path = g_strconcat (input_path, "-wal", NULL);
  journal_path = g_strconcat (input_path, "-journal", NULL);
  /* Recovered copies go to the cache: keep them out of the user's. */
  g_setenv ("XDG_CACHE_HOME", dir, TRUE);
  /* Two loader threads per input would only add noise to the fuzzer. */
  g_setenv ("SL_LOADER_THREADS", "1", TRUE);
  /* Every input would leave a profile cache entry (in RAM, under /dev/shm),
   * and a hit would skip the loader being fuzzed. */
  sl_profile_cache_set_enabled (FALSE);
  return 0;
}

/* The CPU side and GPU metrics, read after the profile (issue 12): every
 * stack and name they hold, and the analyses over all of it. */
static void
fuzz_cpu_side (SlProfile *profile)
{
  GError *error = NULL;
  SlCpuActivity *a = sl_cpu_activity_load (profile, NULL, &error);
  SlGpuMetrics *m;

  if (a == NULL)
    {
      if (error == NULL || error->domain != SL_PROFILE_ERROR)
        abort ();
      g_clear_error (&error);
      return;
    }
  for (guint s = 0; s < a->n_stacks; s++)
    {
      guint n, first = sl_cpu_activity_stack_frames (a, s, &n);
      for (guint f = first; f < first + n; f++)
        (void) sl_cpu_activity_name (a, a->frame_symbol[f]);
    }
  g_array_unref (sl_cpu_top_functions (a, G_MININT64, G_MAXINT64, NULL, 0, 0));
  g_array_unref (sl_cpu_top_stacks (a, G_MININT64, G_MAXINT64, NULL, 0, 5));
  sl_cpu_activity_unref (a);
  m = sl_gpu_metrics_load (profile, NULL, &error);
  if (m == NULL && (error == NULL || error->domain != SL_PROFILE_ERROR))
    abort ();
  g_clear_error (&error);
  if (m != NULL)
    sl_gpu_metrics_unref (m);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GError *error = NULL;
  SlProfile *profile;

  write_input (data, size);
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
      fuzz_cpu_side (profile);
      sl_profile_unref (profile);
    }
  else if (error == NULL || error->domain != SL_PROFILE_ERROR || error->message[0] == '\0')
    abort ();
  g_clear_error (&error);
  g_unlink (input_path);
  g_unlink (wal_path);
  g_unlink (journal_path);
  return 0;
}
