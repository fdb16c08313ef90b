/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cache-layout.c: the contents of a profile cache entry (see
 * sl-cache-layout.h).  Adding a field to the model means adding it here;
 * the entry's build id (sl-cache-entry.c) changes with this file, so old
 * entries are refused, never misread. */
#include "sl-cache-layout.h"

/* ---- events ------------------------------------------------------------- */

/* An array that may be absent although its length is known (kernels'
 * rowids, NVTX depth tables): its stored length, @n or 0, comes first.
 * Reading refuses any other length and an array present with length 0
 * where @n elements are due. */
static gpointer
walk_optional (SlCacheCodec *c, gconstpointer array, guint64 n, gsize size)
{
  guint64 stored = array != NULL ? n : 0;
  gpointer result;

  _sl_cache_codec_u64 (c, &stored);
  if (stored != 0 && stored != n)
    _sl_cache_codec_fail (c, "an optional array of the wrong length");
  result = _sl_cache_codec_array (c, array, stored, size);
  if (_sl_cache_codec_reading (c) && result != NULL && stored != n)
    _sl_cache_codec_fail (c, "an optional array of the wrong length");
  return result;
}

#define SL_CACHE_OPTIONAL(codec, field, n) G_STMT_START {                       \
    gpointer sl_cache_optional_ = walk_optional ((codec), (field), (n), sizeof *(field)); \
    if (_sl_cache_codec_reading (codec))                                          \
      (field) = sl_cache_optional_;                                               \
  } G_STMT_END

static void
walk_spans (SlCacheCodec *c, SlSpans *s)
{
  _sl_cache_codec_u32 (c, &s->n);
  SL_CACHE_ARRAY (c, s->start, s->n);
  SL_CACHE_ARRAY (c, s->dur, s->n);
  _sl_cache_codec_u32 (c, &s->n_long);
  if (s->n_long > s->n)
    _sl_cache_codec_fail (c, "more long durations than spans");
  SL_CACHE_ARRAY (c, s->long_index, s->n_long);
  SL_CACHE_ARRAY (c, s->long_dur, s->n_long);
}

static void
walk_kernels (SlCacheCodec *c, SlKernels *k)
{
  walk_spans (c, &k->spans);
  SL_CACHE_ARRAY (c, k->func, k->spans.n);
  SL_CACHE_ARRAY (c, k->api, k->spans.n);
  SL_CACHE_OPTIONAL (c, k->rowid, k->spans.n);
  SL_CACHE_OPTIONAL (c, k->rowid_marks, k->spans.n / SL_ROWID_STEP + 2);
  _sl_cache_codec_u32 (c, &k->n_unlinked);
  if (k->n_unlinked > k->spans.n)
    _sl_cache_codec_fail (c, "more unlinked kernels than kernels");
  SL_CACHE_ARRAY (c, k->unlinked_index, k->n_unlinked);
  SL_CACHE_ARRAY (c, k->unlinked_corr, k->n_unlinked);
}

static void
walk_copies (SlCacheCodec *c, SlCopies *copies)
{
  walk_spans (c, &copies->spans);
  SL_CACHE_ARRAY (c, copies->kind, copies->spans.n);
  SL_CACHE_ARRAY (c, copies->bytes, copies->spans.n);
  SL_CACHE_ARRAY (c, copies->corr, copies->spans.n);
  SL_CACHE_ARRAY (c, copies->api, copies->spans.n);
}

static void
walk_stream (SlCacheCodec *c, SlStream *s)
{
  _sl_cache_codec_u32 (c, &s->pid);
  _sl_cache_codec_u32 (c, &s->device);
  _sl_cache_codec_u32 (c, &s->context);
  _sl_cache_codec_u32 (c, &s->stream);
  _sl_cache_codec_u32 (c, &s->gpu);
  walk_kernels (c, &s->kernels);
  walk_copies (c, &s->memcpy);
  walk_copies (c, &s->memset);
}

