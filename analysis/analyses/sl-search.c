/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-search.c: kernels and NVTX ranges by name. */
#include "sl-search.h"
#include "sl-attribution.h"
#include "sl-json.h"
#include "sl-name-match.h"

#include <string.h>

typedef struct {
  gint64       start;
  SlSearchKind kind;
  gboolean     startend;
  guint32      owner;
  guint32      index;
} Hit;

static int
compare_hits (gconstpointer a, gconstpointer b)
{
  const Hit *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind == SL_SEARCH_RANGE ? -1 : 1;
  if (x->owner != y->owner)
    return x->owner < y->owner ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

/* Names of the ranges enclosing local range @i of @r, outermost first. */
static char **
range_path (const SlProfile *profile, const SlNvtxRanges *r, guint32 i)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint32 p = i; p != SL_NONE; p = r->parent[p])
    g_ptr_array_insert (names, 0, g_strdup (sl_strings_get (profile->strings, r->name[p])));
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

static void
scan_ranges (SlNameMatch *m, const SlProfile *profile, const SlFilter *filter, guint t,
             gboolean startend, guint limit, GArray *hits, guint64 *total)
{
  const SlNvtxRanges *r = startend ? &profile->threads[t].nvtx_startend : &profile->threads[t].nvtx;
  guint row = 0, row_end = 0, kept = 0;

  /* Push/pop rows are sorted per depth: the first hits overall are among the
   * first @limit of each row.  Start/end ranges are few: all are kept. */
  for (guint i = 0; i < r->spans.n; i++)
    {
      if (!startend && i >= row_end)
        {
          while (row < r->n_depths && r->depth_first[row + 1] <= i)
            row++;
          row_end = row < r->n_depths ? r->depth_first[row + 1] : r->spans.n;
          row++;
          kept = 0;
        }
      if (!sl_filter_match_time (filter, r->spans.start[i]) || !sl_name_match_id (m, r->name[i]))
        continue;
      (*total)++;
      if (startend || limit == 0 || kept < limit)
        {
          Hit h = { r->spans.start[i], SL_SEARCH_RANGE, startend, t, i };
          g_array_append_val (hits, h);
          kept++;
        }
    }
}

/* Kernels match by short or demangled name: a verdict per function. */
static void
scan_kernels (SlNameMatch *m, const SlProfile *profile, const SlFilter *filter, guint limit,
              GArray *hits, guint64 *total)
{
  g_autofree guint8 *func_ok = g_new0 (guint8, MAX (profile->n_funcs, 1));

  for (guint f = 0; f < profile->n_funcs; f++)
    func_ok[f] = sl_name_match_id (m, profile->funcs[f].short_name)
                 || sl_name_match_id (m, profile->funcs[f].demangled_name);
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *stream = &profile->streams[s];
      const SlKernels *k = &stream->kernels;
      guint lo, hi, kept = 0;

      if (!sl_filter_match_stream (filter, stream))
        continue;
      sl_filter_span_bounds (filter, &k->spans, 0, k->spans.n, &lo, &hi);
      for (guint i = lo; i < hi; i++)
        if (func_ok[k->func[i]])
          {
            (*total)++;
            if (limit == 0 || kept < limit)
              {
                Hit h = { k->spans.start[i], SL_SEARCH_KERNEL, FALSE, s, i };
                g_array_append_val (hits, h);
                kept++;
              }
          }
    }
}

/* The NVTX path of API call @a: the push/pop ranges around it, the
 * innermost found by a search of its thread's ranges, as the attribution
 * finds it.  Matches are few (50 by default): not worth attributing every
 * call of the profile (16 ms at 1 M calls) for them. */
static char **
api_path (const SlProfile *profile, guint32 a)
{
  guint32 t = sl_profile_api_thread (profile, a);
  guint32 range;

  if (t == SL_NONE)
    return NULL;
  range = sl_nvtx_innermost_at (&profile->threads[t].nvtx, profile->api.spans.start[a]);
  if (range == SL_NONE)
    return NULL;
  return range_path (profile, &profile->threads[t].nvtx, range);
}

/* A kernel: its stream, its launching thread, and the NVTX ranges around
 * its launch. */
static void
fill_kernel_match (const SlProfile *profile, guint32 owner, guint32 index, SlSearchMatch *out)
{
  const SlStream *stream = &profile->streams[owner];
  const SlKernels *k = &stream->kernels;
  guint32 a = k->api[index];

  out->name = g_strdup (sl_profile_kernel_name (profile, k->func[index], FALSE));
  out->start_ns = k->spans.start[index];
  out->end_ns = sl_spans_end (&k->spans, index);
  out->pid = stream->pid;
  out->device = stream->device;
  out->stream = stream->stream;
  if (a != SL_NONE)
    {
      guint32 t = sl_profile_api_thread (profile, a);
      if (t != SL_NONE)
        {
          out->has_tid = TRUE;
          out->tid = profile->threads[t].tid;
        }
      out->path = api_path (profile, a);
    }
}

