/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-search.c: kernels and NVTX ranges by name. */
#include "sl-search.h"
#include "sl-attribution.h"
#include "sl-json.h"

#include <string.h>

typedef struct {
  GRegex     *regex;       /* NULL: substring */
  const char *needle;
  GHashTable *verdict;     /* string id -> 1 no, 2 yes */
  const SlProfile *profile;
} Matcher;

static gboolean
name_matches (Matcher *m, guint32 id)
{
  gpointer v = g_hash_table_lookup (m->verdict, GUINT_TO_POINTER (id));

  if (v == NULL)
    {
      const char *name = sl_strings_get (m->profile->strings, id);
      gboolean yes;

      if (m->regex != NULL)
        {
          g_autofree char *valid = g_utf8_make_valid (name, -1);
          yes = g_regex_match (m->regex, valid, 0, NULL);
        }
      else
        yes = strcasestr (name, m->needle) != NULL;
      v = GINT_TO_POINTER (yes ? 2 : 1);
      g_hash_table_insert (m->verdict, GUINT_TO_POINTER (id), v);
    }
  return GPOINTER_TO_INT (v) == 2;
}

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
scan_ranges (Matcher *m, const SlProfile *profile, const SlFilter *filter, guint t,
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
      if (!sl_filter_match_time (filter, r->spans.start[i]) || !name_matches (m, r->name[i]))
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

/* "/REGEX/" or "/REGEX/i" compiles a regex into @m; anything else stays a
 * substring.  FALSE with @error for an invalid regex. */
static gboolean
matcher_parse (Matcher *m, const char *pattern, GError **error)
{
  gsize len = strlen (pattern);

  if (len >= 2 && pattern[0] == '/'
      && (pattern[len - 1] == '/' || (len >= 3 && pattern[len - 2] == '/' && pattern[len - 1] == 'i')))
    {
      gboolean caseless = pattern[len - 1] == 'i';
      g_autofree char *body = g_strndup (pattern + 1, len - (caseless ? 3 : 2));
      m->regex = g_regex_new (body, G_REGEX_OPTIMIZE | (caseless ? G_REGEX_CASELESS : 0), 0, error);
      if (m->regex == NULL)
        return FALSE;
    }
  return TRUE;
}

/* Kernels match by short or demangled name: a verdict per function. */
static void
scan_kernels (Matcher *m, const SlProfile *profile, const SlFilter *filter, guint limit,
              GArray *hits, guint64 *total)
{
  g_autofree guint8 *func_ok = g_new0 (guint8, MAX (profile->n_funcs, 1));

  for (guint f = 0; f < profile->n_funcs; f++)
    func_ok[f] = name_matches (m, profile->funcs[f].short_name)
                 || name_matches (m, profile->funcs[f].demangled_name);
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

/* A kernel: its stream, its launching thread, and the NVTX ranges around
 * its launch. */
static void
fill_kernel_match (const SlProfile *profile, const SlAttribution *attr, const Hit *hit, SlSearchMatch *out)
{
  const SlStream *stream = &profile->streams[hit->owner];
  const SlKernels *k = &stream->kernels;
  guint32 a = k->api[hit->index];

  out->name = g_strdup (sl_profile_kernel_name (profile, k->func[hit->index], FALSE));
  out->start_ns = k->spans.start[hit->index];
  out->end_ns = sl_spans_end (&k->spans, hit->index);
  out->pid = stream->pid;
  out->device = stream->device;
  out->stream = stream->stream;
  if (a != SL_NONE)
    {
      guint32 t = sl_profile_api_thread (profile, a);
      guint32 range = attr->api_range[a];
      if (t != SL_NONE)
        {
          out->has_tid = TRUE;
          out->tid = profile->threads[t].tid;
        }
      if (range != SL_NONE)
        {
          guint local;
          guint32 rt = sl_attribution_range_thread (attr, range, &local);
          out->path = range_path (profile, &profile->threads[rt].nvtx, local);
        }
    }
  if (out->path == NULL)
    out->path = g_new0 (char *, 1);
}

static void
fill_range_match (const SlProfile *profile, const Hit *hit, SlSearchMatch *out)
{
  const SlThread *thread = &profile->threads[hit->owner];
  const SlNvtxRanges *r = hit->startend ? &thread->nvtx_startend : &thread->nvtx;

  out->name = g_strdup (sl_strings_get (profile->strings, r->name[hit->index]));
  out->start_ns = r->spans.start[hit->index];
  out->end_ns = sl_spans_end (&r->spans, hit->index);
  out->pid = thread->pid;
  out->has_tid = TRUE;
  out->tid = thread->tid;
  /* the path of a push/pop range: its ancestors (itself excluded) */
  if (!hit->startend && r->parent[hit->index] != SL_NONE)
    out->path = range_path (profile, r, r->parent[hit->index]);
  else
    out->path = g_new0 (char *, 1);
}

/* The first @limit hits by start time become the matches. */
static void
fill_matches (SlSearch *self, const SlProfile *profile, GArray *hits, guint limit)
{
  const SlAttribution *attr = sl_attribution_get (profile);

  g_array_sort (hits, compare_hits);
  if (limit > 0 && hits->len > limit)
    g_array_set_size (hits, limit);
  self->n_matches = hits->len;
  self->matches = g_new0 (SlSearchMatch, MAX (hits->len, 1));
  for (guint h = 0; h < hits->len; h++)
    {
      const Hit *hit = &g_array_index (hits, Hit, h);
      SlSearchMatch *out = &self->matches[h];

      out->kind = hit->kind;
      out->owner = hit->owner;
      out->index = hit->index;
      out->startend = hit->startend;
      if (hit->kind == SL_SEARCH_KERNEL)
        fill_kernel_match (profile, attr, hit, out);
      else
        fill_range_match (profile, hit, out);
    }
}

SlSearch *
sl_search_compute (const SlProfile *profile, const SlFilter *filter, const char *pattern,
                   guint limit, GError **error)
{
  g_autoptr(SlSearch) self = g_new0 (SlSearch, 1);
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (Hit));
  g_autoptr(GHashTable) verdict = g_hash_table_new (NULL, NULL);
  Matcher m = { NULL, pattern, verdict, profile };

  self->pattern = g_strdup (pattern);
  if (!matcher_parse (&m, pattern, error))
    return NULL;
  scan_kernels (&m, profile, filter, limit, hits, &self->total);
  for (guint t = 0; t < profile->n_threads; t++)
    if (sl_filter_match_thread (filter, profile, t))
      {
        scan_ranges (&m, profile, filter, t, FALSE, limit, hits, &self->total);
        scan_ranges (&m, profile, filter, t, TRUE, limit, hits, &self->total);
      }
  fill_matches (self, profile, hits, limit);
  g_clear_pointer (&m.regex, g_regex_unref);
  return g_steal_pointer (&self);
}

void
sl_search_free (SlSearch *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_matches; i++)
    {
      g_free (self->matches[i].name);
      g_strfreev (self->matches[i].path);
    }
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
  sl_json_member_string (b, "kind", kernel ? "kernel" : "range");
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