static void
walk_gpu (SlCacheCodec *c, SlGpu *gpu)
{
  char *name = _sl_cache_codec_string (c, gpu->name);

  if (_sl_cache_codec_reading (c))
    gpu->name = _sl_arena_adopt (_sl_cache_codec_arena (c), name);
  _sl_cache_codec_u32 (c, &gpu->device);
  _sl_cache_codec_i64 (c, &gpu->sm_count);
  _sl_cache_codec_i64 (c, &gpu->memory_bytes);
  _sl_cache_codec_bool (c, &gpu->has_activity);
  _sl_cache_codec_u64 (c, &gpu->n_kernels);
  _sl_cache_codec_u32 (c, &gpu->n_streams);
  SL_CACHE_ARRAY (c, gpu->streams, gpu->n_streams);
}

static void
walk_gpu_side (SlCacheCodec *c, SlProfile *p)
{
  _sl_cache_codec_section (c, SL_CACHE_SECTION_GPU);
  _sl_cache_codec_u32 (c, &p->n_funcs);
  SL_CACHE_ARRAY (c, p->funcs, p->n_funcs);
  SL_CACHE_STRUCTS (c, p->streams, &p->n_streams);
  for (guint i = 0; i < p->n_streams; i++)
    walk_stream (c, &p->streams[i]);
  SL_CACHE_STRUCTS (c, p->gpus, &p->n_gpus);
  for (guint i = 0; i < p->n_gpus; i++)
    walk_gpu (c, &p->gpus[i]);
}

/* ---- CPU side ------------------------------------------------------------- */

static void
walk_ranges (SlCacheCodec *c, SlNvtxRanges *r)
{
  walk_spans (c, &r->spans);
  SL_CACHE_ARRAY (c, r->name, r->spans.n);
  SL_CACHE_ARRAY (c, r->parent, r->spans.n);
  _sl_cache_codec_u32 (c, &r->n_depths);
  SL_CACHE_OPTIONAL (c, r->depth_first, (guint64) r->n_depths + 1);
  SL_CACHE_OPTIONAL (c, r->style, r->spans.n);
  SL_CACHE_OPTIONAL (c, r->style_wide, r->spans.n);
  _sl_cache_codec_u32 (c, &r->n_styles);
  SL_CACHE_ARRAY (c, r->style_color, r->n_styles);
  SL_CACHE_ARRAY (c, r->style_domain, r->n_styles);
}

static void
walk_marks (SlCacheCodec *c, SlNvtxMarks *m)
{
  _sl_cache_codec_u32 (c, &m->n);
  SL_CACHE_ARRAY (c, m->time, m->n);
  SL_CACHE_ARRAY (c, m->name, m->n);
  SL_CACHE_ARRAY (c, m->color, m->n);
  SL_CACHE_ARRAY (c, m->domain, m->n);
}

static void
walk_thread (SlCacheCodec *c, SlThread *t)
{
  _sl_cache_codec_u64 (c, &t->global_tid);
  _sl_cache_codec_u32 (c, &t->pid);
  _sl_cache_codec_u32 (c, &t->tid);
  _sl_cache_codec_u32 (c, &t->name);
  _sl_cache_codec_u32 (c, &t->process);
  _sl_cache_codec_u32 (c, &t->api_first);
  _sl_cache_codec_u32 (c, &t->api_count);
  walk_ranges (c, &t->nvtx);
  walk_ranges (c, &t->nvtx_startend);
  walk_marks (c, &t->marks);
}

