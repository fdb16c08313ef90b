/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-profile-cache.c: when the cache is used, looking entries up and
 * writing them in the background (see sl-profile-cache.h). */
#include "sl-profile-cache-private.h"
#include "sl-profile-private.h"
#include "sl-cache-dir.h"
#include "sl-cache-entry.h"
#include "sl-content-id.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <glib/gstdio.h>

/* Below the main loop and the loader: a write never competes with them. */
#define WRITER_NICE 10

static gint disabled;                 /* atomic */
static GMutex lock;                   /* guards the rest */
static GCond idle;
static guint pending;                 /* writes under way */
static SlProfileCacheStats stats;

gboolean
sl_profile_cache_get_enabled (void)
{
  const char *env = g_getenv ("SIGHTLINE_NO_CACHE");

  return !g_atomic_int_get (&disabled) && (env == NULL || *env == '\0' || g_str_equal (env, "0"));
}

void
sl_profile_cache_set_enabled (gboolean enabled)
{
  g_atomic_int_set (&disabled, !enabled);
}

void
sl_profile_cache_get_stats (SlProfileCacheStats *out)
{
  g_return_if_fail (out != NULL);
  g_mutex_lock (&lock);
  *out = stats;
  g_mutex_unlock (&lock);
}

static void
count (guint *counter, guint n)
{
  g_mutex_lock (&lock);
  *counter += n;
  g_mutex_unlock (&lock);
}

/* With SL_LOADER_TIMING set, what the cache did (stderr): tests check
 * that a load really came from an entry this way. */
static void G_GNUC_PRINTF (1, 2)
debug (const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (g_getenv ("SL_LOADER_TIMING") == NULL)
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_printerr ("sl-loader: cache %s\n", message);
}

/* ---- looking up ------------------------------------------------------------- */

/* A -wal or hot -journal beside the export holds committed changes the
 * identity does not see. */
static gboolean
has_sidecar (const char *path)
{
  static const char *const suffixes[] = { "-wal", "-journal" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *sidecar = g_strconcat (path, suffixes[i], NULL);
      if (g_file_test (sidecar, G_FILE_TEST_EXISTS))
        return TRUE;
    }
  return FALSE;
}

/* The identity and size of the file open on @fd, or NULL. */
static char *
identify (int fd, guint64 *size)
{
  g_autoptr(GError) error = NULL;
  struct stat st;
  char *identity = NULL;

  if (fd >= 0 && fstat (fd, &st) == 0)
    {
      *size = (guint64) st.st_size;
      identity = sl_content_id_from_fd (fd, &error);
    }
  if (error != NULL)
    debug ("off: %s", error->message);
  return identity;
}

/* The parts an entry may hold to serve @wanted, fewest first. */
static guint
candidate_parts (SlParts wanted, SlParts out[32])
{
  guint n = 0;

  for (guint bits = 0; bits <= 5; bits++)
    for (guint p = 1; p <= SL_PARTS_ALL; p++)
      if ((p & wanted) == (guint) wanted && (guint) __builtin_popcount (p) == bits)
        out[n++] = (SlParts) p;
  return n;
}

static SlProfile *
open_entry (const char *dir, const char *display_path, const SlCacheKey *key)
{
  SlParts parts[32];
  guint n = candidate_parts (key->parts, parts);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = _sl_cache_dir_entry (dir, key->identity, parts[i]);
      const char *why = NULL;
      gint64 t0 = g_get_monotonic_time ();
      SlProfile *profile = _sl_cache_entry_open (path, display_path, key, &why);

      if (profile != NULL)
        {
          debug ("hit %s %.3f s", path, (double) (g_get_monotonic_time () - t0) / 1e6);
          count (&stats.hits, 1);
          return profile;
        }
      if (why != NULL)
        {
          /* Never trusted, never kept: the load from the export writes it anew. */
          debug ("rejected %s: %s", path, why);
          g_unlink (path);
          count (&stats.rejected, 1);
        }
    }
  debug ("miss");
  count (&stats.misses, 1);
  return NULL;
}

