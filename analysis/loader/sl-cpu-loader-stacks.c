/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cpu-loader-stacks.c: call chains (SAMPLING_CALLCHAINS,
 * OSRT_CALLCHAINS) read into stacks stored once each: a million samples
 * share a few thousand distinct stacks, so a sample costs one guint32. */
#include "sl-cpu-loader-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#define CHECK_ROWS 16384

guint32
_sl_cpu_build_name (SlCpuBuild *build, gint64 file_id, gboolean is_null)
{
  guint32 name;

  if (is_null)
    return SL_NONE;
  name = sl_id_map_lookup (&build->name_index, (guint64) file_id, SL_NONE);
  if (name == SL_NONE)
    {
      name = build->name_ids->len;
      g_array_append_val (build->name_ids, file_id);
      sl_id_map_insert (&build->name_index, (guint64) file_id, name);
    }
  return name;
}

SlCpuThreadBuilder *
_sl_cpu_build_thread (SlCpuBuild *build, guint64 global_tid)
{
  guint32 i = sl_id_map_lookup (&build->thread_index, global_tid, SL_NONE);
  SlCpuThreadBuilder *t;

  if (i != SL_NONE)
    return g_ptr_array_index (build->threads, i);
  t = g_new0 (SlCpuThreadBuilder, 1);
  t->global_tid = global_tid;
  sl_id_map_insert (&build->thread_index, global_tid, build->threads->len);
  g_ptr_array_add (build->threads, t);
  return t;
}

gboolean
_sl_cpu_build_check (SlCpuBuild *build, GError **error)
{
  return !g_cancellable_set_error_if_cancelled (build->cancellable, error);
}

gboolean
_sl_cpu_scan_done (SlCpuBuild *build, SlTableScan *scan, const char *what, GError **error)
{
  int rc = _sl_table_scan_error (scan);

  _sl_table_scan_free (scan);
  if (error != NULL && *error != NULL)
    return FALSE;   /* cancelled */
  /* A damaged table costs its remaining rows, not the rest of the CPU side. */
  if (rc != SQLITE_OK)
    g_ptr_array_add (build->warnings,
                     g_strdup_printf (_("The file is damaged while reading %s (%s): the rows after the damage are missing."),
                                      what, sqlite3_errstr (rc)));
  return TRUE;
}

void
_sl_cpu_build_stacks_init (SlCpuBuild *build)
{
  guint32 zero = 0;

  build->frame_first = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_val (build->frame_first, zero);
  build->frame_symbol = g_array_new (FALSE, FALSE, sizeof (guint32));
  build->frame_module = g_array_new (FALSE, FALSE, sizeof (guint32));
  build->stack_hash = g_array_new (FALSE, FALSE, sizeof (guint32));
  build->stack_mask = 1023;
  build->stack_slots = g_new0 (guint32, build->stack_mask + 1);
}

void
_sl_cpu_build_stacks_clear (SlCpuBuild *build)
{
  g_clear_pointer (&build->frame_first, g_array_unref);
  g_clear_pointer (&build->frame_symbol, g_array_unref);
  g_clear_pointer (&build->frame_module, g_array_unref);
  g_clear_pointer (&build->stack_hash, g_array_unref);
  g_clear_pointer (&build->stack_slots, g_free);
}

static guint32
frames_hash (const guint32 *symbol, const guint32 *module, guint n)
{
  guint32 h = 2166136261u;

  for (guint i = 0; i < n; i++)
    {
      h = (h ^ symbol[i]) * 16777619u;
      h = (h ^ module[i]) * 16777619u;
    }
  return h;
}

static gboolean
stack_equal (SlCpuBuild *build, guint32 stack, guint first, guint n)
{
  const guint32 *ff = (const guint32 *) build->frame_first->data;
  const guint32 *sym = (const guint32 *) build->frame_symbol->data;
  const guint32 *mod = (const guint32 *) build->frame_module->data;

  if (ff[stack + 1] - ff[stack] != n)
    return FALSE;
  return memcmp (sym + ff[stack], sym + first, n * sizeof (guint32)) == 0
         && memcmp (mod + ff[stack], mod + first, n * sizeof (guint32)) == 0;
}

static void
stacks_grow (SlCpuBuild *build)
{
  gsize mask = build->stack_mask * 2 + 1;
  guint32 *slots = g_new0 (guint32, mask + 1);
  const guint32 *hashes = (const guint32 *) build->stack_hash->data;

  for (guint s = 0; s < build->stack_hash->len; s++)
    {
      gsize i = hashes[s] & mask;
      while (slots[i] != 0)
        i = (i + 1) & mask;
      slots[i] = s + 1;
    }
  g_free (build->stack_slots);
  build->stack_slots = slots;
  build->stack_mask = mask;
}

/* The frames appended at the end of frame_symbol/frame_module since
 * frame_first's last entry, as a stack: an existing one (the frames are
 * dropped again) or a new one. */
