/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-profile-cache.c: the profile cache (issue 10, item 5).  A profile
 * read back from an entry equals, array for array, the one loaded from the
 * export; every kind of damaged, foreign or stale entry is refused, deleted
 * and written anew while the answers stay exact; the folder stays within
 * its bound, least recently used first; nothing is written beside the
 * profile.  No test depends on timing. */
#include "sl-test-util.h"
#include "sl-cache-dir.h"
#include "sl-cache-entry.h"
#include "sl-content-id.h"
#include "sl-hash64.h"
#include "sl-profile-cache-private.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

static char *cache_home;    /* XDG_CACHE_HOME of this test */
static char *work_dir;      /* profiles this test may modify */

/* ---- helpers ---------------------------------------------------------------- */

static gboolean
rm_rf (const char *path)
{
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (!rm_rf (child))
        return FALSE;
    }
  return d != NULL ? g_rmdir (path) == 0 : g_unlink (path) == 0;
}

static char *
entries_dir (void)
{
  return _sl_cache_dir_path ();
}

static void
clear_entries (void)
{
  g_autofree char *dir = entries_dir ();
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_assert_cmpint (g_unlink (path), ==, 0);
    }
}

static guint
count_entries (void)
{
  g_autofree char *dir = entries_dir ();
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static void
assert_same_stats (const SlProfileCacheStats *a, const SlProfileCacheStats *b)
{
  g_assert_cmpmem (a, sizeof *a, b, sizeof *b);
}

static SlProfileCacheStats
stats_now (void)
{
  SlProfileCacheStats s;

  sl_profile_cache_get_stats (&s);
  return s;
}

/* A load from the export, the cache left alone. */
static SlProfile *
load_fresh (const char *path)
{
  SlProfile *profile;

  sl_profile_cache_set_enabled (FALSE);
  profile = sl_test_load (path);
  sl_profile_cache_set_enabled (TRUE);
  return profile;
}

static char *
entry_path_of (const char *profile_path)
{
  g_autofree char *dir = entries_dir ();
  g_autofree char *identity = sl_content_id_from_path (profile_path, NULL);

  g_assert_nonnull (identity);
  return _sl_cache_dir_entry (dir, identity, SL_PARTS_ALL);
}

static SlCacheKey
key_of (const char *profile_path, char **identity)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (profile_path, &st), ==, 0);
  *identity = sl_content_id_from_path (profile_path, NULL);
  return (SlCacheKey) { *identity, (guint64) st.st_size, SL_PARTS_ALL };
}

static char *
copy_to_work (const char *path, const char *name)
{
  g_autofree char *contents = NULL;
  gsize len;
  char *copy = g_build_filename (work_dir, name, NULL);

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) len, NULL));
  return copy;
}

static void
sql_exec (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  sqlite3_close (db);
}

/* A generated profile with what is rare in real ones: durations over
 * 4.29 s (a kernel, an API call, a copy, a sync, NVTX step ranges around
 * a stall), start/end ranges in several lanes, marks, kernels whose
 * launching call is missing, skipped rows (warnings), a thread of 67 000
 * ranges of distinct colors (4-byte style indexes). */
static const char *
hostile_profile (void)
{
  static char *path;
  const SlTestFixture *f;

  if (path != NULL)
    return path;
  f = sl_test_fixture ("cache-hostile",
                       "--gpus 2 --streams 2 --processes 2 --threads 3 --iterations 12 --kernels 6000 "
                       "--nvtx-depth 4 --nccl --memcpy 120 --memset 40 --async-ranges 3 "
                       "--stall-ns 5000000000 --stall-step 3 --bad-rows 3 --seed 7");
  path = copy_to_work (f->path, "hostile.sqlite");
  sql_exec (path,
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start + 6000000000 WHERE rowid = 5;"
            "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET end = start + 5000000000 WHERE rowid = 7;"
            "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET end = start + 4400000000 WHERE rowid = 1;"
            "UPDATE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION SET end = start + 4300000000 WHERE rowid = 1;"
            "DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE rowid % 97 = 0;"
            /* a thread with more (color, domain) pairs than 2-byte style indexes hold */
            "WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < 66999), "
            "at(t, tid) AS (SELECT max(\"end\"), (SELECT globalTid FROM NVTX_EVENTS WHERE eventType = 59 "
            "ORDER BY rowid LIMIT 1) FROM NVTX_EVENTS) "
            "INSERT INTO NVTX_EVENTS (start, \"end\", eventType, text, globalTid, color, domainId) "
            "SELECT t + 100 * n + 10, t + 100 * n + 60, 59, 'colored', tid, 4278190080 + n * 7, n % 2 FROM i, at;");
  return path;
}

/* ---- comparing profiles array for array ---------------------------------------- */

#define ASSERT_ARRAY(a, b, n) assert_array ((a), (b), (gsize) (n) * sizeof *(a), G_STRINGIFY (a))

static void
assert_array (gconstpointer a, gconstpointer b, gsize bytes, const char *what)
{
  if ((a == NULL) != (b == NULL))
    g_error ("%s: NULL in one profile only", what);
  if (bytes > 0)
    g_assert_cmpmem (a, bytes, b, bytes);
}

static void
assert_spans (const SlSpans *a, const SlSpans *b)
{
  g_assert_cmpuint (a->n, ==, b->n);
  g_assert_cmpuint (a->n_long, ==, b->n_long);
  ASSERT_ARRAY (a->start, b->start, a->n);
  ASSERT_ARRAY (a->dur, b->dur, a->n);
  ASSERT_ARRAY (a->long_index, b->long_index, a->n_long);
  ASSERT_ARRAY (a->long_dur, b->long_dur, a->n_long);
}

