/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-profile.c: the immutable profile: lifetime, derived data and lookups.
 * It is built by the loader (analysis/loader/sl-assemble.c). */
#include "sl-profile-private.h"

#include <string.h>

G_DEFINE_QUARK (sl-profile-error-quark, sl_profile_error)
G_DEFINE_BOXED_TYPE (SlProfile, sl_profile, sl_profile_ref, sl_profile_unref)

/* ---- lifetime ----------------------------------------------------------- */

SlProfile *
_sl_profile_new (const char *path)
{
  SlProfile *profile = g_new0 (SlProfile, 1);

  profile->ref_count = 1;
  profile->path = g_strdup (path);
  profile->strings = _sl_strings_new ();
  profile->warnings = g_ptr_array_new_with_free_func (g_free);
  profile->arenas = g_ptr_array_new_with_free_func ((GDestroyNotify) _sl_arena_unref);
  g_ptr_array_add (profile->arenas, _sl_arena_new ());
  profile->parts = SL_PARTS_ALL;
  profile->source_fd = -1;
  g_rec_mutex_init (&profile->derived_lock);
  return profile;
}

SlArena *
_sl_profile_arena (SlProfile *profile)
{
  return g_ptr_array_index (profile->arenas, 0);
}

void
_sl_profile_share_arena (SlProfile *profile, SlArena *arena)
{
  g_ptr_array_add (profile->arenas, _sl_arena_ref (arena));
}

void
_sl_profile_set_source (SlProfile *profile, int fd, gpointer owner, GDestroyNotify destroy)
{
  profile->source_fd = fd;
  _sl_arena_keep (_sl_profile_arena (profile), owner, destroy);
}

SlProfile *
sl_profile_ref (SlProfile *profile)
{
  g_return_val_if_fail (profile != NULL, NULL);
  g_atomic_int_inc (&profile->ref_count);
  return profile;
}

/* ---- builders' arrays ----------------------------------------------------
 * While the loader builds them, arrays are plain heap blocks it frees on
 * failure with the _clear functions; the finished profile hands them to an
 * arena with the _adopt functions. */

void
_sl_kernels_clear (SlKernels *k)
{
  _sl_spans_clear (&k->spans);
  g_clear_pointer (&k->func, g_free);
  g_clear_pointer (&k->api, g_free);
  g_clear_pointer (&k->rowid, g_free);
  g_clear_pointer (&k->rowid_marks, g_free);
  g_clear_pointer (&k->unlinked_index, g_free);
  g_clear_pointer (&k->unlinked_corr, g_free);
  k->n_unlinked = 0;
}

void
_sl_copies_clear (SlCopies *c)
{
  _sl_spans_clear (&c->spans);
  g_clear_pointer (&c->kind, g_free);
  g_clear_pointer (&c->bytes, g_free);
  g_clear_pointer (&c->corr, g_free);
  g_clear_pointer (&c->api, g_free);
}

void
_sl_nvtx_marks_clear (SlNvtxMarks *m)
{
  g_clear_pointer (&m->time, g_free);
  g_clear_pointer (&m->name, g_free);
  g_clear_pointer (&m->color, g_free);
  g_clear_pointer (&m->domain, g_free);
  m->n = 0;
}

void
_sl_nvtx_ranges_clear (SlNvtxRanges *r)
{
  _sl_spans_clear (&r->spans);
  g_clear_pointer (&r->name, g_free);
  g_clear_pointer (&r->parent, g_free);
  g_clear_pointer (&r->depth_first, g_free);
  g_clear_pointer (&r->style, g_free);
  g_clear_pointer (&r->style_wide, g_free);
  g_clear_pointer (&r->style_color, g_free);
  g_clear_pointer (&r->style_domain, g_free);
  g_clear_pointer (&r->load_color, g_free);
  g_clear_pointer (&r->load_domain, g_free);
  r->n_styles = 0;
}

static void
adopt_spans (SlArena *arena, const SlSpans *spans)
{
  _sl_arena_adopt (arena, spans->start);
  _sl_arena_adopt (arena, spans->dur);
  _sl_arena_adopt (arena, spans->long_index);
  _sl_arena_adopt (arena, spans->long_dur);
}

/* The arrays of a stream as read from the file (not the links to API
 * calls, which depend on the CPU side loaded with them). */
