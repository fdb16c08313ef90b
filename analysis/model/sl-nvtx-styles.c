/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-nvtx-styles.c: a thread's NVTX ranges' (color, domain) pairs as styles.
 *
 * A thread's ranges repeat a few colors in a few domains (a training loop
 * colors its iteration, forward and backward passes; NCCL has its domain),
 * so a range keeps the 2-byte index of its pair instead of the pair's 6
 * bytes: at 1 M kernels, 251 k ranges, 1 MB or half a byte per event.
 * Pairs are found in a small open-addressing table of (color << 16 |
 * domain); neighbouring ranges mostly share theirs, so the last pair is
 * tried first. */
#include <string.h>

#include "sl-profile-private.h"

#define EMPTY_KEY G_MAXUINT64   /* above any (color << 16 | domain) */

typedef struct {
  guint    n_slots;     /* a power of two, at least twice n_styles */
  guint64 *key;
  guint32 *index;
  guint    n_styles;
  guint    cap;
  guint32 *color;
  guint16 *domain;
} Styles;

static void
styles_init (Styles *s)
{
  s->n_slots = 64;
  s->key = g_new (guint64, s->n_slots);
  memset (s->key, 0xff, s->n_slots * sizeof (guint64));
  s->index = g_new (guint32, s->n_slots);
  s->n_styles = 0;
  s->cap = 16;
  s->color = g_new (guint32, s->cap);
  s->domain = g_new (guint16, s->cap);
}

static guint
slot_of (const Styles *s, guint64 key)
{
  guint mask = s->n_slots - 1;
  guint slot = (guint) ((key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 40) & mask;

  while (s->key[slot] != EMPTY_KEY && s->key[slot] != key)
    slot = (slot + 1) & mask;
  return slot;
}

static void
grow_slots (Styles *s)
{
  guint old_n = s->n_slots;
  g_autofree guint64 *old_key = s->key;
  g_autofree guint32 *old_index = s->index;

  s->n_slots *= 2;
  s->key = g_new (guint64, s->n_slots);
  memset (s->key, 0xff, s->n_slots * sizeof (guint64));
  s->index = g_new (guint32, s->n_slots);
  for (guint i = 0; i < old_n; i++)
    if (old_key[i] != EMPTY_KEY)
      {
        guint slot = slot_of (s, old_key[i]);

        s->key[slot] = old_key[i];
        s->index[slot] = old_index[i];
      }
}

/* The index of the pair (@color, @domain), added when new. */
static guint32
style_of (Styles *s, guint32 color, guint16 domain)
{
  guint64 key = (guint64) color << 16 | domain;
  guint slot = slot_of (s, key);

  if (s->key[slot] == key)
    return s->index[slot];
  if (s->n_styles == s->cap)
    {
      s->cap *= 2;
      s->color = g_renew (guint32, s->color, s->cap);
      s->domain = g_renew (guint16, s->domain, s->cap);
    }
  s->color[s->n_styles] = color;
  s->domain[s->n_styles] = domain;
  s->key[slot] = key;
  s->index[slot] = s->n_styles;
  if (++s->n_styles * 2 > s->n_slots)
    grow_slots (s);
  return s->n_styles - 1;
}

/* 2-byte indexes widened to 4 bytes once a thread has more than 65536 pairs. */
static guint32 *
widen (const guint16 *narrow, guint n, guint cap)
{
  guint32 *wide = g_new (guint32, cap);

  for (guint i = 0; i < n; i++)
    wide[i] = narrow[i];
  return wide;
}

void
_sl_nvtx_ranges_build_styles (SlNvtxRanges *r)
{
  guint n = r->spans.n;
  Styles s;
  guint64 last_key = EMPTY_KEY;
  guint32 last = 0;
  guint16 *narrow;
  guint32 *wide = NULL;

  g_clear_pointer (&r->style, g_free);
  g_clear_pointer (&r->style_wide, g_free);
  g_clear_pointer (&r->style_color, g_free);
  g_clear_pointer (&r->style_domain, g_free);
  r->n_styles = 0;
  if (n == 0 || r->load_color == NULL || r->load_domain == NULL)
    {
      g_clear_pointer (&r->load_color, g_free);
      g_clear_pointer (&r->load_domain, g_free);
      return;
    }
  styles_init (&s);
  narrow = g_new (guint16, n);
  for (guint i = 0; i < n; i++)
    {
      guint64 key = (guint64) r->load_color[i] << 16 | r->load_domain[i];

      if (key != last_key)
        {
          last = style_of (&s, r->load_color[i], r->load_domain[i]);
          last_key = key;
        }
      if (G_UNLIKELY (last > G_MAXUINT16 && wide == NULL))
        {
          wide = widen (narrow, i, n);
          g_clear_pointer (&narrow, g_free);
        }
      if (wide != NULL)
        wide[i] = last;
      else
        narrow[i] = (guint16) last;
    }
  r->style = narrow;
  r->style_wide = wide;
  r->n_styles = s.n_styles;
  r->style_color = g_renew (guint32, s.color, s.n_styles);
  r->style_domain = g_renew (guint16, s.domain, s.n_styles);
  g_free (s.key);
  g_free (s.index);
  g_clear_pointer (&r->load_color, g_free);
  g_clear_pointer (&r->load_domain, g_free);
}
