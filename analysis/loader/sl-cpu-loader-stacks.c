/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cpu-loader-stacks.c: call chains (SAMPLING_CALLCHAINS,
 * OSRT_CALLCHAINS) read into stacks stored once each: a million samples
 * share a few thousand distinct stacks, so a sample costs one guint32. */
#include "sl-cpu-loader-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#define CHECK_ROWS 16384

/* Ids below this go through a direct array (StringIds ids are small and
 * dense in every export), others through the hash map. */
#define DIRECT_NAME_LIMIT  (1u << 22)
#define DIRECT_CHAIN_LIMIT (1u << 24)

/* Slot @key of a direct map (value + 1, 0: absent), grown to cover it. */
static inline guint32 *
direct_slot (guint32 **direct, gsize *len, guint64 key)
{
  if (G_UNLIKELY (key >= *len))
    {
      gsize want = MAX (*len, 1024);
      while (want <= key)
        want *= 2;
      *direct = g_renew (guint32, *direct, want);
      memset (*direct + *len, 0, (want - *len) * sizeof (guint32));
      *len = want;
    }
  return *direct + key;
}

static guint32
new_name (SlCpuBuild *build, gint64 file_id)
{
  guint32 name = build->name_ids->len;

  g_array_append_val (build->name_ids, file_id);
  return name;
}

guint32
_sl_cpu_build_name (SlCpuBuild *build, gint64 file_id, gboolean is_null)
{
  guint32 name, *slot;

  if (is_null)
    return SL_NONE;
  if ((guint64) file_id < DIRECT_NAME_LIMIT)
    {
      slot = direct_slot (&build->name_direct, &build->name_direct_len, (guint64) file_id);
      if (*slot == 0)
        *slot = new_name (build, file_id) + 1;
      return *slot - 1;
    }
  name = sl_id_map_lookup (&build->name_index, (guint64) file_id, SL_NONE);
  if (name == SL_NONE)
    {
      name = new_name (build, file_id);
      sl_id_map_insert (&build->name_index, (guint64) file_id, name);
    }
  return name;
}

void
_sl_cpu_chain_map_insert (SlCpuChainMap *map, gint64 id, guint32 stack)
{
  if ((guint64) id < DIRECT_CHAIN_LIMIT)
    *direct_slot (&map->direct, &map->direct_len, (guint64) id) = stack + 1;
  else
    sl_id_map_insert (&map->sparse, (guint64) id, stack);
}

guint32
_sl_cpu_chain_map_lookup (const SlCpuChainMap *map, gint64 id)
{
  if ((guint64) id < DIRECT_CHAIN_LIMIT)
    return (guint64) id < map->direct_len && map->direct[id] != 0 ? map->direct[id] - 1 : SL_NONE;
  return sl_id_map_lookup (&map->sparse, (guint64) id, SL_NONE);
}

void
_sl_cpu_chain_map_clear (SlCpuChainMap *map)
{
  g_clear_pointer (&map->direct, g_free);
  map->direct_len = 0;
  sl_id_map_clear (&map->sparse);
}

