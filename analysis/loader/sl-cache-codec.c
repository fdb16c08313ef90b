/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cache-codec.c: writing and reading the arrays and words of a cache
 * entry (see sl-cache-codec.h).  Reading never trusts a word: every count
 * is checked against what is left, every array against the data region. */
#include "sl-cache-codec.h"
#include "sl-hash64.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <gio/gio.h>

#define WRITE_BUFFER (1024 * 1024)

struct _SlCacheCodec {
  gboolean        reading;
  const char     *failure;

  /* writing: the bytes before pos are in the file or in buf */
  int             fd;
  guint64         pos;
  guint8         *buf;
  gsize           buf_len;
  int             section;        /* the open one, -1 before the first */
  SlHash64        hash;           /* of the open section */
  SlCacheSection  sections[SL_CACHE_N_SECTIONS];
  GArray         *meta;           /* guint64 */
  GError         *error;

  /* reading */
  const guint8   *base;
  guint64         data_start;
  guint64         data_end;
  const guint64  *words;
  gsize           n_words;
  gsize           next;
  SlArena        *arena;
};

/* ---- writing -------------------------------------------------------------- */

SlCacheCodec *
_sl_cache_codec_new_writer (int fd, guint64 data_start)
{
  SlCacheCodec *c = g_new0 (SlCacheCodec, 1);

  c->fd = fd;
  c->pos = data_start;
  c->buf = g_malloc (WRITE_BUFFER);
  c->section = -1;
  c->meta = g_array_new (FALSE, FALSE, sizeof (guint64));
  return c;
}

static void
write_fully (SlCacheCodec *c, const guint8 *data, gsize len, guint64 offset)
{
  while (len > 0 && c->error == NULL)
    {
      gssize done = pwrite (c->fd, data, MIN (len, (gsize) G_MAXSSIZE), (off_t) offset);
      if (done < 0 && errno == EINTR)
        continue;
      if (done <= 0)
        {
          int saved = done < 0 ? errno : ENOSPC;
          g_set_error (&c->error, G_IO_ERROR, g_io_error_from_errno (saved), "write: %s", g_strerror (saved));
          c->failure = "write error";
          return;
        }
      data += done;
      offset += (guint64) done;
      len -= (gsize) done;
    }
}

static void
flush_buffer (SlCacheCodec *c)
{
  write_fully (c, c->buf, c->buf_len, c->pos - c->buf_len);
  c->buf_len = 0;
}

/* Appends @len bytes to the open section. */
static void
put_bytes (SlCacheCodec *c, gconstpointer data, gsize len)
{
  _sl_hash64_update (&c->hash, data, len);
  if (len >= WRITE_BUFFER / 2)
    {
      /* Big arrays go straight from the profile to the file. */
      flush_buffer (c);
      write_fully (c, data, len, c->pos);
    }
  else
    {
      if (c->buf_len + len > WRITE_BUFFER)
        flush_buffer (c);
      memcpy (c->buf + c->buf_len, data, len);
      c->buf_len += len;
    }
  c->pos += len;
}

static void
put_padding (SlCacheCodec *c)
{
  static const guint8 zeros[8] = { 0 };

  if (c->pos % 8 != 0)
    put_bytes (c, zeros, 8 - c->pos % 8);
}

static void
close_section (SlCacheCodec *c)
{
  if (c->section < 0)
    return;
  put_padding (c);
  c->sections[c->section].length = c->pos - c->sections[c->section].offset;
  c->sections[c->section].hash = _sl_hash64_digest (&c->hash);
}

static void
open_section (SlCacheCodec *c, int id)
{
  c->section = id;
  c->sections[id].offset = c->pos;
  _sl_hash64_init (&c->hash, (guint64) id);
}

static void
put_word (SlCacheCodec *c, guint64 word)
{
  word = GUINT64_TO_LE (word);
  g_array_append_val (c->meta, word);
}

gboolean
_sl_cache_codec_finish_writer (SlCacheCodec *c, SlCacheSection sections[SL_CACHE_N_SECTIONS], GError **error)
{
  g_return_val_if_fail (!c->reading, FALSE);
  _sl_cache_codec_section (c, SL_CACHE_SECTION_META);
  put_bytes (c, c->meta->data, (gsize) c->meta->len * sizeof (guint64));
  close_section (c);
  flush_buffer (c);
  if (c->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&c->error));
      return FALSE;
    }
  memcpy (sections, c->sections, sizeof c->sections);
  return TRUE;
}

/* ---- reading -------------------------------------------------------------- */

SlCacheCodec *
_sl_cache_codec_new_reader (const guint8 *base, guint64 data_start, guint64 data_end,
                            const guint64 *meta, gsize n_words, SlArena *arena)
{
  SlCacheCodec *c = g_new0 (SlCacheCodec, 1);

  c->reading = TRUE;
  c->base = base;
  c->data_start = data_start;
  c->data_end = data_end;
  c->words = meta;
  c->n_words = n_words;
  c->arena = arena;
  return c;
}

static guint64
take_word (SlCacheCodec *c)
{
  if (c->failure != NULL)
    return 0;
  if (c->next >= c->n_words)
    {
      c->failure = "META ends early";
      return 0;
    }
  return GUINT64_FROM_LE (c->words[c->next++]);
}

