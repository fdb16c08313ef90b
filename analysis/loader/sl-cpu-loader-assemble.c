/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cpu-loader-assemble.c: the CPU activity from what was read: rows
 * sorted per thread, threads sorted by (pid, tid), names read from
 * StringIds and merged by text, skipped rows told as warnings. */
#include "sl-cpu-loader-private.h"
#include "sl-spans-private.h"
#include "sl-radix.h"

#include <inttypes.h>
#include <glib/gi18n-lib.h>

/* Stable order of @n times (NULL when already sorted). */
static guint32 *
times_order (const gint64 *time, guint n)
{
  SlKeyIndex *pairs;
  guint32 *order;
  guint i;

  for (i = 1; i < n && time[i - 1] <= time[i]; i++)
    ;
  if (i >= n)
    return NULL;
  pairs = g_new (SlKeyIndex, n);
  for (i = 0; i < n; i++)
    pairs[i] = (SlKeyIndex) { _sl_time_key (time[i]), i };
  _sl_radix_sort (pairs, n);
  order = g_new (guint32, n);
  for (i = 0; i < n; i++)
    order[i] = pairs[i].index;
  g_free (pairs);
  return order;
}

static void
take_samples (SlCpuThread *out, SlCpuThreadBuilder *t)
{
  g_autofree guint32 *order = times_order (t->sample_time, t->n_samples);
  guint n = t->n_samples;

  if (order != NULL)
    {
      _sl_permute (t->sample_time, sizeof (gint64), order, n);
      _sl_permute_u8 (t->sample_state, order, n);
      _sl_permute_u16 (t->sample_cpu, order, n);
      _sl_permute_u32 (t->sample_stack, order, n);
    }
  out->samples.n = n;
  out->samples.time = g_renew (gint64, g_steal_pointer (&t->sample_time), n);
  out->samples.state = g_renew (guint8, g_steal_pointer (&t->sample_state), n);
  out->samples.cpu = g_renew (guint16, g_steal_pointer (&t->sample_cpu), n);
  out->samples.stack = g_renew (guint32, g_steal_pointer (&t->sample_stack), n);
}

static void
take_sched (SlCpuThread *out, SlCpuThreadBuilder *t)
{
  g_autofree guint32 *order = times_order (t->sched_time, t->n_sched);
  guint n = t->n_sched;

  if (order != NULL)
    {
      _sl_permute (t->sched_time, sizeof (gint64), order, n);
      _sl_permute_u8 (t->sched_in, order, n);
      _sl_permute_u16 (t->sched_cpu, order, n);
    }
  out->sched.n = n;
  out->sched.time = g_renew (gint64, g_steal_pointer (&t->sched_time), n);
  out->sched.sched_in = g_renew (guint8, g_steal_pointer (&t->sched_in), n);
  out->sched.cpu = g_renew (guint16, g_steal_pointer (&t->sched_cpu), n);
}

/* nestingLevel made dense (levels 0 and 3 only: depths 0 and 1), and the
 * order that sorts the calls by (depth, start). */
static guint32 *
osrt_order (SlCpuThreadBuilder *t, SlOsrtCalls *out)
{
  guint n = t->osrt.n, max = 0;
  g_autofree guint32 *by_time = _sl_spans_sort_order (&t->osrt);
  g_autofree guint *rank = NULL;
  guint32 *order = g_new (guint32, MAX (n, 1u));

  for (guint i = 0; i < n; i++)
    max = MAX (max, t->osrt_level[i]);
  rank = g_new0 (guint, max + 2);
  for (guint i = 0; i < n; i++)
    rank[t->osrt_level[i]] = 1;
  out->n_depths = 0;
  for (guint l = 0; l <= max; l++)
    rank[l] = rank[l] ? out->n_depths++ : G_MAXUINT;
  out->depth_first = g_new0 (guint, out->n_depths + 1);
  for (guint i = 0; i < n; i++)
    out->depth_first[rank[t->osrt_level[i]] + 1]++;
  for (guint d = 0; d < out->n_depths; d++)
    out->depth_first[d + 1] += out->depth_first[d];
  /* counting sort by depth over the calls in time order: stable */
  {
    g_autofree guint *next = g_memdup2 (out->depth_first, (out->n_depths + 1) * sizeof (guint));
    for (guint k = 0; k < n; k++)
      {
        guint i = by_time[k];
        order[next[rank[t->osrt_level[i]]]++] = i;
      }
  }
  for (guint i = 0; i < n; i++)
    t->osrt_level[i] = (guint16) rank[t->osrt_level[i]];
  return order;
}