static void
adopt_stream_data (SlArena *arena, const SlStream *stream)
{
  const SlCopies *copies[] = { &stream->memcpy, &stream->memset };

  adopt_spans (arena, &stream->kernels.spans);
  _sl_arena_adopt (arena, stream->kernels.func);
  _sl_arena_adopt (arena, stream->kernels.rowid);
  _sl_arena_adopt (arena, stream->kernels.rowid_marks);
  for (guint i = 0; i < G_N_ELEMENTS (copies); i++)
    {
      adopt_spans (arena, &copies[i]->spans);
      _sl_arena_adopt (arena, copies[i]->kind);
      _sl_arena_adopt (arena, copies[i]->bytes);
      _sl_arena_adopt (arena, copies[i]->corr);
    }
}

static void
adopt_stream_links (SlArena *arena, const SlStream *stream)
{
  _sl_arena_adopt (arena, stream->kernels.api);
  _sl_arena_adopt (arena, stream->kernels.unlinked_index);
  _sl_arena_adopt (arena, stream->kernels.unlinked_corr);
  _sl_arena_adopt (arena, stream->memcpy.api);
  _sl_arena_adopt (arena, stream->memset.api);
}

void
_sl_profile_adopt_gpu_data (SlProfile *profile, SlArena *arena)
{
  for (guint i = 0; i < profile->n_streams; i++)
    adopt_stream_data (arena, &profile->streams[i]);
  _sl_arena_adopt (arena, profile->funcs);
  for (guint i = 0; i < profile->n_gpus; i++)
    {
      _sl_arena_adopt (arena, profile->gpus[i].name);
      _sl_arena_adopt (arena, profile->gpus[i].streams);
    }
}

static void
adopt_nvtx_ranges (SlArena *arena, const SlNvtxRanges *r)
{
  adopt_spans (arena, &r->spans);
  _sl_arena_adopt (arena, r->name);
  _sl_arena_adopt (arena, r->parent);
  _sl_arena_adopt (arena, r->depth_first);
  _sl_arena_adopt (arena, r->style);
  _sl_arena_adopt (arena, r->style_wide);
  _sl_arena_adopt (arena, r->style_color);
  _sl_arena_adopt (arena, r->style_domain);
  _sl_arena_adopt (arena, r->load_color);
  _sl_arena_adopt (arena, r->load_domain);
}

static void
adopt_thread (SlArena *arena, const SlThread *t)
{
  adopt_nvtx_ranges (arena, &t->nvtx);
  adopt_nvtx_ranges (arena, &t->nvtx_startend);
  _sl_arena_adopt (arena, t->marks.time);
  _sl_arena_adopt (arena, t->marks.name);
  _sl_arena_adopt (arena, t->marks.color);
  _sl_arena_adopt (arena, t->marks.domain);
}

static void
adopt_cpu_side (SlArena *arena, SlProfile *profile)
{
  for (guint i = 0; i < profile->n_threads; i++)
    adopt_thread (arena, &profile->threads[i]);
  _sl_arena_adopt (arena, profile->threads);
  for (guint i = 0; i < profile->n_processes; i++)
    _sl_arena_adopt (arena, profile->processes[i].threads);
  _sl_arena_adopt (arena, profile->processes);
  _sl_arena_adopt (arena, profile->domains);
  adopt_spans (arena, &profile->api.spans);
  _sl_arena_adopt (arena, profile->api.name);
  _sl_arena_adopt (arena, profile->api.corr);
  _sl_arena_adopt (arena, profile->api.corr_base);
  _sl_arena_adopt (arena, profile->api.corr_delta);
  _sl_arena_adopt (arena, profile->api.corr_far_index);
  _sl_arena_adopt (arena, profile->api.corr_far);
  adopt_spans (arena, &profile->syncs.spans);
  _sl_arena_adopt (arena, profile->syncs.device);
  _sl_arena_adopt (arena, profile->syncs.stream);
  _sl_arena_adopt (arena, profile->syncs.pid);
  _sl_arena_adopt (arena, profile->syncs.sync_type);
  _sl_arena_adopt (arena, profile->syncs.corr);
  _sl_arena_adopt (arena, profile->syncs.api);
}

