/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cache-entry.c: writing one cache entry and mapping it back (see
 * sl-cache-entry.h).
 *
 * Why a mapping is safe to point a profile into: entries are only ever
 * replaced by rename() and removed by unlink(), never truncated or
 * rewritten in place, so the inode a profile maps keeps its bytes until the
 * last profile using it is gone; no SIGBUS from Sightline's own doing. */
#include "sl-cache-entry.h"
#include "sl-cache-build-id.h"
#include "sl-cache-layout.h"
#include "sl-hash64.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

G_STATIC_ASSERT (sizeof (SlCacheHeader) % 8 == 0);
G_STATIC_ASSERT (sizeof (SlCacheHeader) == 8 + 4 * 4 + 64 + 80 + 48 + 2 * 8 + SL_CACHE_N_SECTIONS * 24 + 8);

const char *
_sl_cache_entry_build (void)
{
  return SL_VERSION "+" SL_CACHE_BUILD_ID;
}

/* The catalog header ("" msgid) of @domain, hashed; 0 without a catalog. */
static guint64
catalog_of (const char *domain)
{
  const char *header = dgettext (domain, "");

  return *header != '\0' ? _sl_hash64 (header, strlen (header), 0) : 0;
}

const char *
_sl_cache_entry_locale (void)
{
  static char *locale;

  /* Warnings are stored translated: an entry serves the translations it
   * was written with only.  A catalog's header names its language and
   * revision; every locale without one shows the same English, so "C" and
   * "en_US.UTF-8" share entries.  ngettext() uses the default domain. */
  if (g_once_init_enter (&locale))
    {
      guint64 own = catalog_of (GETTEXT_PACKAGE), fallback = catalog_of (textdomain (NULL));
      g_once_init_leave (&locale, own == 0 && fallback == 0
                                  ? g_strdup ("untranslated")
                                  : g_strdup_printf ("%016" G_GINT64_MODIFIER "x%016" G_GINT64_MODIFIER "x",
                                                     own, fallback));
    }
  return locale;
}

guint64
_sl_cache_entry_header_hash (const SlCacheHeader *header)
{
  return _sl_hash64 (header, G_STRUCT_OFFSET (SlCacheHeader, header_hash), 0);
}

/* ---- writing ---------------------------------------------------------------- */

static void
fill_header (SlCacheHeader *h, const SlCacheKey *key, const SlCacheSection *sections)
{
  memset (h, 0, sizeof *h);
  memcpy (h->magic, SL_CACHE_MAGIC, sizeof h->magic);
  h->format = SL_CACHE_FORMAT;
  h->byte_order = SL_CACHE_BYTE_ORDER;
  h->header_size = sizeof *h;
  h->parts = key->parts;
  g_strlcpy (h->build, _sl_cache_entry_build (), sizeof h->build);
  g_strlcpy (h->identity, key->identity, sizeof h->identity);
  g_strlcpy (h->locale, _sl_cache_entry_locale (), sizeof h->locale);
  h->profile_size = key->profile_size;
  memcpy (h->sections, sections, sizeof h->sections);
  h->entry_size = sections[SL_CACHE_SECTION_META].offset + sections[SL_CACHE_SECTION_META].length;
  h->header_hash = _sl_cache_entry_header_hash (h);
}

static gboolean
write_header (int fd, const SlCacheHeader *h, GError **error)
{
  gssize done;

  do
    done = pwrite (fd, h, sizeof *h, 0);
  while (done < 0 && errno == EINTR);
  if (done == (gssize) sizeof *h)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "writing the header: %s",
               done < 0 ? g_strerror (errno) : "short write");
  return FALSE;
}

/* The sections, then the header: TRUE when the whole entry is in @fd. */
static gboolean
write_entry (int fd, SlProfile *profile, const SlCacheKey *key, guint64 *bytes, GError **error)
{
  SlCacheCodec *codec = _sl_cache_codec_new_writer (fd, sizeof (SlCacheHeader));
  SlCacheSection sections[SL_CACHE_N_SECTIONS];
  SlCacheHeader header;
  gboolean ok;

  _sl_cache_layout_walk (codec, profile);
  ok = _sl_cache_codec_finish_writer (codec, sections, error);
  _sl_cache_codec_free (codec);
  if (!ok)
    return FALSE;
  fill_header (&header, key, sections);
  *bytes = header.entry_size;
  return write_header (fd, &header, error);
}

gboolean
_sl_cache_entry_write (SlProfile *profile, const char *path, const SlCacheKey *key,
                       guint64 *bytes, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *tmp = g_build_filename (dir, ".tmp-entry-XXXXXX", NULL);
  guint64 size = 0;
  int fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0600);
  gboolean ok;

  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", tmp, g_strerror (saved));
      return FALSE;
    }
  ok = write_entry (fd, profile, key, &size, error);
  if (close (fd) != 0 && ok)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "closing %s: %s", tmp, g_strerror (errno));
      ok = FALSE;
    }
  if (ok && g_rename (tmp, path) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "renaming to %s: %s", path, g_strerror (errno));
      ok = FALSE;
    }
  if (!ok)
    g_unlink (tmp);
  else if (bytes != NULL)
    *bytes = size;
  return ok;
}