static void
assert_copies (const SlCopies *a, const SlCopies *b)
{
  assert_spans (&a->spans, &b->spans);
  ASSERT_ARRAY (a->kind, b->kind, a->spans.n);
  ASSERT_ARRAY (a->bytes, b->bytes, a->spans.n);
  ASSERT_ARRAY (a->corr, b->corr, a->spans.n);
  ASSERT_ARRAY (a->api, b->api, a->spans.n);
}

static void
assert_stream (const SlStream *a, const SlStream *b)
{
  g_assert_true (a->pid == b->pid && a->device == b->device && a->context == b->context);
  g_assert_true (a->stream == b->stream && a->gpu == b->gpu);
  assert_spans (&a->kernels.spans, &b->kernels.spans);
  ASSERT_ARRAY (a->kernels.func, b->kernels.func, a->kernels.spans.n);
  ASSERT_ARRAY (a->kernels.api, b->kernels.api, a->kernels.spans.n);
  ASSERT_ARRAY (a->kernels.rowid, b->kernels.rowid, a->kernels.rowid != NULL ? a->kernels.spans.n : 0);
  ASSERT_ARRAY (a->kernels.rowid_marks, b->kernels.rowid_marks,
                a->kernels.rowid_marks != NULL ? a->kernels.spans.n / SL_ROWID_STEP + 2 : 0);
  g_assert_cmpuint (a->kernels.n_unlinked, ==, b->kernels.n_unlinked);
  ASSERT_ARRAY (a->kernels.unlinked_index, b->kernels.unlinked_index, a->kernels.n_unlinked);
  ASSERT_ARRAY (a->kernels.unlinked_corr, b->kernels.unlinked_corr, a->kernels.n_unlinked);
  assert_copies (&a->memcpy, &b->memcpy);
  assert_copies (&a->memset, &b->memset);
}

static void
assert_gpu (const SlGpu *a, const SlGpu *b)
{
  g_assert_cmpuint (a->device, ==, b->device);
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpint (a->sm_count, ==, b->sm_count);
  g_assert_cmpint (a->memory_bytes, ==, b->memory_bytes);
  g_assert_cmpint (a->has_activity, ==, b->has_activity);
  g_assert_cmpuint (a->n_kernels, ==, b->n_kernels);
  g_assert_cmpuint (a->n_streams, ==, b->n_streams);
  ASSERT_ARRAY (a->streams, b->streams, a->n_streams);
}

static void
assert_ranges (const SlNvtxRanges *a, const SlNvtxRanges *b)
{
  assert_spans (&a->spans, &b->spans);
  ASSERT_ARRAY (a->name, b->name, a->spans.n);
  ASSERT_ARRAY (a->parent, b->parent, a->spans.n);
  g_assert_cmpuint (a->n_depths, ==, b->n_depths);
  ASSERT_ARRAY (a->depth_first, b->depth_first, a->depth_first != NULL ? a->n_depths + 1 : 0);
  ASSERT_ARRAY (a->style, b->style, a->style != NULL ? a->spans.n : 0);
  ASSERT_ARRAY (a->style_wide, b->style_wide, a->style_wide != NULL ? a->spans.n : 0);
  g_assert_cmpuint (a->n_styles, ==, b->n_styles);
  ASSERT_ARRAY (a->style_color, b->style_color, a->n_styles);
  ASSERT_ARRAY (a->style_domain, b->style_domain, a->n_styles);
  for (guint i = 0; i < a->spans.n; i++)
    g_assert_true (sl_nvtx_ranges_color (a, i) == sl_nvtx_ranges_color (b, i)
                   && sl_nvtx_ranges_domain (a, i) == sl_nvtx_ranges_domain (b, i)
                   && sl_nvtx_ranges_depth (a, i) == sl_nvtx_ranges_depth (b, i));
}

static void
assert_thread (const SlThread *a, const SlThread *b)
{
  g_assert_cmpuint (a->global_tid, ==, b->global_tid);
  g_assert_true (a->pid == b->pid && a->tid == b->tid && a->name == b->name && a->process == b->process);
  g_assert_true (a->api_first == b->api_first && a->api_count == b->api_count);
  assert_ranges (&a->nvtx, &b->nvtx);
  assert_ranges (&a->nvtx_startend, &b->nvtx_startend);
  g_assert_cmpuint (a->marks.n, ==, b->marks.n);
  ASSERT_ARRAY (a->marks.time, b->marks.time, a->marks.n);
  ASSERT_ARRAY (a->marks.name, b->marks.name, a->marks.n);
  ASSERT_ARRAY (a->marks.color, b->marks.color, a->marks.n);
  ASSERT_ARRAY (a->marks.domain, b->marks.domain, a->marks.n);
}

static void
assert_cpu_side (const SlProfile *a, const SlProfile *b)
{
  g_assert_cmpuint (a->n_threads, ==, b->n_threads);
  for (guint i = 0; i < a->n_threads; i++)
    assert_thread (&a->threads[i], &b->threads[i]);
  g_assert_cmpuint (a->n_processes, ==, b->n_processes);
  for (guint i = 0; i < a->n_processes; i++)
    {
      g_assert_true (a->processes[i].pid == b->processes[i].pid && a->processes[i].name == b->processes[i].name);
      g_assert_cmpuint (a->processes[i].n_threads, ==, b->processes[i].n_threads);
      ASSERT_ARRAY (a->processes[i].threads, b->processes[i].threads, a->processes[i].n_threads);
    }
  g_assert_cmpuint (a->n_domains, ==, b->n_domains);
  ASSERT_ARRAY (a->domains, b->domains, a->n_domains);
  assert_spans (&a->api.spans, &b->api.spans);
  ASSERT_ARRAY (a->api.name, b->api.name, a->api.spans.n);
  for (guint i = 0; i < a->api.spans.n; i++)
    g_assert_cmpuint (sl_api_corr (&a->api, i), ==, sl_api_corr (&b->api, i));
  assert_spans (&a->syncs.spans, &b->syncs.spans);
  ASSERT_ARRAY (a->syncs.device, b->syncs.device, a->syncs.spans.n);
  ASSERT_ARRAY (a->syncs.stream, b->syncs.stream, a->syncs.spans.n);
  ASSERT_ARRAY (a->syncs.pid, b->syncs.pid, a->syncs.spans.n);
  ASSERT_ARRAY (a->syncs.sync_type, b->syncs.sync_type, a->syncs.spans.n);
  ASSERT_ARRAY (a->syncs.corr, b->syncs.corr, a->syncs.spans.n);
  ASSERT_ARRAY (a->syncs.api, b->syncs.api, a->syncs.spans.n);
}

