/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-scope-summary.c: the Summary page's bundle, one analysis per part. */
#include "sl-scope-summary.h"

#include "sl-json.h"
#include "sl-scope-index.h"

static gboolean
cancelled (GCancellable *cancellable, GError **error)
{
  return g_cancellable_set_error_if_cancelled (cancellable, error);
}

static int
gap_compare (gconstpointer a, gconstpointer b)
{
  const SlScopeGap *x = a, *y = b;

  if (x->gap->dur_ns != y->gap->dur_ns)
    return x->gap->dur_ns > y->gap->dur_ns ? -1 : 1;
  if (x->gap->start_ns != y->gap->start_ns)
    return x->gap->start_ns < y->gap->start_ns ? -1 : 1;
  return x->device < y->device ? -1 : x->device > y->device;
}

/* The longest gaps of every GPU in one list: each GPU keeps its own top
 * (as `gaps` prints them), the page shows the longest of all. */
static void
merge_gaps (SlScopeSummary *s)
{
  GArray *all = g_array_new (FALSE, FALSE, sizeof (SlScopeGap));

  for (guint d = 0; d < s->gaps->n_devices; d++)
    for (guint i = 0; i < s->gaps->devices[d].n_top; i++)
      {
        SlScopeGap g = { s->gaps->devices[d].device, &s->gaps->devices[d].gaps[i] };
        g_array_append_val (all, g);
      }
  g_array_sort (all, gap_compare);
  s->n_top_gaps = MIN (all->len, SL_SCOPE_SUMMARY_TOP);
  s->top_gaps = (SlScopeGap *) g_array_free (all, FALSE);
}

static void
set_window (SlScopeSummary *s, const SlProfile *profile, const SlFilter *filter)
{
  s->has_range = filter != NULL && filter->has_range;
  s->start_ns = s->has_range ? filter->range_start : profile->start_ns;
  s->end_ns = s->has_range ? filter->range_end : profile->end_ns;
}

/* One part of the summary, computed into its field of the summary. */
typedef void (*PartFunc) (SlScopeSummary *s, const SlProfile *profile, const SlFilter *filter);

static void
part_gaps (SlScopeSummary *s, const SlProfile *profile, const SlFilter *filter)
{
  if (s->index != NULL)
    s->gaps = sl_scope_index_gaps (s->index, profile, filter, SL_SCOPE_SUMMARY_TOP, &s->overlap);
  /* overlap from the same walk over the kernels (sl_overlap_compute's numbers) */
  if (s->gaps == NULL)
    s->gaps = sl_gaps_compute_with_overlap (profile, filter, 0, SL_SCOPE_SUMMARY_TOP, &s->overlap);
  merge_gaps (s);
}

/* The kernels and api tables from the index's blocks when there is one
 * (the analysis's numbers), else (or when it cannot answer) the analysis. */
static void
part_kernels (SlScopeSummary *s, const SlProfile *profile, const SlFilter *filter)
{
  if (s->index != NULL)   /* the categories from the same sums */
    sl_scope_index_kernels (s->index, profile, filter, SL_SCOPE_SUMMARY_TOP, 3, &s->kernels, &s->categories);
  if (s->kernels == NULL)
    s->kernels = sl_kernel_summary_compute_sums (profile, filter, SL_NAMES_SHORT, SL_SCOPE_SUMMARY_TOP);
}

static void
part_categories (SlScopeSummary *s, const SlProfile *profile, const SlFilter *filter)
{
  /* with an index, part_kernels made them (when it could) */
  if (s->categories == NULL)
    s->categories = sl_category_summary_compute (profile, filter, NULL, SL_NAMES_SHORT, 3);
}

static void
part_api (SlScopeSummary *s, const SlProfile *profile, const SlFilter *filter)
{
  if (s->index != NULL)
    s->api = sl_scope_index_api (s->index, profile, filter, SL_SCOPE_SUMMARY_TOP);
  if (s->api == NULL)
    s->api = sl_api_summary_compute_sums (profile, filter, SL_SCOPE_SUMMARY_TOP);
}

static void
part_nvtx (SlScopeSummary *s, const SlProfile *profile, const SlFilter *filter)
{
  if (s->index != NULL)
    s->nvtx = sl_scope_index_nvtx (s->index, profile, filter, SL_SCOPE_SUMMARY_TOP);
  if (s->nvtx == NULL)
    s->nvtx = sl_nvtx_summary_compute_sums (profile, filter, SL_SCOPE_SUMMARY_TOP, FALSE);
}