/* ---- reading ----------------------------------------------------------------- */

typedef struct {
  gpointer addr;
  gsize    len;
} Mapping;

static void
mapping_free (gpointer data)
{
  Mapping *m = data;

  munmap (m->addr, m->len);
  g_free (m);
}

/* Maps the whole file read-only, its pages faulted in up front: the
 * checksums read every one anyway, and populating in one call took a
 * third less time than faulting them in (10 M kernels: 0.10 vs 0.15 s). */
static Mapping *
map_entry (int fd, const char **why)
{
  struct stat st;
  gpointer addr;

  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      *why = "not a regular file";
      return NULL;
    }
  if ((guint64) st.st_size < sizeof (SlCacheHeader) || (guint64) st.st_size > G_MAXSIZE)
    {
      *why = "shorter than its header";
      return NULL;
    }
  addr = mmap (NULL, (gsize) st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  if (addr == MAP_FAILED)
    {
      *why = "cannot be mapped";
      return NULL;
    }
  Mapping *m = g_new (Mapping, 1);
  m->addr = addr;
  m->len = (gsize) st.st_size;
  return m;
}

static gboolean
fixed_string_is (const char *field, gsize size, const char *value)
{
  return strnlen (field, size) < size && strcmp (field, value) == 0;
}

static const char *
check_header (const SlCacheHeader *h, gsize file_size, const SlCacheKey *key)
{
  if (memcmp (h->magic, SL_CACHE_MAGIC, sizeof h->magic) != 0)
    return "not a Sightline cache entry";
  if (h->byte_order != SL_CACHE_BYTE_ORDER || h->format != SL_CACHE_FORMAT
      || h->header_size != sizeof *h)
    return "another format version";
  if (h->header_hash != _sl_cache_entry_header_hash (h))
    return "header checksum mismatch";
  if (!fixed_string_is (h->build, sizeof h->build, _sl_cache_entry_build ()))
    return "written by another build of Sightline";
  if (!fixed_string_is (h->locale, sizeof h->locale, _sl_cache_entry_locale ()))
    return "written in another language";
  if (!fixed_string_is (h->identity, sizeof h->identity, key->identity)
      || h->profile_size != key->profile_size)
    return "stale: written for other contents";
  if ((h->parts & key->parts) != key->parts || (h->parts & ~(guint32) SL_PARTS_ALL) != 0)
    return "lacks parts of the profile";
  if (h->entry_size != file_size)
    return "truncated or extended";
  return NULL;
}

/* The sections tile the file after the header, in order, 8-byte aligned. */
static const char *
check_sections (const SlCacheHeader *h)
{
  guint64 end = sizeof *h;

  for (guint i = 0; i < SL_CACHE_N_SECTIONS; i++)
    {
      const SlCacheSection *s = &h->sections[i];
      if (s->offset != end || s->length % 8 != 0 || s->length > h->entry_size - end)
        return "a section outside the file";
      end += s->length;
    }
  return end == h->entry_size ? NULL : "sections do not end the file";
}

static const char *
check_checksums (const guint8 *base, const SlCacheHeader *h)
{
  for (guint i = 0; i < SL_CACHE_N_SECTIONS; i++)
    {
      const SlCacheSection *s = &h->sections[i];
      if (_sl_hash64 (base + s->offset, s->length, i) != s->hash)
        return "section checksum mismatch";
    }
  return NULL;
}

/* The profile over the verified mapping @m, or NULL with *@why set. */
static SlProfile *
decode (Mapping *m, const char *profile_path, const SlCacheHeader *h, const char **why)
{
  const SlCacheSection *meta = &h->sections[SL_CACHE_SECTION_META];
  SlProfile *profile = _sl_profile_new (profile_path);
  SlArena *arena = _sl_profile_arena (profile);
  SlCacheCodec *codec = _sl_cache_codec_new_reader (m->addr, sizeof *h, meta->offset,
                                                    (const guint64 *) ((const guint8 *) m->addr + meta->offset),
                                                    meta->length / 8, arena);

  _sl_arena_keep (arena, m, mapping_free);
  profile->parts = h->parts;
  _sl_cache_layout_walk (codec, profile);
  *why = _sl_cache_codec_failure (codec);
  _sl_cache_codec_free (codec);
  if (*why != NULL)
    g_clear_pointer (&profile, sl_profile_unref);
  return profile;
}

SlProfile *
_sl_cache_entry_open (const char *path, const char *profile_path, const SlCacheKey *key, const char **why)
{
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  Mapping *m;
  const SlCacheHeader *h;

  *why = NULL;
  if (fd < 0)
    {
      if (errno != ENOENT)
        *why = "cannot be opened";
      return NULL;
    }
  m = map_entry (fd, why);
  if (m != NULL)
    {
      h = m->addr;
      *why = check_header (h, m->len, key);
      if (*why == NULL)
        *why = check_sections (h);
      if (*why == NULL)
        *why = check_checksums (m->addr, h);
    }
  if (m != NULL && *why == NULL)
    {
      /* Least recently used goes first: a hit is a use. */
      futimens (fd, NULL);
      close (fd);
      return decode (m, profile_path, h, why);
    }
  close (fd);
  if (m != NULL)
    mapping_free (m);
  return NULL;
}
