/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-launch-table.c: every kernel's launch configuration from one scan of
 * the kernel table in rowid order (see sl-launch-table.h for why). */
#include "sl-launch-table.h"
#include "sl-loader-private.h"
#include "sl-profile-private.h"
#include "sl-table-scan.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#define KERNEL_TABLE "CUPTI_ACTIVITY_KIND_KERNEL"

/* The configuration's columns in the order of SlLaunchConfig's fields;
 * a column an nsys version did not write reads as NULL (-1). */
const char *const _sl_launch_columns[SL_LAUNCH_N_COLUMNS] = {
  "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
  "registersPerThread", "staticSharedMemory", "dynamicSharedMemory",
};
G_STATIC_ASSERT (sizeof (SlLaunchConfig) == SL_LAUNCH_N_COLUMNS * sizeof (gint64));

/* The row's key columns come first: start, then the stream's. */
enum { R_START, R_DEVICE, R_PID, R_CONTEXT, R_STREAM, R_CONFIG };

struct _SlLaunchTable {
  SlProfile  *profile;
  GPtrArray  *configs;     /* distinct SlLaunchConfig, owned */
  GHashTable *ids;         /* SlLaunchConfig * -> id + 1 */
  guint32   **by_kernel;   /* per stream: id + 1 per kernel (0: unknown), or NULL */
  guint       last_stream; /* rows of one stream come in runs */
  guint      *next;        /* per stream: the index the next row likely has */
};

static guint
config_hash (gconstpointer key)
{
  const gint64 *v = key;
  guint64 h = 1469598103934665603ull;

  for (guint i = 0; i < SL_LAUNCH_N_COLUMNS; i++)
    h = (h ^ (guint64) v[i]) * 1099511628211ull;
  return (guint) (h ^ (h >> 32));
}

static gboolean
config_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (SlLaunchConfig)) == 0;
}

/* @config's id + 1, added when new. */
static guint32
config_id (SlLaunchTable *t, const SlLaunchConfig *config)
{
  gpointer id = g_hash_table_lookup (t->ids, config);
  SlLaunchConfig *copy;

  if (id != NULL)
    return GPOINTER_TO_UINT (id);
  copy = g_memdup2 (config, sizeof *config);
  g_ptr_array_add (t->configs, copy);
  g_hash_table_insert (t->ids, copy, GUINT_TO_POINTER (t->configs->len));
  return t->configs->len;
}

static int
compare_key (const SlStream *s, guint32 device, guint32 pid, guint32 context, guint32 stream)
{
  /* the order of the loader's streams (sl-assemble.c) */
  if (s->device != device)
    return s->device < device ? -1 : 1;
  if (s->pid != pid)
    return s->pid < pid ? -1 : 1;
  if (s->context != context)
    return s->context < context ? -1 : 1;
  if (s->stream != stream)
    return s->stream < stream ? -1 : 1;
  return 0;
}