static void
walk_cpu_side (SlCacheCodec *c, SlProfile *p)
{
  _sl_cache_codec_section (c, SL_CACHE_SECTION_API);
  walk_spans (c, &p->api.spans);
  SL_CACHE_ARRAY (c, p->api.name, p->api.spans.n);
  SL_CACHE_OPTIONAL (c, p->api.corr, p->api.spans.n);
  SL_CACHE_OPTIONAL (c, p->api.corr_base, p->api.spans.n / SL_CORR_STEP + 1);
  SL_CACHE_OPTIONAL (c, p->api.corr_delta, p->api.spans.n);
  _sl_cache_codec_u32 (c, &p->api.n_corr_far);
  if (p->api.n_corr_far > p->api.spans.n)
    _sl_cache_codec_fail (c, "more far correlation ids than calls");
  SL_CACHE_ARRAY (c, p->api.corr_far_index, p->api.n_corr_far);
  SL_CACHE_ARRAY (c, p->api.corr_far, p->api.n_corr_far);

  _sl_cache_codec_section (c, SL_CACHE_SECTION_CPU);
  SL_CACHE_STRUCTS (c, p->threads, &p->n_threads);
  for (guint i = 0; i < p->n_threads; i++)
    walk_thread (c, &p->threads[i]);
  SL_CACHE_STRUCTS (c, p->processes, &p->n_processes);
  for (guint i = 0; i < p->n_processes; i++)
    {
      SlProcess *process = &p->processes[i];
      _sl_cache_codec_u32 (c, &process->pid);
      _sl_cache_codec_u32 (c, &process->name);
      _sl_cache_codec_u32 (c, &process->n_threads);
      SL_CACHE_ARRAY (c, process->threads, process->n_threads);
    }
  _sl_cache_codec_u32 (c, &p->n_domains);
  SL_CACHE_ARRAY (c, p->domains, p->n_domains);
}

static void
walk_syncs (SlCacheCodec *c, SlSyncs *s)
{
  _sl_cache_codec_section (c, SL_CACHE_SECTION_SYNCS);
  walk_spans (c, &s->spans);
  SL_CACHE_ARRAY (c, s->device, s->spans.n);
  SL_CACHE_ARRAY (c, s->stream, s->spans.n);
  SL_CACHE_ARRAY (c, s->pid, s->spans.n);
  SL_CACHE_ARRAY (c, s->sync_type, s->spans.n);
  SL_CACHE_ARRAY (c, s->corr, s->spans.n);
  SL_CACHE_ARRAY (c, s->api, s->spans.n);
}

/* ---- strings and scalars ------------------------------------------------------ */

static void
walk_strings (SlCacheCodec *c, SlProfile *p)
{
  const guint64 *offsets = NULL;
  const char *blob = NULL;
  guint32 n = 0;
  gsize len = 0;
  guint64 blob_len;

  _sl_cache_codec_section (c, SL_CACHE_SECTION_STRINGS);
  if (!_sl_cache_codec_reading (c))
    {
      offsets = _sl_strings_offsets (p->strings, &n);
      blob = _sl_strings_blob (p->strings, &len);
    }
  blob_len = len;
  _sl_cache_codec_u32 (c, &n);
  offsets = _sl_cache_codec_array (c, offsets, n, sizeof (guint64));
  _sl_cache_codec_u64 (c, &blob_len);
  blob = _sl_cache_codec_array (c, blob, blob_len, 1);
  if (!_sl_cache_codec_reading (c) || _sl_cache_codec_failure (c) != NULL)
    return;
  SlStrings *strings = _sl_strings_new_mapped (blob, (gsize) blob_len, offsets, n);
  if (strings == NULL)
    {
      _sl_cache_codec_fail (c, "a string outside the string table");
      return;
    }
  _sl_strings_free (p->strings);
  p->strings = strings;
}

static void
walk_warnings (SlCacheCodec *c, SlProfile *p)
{
  guint64 n = p->warnings->len;

  _sl_cache_codec_u64 (c, &n);
  if (!_sl_cache_codec_reading (c))
    {
      for (guint i = 0; i < p->warnings->len; i++)
        _sl_cache_codec_string (c, g_ptr_array_index (p->warnings, i));
      return;
    }
  for (guint64 i = 0; i < n && _sl_cache_codec_failure (c) == NULL; i++)
    {
      char *warning = _sl_cache_codec_string (c, NULL);
      if (warning == NULL)
        _sl_cache_codec_fail (c, "a missing warning");
      else
        g_ptr_array_add (p->warnings, warning);
    }
}

