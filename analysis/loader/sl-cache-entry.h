/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cache-entry.h: one file of the profile cache: a loaded profile's
 * arrays, flat, versioned and checksummed, written once and memory-mapped
 * on every later open (the directory, naming and eviction are in
 * sl-cache-dir.h; when to use it, in sl-profile-cache.h).
 *
 * The file is the header below, then the sections of sl-cache-codec.h,
 * back to back, each 8-byte aligned, META last and ending the file.  An
 * entry is only trusted when every check passes: magic, byte order,
 * format, build, locale, header checksum, the profile's identity and size,
 * parts, section bounds, every section's checksum, every array reference
 * and the profile's structure.  Loader only (and tests). */
#pragma once

#include "sl-profile-private.h"
#include "sl-cache-codec.h"

G_BEGIN_DECLS

#define SL_CACHE_MAGIC      "SLCACHE"     /* 8 bytes with its NUL */
#define SL_CACHE_FORMAT     1             /* bump when the header or sl-cache-layout.c changes */
#define SL_CACHE_BYTE_ORDER 0x01020304u   /* as the writer's CPU stores it */

typedef struct {
  char           magic[8];
  guint32        format;
  guint32        byte_order;
  guint32        header_size;     /* sizeof (SlCacheHeader) */
  guint32        parts;           /* SlParts of the profile */
  char           build[64];       /* Sightline's version and the build id of its loader */
  char           identity[80];    /* the export's content id (sl-content-id.h) */
  char           locale[48];      /* the translations of the stored warnings */
  guint64        profile_size;    /* bytes of the export */
  guint64        entry_size;      /* bytes of this file */
  SlCacheSection sections[SL_CACHE_N_SECTIONS];
  guint64        header_hash;     /* XXH64 of every byte above, seed 0 */
} SlCacheHeader;

/* What an entry is for: the export's identity and size, and the parts of
 * the profile (writing) or the parts wanted (reading: an entry holding
 * more serves too). */
typedef struct {
  const char *identity;
  guint64     profile_size;
  SlParts     parts;
} SlCacheKey;

/* Writes @profile to @path atomically: into a temporary file of the same
 * folder, renamed over @path once complete, so a reader sees the old entry,
 * the new one or none, never a partial one.  @bytes (nullable) gets the
 * entry's size.  FALSE with @error set on failure (nothing is left). */
gboolean     _sl_cache_entry_write       (SlProfile        *profile,
                                          const char       *path,
                                          const SlCacheKey *key,
                                          guint64          *bytes,
                                          GError          **error);
/* Maps the entry at @path and, if every check passes, returns (transfer
 * full) a profile for @profile_path whose arrays point into the mapping,
 * which the profile's arena keeps, and marks the entry used (its mtime).
 * Otherwise NULL, with *@why a static reason, or NULL when there is no
 * such file. */
SlProfile   *_sl_cache_entry_open        (const char       *path,
                                          const char       *profile_path,
                                          const SlCacheKey *key,
                                          const char      **why);

/* The build this process writes and accepts, and the translations its
 * messages use ("untranslated" or the hashes of the catalogs). */
const char  *_sl_cache_entry_build       (void);
const char  *_sl_cache_entry_locale      (void);
/* The header's checksum as the writer computes it (tests forge entries). */
guint64      _sl_cache_entry_header_hash (const SlCacheHeader *header);

G_END_DECLS