SlCpuThreadBuilder *
_sl_cpu_build_thread (SlCpuBuild *build, guint64 global_tid)
{
  guint32 i;
  SlCpuThreadBuilder *t;

  /* rows of one thread come in runs */
  if (build->last_thread != NULL && build->last_thread->global_tid == global_tid)
    return build->last_thread;
  i = sl_id_map_lookup (&build->thread_index, global_tid, SL_NONE);
  if (i != SL_NONE)
    return build->last_thread = g_ptr_array_index (build->threads, i);
  t = build->last_thread = g_new0 (SlCpuThreadBuilder, 1);
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
stack_equal (SlCpuBuild *build, guint32 stack, const guint32 *sym, const guint32 *mod, guint n)
{
  const guint32 *ff = (const guint32 *) build->frame_first->data;

  if (ff[stack + 1] - ff[stack] != n)
    return FALSE;
  return memcmp ((guint32 *) build->frame_symbol->data + ff[stack], sym, n * sizeof (guint32)) == 0
         && memcmp ((guint32 *) build->frame_module->data + ff[stack], mod, n * sizeof (guint32)) == 0;
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

/* The stack of frames @sym/@mod (@n, leaf first): an existing one, or a
 * new one appended to the frame arrays. */
static guint32
stack_intern (SlCpuBuild *build, const guint32 *sym, const guint32 *mod, guint n)
{
  guint32 h = frames_hash (sym, mod, n);
  gsize i = h & build->stack_mask;
  guint32 stack, end;

  for (; build->stack_slots[i] != 0; i = (i + 1) & build->stack_mask)
    {
      stack = build->stack_slots[i] - 1;
      if (g_array_index (build->stack_hash, guint32, stack) == h && stack_equal (build, stack, sym, mod, n))
        return stack;
    }
  stack = build->stack_hash->len;
  build->stack_slots[i] = stack + 1;
  g_array_append_val (build->stack_hash, h);
  g_array_append_vals (build->frame_symbol, sym, n);
  g_array_append_vals (build->frame_module, mod, n);
  end = build->frame_symbol->len;
  g_array_append_val (build->frame_first, end);
  if (build->stack_hash->len * 2 > build->stack_mask)
    stacks_grow (build);
  return stack;
}

/* One chain's rows as read (reused from chain to chain). */
typedef struct {
  gint64   id;
  gboolean open;
  guint    n, cap;
  gint64  *depth;
  guint32 *sym, *mod;
} Chain;

/* Frames come leaf first by stackDepth; a file that wrote them out of
 * order is put right (insertion sort: chains are short). */
static void
chain_sort (Chain *chain)
{
  gint64 *d = chain->depth;

  for (guint i = 1; i < chain->n; i++)
    for (guint j = i; j > 0 && d[j - 1] > d[j]; j--)
      {
        gint64 td = d[j]; d[j] = d[j - 1]; d[j - 1] = td;
        guint32 ts = chain->sym[j]; chain->sym[j] = chain->sym[j - 1]; chain->sym[j - 1] = ts;
        guint32 tm = chain->mod[j]; chain->mod[j] = chain->mod[j - 1]; chain->mod[j - 1] = tm;
      }
}

static void
chain_close (SlCpuBuild *build, Chain *chain, SlCpuChainMap *map)
{
  if (!chain->open)
    return;
  chain->open = FALSE;
  /* The rows of one chain are contiguous in every export; one that comes
   * back later is damage: its first rows stand. */
  if (_sl_cpu_chain_map_lookup (map, chain->id) != SL_NONE)
    {
      build->skipped_chain += chain->n;
      return;
    }
  chain_sort (chain);
  _sl_cpu_chain_map_insert (map, chain->id, stack_intern (build, chain->sym, chain->mod, chain->n));
}

static const char *const chain_columns[] = { "id", "stackDepth", "symbol", "module" };

static void
chain_row (SlCpuBuild *build, Chain *chain, SlCpuChainMap *map, const gint64 *v, guint64 nulls)
{
  guint i;

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
      chain->n = 0;
    }
  if (G_UNLIKELY (chain->n == chain->cap))
    {
      chain->cap = MAX (64u, chain->cap * 2);
      chain->depth = g_renew (gint64, chain->depth, chain->cap);
      chain->sym = g_renew (guint32, chain->sym, chain->cap);
      chain->mod = g_renew (guint32, chain->mod, chain->cap);
    }
  i = chain->n++;
  /* a frame without a symbol id is named like one whose id dangles */
  chain->sym[i] = _sl_cpu_build_name (build, _sl_is_null (nulls, 2) ? G_MININT64 : v[2], FALSE);
  chain->mod[i] = _sl_cpu_build_name (build, v[3], _sl_is_null (nulls, 3));
  chain->depth[i] = v[1];
}

gboolean
_sl_cpu_read_callchains (SlCpuBuild *build, const char *table, SlCpuChainMap *map, GError **error)
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
  while (_sl_table_scan_next (scan, v, &nulls))
    {
      if (++rows % CHECK_ROWS == 0 && !_sl_cpu_build_check (build, error))
        break;
      chain_row (build, &chain, map, v, nulls);
    }
  chain_close (build, &chain, map);
  g_free (chain.depth);
  g_free (chain.sym);
  g_free (chain.mod);
  ok = _sl_cpu_scan_done (build, scan, table, error);
  return ok;
}