static void
walk_scalars (SlCacheCodec *c, SlProfile *p)
{
  guint64 *counts[] = {
    &p->counts.kernels, &p->counts.memcpy, &p->counts.memset, &p->counts.cuda_api,
    &p->counts.nvtx_ranges, &p->counts.nvtx_marks, &p->counts.syncs, &p->counts.kernels_linked,
    &p->counts.skipped_rows,
  };
  char *nsys = _sl_cache_codec_string (c, p->nsys_version);
  char *schema = _sl_cache_codec_string (c, p->schema_version);

  if (_sl_cache_codec_reading (c))
    {
      p->nsys_version = nsys;
      p->schema_version = schema;
    }
  _sl_cache_codec_i64 (c, &p->start_ns);
  _sl_cache_codec_i64 (c, &p->end_ns);
  _sl_cache_codec_i64 (c, &p->session_utc_ns);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    _sl_cache_codec_u64 (c, counts[i]);
  walk_warnings (c, p);
}

/* ---- checks after reading ------------------------------------------------------ */

static gboolean
indexes_below (const guint32 *values, guint n, guint limit)
{
  for (guint i = 0; i < n; i++)
    if (values[i] >= limit)
      return FALSE;
  return TRUE;
}

/* A range's style index is checked when read (sl_nvtx_ranges_color), but
 * an entry with both index arrays, or styles without their tables, was not
 * written by the loader. */
static gboolean
styles_ok (const SlNvtxRanges *r)
{
  if (r->style != NULL && r->style_wide != NULL)
    return FALSE;
  return r->n_styles == 0 || (r->style_color != NULL && r->style_domain != NULL);
}

static gboolean
depth_table_ok (const SlNvtxRanges *r)
{
  if (r->depth_first == NULL)
    return r->spans.n == 0;
  if (r->depth_first[0] != 0 || r->depth_first[r->n_depths] != r->spans.n)
    return FALSE;
  for (guint d = 0; d < r->n_depths; d++)
    if (r->depth_first[d] > r->depth_first[d + 1])
      return FALSE;
  return TRUE;
}

static const char *
check_structure (const SlProfile *p)
{
  for (guint i = 0; i < p->n_streams; i++)
    if (p->streams[i].gpu >= p->n_gpus)
      return "a stream on a missing GPU";
  for (guint i = 0; i < p->n_gpus; i++)
    if (!indexes_below (p->gpus[i].streams, p->gpus[i].n_streams, p->n_streams))
      return "a GPU with a missing stream";
  for (guint i = 0; i < p->n_threads; i++)
    {
      const SlThread *t = &p->threads[i];
      if ((guint64) t->api_first + t->api_count > p->api.spans.n || t->process >= p->n_processes)
        return "a thread outside the API calls or processes";
      if (!depth_table_ok (&t->nvtx) || !depth_table_ok (&t->nvtx_startend))
        return "a bad NVTX depth table";
      if (!styles_ok (&t->nvtx) || !styles_ok (&t->nvtx_startend))
        return "bad NVTX styles";
    }
  for (guint i = 0; i < p->n_processes; i++)
    if (!indexes_below (p->processes[i].threads, p->processes[i].n_threads, p->n_threads))
      return "a process with a missing thread";
  return NULL;
}

void
_sl_cache_layout_walk (SlCacheCodec *c, SlProfile *profile)
{
  const char *why;

  walk_scalars (c, profile);
  walk_gpu_side (c, profile);
  walk_cpu_side (c, profile);
  walk_syncs (c, &profile->syncs);
  walk_strings (c, profile);
  if (!_sl_cache_codec_reading (c) || _sl_cache_codec_failure (c) != NULL)
    return;
  why = _sl_cache_codec_at_end (c) ? check_structure (profile) : "META longer than the profile";
  if (why != NULL)
    _sl_cache_codec_fail (c, why);
}