SlProfile *
_sl_profile_cache_load (SlSource *source, const char *display_path, SlParts parts, char **identity)
{
  g_autofree char *dir = NULL;
  SlCacheKey key = { NULL, 0, parts };
  SlProfile *profile;

  *identity = NULL;
  if (!sl_profile_cache_get_enabled () || has_sidecar (_sl_source_display (source)))
    return NULL;
  *identity = identify (_sl_source_fd (source), &key.profile_size);
  if (*identity == NULL)
    return NULL;
  key.identity = *identity;
  dir = _sl_cache_dir_path ();
  profile = open_entry (dir, display_path, &key);
  /* Details a user asks for later are read from the export, as always. */
  if (profile != NULL)
    _sl_profile_set_source (profile, _sl_source_fd (source), _sl_source_ref (source),
                            (GDestroyNotify) _sl_source_unref);
  return profile;
}

/* ---- writing ---------------------------------------------------------------- */

typedef struct {
  SlProfile *profile;
  char      *identity;
} StoreJob;

static void
store_job_free (StoreJob *job)
{
  sl_profile_unref (job->profile);
  g_free (job->identity);
  g_free (job);
}

/* Writes the entry, then keeps the folder within its bound. */
static void
store (StoreJob *job, const SlCacheKey *key)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = _sl_cache_dir_path ();
  g_autofree char *path = _sl_cache_dir_entry (dir, key->identity, key->parts);
  guint64 limit = _sl_cache_dir_limit (), bytes = 0;
  gint64 t0 = g_get_monotonic_time ();

  if (g_mkdir_with_parents (dir, 0700) != 0
      || !_sl_cache_entry_write (job->profile, path, key, &bytes, &error))
    {
      debug ("not written: %s", error != NULL ? error->message : "no cache folder");
      count (&stats.not_written, 1);
      return;
    }
  if (bytes > limit)
    {
      /* Larger than the whole cache may be: keeping it would evict all else. */
      g_unlink (path);
      debug ("not kept %s: %" G_GUINT64_FORMAT " bytes, over the bound", path, bytes);
      count (&stats.not_written, 1);
      return;
    }
  debug ("written %s %" G_GUINT64_FORMAT " bytes %.3f s", path, bytes,
         (double) (g_get_monotonic_time () - t0) / 1e6);
  count (&stats.written, 1);
  _sl_cache_dir_remove_subsets (dir, key->identity, key->parts);
  count (&stats.evicted, _sl_cache_dir_evict (dir, limit));
}

static gpointer
store_thread (gpointer data)
{
  StoreJob *job = data;
  guint64 size = 0;
  g_autofree char *now = NULL;

  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), WRITER_NICE);
  /* The export must still be what was loaded: else the entry would file
   * one file's contents under another's identity.  (The profile keeps its
   * descriptor open.) */
  now = identify (job->profile->source_fd, &size);
  if (now != NULL && g_str_equal (now, job->identity))
    {
      SlCacheKey key = { job->identity, size, job->profile->parts };
      store (job, &key);
    }
  else
    {
      debug ("not written: %s changed while it was loaded", job->profile->path);
      count (&stats.not_written, 1);
    }
  store_job_free (job);
  g_mutex_lock (&lock);
  pending--;
  g_cond_broadcast (&idle);
  g_mutex_unlock (&lock);
  return NULL;
}

void
_sl_profile_cache_store (SlProfile *profile, char *identity)
{
  StoreJob *job;
  GThread *thread;

  if (identity == NULL)
    return;
  job = g_new0 (StoreJob, 1);
  job->profile = sl_profile_ref (profile);
  job->identity = identity;
  g_mutex_lock (&lock);
  pending++;
  g_mutex_unlock (&lock);
  thread = g_thread_try_new ("sl-cache-write", store_thread, job, NULL);
  if (thread != NULL)
    {
      g_thread_unref (thread);
      return;
    }
  store_job_free (job);
  g_mutex_lock (&lock);
  pending--;
  stats.not_written++;
  g_cond_broadcast (&idle);
  g_mutex_unlock (&lock);
}

void
sl_profile_cache_flush (void)
{
  g_mutex_lock (&lock);
  while (pending > 0)
    g_cond_wait (&idle, &lock);
  g_mutex_unlock (&lock);
}