static void
take_osrt (SlCpuThread *out, SlCpuThreadBuilder *t, const guint32 *remap)
{
  guint n = t->osrt.n;
  g_autofree guint32 *order = osrt_order (t, &out->osrt);

  _sl_spans_permute (&t->osrt, order);
  _sl_permute_u32 (t->osrt_name, order, n);
  _sl_permute_u32 (t->osrt_stack, order, n);
  _sl_permute_u16 (t->osrt_level, order, n);
  for (guint i = 0; i < n; i++)
    t->osrt_name[i] = remap[t->osrt_name[i]];
  _sl_spans_shrink (&t->osrt);
  out->osrt.spans = t->osrt;
  memset (&t->osrt, 0, sizeof t->osrt);
  out->osrt.name = g_renew (guint32, g_steal_pointer (&t->osrt_name), n);
  out->osrt.stack = g_renew (guint32, g_steal_pointer (&t->osrt_stack), n);
  out->osrt.depth = g_renew (guint16, g_steal_pointer (&t->osrt_level), n);
}

void
_sl_cpu_thread_builder_free (SlCpuThreadBuilder *t)
{
  _sl_spans_clear (&t->osrt);
  g_free (t->osrt_name);
  g_free (t->osrt_stack);
  g_free (t->osrt_level);
  g_free (t->sample_time);
  g_free (t->sample_state);
  g_free (t->sample_cpu);
  g_free (t->sample_stack);
  g_free (t->sched_time);
  g_free (t->sched_in);
  g_free (t->sched_cpu);
  g_free (t);
}

static int
compare_builders (gconstpointer a, gconstpointer b)
{
  const SlCpuThreadBuilder *x = *(SlCpuThreadBuilder *const *) a, *y = *(SlCpuThreadBuilder *const *) b;
  guint64 kx = ((x->global_tid >> 24 & 0xFFFFFF) << 32) | (x->global_tid & 0xFFFFFF);
  guint64 ky = ((y->global_tid >> 24 & 0xFFFFFF) << 32) | (y->global_tid & 0xFFFFFF);

  if (kx != ky)
    return kx < ky ? -1 : 1;
  return (x->global_tid > y->global_tid) - (x->global_tid < y->global_tid);
}

static void
take_threads (SlCpuActivity *a, SlCpuBuild *build, SlProfile *profile, const guint32 *remap)
{
  g_ptr_array_sort (build->threads, compare_builders);
  a->n_threads = build->threads->len;
  a->threads = g_new0 (SlCpuThread, MAX (a->n_threads, 1u));
  for (guint i = 0; i < a->n_threads; i++)
    {
      SlCpuThreadBuilder *t = g_ptr_array_index (build->threads, i);
      SlCpuThread *out = &a->threads[i];

      out->global_tid = t->global_tid;
      out->pid = (guint32) (t->global_tid >> 24 & 0xFFFFFF);
      out->tid = (guint32) (t->global_tid & 0xFFFFFF);
      out->thread = sl_profile_find_thread (profile, t->global_tid);
      out->name = t->name_plus1 ? remap[t->name_plus1 - 1] : SL_NONE;
      take_osrt (out, t, remap);
      take_samples (out, t);
      take_sched (out, t);
      a->n_osrt += out->osrt.spans.n;
      a->n_samples += out->samples.n;
      a->n_sched += out->sched.n;
      _sl_cpu_thread_builder_free (t);
      g_ptr_array_index (build->threads, i) = NULL;
    }
}

/* The text of every name, one lookup each (names are few next to rows);
 * *@remap maps a name as read to the name kept, merged by text. */