static void
part_iterations (SlScopeSummary *s, const SlProfile *profile, const SlFilter *filter)
{
  s->iterations = sl_iterations_compute_durations (profile, filter);
}

/* The parts in two lists, one per core; each part writes only its own
 * field, and the analyses only read the profile (derived data is built
 * under its lock).  With the index every part but the iterations costs a
 * few ms (10 M kernels, the middle tenth: iterations ~22 ms, the rest ~8
 * ms), so the iterations have a core to themselves.  Untabled: the whole
 * profile's parts that the index does not answer (kept, see WholeSlot). */
static const PartFunc parts_first[] = { part_gaps, part_kernels, part_categories, part_nvtx, part_api, NULL };
static const PartFunc parts_second[] = { part_iterations, NULL };
static const PartFunc parts_first_untabled[] = { NULL };
static const PartFunc parts_second_untabled[] = { part_iterations, NULL };

typedef struct {
  SlScopeSummary  *s;
  const SlProfile *profile;
  const SlFilter  *filter;
  GCancellable    *cancellable;
  const PartFunc  *parts;
} PartList;

/* The list's parts in turn, stopping between two when cancelled. */
static gpointer
run_parts (gpointer data)
{
  PartList *list = data;

  for (const PartFunc *part = list->parts; *part != NULL; part++)
    {
      if (g_cancellable_is_cancelled (list->cancellable))
        break;
      (*part) (list->s, list->profile, list->filter);
    }
  return NULL;
}

/* Every part, on both cores; FALSE when cancelled. */
static gboolean
run_lists (SlScopeSummary *s, const SlProfile *profile, const SlFilter *filter,
           GCancellable *cancellable, GError **error, gboolean tables)
{
  PartList first = { s, profile, filter, cancellable, tables ? parts_first : parts_first_untabled };
  PartList second = { s, profile, filter, cancellable, tables ? parts_second : parts_second_untabled };
  GThread *other;

  set_window (s, profile, filter);
  if (cancelled (cancellable, error))
    return FALSE;
  other = g_thread_new ("sl-scope-summary", run_parts, &second);
  run_parts (&first);
  g_thread_join (other);
  return !cancelled (cancellable, error);
}

static SlScopeSummary *
summary_new (void)
{
  SlScopeSummary *s = g_new0 (SlScopeSummary, 1);

  s->ref_count = 1;
  return s;
}

static SlScopeSummary *
compute_parts (const SlProfile *profile, const SlFilter *filter, gboolean tables)
{
  SlScopeSummary *s = summary_new ();

  run_lists (s, profile, filter, NULL, NULL, tables);
  return s;
}

/* What the whole profile's summaries are made from besides the index: its
 * iterations (a range detects its own steps, as `iterations --range`).  The
 * slot is made at once under the profile's derived-data lock; each is built
 * under the slot's own lock, so that it holds up nobody but another caller
 * wanting the same (the analyses take the profile's lock for their own
 * derived data, on both cores). */
typedef struct {
  GMutex          lock;
  SlScopeSummary *parts;    /* iterations only */
} WholeSlot;

static gpointer
slot_build (const SlProfile *profile)
{
  WholeSlot *slot = g_new0 (WholeSlot, 1);

  g_mutex_init (&slot->lock);
  return slot;
}

static void
slot_free (gpointer data)
{
  WholeSlot *slot = data;

  g_clear_pointer (&slot->parts, sl_scope_summary_unref);
  g_mutex_clear (&slot->lock);
  g_free (slot);
}

static WholeSlot *
whole_slot (const SlProfile *profile)
{
  return sl_profile_get_derived (profile, "sl-scope-summary-whole", slot_build, slot_free);
}

/* Call with the slot locked. */
static SlScopeSummary *
whole_parts (WholeSlot *slot, const SlProfile *profile)
{
  if (slot->parts == NULL)
    slot->parts = compute_parts (profile, NULL, FALSE);
  return slot->parts;
}

static gpointer
build_index (gpointer profile)
{
  sl_scope_index_get (profile);
  return NULL;
}

void
sl_scope_summary_prepare (const SlProfile *profile)
{
  WholeSlot *slot = whole_slot (profile);
  GThread *other = g_thread_new ("sl-scope-index", build_index, (gpointer) profile);

  g_mutex_lock (&slot->lock);
  whole_parts (slot, profile);
  g_mutex_unlock (&slot->lock);
  g_thread_join (other);
}

/* The whole profile's: the kept parts, and the rest summed from the index's
 * blocks like any scope's. */