static void
assert_scalars (const SlProfile *a, const SlProfile *b)
{
  g_assert_cmpstr (a->path, ==, b->path);
  g_assert_cmpstr (a->nsys_version, ==, b->nsys_version);
  g_assert_cmpstr (a->schema_version, ==, b->schema_version);
  g_assert_cmpint (a->start_ns, ==, b->start_ns);
  g_assert_cmpint (a->end_ns, ==, b->end_ns);
  g_assert_cmpint (a->session_utc_ns, ==, b->session_utc_ns);
  g_assert_cmpmem (&a->counts, sizeof a->counts, &b->counts, sizeof b->counts);
  g_assert_cmpint (a->parts, ==, b->parts);
  g_assert_cmpuint (a->warnings->len, ==, b->warnings->len);
  for (guint i = 0; i < a->warnings->len; i++)
    g_assert_cmpstr (a->warnings->pdata[i], ==, b->warnings->pdata[i]);
  g_assert_cmpuint (sl_strings_count (a->strings), ==, sl_strings_count (b->strings));
  for (guint32 i = 0; i < sl_strings_count (a->strings); i++)
    g_assert_cmpstr (sl_strings_get (a->strings, i), ==, sl_strings_get (b->strings, i));
}

static void
assert_profiles_equal (const SlProfile *a, const SlProfile *b)
{
  assert_scalars (a, b);
  g_assert_cmpuint (a->n_funcs, ==, b->n_funcs);
  ASSERT_ARRAY (a->funcs, b->funcs, a->n_funcs);
  g_assert_cmpuint (a->n_gpus, ==, b->n_gpus);
  for (guint i = 0; i < a->n_gpus; i++)
    assert_gpu (&a->gpus[i], &b->gpus[i]);
  g_assert_cmpuint (a->n_streams, ==, b->n_streams);
  for (guint i = 0; i < a->n_streams; i++)
    assert_stream (&a->streams[i], &b->streams[i]);
  assert_cpu_side (a, b);
}

/* ---- the checksum and the identity ---------------------------------------------- */

static void
test_hash (void)
{
  static const char text[] = "Nobody inspects the spammish repetition";
  guint8 data[1000];
  SlHash64 state;

  /* The reference XXH64 values. */
  g_assert_cmphex (_sl_hash64 ("", 0, 0), ==, G_GUINT64_CONSTANT (0xef46db3751d8e999));
  g_assert_cmphex (_sl_hash64 ("abc", 3, 0), ==, G_GUINT64_CONSTANT (0x44bc2cf5ad770999));
  g_assert_cmphex (_sl_hash64 (text, strlen (text), 0), ==, G_GUINT64_CONSTANT (0xfbcea83c8a378bf1));
  for (guint i = 0; i < sizeof data; i++)
    data[i] = (guint8) (i * 31 + 7);
  /* Any split of the input gives the one-shot digest. */
  for (gsize split = 0; split < sizeof data; split += 37)
    {
      _sl_hash64_init (&state, 5);
      _sl_hash64_update (&state, data, split);
      _sl_hash64_update (&state, data + split, 1);
      _sl_hash64_update (&state, data + split + 1, sizeof data - split - 1);
      g_assert_cmphex (_sl_hash64_digest (&state), ==, _sl_hash64 (data, sizeof data, 5));
    }
}

static char *
write_pattern (const char *name, gsize n)
{
  g_autofree guint8 *data = g_malloc (MAX (n, 1));
  char *path = g_build_filename (work_dir, name, NULL);

  for (gsize i = 0; i < n; i++)
    data[i] = (guint8) (((guint64) i * 2654435761u) >> 13);
  g_assert_true (g_file_set_contents (path, (const char *) data, (gssize) n, NULL));
  return path;
}

/* The recipe is frozen (bookmarks store identities): these values come
 * from an independent implementation of the description in
 * sl-content-id.h. */