static void
fill_range_match (const SlProfile *profile, guint32 owner, guint32 index, gboolean startend,
                  SlSearchMatch *out)
{
  const SlThread *thread = &profile->threads[owner];
  const SlNvtxRanges *r = startend ? &thread->nvtx_startend : &thread->nvtx;

  out->name = g_strdup (sl_strings_get (profile->strings, r->name[index]));
  out->start_ns = r->spans.start[index];
  out->end_ns = sl_spans_end (&r->spans, index);
  out->pid = thread->pid;
  out->has_tid = TRUE;
  out->tid = thread->tid;
  /* the path of a push/pop range: its ancestors (itself excluded) */
  if (!startend && r->parent[index] != SL_NONE)
    out->path = range_path (profile, r, r->parent[index]);
}

/* A CUDA API call (@index global): its thread and the ranges around it. */
static void
fill_api_match (const SlProfile *profile, guint32 owner, guint32 index, SlSearchMatch *out)
{
  const SlThread *thread = &profile->threads[owner];

  out->name = g_strdup (sl_strings_get (profile->strings, profile->api.name[index]));
  out->start_ns = profile->api.spans.start[index];
  out->end_ns = sl_spans_end (&profile->api.spans, index);
  out->pid = thread->pid;
  out->has_tid = TRUE;
  out->tid = thread->tid;
  out->path = api_path (profile, index);
}

void
sl_search_match_fill (const SlProfile *profile, SlSearchKind kind, gboolean startend, guint32 owner,
                      guint32 index, SlSearchMatch *out)
{
  memset (out, 0, sizeof *out);
  out->kind = kind;
  out->owner = owner;
  out->index = index;
  out->startend = startend;
  if (kind == SL_SEARCH_KERNEL)
    fill_kernel_match (profile, owner, index, out);
  else if (kind == SL_SEARCH_RANGE)
    fill_range_match (profile, owner, index, startend, out);
  else
    fill_api_match (profile, owner, index, out);
  if (out->path == NULL)
    out->path = g_new0 (char *, 1);
}

void
sl_search_match_clear (SlSearchMatch *m)
{
  g_clear_pointer (&m->name, g_free);
  g_clear_pointer (&m->path, g_strfreev);
}

/* The first @limit hits by start time become the matches. */
static void
fill_matches (SlSearch *self, const SlProfile *profile, GArray *hits, guint limit)
{
  g_array_sort (hits, compare_hits);
  if (limit > 0 && hits->len > limit)
    g_array_set_size (hits, limit);
  self->n_matches = hits->len;
  self->matches = g_new0 (SlSearchMatch, MAX (hits->len, 1));
  for (guint h = 0; h < hits->len; h++)
    {
      const Hit *hit = &g_array_index (hits, Hit, h);

      sl_search_match_fill (profile, hit->kind, hit->startend, hit->owner, hit->index, &self->matches[h]);
    }
}

SlSearch *
sl_search_compute (const SlProfile *profile, const SlFilter *filter, const char *pattern,
                   guint limit, GError **error)
{
  g_autoptr(SlSearch) self = g_new0 (SlSearch, 1);
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (Hit));
  g_autoptr(SlNameMatch) m = sl_name_match_new (profile, pattern, error);

  if (m == NULL)
    return NULL;
  self->pattern = g_strdup (pattern);
  scan_kernels (m, profile, filter, limit, hits, &self->total);
  for (guint t = 0; t < profile->n_threads; t++)
    if (sl_filter_match_thread (filter, profile, t))
      {
        scan_ranges (m, profile, filter, t, FALSE, limit, hits, &self->total);
        scan_ranges (m, profile, filter, t, TRUE, limit, hits, &self->total);
      }
  fill_matches (self, profile, hits, limit);
  return g_steal_pointer (&self);
}

void
sl_search_free (SlSearch *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_matches; i++)
    sl_search_match_clear (&self->matches[i]);
  g_free (self->matches);
  g_free (self->pattern);
  g_free (self);
}

static void
add_match_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlSearchMatch *m = item;
  gboolean kernel = m->kind == SL_SEARCH_KERNEL;

  json_builder_begin_object (b);
  sl_json_member_string (b, "kind", kernel ? "kernel" : m->kind == SL_SEARCH_API ? "api" : "range");
  sl_json_member_string (b, "name", m->name);
  sl_json_member_int (b, "start_ns", m->start_ns);
  sl_json_member_int (b, "end_ns", m->end_ns);
  sl_json_member_int (b, "dur_ns", m->end_ns - m->start_ns);
  sl_json_member_int (b, "pid", m->pid);
  sl_json_member_int_or_null (b, "tid", m->has_tid, m->tid);
  sl_json_member_int_or_null (b, "device", kernel, m->device);
  sl_json_member_int_or_null (b, "stream", kernel, m->stream);
  json_builder_set_member_name (b, "path");
  json_builder_begin_array (b);
  for (guint p = 0; m->path != NULL && m->path[p] != NULL; p++)
    sl_json_add_string (b, m->path[p]);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

JsonNode *
sl_search_to_json (const SlSearch *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_string (b, "pattern", self->pattern);
  sl_json_member_int (b, "total", (gint64) self->total);
  sl_json_member_array (b, "matches", self->matches, self->n_matches, sizeof (SlSearchMatch),
                        add_match_json, NULL);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