static SlScopeSummary *
whole_from_parts (const SlProfile *profile, SlScopeSummary *base, SlScopeIndex *index)
{
  SlScopeSummary *s = summary_new ();

  set_window (s, profile, NULL);
  s->base = sl_scope_summary_ref (base);
  s->iterations = base->iterations;
  s->index = index;
  part_gaps (s, profile, NULL);
  part_kernels (s, profile, NULL);
  part_api (s, profile, NULL);
  part_categories (s, profile, NULL);
  part_nvtx (s, profile, NULL);
  s->index = NULL;
  return s;
}

static SlScopeSummary *
whole_summary (const SlProfile *profile, GCancellable *cancellable, GError **error)
{
  WholeSlot *slot = whole_slot (profile);
  SlScopeSummary *s = NULL;

  SlScopeSummary *parts;

  if (cancelled (cancellable, error))
    return NULL;
  g_mutex_lock (&slot->lock);
  parts = sl_scope_summary_ref (whole_parts (slot, profile));
  g_mutex_unlock (&slot->lock);
  s = whole_from_parts (profile, parts, sl_scope_index_get (profile));
  sl_scope_summary_unref (parts);
  return s;
}

SlScopeSummary *
sl_scope_summary_compute (const SlProfile *profile, const SlFilter *filter,
                          GCancellable *cancellable, GError **error)
{
  g_autoptr(SlScopeSummary) s = NULL;

  g_return_val_if_fail (profile != NULL, NULL);
  if (filter == NULL || sl_filter_is_empty (filter))
    return whole_summary (profile, cancellable, error);
  s = summary_new ();
  s->index = sl_scope_index_get (profile);
  if (!run_lists (s, profile, filter, cancellable, error, TRUE))
    return NULL;
  s->index = NULL;
  return g_steal_pointer (&s);
}

SlScopeSummary *
sl_scope_summary_compute_separate (const SlProfile *profile, const SlFilter *filter)
{
  return compute_parts (profile, filter, TRUE);
}

SlScopeSummary *
sl_scope_summary_ref (SlScopeSummary *s)
{
  g_return_val_if_fail (s != NULL, NULL);
  g_atomic_int_inc (&s->ref_count);
  return s;
}

void
sl_scope_summary_unref (SlScopeSummary *s)
{
  if (s == NULL || !g_atomic_int_dec_and_test (&s->ref_count))
    return;
  g_clear_pointer (&s->kernels, sl_kernel_summary_free);
  g_clear_pointer (&s->api, sl_api_summary_free);
  g_clear_pointer (&s->categories, sl_category_summary_free);
  g_clear_pointer (&s->nvtx, sl_nvtx_summary_free);
  g_clear_pointer (&s->gaps, sl_gaps_free);
  g_clear_pointer (&s->overlap, sl_overlap_free);
  if (s->base != NULL)
    sl_scope_summary_unref (s->base);   /* the iterations are its */
  else
    g_clear_pointer (&s->iterations, sl_iterations_free);
  g_free (s->top_gaps);
  g_free (s);
}

void
sl_scope_iteration_span (const SlIterations *iterations, guint i, gint64 *start_ns, gint64 *end_ns)
{
  const SlIteration *it = &iterations->iterations[i];
  gboolean cpu = iterations->method == SL_ITERATIONS_NVTX || !it->has_gpu;

  *start_ns = cpu ? it->cpu_start_ns : it->gpu_start_ns;
  *end_ns = cpu ? it->cpu_end_ns : it->gpu_end_ns;
}

/* ---- JSON (the GUI probe's state and the tests) ---- */