static guint32
stack_intern (SlCpuBuild *build)
{
  guint first = g_array_index (build->frame_first, guint32, build->frame_first->len - 1);
  guint n = build->frame_symbol->len - first;
  guint32 h = frames_hash ((guint32 *) build->frame_symbol->data + first,
                           (guint32 *) build->frame_module->data + first, n);
  gsize i = h & build->stack_mask;
  guint32 stack, end;

  for (; build->stack_slots[i] != 0; i = (i + 1) & build->stack_mask)
    {
      stack = build->stack_slots[i] - 1;
      if (g_array_index (build->stack_hash, guint32, stack) == h && stack_equal (build, stack, first, n))
        {
          g_array_set_size (build->frame_symbol, first);
          g_array_set_size (build->frame_module, first);
          return stack;
        }
    }
  stack = build->stack_hash->len;
  build->stack_slots[i] = stack + 1;
  g_array_append_val (build->stack_hash, h);
  end = build->frame_symbol->len;
  g_array_append_val (build->frame_first, end);
  if (build->stack_hash->len * 2 > build->stack_mask)
    stacks_grow (build);
  return stack;
}

/* One chain's rows as read: depth, then the frame. */
typedef struct {
  gint64  id;
  gboolean open;
  GArray *depth;      /* gint64, parallel to the frames appended */
} Chain;

/* Frames come leaf first by stackDepth; a file that wrote them out of
 * order is put right (insertion sort: chains are short). */
static void
chain_sort (SlCpuBuild *build, Chain *chain, guint first)
{
  gint64 *d = (gint64 *) chain->depth->data;
  guint32 *sym = (guint32 *) build->frame_symbol->data + first;
  guint32 *mod = (guint32 *) build->frame_module->data + first;

  for (guint i = 1; i < chain->depth->len; i++)
    for (guint j = i; j > 0 && d[j - 1] > d[j]; j--)
      {
        gint64 td = d[j]; d[j] = d[j - 1]; d[j - 1] = td;
        guint32 ts = sym[j]; sym[j] = sym[j - 1]; sym[j - 1] = ts;
        guint32 tm = mod[j]; mod[j] = mod[j - 1]; mod[j - 1] = tm;
      }
}

static void
chain_close (SlCpuBuild *build, Chain *chain, SlIdMap *map)
{
  guint first = g_array_index (build->frame_first, guint32, build->frame_first->len - 1);

  if (!chain->open)
    return;
  chain->open = FALSE;
  /* The rows of one chain are contiguous in every export; one that comes
   * back later is damage: its first rows stand. */
  if (sl_id_map_lookup (map, (guint64) chain->id, SL_NONE) != SL_NONE)
    {
      build->skipped_chain += chain->depth->len;
      g_array_set_size (build->frame_symbol, first);
      g_array_set_size (build->frame_module, first);
      return;
    }
  chain_sort (build, chain, first);
  sl_id_map_insert (map, (guint64) chain->id, stack_intern (build));
}

static const char *const chain_columns[] = { "id", "stackDepth", "symbol", "module" };

static void
chain_row (SlCpuBuild *build, Chain *chain, SlIdMap *map, const gint64 *v, guint64 nulls)
{
  guint32 symbol, module;

  if (_sl_is_null (nulls, 0))
    {
      build->skipped_chain++;
      return;
    }
  if (!chain->open || v[0] != chain->id)
    {
      chain_close (build, chain, map);
      chain->id = v[0];
      chain->open = TRUE;
      g_array_set_size (chain->depth, 0);
    }
  /* a frame without a symbol id is named like one whose id dangles */
  symbol = _sl_cpu_build_name (build, _sl_is_null (nulls, 2) ? G_MININT64 : v[2], FALSE);
  module = _sl_cpu_build_name (build, v[3], _sl_is_null (nulls, 3));
  g_array_append_val (build->frame_symbol, symbol);
  g_array_append_val (build->frame_module, module);
  g_array_append_val (chain->depth, v[1]);
}

gboolean
_sl_cpu_read_callchains (SlCpuBuild *build, const char *table, SlIdMap *map, GError **error)
{
  Chain chain = { 0 };
  SlTableScan *scan;
  gint64 v[G_N_ELEMENTS (chain_columns)];
  guint64 nulls, rows = 0;
  gboolean ok;

  if (!_sl_loader_has_column (&build->loader, table, "id"))
    return TRUE;
  scan = _sl_table_scan_open (build->db, build->fd, table, chain_columns, G_N_ELEMENTS (chain_columns), NULL);
  if (scan == NULL)
    {
      g_ptr_array_add (build->warnings, g_strdup_printf (_("%s cannot be read: call stacks are missing."), table));
      return TRUE;
    }
  chain.depth = g_array_new (FALSE, FALSE, sizeof (gint64));
  while (_sl_table_scan_next (scan, v, &nulls))
    {
      if (++rows % CHECK_ROWS == 0 && !_sl_cpu_build_check (build, error))
        break;
      chain_row (build, &chain, map, v, nulls);
    }
  chain_close (build, &chain, map);
  g_array_unref (chain.depth);
  ok = _sl_cpu_scan_done (build, scan, table, error);
  return ok;
}