void
_sl_profile_adopt_own (SlProfile *profile)
{
  SlArena *arena = _sl_profile_arena (profile);

  for (guint i = 0; i < profile->n_streams; i++)
    adopt_stream_links (arena, &profile->streams[i]);
  _sl_arena_adopt (arena, profile->streams);
  _sl_arena_adopt (arena, profile->gpus);
  adopt_cpu_side (arena, profile);
}

void
_sl_profile_adopt_subset (SlProfile *subset)
{
  SlArena *arena = _sl_profile_arena (subset);

  /* A subset's GPU work is its own; GPU names and stream lists, the CPU
   * side and the strings are its parent's. */
  for (guint i = 0; i < subset->n_streams; i++)
    {
      adopt_stream_data (arena, &subset->streams[i]);
      adopt_stream_links (arena, &subset->streams[i]);
    }
  _sl_arena_adopt (arena, subset->streams);
  _sl_arena_adopt (arena, subset->gpus);
}

static void
profile_free (SlProfile *profile)
{
  g_ptr_array_unref (profile->arenas);
  g_free (profile->api_kept);
  g_free (profile->ranges_kept);
  g_free (profile->ranges_base);
  if (profile->parent != NULL)
    sl_profile_unref (profile->parent);
  else
    {
      _sl_strings_free (profile->strings);
      g_ptr_array_unref (profile->warnings);
    }
  g_clear_pointer (&profile->derived, g_hash_table_unref);
  g_rec_mutex_clear (&profile->derived_lock);
  g_free (profile->nsys_version);
  g_free (profile->schema_version);
  g_free (profile->path);
  g_free (profile);
}

void
sl_profile_unref (SlProfile *profile)
{
  g_return_if_fail (profile != NULL);
  if (g_atomic_int_dec_and_test (&profile->ref_count))
    profile_free (profile);
}

/* ---- derived data -------------------------------------------------------- */

typedef struct {
  gpointer       data;
  GDestroyNotify destroy;
} Derived;

static void
derived_free (gpointer p)
{
  Derived *d = p;
  if (d->destroy != NULL && d->data != NULL)
    d->destroy (d->data);
  g_free (d);
}

gpointer
sl_profile_get_derived (const SlProfile *profile,
                        const char      *key,
                        gpointer       (*build) (const SlProfile *profile),
                        GDestroyNotify   destroy)
{
  /* The cache is the one mutable part of a profile: its contents are a
   * pure function of the immutable rest. */
  SlProfile *mutable_profile = (SlProfile *) profile;
  Derived *d;

  g_return_val_if_fail (profile != NULL, NULL);
  g_return_val_if_fail (key != NULL && build != NULL, NULL);

  /* Recursive: a build may ask for another key. */
  g_rec_mutex_lock (&mutable_profile->derived_lock);
  if (mutable_profile->derived == NULL)
    mutable_profile->derived = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, derived_free);
  d = g_hash_table_lookup (mutable_profile->derived, key);
  if (d == NULL)
    {
      d = g_new0 (Derived, 1);
      d->data = build (profile);
      d->destroy = destroy;
      g_hash_table_insert (mutable_profile->derived, (gpointer) key, d);
    }
  g_rec_mutex_unlock (&mutable_profile->derived_lock);
  return d->data;
}

/* ---- lookups ------------------------------------------------------------ */

guint32
sl_profile_find_thread (const SlProfile *profile, guint64 global_tid)
{
  guint lo = 0, hi;
  guint32 pid = _sl_pid_of (global_tid), tid = _sl_tid_of (global_tid);

  g_return_val_if_fail (profile != NULL, SL_NONE);
  hi = profile->n_threads;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const SlThread *t = &profile->threads[mid];
      if (t->pid < pid || (t->pid == pid && t->tid < tid))
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo < profile->n_threads && profile->threads[lo].pid == pid && profile->threads[lo].tid == tid; lo++)
    if (profile->threads[lo].global_tid == global_tid)
      return lo;
  return SL_NONE;
}

guint32
sl_profile_find_process (const SlProfile *profile, guint32 pid)
{
  g_return_val_if_fail (profile != NULL, SL_NONE);
  for (guint lo = 0, hi = profile->n_processes; lo < hi;)
    {
      guint mid = lo + (hi - lo) / 2;
      if (profile->processes[mid].pid == pid)
        return mid;
      if (profile->processes[mid].pid < pid)
        lo = mid + 1;
      else
        hi = mid;
    }
  return SL_NONE;
}