static void
test_content_id_recipe (void)
{
  static const struct { gsize size; const char *id; } known[] = {
    { 0, "2cf752590c86c0a5dfab6da91116d3eadf21de7aadc1e309560a7026ff6b8428" },
    { 1000, "0d77ad328a578e57c72f9dafe2832212ab3cccde1f40c982f7f4bb1dbd20d732" },
    { 3 * 1024 * 1024 + 123, "5bf7def4a0cf796c92ff68a80ede37a12e92372cf56ee850830300ab89c3e15e" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      g_autofree char *path = write_pattern ("pattern.bin", known[i].size);
      g_autofree char *id = sl_content_id_from_path (path, NULL);
      g_assert_cmpstr (id, ==, known[i].id);
      g_assert_cmpuint (strlen (id), ==, SL_CONTENT_ID_LEN);
    }
}

static void
test_content_id_copies (void)
{
  g_autofree char *real = sl_test_real_profile ("nsysai-h100-2gpu-1s.sqlite");
  g_autofree char *other = sl_test_real_profile ("pipit-saxpy-mpi-rank0.sqlite");
  g_autofree char *copy = copy_to_work (real, "moved.sqlite");
  g_autofree char *id = sl_content_id_from_path (real, NULL);
  g_autofree char *id_copy = NULL, *id_touched = NULL, *id_other = NULL, *id_changed = NULL;
  int fd = g_open (copy, O_RDWR, 0);

  /* Neither the path nor the modification time is part of it. */
  id_copy = sl_content_id_from_path (copy, NULL);
  g_assert_cmpstr (id, ==, id_copy);
  g_assert_cmpint (futimens (fd, NULL), ==, 0);
  g_assert_cmpint (lseek (fd, 123, SEEK_SET), ==, 123);
  id_touched = sl_content_id_from_fd (fd, NULL);
  g_assert_cmpstr (id, ==, id_touched);
  /* It leaves the descriptor's offset alone (the loader reads through it). */
  g_assert_cmpint (lseek (fd, 0, SEEK_CUR), ==, 123);
  id_other = sl_content_id_from_path (other, NULL);
  g_assert_cmpstr (id, !=, id_other);
  /* SQLite's file change counter (header bytes 24..27) moves on every write. */
  g_assert_cmpint (pwrite (fd, "\x7f", 1, 27), ==, 1);
  id_changed = sl_content_id_from_fd (fd, NULL);
  g_assert_cmpstr (id, !=, id_changed);
  close (fd);
  g_assert_null (sl_content_id_from_path ("/nonexistent/profile.sqlite", NULL));
}

/* ---- round trips ------------------------------------------------------------------ */

/* A kernel's cold columns, read later through the profile's descriptor,
 * are the same from a profile read from an entry. */
static void
assert_same_details (const SlProfile *fresh, const SlProfile *cached)
{
  g_assert_cmpint (cached->source_fd, >=, 0);
  for (guint s = 0; s < fresh->n_streams; s++)
    {
      guint n = fresh->streams[s].kernels.spans.n;
      for (guint i = 0; n > 0 && i < 3; i++)
        {
          SlKernelDetails a = { 0 }, b = { 0 };
          gboolean ok_a = sl_kernel_details_read (fresh, s, i * (n - 1) / 2, &a, NULL);
          gboolean ok_b = sl_kernel_details_read (cached, s, i * (n - 1) / 2, &b, NULL);
          g_assert_cmpint (ok_a, ==, ok_b);
          g_assert_cmpmem (a.grid, sizeof a.grid, b.grid, sizeof b.grid);
          g_assert_cmpmem (a.block, sizeof a.block, b.block, sizeof b.block);
          g_assert_cmpint (a.registers_per_thread, ==, b.registers_per_thread);
          g_assert_cmpstr (a.mangled_name, ==, b.mangled_name);
          sl_kernel_details_clear (&a);
          sl_kernel_details_clear (&b);
        }
    }
}

/* Fresh load, the load that writes the entry, the load that reads it:
 * all three equal. */
static void
assert_round_trip (const char *path)
{
  g_autoptr(SlProfile) fresh = load_fresh (path);
  SlProfileCacheStats before = stats_now (), after;
  g_autoptr(SlProfile) writing = sl_test_load (path);
  g_autoptr(SlProfile) reading = NULL;
  g_autofree char *entry = entry_path_of (path);

  sl_profile_cache_flush ();
  after = stats_now ();
  g_assert_cmpuint (after.written, ==, before.written + 1);
  g_assert_cmpuint (after.hits, ==, before.hits);
  g_assert_true (g_file_test (entry, G_FILE_TEST_IS_REGULAR));
  reading = sl_test_load (path);
  g_assert_cmpuint (stats_now ().hits, ==, before.hits + 1);
  assert_profiles_equal (fresh, writing);
  assert_profiles_equal (fresh, reading);
  assert_same_details (fresh, reading);
  /* Answers from the mapped arrays, through the public lookups. */
  for (guint s = 0; s < reading->n_streams; s++)
    for (guint i = 0; i < reading->streams[s].kernels.spans.n; i += 97)
      g_assert_cmpuint (sl_kernels_corr (reading, &reading->streams[s].kernels, i), ==,
                        sl_kernels_corr (fresh, &fresh->streams[s].kernels, i));
}

static void
test_round_trip_real (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  clear_entries ();
  for (guint i = 0; paths[i] != NULL; i++)
    assert_round_trip (paths[i]);
}

static void
test_round_trip_hostile (void)
{
  g_autoptr(SlProfile) fresh = load_fresh (hostile_profile ());
  gboolean long_kernel = FALSE, unlinked = FALSE, startend = FALSE, marks = FALSE, rowid_marks = FALSE;
  gboolean wide_styles = FALSE;

  /* The fixture has what it should. */
  for (guint s = 0; s < fresh->n_streams; s++)
    {
      long_kernel |= fresh->streams[s].kernels.spans.n_long > 0;
      unlinked |= fresh->streams[s].kernels.n_unlinked > 0;
      rowid_marks |= fresh->streams[s].kernels.rowid_marks != NULL;
    }
  for (guint t = 0; t < fresh->n_threads; t++)
    {
      startend |= fresh->threads[t].nvtx_startend.n_depths > 1;
      marks |= fresh->threads[t].marks.n > 0;
      wide_styles |= fresh->threads[t].nvtx.style_wide != NULL;
    }
  g_assert_true (long_kernel && unlinked && startend && marks && rowid_marks && wide_styles);
  g_assert_cmpuint (fresh->api.spans.n_long, >, 0);
  g_assert_cmpuint (fresh->syncs.spans.n_long, >, 0);
  g_assert_cmpuint (fresh->warnings->len, >, 0);
  clear_entries ();
  assert_round_trip (hostile_profile ());
}

/* ---- damaged, foreign and stale entries ---------------------------------------------- */

typedef struct {
  const char *name;
  void      (*corrupt) (GByteArray *entry, gsize arg);
  gsize       arg;
  const char *why;         /* what _sl_cache_entry_open must say */
} Corruption;

static SlCacheHeader *
header_of (GByteArray *e)
{
  return (SlCacheHeader *) e->data;
}

static void
rehash_header (GByteArray *e)
{
  header_of (e)->header_hash = _sl_cache_entry_header_hash (header_of (e));
}

static void
rehash_section (GByteArray *e, guint i)
{
  SlCacheSection *s = &header_of (e)->sections[i];

  s->hash = _sl_hash64 (e->data + s->offset, s->length, i);
  rehash_header (e);
}

static void
flip_byte (GByteArray *e, gsize offset)
{
  e->data[offset] ^= 0x55;
}

static void
truncate_to (GByteArray *e, gsize length)
{
  g_byte_array_set_size (e, (guint) length);
}

static void
flip_in_section (GByteArray *e, gsize section)
{
  const SlCacheSection *s = &header_of (e)->sections[section];

  flip_byte (e, s->offset + s->length / 2);
}

static void
flip_last_of_section (GByteArray *e, gsize section)
{
  const SlCacheSection *s = &header_of (e)->sections[section];

  flip_byte (e, s->offset + s->length - 1);
}

/* Header fields changed with the header checksum made right again, so
 * that only the field's own check can refuse the entry. */
static void
forge_header (GByteArray *e, gsize what)
{
  SlCacheHeader *h = header_of (e);

  switch (what)
    {
    case 0: h->format++; break;
    case 1: h->byte_order = GUINT32_SWAP_LE_BE (h->byte_order); break;
    case 2: h->build[0] ^= 1; break;
    case 3: g_strlcpy (h->build, "0.0.1+0000000000000000", sizeof h->build); break;
    case 4: h->locale[0] ^= 1; break;
    case 5: h->identity[3] = h->identity[3] == 'a' ? 'b' : 'a'; break;
    case 6: h->profile_size++; break;
    case 7: h->parts = SL_PART_KERNELS; break;
    case 8: h->parts |= 0x20; break;
    case 9: h->entry_size += 8; break;
    case 10: h->sections[SL_CACHE_SECTION_GPU].offset += 8; break;
    case 11: h->sections[SL_CACHE_SECTION_META].length += 8; break;
    case 12: h->sections[SL_CACHE_SECTION_API].length = G_MAXUINT64 - 7; break;
    case 13: h->sections[SL_CACHE_SECTION_STRINGS].offset = h->entry_size + 8; break;
    case 14: h->header_size += 8; break;
    default: g_assert_not_reached ();
    }
  rehash_header (e);
}

/* The META word that holds the string offsets' array reference: the
 * first array of the STRINGS section, right after the string count. */
static guint64 *
strings_reference (GByteArray *e, guint64 n_strings)
{
  const SlCacheHeader *h = header_of (e);
  const SlCacheSection *meta = &h->sections[SL_CACHE_SECTION_META];
  guint64 *words = (guint64 *) (e->data + meta->offset);

  for (gsize k = 1; k < meta->length / 8; k++)
    if (words[k] == h->sections[SL_CACHE_SECTION_STRINGS].offset && words[k - 1] == n_strings)
      return &words[k];
  g_error ("no reference to the string offsets in META");
}

static guint64 hostile_strings;   /* string count of the hostile profile */

/* Array references and counts in META changed, every checksum right:
 * the bounds checks alone must refuse them. */
static void
forge_reference (GByteArray *e, gsize what)
{
  guint64 *ref = strings_reference (e, hostile_strings);
  const SlCacheHeader *h = header_of (e);

  switch (what)
    {
    case 0: *ref = h->entry_size; break;                 /* beyond the file */
    case 1: *ref += 4; break;                            /* misaligned */
    case 2: *ref = 8; break;                             /* inside the header */
    case 3: *ref = G_MAXUINT64 - 7; break;               /* offset + length overflows */
    case 4: ref[-1] = G_MAXUINT32 - 1; break;            /* count far past the data */
    case 5: ref[-1] = G_GUINT64_CONSTANT (1) << 40; break; /* count too large for its field */
    default: g_assert_not_reached ();
    }
  rehash_section (e, SL_CACHE_SECTION_META);
}

static void
append_bytes (GByteArray *e, gsize n)
{
  static const guint8 zeros[64] = { 0 };

  g_byte_array_append (e, zeros, (guint) n);
}

static char *other_entry;   /* bytes of another profile's entry, for "stale" */

static void
replace_with_other (GByteArray *e, gsize unused)
{
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (other_entry, &contents, &len, NULL));
  g_byte_array_set_size (e, 0);
  g_byte_array_append (e, (const guint8 *) contents, (guint) len);
}