/* The model's stream of a row, or G_MAXUINT (a stream the loader dropped). */
static guint
find_stream (SlLaunchTable *t, guint32 device, guint32 pid, guint32 context, guint32 stream)
{
  const SlProfile *p = t->profile;
  guint lo = 0, hi = p->n_streams;

  if (t->last_stream < p->n_streams
      && compare_key (&p->streams[t->last_stream], device, pid, context, stream) == 0)
    return t->last_stream;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      int c = compare_key (&p->streams[mid], device, pid, context, stream);

      if (c == 0)
        return t->last_stream = mid;
      if (c < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return G_MAXUINT;
}

/* The kernel of stream @s a row starting at @start is: the model sorted
 * each stream by start, stably, so rows with the same start (read in
 * rowid order, as the loader read them) take the equal-start kernels in
 * turn.  G_MAXUINT: a row the loader left out. */
static guint
find_kernel (SlLaunchTable *t, guint s, gint64 start)
{
  const SlSpans *spans = &t->profile->streams[s].kernels.spans;
  const guint32 *slots = t->by_kernel[s];
  guint i = t->next[s], lo = 0, hi = spans->n;

  if (!(i < spans->n && spans->start[i] == start && slots[i] == 0))
    {
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          if (spans->start[mid] < start)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (i = lo; i < spans->n && spans->start[i] == start && slots[i] != 0; i++)
        ;
      if (i >= spans->n || spans->start[i] != start)
        return G_MAXUINT;
    }
  t->next[s] = i + 1;
  return i;
}

static void
add_row (SlLaunchTable *t, const gint64 *v, guint64 nulls)
{
  SlLaunchConfig config;
  gint64 *fields = (gint64 *) &config;
  guint s, i;

  if (nulls & 1)   /* no start: a row the loader left out */
    return;
  s = find_stream (t, (guint32) v[R_DEVICE], _sl_pid_of ((guint64) v[R_PID]),
                   (guint32) v[R_CONTEXT], (guint32) v[R_STREAM]);
  if (s == G_MAXUINT || t->profile->streams[s].kernels.spans.n == 0)
    return;
  if (t->by_kernel[s] == NULL)
    t->by_kernel[s] = g_new0 (guint32, t->profile->streams[s].kernels.spans.n);
  i = find_kernel (t, s, v[R_START]);
  if (i == G_MAXUINT)
    return;
  for (guint c = 0; c < SL_LAUNCH_N_COLUMNS; c++)
    fields[c] = (nulls >> (R_CONFIG + c)) & 1 ? -1 : v[R_CONFIG + c];
  t->by_kernel[s][i] = config_id (t, &config);
}

/* The loader's own reader of b-tree pages (sl-table-scan.h): SQLite's
 * statements cost three times as much a row.  A column this nsys version
 * did not write reads as NULL; the table's order is rowid order, the one
 * the loader read it in. */
static gboolean
scan (SlLaunchTable *t, SlLoader *loader, sqlite3 *db, GCancellable *cancellable, GError **error)
{
  const char *columns[R_CONFIG + SL_LAUNCH_N_COLUMNS] = {
    "start", "deviceId", "globalPid", "contextId", "streamId",
  };
  SlTableScan *table_scan;
  gint64 v[G_N_ELEMENTS (columns)];
  guint64 nulls, rows = 0;
  int rc;

  memcpy (columns + R_CONFIG, _sl_launch_columns, sizeof _sl_launch_columns);
  table_scan = _sl_table_scan_open (db, t->profile->source_fd, KERNEL_TABLE, columns,
                                    G_N_ELEMENTS (columns), error);
  if (table_scan == NULL)
    return FALSE;
  while (_sl_table_scan_next (table_scan, v, &nulls))
    {
      add_row (t, v, nulls);
      if (++rows % 65536 == 0 && g_cancellable_is_cancelled (cancellable))
        break;
    }
  rc = _sl_table_scan_error (table_scan);
  _sl_table_scan_free (table_scan);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  return rc == SQLITE_OK || _sl_loader_step_error (loader, db, rc, _("the launch configurations"), error);
}

static SlLaunchTable *
table_new (SlProfile *profile)
{
  SlLaunchTable *t = g_new0 (SlLaunchTable, 1);

  t->profile = sl_profile_ref (profile);
  t->configs = g_ptr_array_new_with_free_func (g_free);
  t->ids = g_hash_table_new (config_hash, config_equal);
  t->by_kernel = g_new0 (guint32 *, MAX (profile->n_streams, 1u));
  t->next = g_new0 (guint, MAX (profile->n_streams, 1u));
  t->last_stream = G_MAXUINT;
  return t;
}

SlLaunchTable *
sl_launch_table_read (SlProfile *profile, GCancellable *cancellable, GError **error)
{
  g_autoptr(SlLaunchTable) t = NULL;
  SlLoader loader = { 0 };
  sqlite3 *db = NULL;
  gboolean ok;

  g_return_val_if_fail (profile != NULL, NULL);
  if (profile->source_fd < 0 || profile->counts.kernels == 0)
    return NULL;
  if (!_sl_kernel_table_open (profile, &loader, &db, error))
    return NULL;
  ok = _sl_loader_has_table (&loader, KERNEL_TABLE);
  if (ok)
    {
      t = table_new (profile);
      ok = scan (t, &loader, db, cancellable, error);
    }
  _sl_kernel_table_close (&loader, db);
  return ok ? g_steal_pointer (&t) : NULL;
}

const SlLaunchConfig *
sl_launch_table_get (SlLaunchTable *table, guint32 stream, guint index)
{
  guint32 id;

  if (stream >= table->profile->n_streams || table->by_kernel[stream] == NULL
      || index >= table->profile->streams[stream].kernels.spans.n)
    return NULL;
  id = table->by_kernel[stream][index];
  return id == 0 ? NULL : g_ptr_array_index (table->configs, id - 1);
}

void
sl_launch_table_free (SlLaunchTable *table)
{
  if (table == NULL)
    return;
  for (guint s = 0; s < table->profile->n_streams; s++)
    g_free (table->by_kernel[s]);
  g_free (table->by_kernel);
  g_free (table->next);
  g_hash_table_unref (table->ids);
  g_ptr_array_unref (table->configs);
  sl_profile_unref (table->profile);
  g_free (table);
}

/* ---- the reader --------------------------------------------------------- */

static gpointer
reader_open (SlProfile *profile, GCancellable *cancellable, GError **error)
{
  return sl_launch_table_read (profile, cancellable, error);
}

static const SlLaunchConfig *
reader_get (gpointer cursor, guint32 stream, guint index)
{
  return sl_launch_table_get (cursor, stream, index);
}

static void
reader_close (gpointer cursor)
{
  sl_launch_table_free (cursor);
}

const SlLaunchReader *
sl_launch_table_reader (void)
{
  static const SlLaunchReader reader = { reader_open, reader_get, reader_close };
  return &reader;
}