static void
add_gpus (JsonBuilder *b, const SlGaps *gaps)
{
  json_builder_set_member_name (b, "gpus");
  json_builder_begin_array (b);
  for (guint d = 0; d < gaps->n_devices; d++)
    {
      const SlGapsDevice *dev = &gaps->devices[d];
      json_builder_begin_object (b);
      sl_json_member_int (b, "device", dev->device);
      sl_json_member_int (b, "span_ns", dev->span_ns);
      sl_json_member_int (b, "kernel_busy_ns", dev->kernel_busy_ns);
      sl_json_member_int (b, "copy_busy_ns", dev->copy_busy_ns);
      sl_json_member_double (b, "utilization_pct", dev->utilization_pct);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_rows (JsonBuilder *b, const char *member, const SlNameRow *rows, guint n)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      json_builder_begin_object (b);
      sl_json_member_string (b, "name", rows[i].name);
      sl_json_member_int (b, "instances", (gint64) rows[i].stats.count);
      sl_json_member_int (b, "total_ns", rows[i].stats.total);
      sl_json_member_double (b, "time_pct", rows[i].time_pct);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_named_table (JsonBuilder *b, const char *member, gint64 total, guint64 count,
                 const SlNameRow *rows, guint n)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
  sl_json_member_int (b, "total_ns", total);
  sl_json_member_int (b, "instances", (gint64) count);
  add_rows (b, "top", rows, n);
  json_builder_end_object (b);
}

static void
add_categories (JsonBuilder *b, const SlCategorySummary *c)
{
  json_builder_set_member_name (b, "categories");
  json_builder_begin_array (b);
  for (guint i = 0; i < c->n_rows; i++)
    {
      json_builder_begin_object (b);
      sl_json_member_string (b, "name", c->rows[i].name);
      sl_json_member_int (b, "total_ns", c->rows[i].total_ns);
      sl_json_member_double (b, "pct", c->rows[i].pct);
      sl_json_member_int (b, "instances", (gint64) c->rows[i].instances);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_nvtx (JsonBuilder *b, const SlNvtxSummary *n)
{
  json_builder_set_member_name (b, "nvtx");
  json_builder_begin_array (b);
  for (guint i = 0; i < n->n_rows; i++)
    {
      json_builder_begin_object (b);
      sl_json_member_string (b, "name", n->rows[i].name);
      sl_json_member_int (b, "instances", (gint64) n->rows[i].stats.count);
      sl_json_member_int (b, "total_ns", n->rows[i].stats.total);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_overlap (JsonBuilder *b, const SlOverlap *o)
{
  json_builder_set_member_name (b, "overlap");
  json_builder_begin_array (b);
  for (guint i = 0; i < o->n_devices; i++)
    {
      json_builder_begin_object (b);
      sl_json_member_int (b, "device", o->devices[i].device);
      sl_json_member_int (b, "compute_ns", o->devices[i].compute_ns);
      sl_json_member_int (b, "nccl_ns", o->devices[i].nccl_ns);
      sl_json_member_int (b, "overlap_ns", o->devices[i].overlap_ns);
      sl_json_member_double (b, "overlap_pct", o->devices[i].overlap_pct);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_iterations (JsonBuilder *b, const SlIterations *it)
{
  json_builder_set_member_name (b, "iterations");
  json_builder_begin_object (b);
  sl_json_member_string (b, "method", sl_iterations_method_name (it->method));
  json_builder_set_member_name (b, "items");
  json_builder_begin_array (b);
  for (guint i = 0; i < it->n_iterations; i++)
    {
      gint64 start, end;
      sl_scope_iteration_span (it, i, &start, &end);
      json_builder_begin_object (b);
      sl_json_member_int (b, "pid", it->iterations[i].pid);
      sl_json_member_int (b, "index", it->iterations[i].index);
      sl_json_member_int (b, "start_ns", start);
      sl_json_member_int (b, "end_ns", end);
      sl_json_member_int (b, "dur_ns", it->iterations[i].dur_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_gaps (JsonBuilder *b, const SlScopeSummary *s)
{
  json_builder_set_member_name (b, "gaps");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->n_top_gaps; i++)
    {
      json_builder_begin_object (b);
      sl_json_member_int (b, "device", s->top_gaps[i].device);
      sl_json_member_int (b, "start_ns", s->top_gaps[i].gap->start_ns);
      sl_json_member_int (b, "end_ns", s->top_gaps[i].gap->end_ns);
      sl_json_member_int (b, "dur_ns", s->top_gaps[i].gap->dur_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

JsonNode *
sl_scope_summary_to_json (const SlScopeSummary *s)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (s != NULL, NULL);
  json_builder_begin_object (b);
  sl_json_member_int (b, "start_ns", s->start_ns);
  sl_json_member_int (b, "end_ns", s->end_ns);
  json_builder_set_member_name (b, "whole");
  json_builder_add_boolean_value (b, !s->has_range);
  add_gpus (b, s->gaps);
  add_named_table (b, "kernels", s->kernels->total_ns, s->kernels->instances, s->kernels->rows,
                   s->kernels->n_rows);
  add_categories (b, s->categories);
  add_named_table (b, "api", s->api->total_ns, s->api->calls, s->api->rows, s->api->n_rows);
  add_nvtx (b, s->nvtx);
  add_overlap (b, s->overlap);
  if (s->iterations != NULL)
    add_iterations (b, s->iterations);
  add_gaps (b, s);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
