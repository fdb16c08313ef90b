/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cache-codec.h: the primitives a profile cache entry is written and
 * read with.  One walk over the profile (sl-cache-layout.c) describes the
 * whole format; the codec it walks with either writes or reads, so the
 * two directions cannot disagree.
 *
 * An entry is: a header (sl-cache-entry.h), then the data sections in a
 * fixed order, each a run of arrays padded to 8 bytes, then META, a
 * sequence of 64-bit words holding every count and scalar and, for every
 * array, its offset in the file (0 for a NULL array).  Writing streams the
 * arrays out in one sequential pass and hashes each section on the way;
 * reading checks every array reference against the data region before it
 * points the profile into the mapping.  Loader only. */
#pragma once

#include <glib.h>

#include "sl-arena.h"

G_BEGIN_DECLS

typedef enum {
  SL_CACHE_SECTION_GPU,      /* kernel functions, streams' arrays, GPUs' stream lists */
  SL_CACHE_SECTION_API,      /* CUDA API calls */
  SL_CACHE_SECTION_CPU,      /* threads' NVTX ranges and marks, processes, domains */
  SL_CACHE_SECTION_SYNCS,
  SL_CACHE_SECTION_STRINGS,  /* the string table: offsets, then the blob */
  SL_CACHE_SECTION_META,     /* counts, scalars, array offsets; always last */
  SL_CACHE_N_SECTIONS,
} SlCacheSectionId;

/* Where a section lies in the file and the XXH64 of its bytes (padding
 * included), seeded with the section's id. */
typedef struct {
  guint64 offset;
  guint64 length;
  guint64 hash;
} SlCacheSection;

typedef struct _SlCacheCodec SlCacheCodec;

/* A writer appending to @fd, whose data starts at @data_start (the header
 * is written last, at offset 0). */
SlCacheCodec *_sl_cache_codec_new_writer    (int fd, guint64 data_start);
/* Writes META and fills @sections; FALSE with @error set on an I/O error
 * (the file is then unusable). */
gboolean      _sl_cache_codec_finish_writer (SlCacheCodec   *codec,
                                             SlCacheSection  sections[SL_CACHE_N_SECTIONS],
                                             GError        **error);
/* A reader over the entry mapped at @base: arrays must lie in
 * [@data_start, @data_end), META is @n_words words at @meta.  Allocations
 * (struct arrays, names) go to @arena. */
SlCacheCodec *_sl_cache_codec_new_reader    (const guint8  *base,
                                             guint64        data_start,
                                             guint64        data_end,
                                             const guint64 *meta,
                                             gsize          n_words,
                                             SlArena       *arena);
void          _sl_cache_codec_free          (SlCacheCodec *codec);

gboolean      _sl_cache_codec_reading       (const SlCacheCodec *codec);
SlArena      *_sl_cache_codec_arena         (const SlCacheCodec *codec);
/* Reading: why the entry was refused (a static string), NULL while all is
 * well.  Writing: an I/O error happened. */
const char   *_sl_cache_codec_failure       (const SlCacheCodec *codec);
/* Marks the entry as refused (reading) with a static @why. */
void          _sl_cache_codec_fail          (SlCacheCodec *codec, const char *why);
/* Reading: whether every META word was used (a longer META is refused). */
gboolean      _sl_cache_codec_at_end        (const SlCacheCodec *codec);

/* Starts section @id: arrays from here on belong to it.  Sections come in
 * enum order. */
void          _sl_cache_codec_section       (SlCacheCodec *codec, SlCacheSectionId id);

/* Scalars: written from *@value, or read into it (0 once refused); writing
 * never stores into *@value.  The narrower ones refuse a stored value
 * that does not fit. */
void          _sl_cache_codec_u64           (SlCacheCodec *codec, guint64 *value);
void          _sl_cache_codec_i64           (SlCacheCodec *codec, gint64 *value);
void          _sl_cache_codec_u32           (SlCacheCodec *codec, guint32 *value);
void          _sl_cache_codec_bool          (SlCacheCodec *codec, gboolean *value);
/* A nullable string, copied into META.  Reading returns a new string
 * (transfer full) or NULL; writing returns NULL. */
char         *_sl_cache_codec_string        (SlCacheCodec *codec, const char *value);
/* An array of @n elements of @size bytes.  Writing streams @array out and
 * returns it; reading returns a pointer into the mapping (NULL for a NULL
 * array, or once refused).  Use SL_CACHE_ARRAY. */
gpointer      _sl_cache_codec_array         (SlCacheCodec *codec, gconstpointer array, guint64 n, gsize size);
/* A struct array that lives in memory, not in the file (SlStream[], ...):
 * its length *@n goes to META; reading allocates MAX (*@n, 1) zeroed
 * elements in the arena, refusing a length larger than what META has
 * left.  Returns @array (writing) or the new array (reading). */
gpointer      _sl_cache_codec_structs       (SlCacheCodec *codec, gpointer array, guint *n, gsize size);

/* Both set @field only when reading: writing never stores into the
 * profile, which other threads read meanwhile. */
#define SL_CACHE_ARRAY(codec, field, n) G_STMT_START {                          \
    gpointer sl_cache_array_ = _sl_cache_codec_array ((codec), (field), (n), sizeof *(field)); \
    if (_sl_cache_codec_reading (codec))                                          \
      (field) = sl_cache_array_;                                                  \
  } G_STMT_END
#define SL_CACHE_STRUCTS(codec, field, n) G_STMT_START {                        \
    gpointer sl_cache_structs_ = _sl_cache_codec_structs ((codec), (field), (n), sizeof *(field)); \
    if (_sl_cache_codec_reading (codec))                                          \
      (field) = sl_cache_structs_;                                                \
  } G_STMT_END

G_END_DECLS