static const Corruption corruptions[] = {
  { "magic", flip_byte, 0, "not a Sightline cache entry" },
  { "format version", forge_header, 0, "another format version" },
  { "byte order", forge_header, 1, "another format version" },
  { "header size", forge_header, 14, "another format version" },
  { "header checksum", flip_byte, G_STRUCT_OFFSET (SlCacheHeader, identity) + 2, "header checksum mismatch" },
  { "header checksum itself", flip_byte, G_STRUCT_OFFSET (SlCacheHeader, header_hash), "header checksum mismatch" },
  { "foreign build", forge_header, 2, "another build" },
  { "foreign version", forge_header, 3, "another build" },
  { "other language", forge_header, 4, "another language" },
  { "stale identity", forge_header, 5, "stale" },
  { "stale size", forge_header, 6, "stale" },
  { "another profile's entry", replace_with_other, 0, "stale" },
  { "fewer parts", forge_header, 7, "lacks parts" },
  { "unknown parts", forge_header, 8, "lacks parts" },
  { "entry size", forge_header, 9, "truncated or extended" },
  { "section moved", forge_header, 10, "a section outside the file" },
  { "section past the end", forge_header, 11, "a section outside the file" },
  { "section length overflow", forge_header, 12, "a section outside the file" },
  { "section beyond the file", forge_header, 13, "a section outside the file" },
  { "GPU bytes", flip_in_section, SL_CACHE_SECTION_GPU, "section checksum mismatch" },
  { "API bytes", flip_in_section, SL_CACHE_SECTION_API, "section checksum mismatch" },
  { "CPU bytes", flip_in_section, SL_CACHE_SECTION_CPU, "section checksum mismatch" },
  { "sync bytes", flip_in_section, SL_CACHE_SECTION_SYNCS, "section checksum mismatch" },
  { "string bytes", flip_in_section, SL_CACHE_SECTION_STRINGS, "section checksum mismatch" },
  { "META bytes", flip_in_section, SL_CACHE_SECTION_META, "section checksum mismatch" },
  { "last byte", flip_last_of_section, SL_CACHE_SECTION_META, "section checksum mismatch" },
  { "array beyond the file", forge_reference, 0, "an array outside the data" },
  { "array misaligned", forge_reference, 1, "an array outside the data" },
  { "array in the header", forge_reference, 2, "an array outside the data" },
  { "array offset overflow", forge_reference, 3, "an array outside the data" },
  { "array count past the data", forge_reference, 4, "an array outside the data" },
  { "count out of range", forge_reference, 5, "a 32-bit value out of range" },
  { "truncated to nothing", truncate_to, 0, "shorter than its header" },
  { "truncated in the header", truncate_to, 100, "shorter than its header" },
  { "truncated after the header", truncate_to, sizeof (SlCacheHeader), "truncated or extended" },
  { "truncated by a byte", truncate_to, G_MAXSIZE, "truncated or extended" },
  { "extended", append_bytes, 8, "truncated or extended" },
};

