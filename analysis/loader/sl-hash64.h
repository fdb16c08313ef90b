/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-hash64.h: a fast 64-bit checksum (the XXH64 algorithm), for the
 * sections of profile cache entries.  Not cryptographic: it detects
 * damage (a torn write, a flipped bit, a truncated copy), not forgery —
 * whoever can write the user's cache directory can do worse anyway.
 * Loader only. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Streaming state: feed any split of the bytes, get the same digest as
 * _sl_hash64() of them all. */
typedef struct {
  guint64 v[4];
  guint64 total;
  guint8  buf[32];
  guint   buf_len;
  guint64 seed;
} SlHash64;

void     _sl_hash64_init   (SlHash64 *state, guint64 seed);
void     _sl_hash64_update (SlHash64 *state, gconstpointer data, gsize len);
guint64  _sl_hash64_digest (const SlHash64 *state);
/* XXH64 of @len bytes at @data (byte-for-byte the reference algorithm:
 * "" with seed 0 is 0xef46db3751d8e999). */
guint64  _sl_hash64       (gconstpointer data, gsize len, guint64 seed);

G_END_DECLS