static void
take_names (SlCpuActivity *a, SlCpuBuild *build, guint32 **remap)
{
  g_autoptr(GHashTable) by_text = g_hash_table_new (g_str_hash, g_str_equal);
  sqlite3_stmt *stmt = NULL;
  guint n = build->name_ids->len;

  if (_sl_loader_has_column (&build->loader, "StringIds", "value"))
    sqlite3_prepare_v2 (build->db, "SELECT value FROM StringIds WHERE id = ?1", -1, &stmt, NULL);
  *remap = g_new (guint32, MAX (n, 1u));
  a->names = g_new0 (char *, MAX (n, 1u));
  for (guint i = 0; i < n; i++)
    {
      const char *text = NULL;
      gpointer kept;

      if (stmt != NULL)
        {
          sqlite3_reset (stmt);
          sqlite3_bind_int64 (stmt, 1, g_array_index (build->name_ids, gint64, i));
          if (sqlite3_step (stmt) == SQLITE_ROW)
            text = (const char *) sqlite3_column_text (stmt, 0);
        }
      if (text == NULL)
        build->dangling_names++;
      /* perf's and Nsight's word for a frame nothing names: data, not UI */
      char *value = text != NULL ? g_utf8_make_valid (text, -1) : g_strdup ("[unknown]");
      if (g_hash_table_lookup_extended (by_text, value, NULL, &kept))
        {
          (*remap)[i] = GPOINTER_TO_UINT (kept);
          g_free (value);
          continue;
        }
      (*remap)[i] = a->n_names;
      a->names[a->n_names] = value;
      g_hash_table_insert (by_text, value, GUINT_TO_POINTER (a->n_names++));
    }
  sqlite3_finalize (stmt);
}

static void
take_stacks (SlCpuActivity *a, SlCpuBuild *build, const guint32 *remap)
{
  guint n_frames = build->frame_symbol->len;
  guint32 *sym = (guint32 *) build->frame_symbol->data;
  guint32 *mod = (guint32 *) build->frame_module->data;

  for (guint i = 0; i < n_frames; i++)
    {
      sym[i] = remap[sym[i]];
      mod[i] = mod[i] == SL_NONE ? SL_NONE : remap[mod[i]];
    }
  a->n_stacks = build->frame_first->len - 1;
  a->frame_first = (guint32 *) g_array_free (g_steal_pointer (&build->frame_first), FALSE);
  a->frame_symbol = (guint32 *) g_array_free (g_steal_pointer (&build->frame_symbol), FALSE);
  a->frame_module = (guint32 *) g_array_free (g_steal_pointer (&build->frame_module), FALSE);
}

static void
warn_skipped (SlCpuBuild *build)
{
  if (build->skipped_time > 0)
    g_ptr_array_add (build->warnings,
                     g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                   "%" PRIu64 " CPU row with a missing or impossible time was skipped.",
                                                   "%" PRIu64 " CPU rows with a missing or impossible time were skipped.",
                                                   build->skipped_time), build->skipped_time));
  if (build->skipped_thread > 0)
    g_ptr_array_add (build->warnings,
                     g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                   "%" PRIu64 " CPU row without a thread was skipped.",
                                                   "%" PRIu64 " CPU rows without a thread were skipped.",
                                                   build->skipped_thread), build->skipped_thread));
  if (build->skipped_chain > 0)
    g_ptr_array_add (build->warnings,
                     g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                   "%" PRIu64 " call stack frame out of place was skipped.",
                                                   "%" PRIu64 " call stack frames out of place were skipped.",
                                                   build->skipped_chain), build->skipped_chain));
  if (build->dangling_names > 0)
    g_ptr_array_add (build->warnings,
                     g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                   "%" PRIu64 " CPU name refers to no string: shown as “[unknown]”.",
                                                   "%" PRIu64 " CPU names refer to no string: shown as “[unknown]”.",
                                                   build->dangling_names), build->dangling_names));
}

SlCpuActivity *
_sl_cpu_build_finish (SlCpuBuild *build, SlProfile *profile)
{
  SlCpuActivity *a = g_new0 (SlCpuActivity, 1);
  g_autofree guint32 *remap = NULL;

  a->ref_count = 1;
  take_names (a, build, &remap);
  take_threads (a, build, profile, remap);
  take_stacks (a, build, remap);
  warn_skipped (build);
  a->warnings = g_steal_pointer (&build->warnings);
  return a;
}