/* ---- both ------------------------------------------------------------------ */

void
_sl_cache_codec_free (SlCacheCodec *c)
{
  if (c == NULL)
    return;
  g_free (c->buf);
  if (c->meta != NULL)
    g_array_unref (c->meta);
  g_clear_error (&c->error);
  g_free (c);
}

gboolean
_sl_cache_codec_reading (const SlCacheCodec *c)
{
  return c->reading;
}

SlArena *
_sl_cache_codec_arena (const SlCacheCodec *c)
{
  return c->arena;
}

const char *
_sl_cache_codec_failure (const SlCacheCodec *c)
{
  return c->failure;
}

void
_sl_cache_codec_fail (SlCacheCodec *c, const char *why)
{
  if (c->failure == NULL)
    c->failure = why;
}

gboolean
_sl_cache_codec_at_end (const SlCacheCodec *c)
{
  return c->next == c->n_words;
}

void
_sl_cache_codec_section (SlCacheCodec *c, SlCacheSectionId id)
{
  if (c->reading)
    return;
  g_return_if_fail ((int) id > c->section);
  close_section (c);
  /* Sections with nothing in them still get their place, empty. */
  for (int skipped = c->section + 1; skipped < (int) id; skipped++)
    {
      open_section (c, skipped);
      close_section (c);
    }
  open_section (c, id);
}

void
_sl_cache_codec_u64 (SlCacheCodec *c, guint64 *value)
{
  if (c->reading)
    *value = take_word (c);
  else
    put_word (c, *value);
}

/* The narrower scalars store only when reading: a profile being written
 * is read by other threads at the same time and must not be touched, even
 * with the value it already has. */

void
_sl_cache_codec_i64 (SlCacheCodec *c, gint64 *value)
{
  if (c->reading)
    *value = (gint64) take_word (c);
  else
    put_word (c, (guint64) *value);
}

void
_sl_cache_codec_u32 (SlCacheCodec *c, guint32 *value)
{
  guint64 word;

  if (!c->reading)
    {
      put_word (c, *value);
      return;
    }
  word = take_word (c);
  if (word > G_MAXUINT32)
    {
      _sl_cache_codec_fail (c, "a 32-bit value out of range");
      word = 0;
    }
  *value = (guint32) word;
}

void
_sl_cache_codec_bool (SlCacheCodec *c, gboolean *value)
{
  guint64 word;

  if (!c->reading)
    {
      put_word (c, *value != FALSE);
      return;
    }
  word = take_word (c);
  if (word > 1)
    {
      _sl_cache_codec_fail (c, "a boolean out of range");
      word = 0;
    }
  *value = (gboolean) word;
}

/* Strings are their length + 1 (0 for NULL), then their bytes in words. */
char *
_sl_cache_codec_string (SlCacheCodec *c, const char *value)
{
  guint64 len1 = value != NULL ? strlen (value) + 1 : 0;
  guint64 n_words;

  _sl_cache_codec_u64 (c, &len1);
  n_words = len1 / 8 + (len1 % 8 != 0);
  if (!c->reading)
    {
      for (guint64 w = 0; w < n_words; w++)
        {
          guint64 word = 0;
          memcpy (&word, value + w * 8, MIN (8, len1 - w * 8));
          g_array_append_val (c->meta, word);
        }
      return NULL;
    }
  if (len1 == 0 || c->failure != NULL)
    return NULL;
  if (n_words > c->n_words - c->next)
    {
      _sl_cache_codec_fail (c, "a string runs past META");
      return NULL;
    }
  char *copy = g_strndup ((const char *) (c->words + c->next), len1 - 1);
  c->next += n_words;
  return copy;
}

gpointer
_sl_cache_codec_array (SlCacheCodec *c, gconstpointer array, guint64 n, gsize size)
{
  guint64 offset;

  if (!c->reading)
    {
      put_padding (c);
      put_word (c, array != NULL ? c->pos : 0);
      if (array != NULL && n > 0)
        put_bytes (c, array, n * size);
      return (gpointer) array;
    }
  offset = take_word (c);
  if (c->failure != NULL)
    return NULL;
  if (offset == 0)
    {
      if (n > 0)
        _sl_cache_codec_fail (c, "a missing array with elements");
      return NULL;
    }
  if (offset % 8 != 0 || offset < c->data_start || offset > c->data_end
      || n > (c->data_end - offset) / size)
    {
      _sl_cache_codec_fail (c, "an array outside the data");
      return NULL;
    }
  return (gpointer) (c->base + offset);
}

gpointer
_sl_cache_codec_structs (SlCacheCodec *c, gpointer array, guint *n, gsize size)
{
  guint64 count = *n;

  _sl_cache_codec_u64 (c, &count);
  if (!c->reading)
    return array;
  /* Every element takes at least one META word. */
  if (count > G_MAXUINT32 || count > c->n_words - c->next)
    {
      _sl_cache_codec_fail (c, "a count larger than META");
      count = 0;
    }
  *n = (guint) count;
  return _sl_arena_adopt (c->arena, g_malloc0_n (MAX (count, 1), size));
}
