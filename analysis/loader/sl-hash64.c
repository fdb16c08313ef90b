/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-hash64.c: XXH64, written from its published description.  Four
 * independent multiply-rotate lanes over 32-byte stripes keep the
 * multipliers busy: several GB/s on one core, so verifying a cache entry
 * costs a fraction of mapping it. */
#include "sl-hash64.h"

#include <string.h>

#define P1 G_GUINT64_CONSTANT (0x9E3779B185EBCA87)
#define P2 G_GUINT64_CONSTANT (0xC2B2AE3D27D4EB4F)
#define P3 G_GUINT64_CONSTANT (0x165667B19E3779F9)
#define P4 G_GUINT64_CONSTANT (0x85EBCA77C2B2AE63)
#define P5 G_GUINT64_CONSTANT (0x27D4EB2F165667C5)

static inline guint64
rotl (guint64 x, int r)
{
  return (x << r) | (x >> (64 - r));
}

/* Little-endian loads whatever the alignment (memcpy compiles to one move). */
static inline guint64
read64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

static inline guint32
read32 (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

static inline guint64
round64 (guint64 acc, guint64 input)
{
  acc += input * P2;
  acc = rotl (acc, 31);
  return acc * P1;
}

static inline guint64
merge_round (guint64 acc, guint64 value)
{
  acc ^= round64 (0, value);
  return acc * P1 + P4;
}

/* The stripes of @len (a multiple of 32) bytes into the four lanes. */
static void
consume_stripes (guint64 v[4], const guint8 *p, gsize len)
{
  guint64 v1 = v[0], v2 = v[1], v3 = v[2], v4 = v[3];

  for (const guint8 *end = p + len; p < end; p += 32)
    {
      v1 = round64 (v1, read64 (p));
      v2 = round64 (v2, read64 (p + 8));
      v3 = round64 (v3, read64 (p + 16));
      v4 = round64 (v4, read64 (p + 24));
    }
  v[0] = v1;
  v[1] = v2;
  v[2] = v3;
  v[3] = v4;
}

void
_sl_hash64_init (SlHash64 *state, guint64 seed)
{
  memset (state, 0, sizeof *state);
  state->seed = seed;
  state->v[0] = seed + P1 + P2;
  state->v[1] = seed + P2;
  state->v[2] = seed;
  state->v[3] = seed - P1;
}

void
_sl_hash64_update (SlHash64 *state, gconstpointer data, gsize len)
{
  const guint8 *p = data;

  state->total += len;
  if (state->buf_len > 0)
    {
      gsize take = MIN (len, 32 - state->buf_len);
      memcpy (state->buf + state->buf_len, p, take);
      state->buf_len += (guint) take;
      p += take;
      len -= take;
      if (state->buf_len < 32)
        return;
      consume_stripes (state->v, state->buf, 32);
      state->buf_len = 0;
    }
  consume_stripes (state->v, p, len & ~(gsize) 31);
  p += len & ~(gsize) 31;
  len &= 31;
  memcpy (state->buf, p, len);
  state->buf_len = (guint) len;
}

/* The last (< 32) bytes and the final mix. */
static guint64
finish (guint64 h, const guint8 *p, gsize len)
{
  for (; len >= 8; p += 8, len -= 8)
    h = rotl (h ^ round64 (0, read64 (p)), 27) * P1 + P4;
  if (len >= 4)
    {
      h = rotl (h ^ ((guint64) read32 (p) * P1), 23) * P2 + P3;
      p += 4;
      len -= 4;
    }
  for (; len > 0; p++, len--)
    h = rotl (h ^ (*p * P5), 11) * P1;
  h ^= h >> 33;
  h *= P2;
  h ^= h >> 29;
  h *= P3;
  return h ^ (h >> 32);
}

guint64
_sl_hash64_digest (const SlHash64 *state)
{
  const guint64 *v = state->v;
  guint64 h;

  if (state->total >= 32)
    {
      h = rotl (v[0], 1) + rotl (v[1], 7) + rotl (v[2], 12) + rotl (v[3], 18);
      for (guint i = 0; i < 4; i++)
        h = merge_round (h, v[i]);
    }
  else
    h = state->seed + P5;
  return finish (h + state->total, state->buf, state->buf_len);
}

guint64
_sl_hash64 (gconstpointer data, gsize len, guint64 seed)
{
  SlHash64 state;

  _sl_hash64_init (&state, seed);
  _sl_hash64_update (&state, data, len);
  return _sl_hash64_digest (&state);
}