guint32
sl_profile_api_thread (const SlProfile *profile, guint32 api_index)
{
  guint lo = 0, hi;

  g_return_val_if_fail (profile != NULL, SL_NONE);
  if (api_index >= profile->api.spans.n)
    return SL_NONE;
  /* Threads' slices are laid out in thread order: find the last thread
   * whose slice starts at or before the index. */
  hi = profile->n_threads;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (profile->threads[mid].api_first <= api_index)
        lo = mid + 1;
      else
        hi = mid;
    }
  while (lo > 0)
    {
      const SlThread *t = &profile->threads[lo - 1];
      if (api_index >= t->api_first && api_index < t->api_first + t->api_count)
        return lo - 1;
      if (t->api_first < api_index && t->api_count > 0)
        break;
      lo--;
    }
  return SL_NONE;
}

gboolean
sl_kernels_rowid_range (const SlKernels *kernels, guint i, gint64 *first, gint64 *last)
{
  guint32 lo = SL_NONE, hi = SL_NONE;

  g_return_val_if_fail (kernels != NULL, FALSE);
  if (i >= kernels->spans.n)
    return FALSE;
  if (kernels->rowid != NULL)
    lo = hi = kernels->rowid[i];
  else if (kernels->rowid_marks != NULL)
    {
      lo = kernels->rowid_marks[i / SL_ROWID_STEP];
      hi = kernels->rowid_marks[i / SL_ROWID_STEP + 1];
    }
  if (lo == SL_NONE || hi == SL_NONE || hi < lo)
    return FALSE;
  *first = lo;
  *last = hi;
  return TRUE;
}

guint32
sl_kernels_corr (const SlProfile *profile, const SlKernels *kernels, guint i)
{
  guint32 api;
  guint k;

  g_return_val_if_fail (profile != NULL && kernels != NULL, 0);
  if (i >= kernels->spans.n)
    return 0;
  api = kernels->api[i];
  if (api != SL_NONE && api < profile->api.spans.n)
    return sl_api_corr (&profile->api, api);
  k = _sl_index_table_find (kernels->unlinked_index, kernels->n_unlinked, i);
  return k < kernels->n_unlinked ? kernels->unlinked_corr[k] : 0;
}

const char *
sl_profile_kernel_name (const SlProfile *profile, guint32 func, gboolean demangled)
{
  g_return_val_if_fail (profile != NULL, "");
  if (func >= profile->n_funcs)
    return "";
  return sl_strings_get (profile->strings,
                         demangled ? profile->funcs[func].demangled_name : profile->funcs[func].short_name);
}

const char *
sl_profile_thread_name (const SlProfile *profile, guint32 thread)
{
  g_return_val_if_fail (profile != NULL, "");
  if (thread >= profile->n_threads || profile->threads[thread].name == SL_NONE)
    return "";
  return sl_strings_get (profile->strings, profile->threads[thread].name);
}

const char *
sl_profile_process_name (const SlProfile *profile, guint32 process)
{
  g_return_val_if_fail (profile != NULL, "");
  if (process >= profile->n_processes || profile->processes[process].name == SL_NONE)
    return "";
  return sl_strings_get (profile->strings, profile->processes[process].name);
}

const char *
sl_profile_domain_name (const SlProfile *profile, guint32 pid, guint16 domain)
{
  g_return_val_if_fail (profile != NULL, "");
  if (domain == 0)
    return "default";
  for (guint i = 0; i < profile->n_domains; i++)
    if (profile->domains[i].pid == pid && profile->domains[i].id == domain)
      return sl_strings_get (profile->strings, profile->domains[i].name);
  /* The creating row can be missing in sliced captures: any process will do. */
  for (guint i = 0; i < profile->n_domains; i++)
    if (profile->domains[i].id == domain)
      return sl_strings_get (profile->strings, profile->domains[i].name);
  return "";
}

const char *
sl_memcpy_kind_name (guint8 kind)
{
  /* ENUM_CUDA_MEMCPY_OPER; the same codes in exports without ENUM tables. */
  static const char *const names[] = {
    "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP",
    "Unified HtoD", "Unified DtoH", "Unified DtoD",
  };
  return kind < G_N_ELEMENTS (names) ? names[kind] : "Unknown";
}