static void
write_entry_bytes (const char *path, GByteArray *bytes)
{
  g_assert_true (g_file_set_contents (path, (const char *) bytes->data, bytes->len, NULL));
}

/* @c applied to a copy of @good: refused for the expected reason, then, in
 * a real load, deleted, the answers exact, and the entry written anew. */
static void
assert_refused (const Corruption *c, GBytes *good, const char *path, const SlProfile *fresh)
{
  g_autofree char *entry = entry_path_of (path);
  g_autofree char *identity = NULL;
  SlCacheKey key = key_of (path, &identity);
  g_autoptr(GByteArray) bad = g_byte_array_new ();
  g_autofree char *rewritten = NULL;
  gsize len;
  const char *why = NULL;
  SlProfileCacheStats before;

  g_byte_array_append (bad, g_bytes_get_data (good, NULL), (guint) g_bytes_get_size (good));
  c->corrupt (bad, c->arg == G_MAXSIZE ? bad->len - 1 : c->arg);
  write_entry_bytes (entry, bad);
  g_assert_null (_sl_cache_entry_open (entry, path, &key, &why));
  if (why == NULL || strstr (why, c->why) == NULL)
    g_error ("%s: refused because “%s”, expected “%s”", c->name, why, c->why);

  before = stats_now ();
  g_autoptr(SlProfile) profile = sl_test_load (path);
  g_assert_cmpuint (stats_now ().rejected, ==, before.rejected + 1);
  g_assert_cmpuint (stats_now ().hits, ==, before.hits);
  assert_profiles_equal (fresh, profile);
  sl_profile_cache_flush ();
  g_assert_cmpuint (stats_now ().written, ==, before.written + 1);
  /* Writing is deterministic: the new entry is the good one again. */
  g_assert_true (g_file_get_contents (entry, &rewritten, &len, NULL));
  g_assert_cmpmem (rewritten, len, g_bytes_get_data (good, NULL), g_bytes_get_size (good));
}

static GBytes *
good_entry (const char *path)
{
  g_autofree char *entry = entry_path_of (path);
  g_autoptr(SlProfile) profile = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  clear_entries ();
  profile = sl_test_load (path);
  sl_profile_cache_flush ();
  g_assert_true (g_file_get_contents (entry, &contents, &len, NULL));
  return g_bytes_new_take (g_steal_pointer (&contents), len);
}

static void
test_corruption (void)
{
  const char *path = hostile_profile ();
  g_autoptr(SlProfile) fresh = load_fresh (path);
  g_autofree char *other = sl_test_real_profile ("nsysai-mock-rtx3080.sqlite");
  g_autoptr(GBytes) other_bytes = good_entry (other);
  g_autoptr(GBytes) good = NULL;

  other_entry = g_build_filename (work_dir, "other.slc", NULL);
  g_assert_true (g_file_set_contents (other_entry, g_bytes_get_data (other_bytes, NULL),
                                      (gssize) g_bytes_get_size (other_bytes), NULL));
  hostile_strings = sl_strings_count (fresh->strings);
  good = good_entry (path);
  for (guint i = 0; i < G_N_ELEMENTS (corruptions); i++)
    {
      if (g_test_verbose ())
        g_printerr ("  %s\n", corruptions[i].name);
      assert_refused (&corruptions[i], good, path, fresh);
    }
  g_clear_pointer (&other_entry, g_free);
}

/* A profile rewritten after its entry was made gets a new identity: the
 * old entry never answers for it. */
static void
test_stale_profile (void)
{
  g_autofree char *path = copy_to_work (hostile_profile (), "rewritten.sqlite");
  g_autoptr(SlProfile) before = NULL, after = NULL, fresh = NULL;
  SlProfileCacheStats s;

  clear_entries ();
  before = sl_test_load (path);
  sl_profile_cache_flush ();
  sql_exec (path, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = end + 1000 WHERE rowid = 3;");
  s = stats_now ();
  after = sl_test_load (path);
  g_assert_cmpuint (stats_now ().hits, ==, s.hits);
  g_assert_cmpuint (stats_now ().misses, ==, s.misses + 1);
  fresh = load_fresh (path);
  assert_profiles_equal (fresh, after);
  g_assert_cmpuint (before->counts.kernels, ==, after->counts.kernels);
  sl_profile_cache_flush ();
  g_assert_cmpuint (count_entries (), ==, 2);
}

/* ---- parts, bound, switches, the folder ------------------------------------------------ */

static void
test_parts (void)
{
  const char *path = hostile_profile ();
  g_autoptr(GBytes) good = good_entry (path);
  g_autofree char *dir = entries_dir ();
  g_autofree char *identity = sl_content_id_from_path (path, NULL);
  g_autofree char *subset = _sl_cache_dir_entry (dir, identity, SL_PART_KERNELS);
  g_autofree char *full = _sl_cache_dir_entry (dir, identity, SL_PARTS_ALL);
  g_autofree char *id = NULL;
  g_autoptr(SlProfile) fresh = load_fresh (path);
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlSource) source = _sl_source_open (path, path, NULL);

  /* An entry with every part serves a load that wants fewer. */
  profile = _sl_profile_cache_load (source, path, SL_PART_KERNELS, &id);
  g_assert_nonnull (profile);
  assert_profiles_equal (fresh, profile);
  g_clear_pointer (&profile, sl_profile_unref);
  /* Writing an entry deletes those with a subset of its parts. */
  g_assert_true (g_file_set_contents (subset, "stale", -1, NULL));
  g_assert_cmpint (g_unlink (full), ==, 0);
  profile = sl_test_load (path);
  sl_profile_cache_flush ();
  g_assert_false (g_file_test (subset, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (full, G_FILE_TEST_EXISTS));
}

static void
test_parse_size (void)
{
  g_assert_cmpuint (_sl_cache_parse_size ("12345", 7), ==, 12345);
  g_assert_cmpuint (_sl_cache_parse_size ("4G", 7), ==, G_GUINT64_CONSTANT (4) << 30);
  g_assert_cmpuint (_sl_cache_parse_size ("4GB", 7), ==, G_GUINT64_CONSTANT (4) << 30);
  g_assert_cmpuint (_sl_cache_parse_size ("512MiB", 7), ==, G_GUINT64_CONSTANT (512) << 20);
  g_assert_cmpuint (_sl_cache_parse_size ("3k", 7), ==, 3072);
  g_assert_cmpuint (_sl_cache_parse_size ("100B", 7), ==, 100);
  g_assert_cmpuint (_sl_cache_parse_size ("1T", 7), ==, G_GUINT64_CONSTANT (1) << 40);
  g_assert_cmpuint (_sl_cache_parse_size ("", 7), ==, 7);
  g_assert_cmpuint (_sl_cache_parse_size ("-1", 7), ==, 7);
  g_assert_cmpuint (_sl_cache_parse_size ("1.5G", 7), ==, 7);
  g_assert_cmpuint (_sl_cache_parse_size ("4 G", 7), ==, 7);
  g_assert_cmpuint (_sl_cache_parse_size ("99999999999999999999", 7), ==, 7);
  g_assert_cmpuint (_sl_cache_parse_size ("99999999999T", 7), ==, 7);
  g_assert_cmpuint (_sl_cache_parse_size (NULL, 7), ==, 7);
}

static guint64
file_size (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return (guint64) st.st_size;
}

static void
set_mtime (const char *path, gint64 seconds)
{
  struct timespec times[2] = { { seconds, 0 }, { seconds, 0 } };

  g_assert_cmpint (utimensat (AT_FDCWD, path, times, 0), ==, 0);
}

static void
load_and_flush (const char *path)
{
  sl_profile_unref (sl_test_load (path));
  sl_profile_cache_flush ();
}

/* Entries of profiles A, B, C, used in the order B, C, A (A last, by a
 * hit); writing D's entry over the bound evicts B, the least recently
 * used, and only B. */
static void
test_eviction (void)
{
  const char *names[] = { "nsysai-mock-rtx3080.sqlite", "fuser-report2-h100.sqlite",
                          "pipit-saxpy-mpi-rank0.sqlite", "nsysai-h100-2gpu-1s.sqlite" };
  char *paths[4], *entries[4];
  guint64 sizes[4];
  g_autofree char *bound = NULL, *abandoned = NULL, *dir = entries_dir ();

  clear_entries ();
  for (guint i = 0; i < 4; i++)
    {
      paths[i] = sl_test_real_profile (names[i]);
      entries[i] = entry_path_of (paths[i]);
      load_and_flush (paths[i]);
      sizes[i] = file_size (entries[i]);
    }
  g_assert_cmpint (g_unlink (entries[3]), ==, 0);
  set_mtime (entries[0], 1000000000);
  set_mtime (entries[1], 1000000100);
  set_mtime (entries[2], 1000000200);
  abandoned = g_build_filename (dir, ".tmp-entry-abandoned", NULL);
  g_assert_true (g_file_set_contents (abandoned, "x", -1, NULL));
  set_mtime (abandoned, 1000000000);
  guint hits = stats_now ().hits;
  load_and_flush (paths[0]);   /* a hit: A is now the most recently used */
  g_assert_cmpuint (stats_now ().hits, ==, hits + 1);

  bound = g_strdup_printf ("%" G_GUINT64_FORMAT, sizes[0] + sizes[2] + sizes[3]);
  g_setenv ("SIGHTLINE_CACHE_SIZE", bound, TRUE);
  load_and_flush (paths[3]);
  g_assert_false (g_file_test (entries[1], G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (abandoned, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (entries[0], G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (entries[2], G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (entries[3], G_FILE_TEST_EXISTS));

  /* An entry larger than the whole bound is not kept, and evicts nothing. */
  g_setenv ("SIGHTLINE_CACHE_SIZE", "1k", TRUE);
  g_assert_cmpint (g_unlink (entries[3]), ==, 0);
  load_and_flush (paths[3]);
  g_assert_false (g_file_test (entries[3], G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (entries[0], G_FILE_TEST_EXISTS));
  g_unsetenv ("SIGHTLINE_CACHE_SIZE");
  for (guint i = 0; i < 4; i++)
    {
      g_free (paths[i]);
      g_free (entries[i]);
    }
}

static void
test_switched_off (void)
{
  g_autofree char *path = sl_test_real_profile ("nsysai-mock-rtx3080.sqlite");
  SlProfileCacheStats before, after;

  clear_entries ();
  before = stats_now ();
  g_setenv ("SIGHTLINE_NO_CACHE", "1", TRUE);
  g_assert_false (sl_profile_cache_get_enabled ());
  sl_profile_unref (sl_test_load (path));
  sl_profile_unref (sl_test_load (path));
  g_unsetenv ("SIGHTLINE_NO_CACHE");
  sl_profile_cache_set_enabled (FALSE);
  sl_profile_unref (sl_test_load (path));
  sl_profile_cache_set_enabled (TRUE);
  sl_profile_cache_flush ();
  g_assert_cmpuint (count_entries (), ==, 0);
  after = stats_now ();
  assert_same_stats (&before, &after);
  g_setenv ("SIGHTLINE_NO_CACHE", "0", TRUE);
  g_assert_true (sl_profile_cache_get_enabled ());
  g_unsetenv ("SIGHTLINE_NO_CACHE");
}

/* Names and SHA-256 of everything in @dir. */
static char *
describe_folder (const char *dir)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *contents = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, len);
      g_ptr_array_add (lines, g_strdup_printf ("%s %s", name, sum));
    }
  g_ptr_array_sort (lines, (GCompareFunc) g_strcmp0);
  g_ptr_array_add (lines, NULL);
  return g_strjoinv ("\n", (char **) lines->pdata);
}

static void
test_nothing_beside (void)
{
  g_autofree char *real = sl_test_real_profile ("pipit-saxpy-mpi-rank0.sqlite");
  g_autofree char *dir = g_build_filename (work_dir, "beside", NULL);
  g_autofree char *path = g_build_filename (dir, "profile.sqlite", NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *before = NULL, *after = NULL, *id = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(SlSource) source = NULL;
  gsize len;

  clear_entries ();
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_get_contents (real, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) len, NULL));
  before = describe_folder (dir);
  for (guint i = 0; i < 2; i++)
    {
      sl_profile_unref (sl_test_load (path));
      sl_profile_cache_flush ();
    }
  after = describe_folder (dir);
  g_assert_cmpstr (before, ==, after);
  g_assert_cmpuint (count_entries (), ==, 1);
  /* With a -wal beside it the file's bytes are not its contents: no cache. */
  g_assert_true (g_file_set_contents (wal, "", 0, NULL));
  source = _sl_source_open (path, path, NULL);
  g_assert_nonnull (source);
  g_assert_null (_sl_profile_cache_load (source, path, SL_PARTS_ALL, &id));
  g_assert_null (id);
  g_unlink (wal);
}

/* A profile keeps reading its mapping after its entry is replaced or
 * deleted: entries are only renamed over and unlinked. */
static void
test_mapping_outlives_entry (void)
{
  const char *path = hostile_profile ();
  g_autoptr(GBytes) good = good_entry (path);
  g_autofree char *entry = entry_path_of (path);
  g_autoptr(SlProfile) fresh = load_fresh (path);
  guint hits = stats_now ().hits;
  g_autoptr(SlProfile) mapped = sl_test_load (path);

  g_assert_cmpuint (stats_now ().hits, ==, hits + 1);
  g_assert_true (g_file_set_contents (entry, "replaced", -1, NULL));
  g_assert_cmpint (g_unlink (entry), ==, 0);
  assert_profiles_equal (fresh, mapped);
}

int
main (int argc, char **argv)
{
  int status;

  /* GLib reads XDG_CACHE_HOME once: set it before anything asks. */
  cache_home = g_dir_make_tmp ("sl-test-cache-XXXXXX", NULL);
  work_dir = g_dir_make_tmp ("sl-test-cache-work-XXXXXX", NULL);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  g_unsetenv ("SIGHTLINE_NO_CACHE");
  g_unsetenv ("SIGHTLINE_CACHE_SIZE");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/profile-cache/hash", test_hash);
  g_test_add_func ("/analysis/profile-cache/content-id/recipe", test_content_id_recipe);
  g_test_add_func ("/analysis/profile-cache/content-id/copies", test_content_id_copies);
  g_test_add_func ("/analysis/profile-cache/round-trip/real", test_round_trip_real);
  g_test_add_func ("/analysis/profile-cache/round-trip/hostile", test_round_trip_hostile);
  g_test_add_func ("/analysis/profile-cache/corruption", test_corruption);
  g_test_add_func ("/analysis/profile-cache/stale-profile", test_stale_profile);
  g_test_add_func ("/analysis/profile-cache/parts", test_parts);
  g_test_add_func ("/analysis/profile-cache/parse-size", test_parse_size);
  g_test_add_func ("/analysis/profile-cache/eviction", test_eviction);
  g_test_add_func ("/analysis/profile-cache/switched-off", test_switched_off);
  g_test_add_func ("/analysis/profile-cache/nothing-beside", test_nothing_beside);
  g_test_add_func ("/analysis/profile-cache/mapping-outlives-entry", test_mapping_outlives_entry);
  status = g_test_run ();
  sl_profile_cache_flush ();
  g_assert_true (rm_rf (cache_home) && rm_rf (work_dir));
  sl_test_cleanup ();
  return status;
}
