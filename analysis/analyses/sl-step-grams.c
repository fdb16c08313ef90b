/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-step-grams.c: the grams of a kernel sequence, grouped (see the header). */
#include "sl-step-grams.h"

#include <string.h>

#define MAX_GRAM    3
#define RADIX_BITS  16          /* at most, per pass of the radix sort */
#define MAX_TABLE   (1u << 16)  /* grams of a length counted in a table up to this many keys */

typedef struct {
  guint64 key;             /* the gram's names */
  guint   pos;             /* where it starts */
} Gram;

/* Occurrences of one gram, while the sequence is read. */
typedef struct {
  guint count;
  guint first;
  guint last;
  guint lo;                /* shortest distance between occurrences */
  guint hi;                /* longest */
} Occ;

static void
occ_add (Occ *o, guint i)
{
  if (o->count == 0)
    {
      o->first = i;
      o->lo = G_MAXUINT;
      o->hi = 0;
    }
  else
    {
      o->lo = MIN (o->lo, i - o->last);
      o->hi = MAX (o->hi, i - o->last);
    }
  o->last = i;
  o->count++;
}

/* Table path: the gram at @i as an index in [0, m^len), the last name the
 * most significant (key order). */
static inline guint
table_key (const guint32 *dense, guint m, guint i, guint len)
{
  guint key = 0;

  for (guint t = len; t-- > 0;)
    key = key * m + dense[i + t];
  return key;
}

/* The grams of length @len that @test keeps, counted in a table of m^len
 * (@size) entries: one pass for their occurrences, one for the kept
 * grams' positions. */
static void
counted_groups (const guint32 *dense, guint m, guint n, guint len, guint size, SlGramTest test,
                GArray *pos, GArray *starts)
{
  g_autofree Occ *occ = g_new0 (Occ, size);
  g_autofree guint *slot = g_new (guint, size);   /* next position of a kept gram, G_MAXUINT if left out */
  guint count = n - len + 1, next = pos->len;

  for (guint i = 0; i < count; i++)
    occ_add (&occ[table_key (dense, m, i, len)], i);
  for (guint key = 0; key < size; key++)
    {
      const Occ *o = &occ[key];
      slot[key] = G_MAXUINT;
      if (o->count == 0 || !test (o->count, o->first, o->last, o->lo, o->hi, n))
        continue;
      g_array_append_val (starts, next);
      slot[key] = next;
      next += o->count;
    }
  g_array_set_size (pos, next);
  for (guint i = 0; i < count; i++)
    {
      guint key = table_key (dense, m, i, len);
      if (slot[key] != G_MAXUINT)
        g_array_index (pos, guint, slot[key]++) = i;
    }
}

/* @g[0, len) sorted by the low @key_bits bits of their keys, stably (LSD
 * radix sort, @tmp the same size): grams are made in position order, so
 * equal keys stay in position order. */
static void
radix_sort_grams (Gram *g, Gram *tmp, guint len, guint key_bits)
{
  guint passes = MAX ((key_bits + RADIX_BITS - 1) / RADIX_BITS, 1);
  guint digit = (key_bits + passes - 1) / passes, mask = (1u << digit) - 1;
  g_autofree guint *count = g_new (guint, 1u << digit);

  for (guint p = 0; p < passes; p++)
    {
      guint shift = p * digit, sum = 0;
      Gram *swap;

      memset (count, 0, sizeof (guint) << digit);
      for (guint i = 0; i < len; i++)
        count[(g[i].key >> shift) & mask]++;
      for (guint b = 0; b <= mask; b++)
        {
          guint c = count[b];
          count[b] = sum;
          sum += c;
        }
      for (guint i = 0; i < len; i++)
        tmp[count[(g[i].key >> shift) & mask]++] = g[i];
      swap = g;
      g = tmp;
      tmp = swap;
    }
  if (passes % 2 == 1)
    memcpy (tmp, g, (gsize) len * sizeof (Gram));   /* the result is in the caller's @tmp: back to @g */
}

/* Appends the group @g[0, c) (one gram, positions ascending) when @test keeps it. */
static void
add_sorted_group (const Gram *g, guint c, guint n, SlGramTest test, GArray *pos, GArray *starts)
{
  Occ o = { 0 };

  for (guint i = 0; i < c; i++)
    occ_add (&o, g[i].pos);
  if (!test (o.count, o.first, o.last, o.lo, o.hi, n))
    return;
  g_array_append_val (starts, pos->len);
  for (guint i = 0; i < c; i++)
    g_array_append_val (pos, g[i].pos);
}

/* Sort path: the grams of length @len, names packed in @bits bits each,
 * sorted by key (@g, @tmp: scratch of n grams). */
static void
sorted_groups (const guint32 *dense, guint n, guint len, guint bits, SlGramTest test, Gram *g, Gram *tmp,
               GArray *pos, GArray *starts)
{
  guint count = n - len + 1;

  for (guint i = 0; i < count; i++)
    {
      guint64 key = 0;
      for (guint t = 0; t < len; t++)
        key |= (guint64) dense[i + t] << (bits * t);
      g[i].key = key;
      g[i].pos = i;
    }
  radix_sort_grams (g, tmp, count, bits * len);
  for (guint i = 0, j; i < count; i = j)
    {
      for (j = i + 1; j < count && g[j].key == g[i].key; j++)
        ;
      add_sorted_group (g + i, j - i, n, test, pos, starts);
    }
}

void
sl_step_grams_find (const guint32 *dense, guint m, guint n, SlGramTest test, SlStepGrams *out)
{
  guint bits = g_bit_storage (MAX (m, 1) - 1);
  GArray *pos = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree Gram *g = NULL;
  g_autofree Gram *tmp = NULL;
  guint64 size = 1;

  out->starts = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint len = 1; len <= MAX_GRAM && len <= n; len++)
    {
      size *= MAX (m, 1);
      if (size <= MAX_TABLE)
        {
          counted_groups (dense, MAX (m, 1), n, len, (guint) size, test, pos, out->starts);
          continue;
        }
      if (g == NULL)
        {
          g = g_new (Gram, n);
          tmp = g_new (Gram, n);
        }
      sorted_groups (dense, n, len, bits, test, g, tmp, pos, out->starts);
    }
  g_array_append_val (out->starts, pos->len);
  out->pos = (guint *) (void *) g_array_free (pos, FALSE);
}

void
sl_step_grams_clear (SlStepGrams *grams)
{
  g_clear_pointer (&grams->pos, g_free);
  g_clear_pointer (&grams->starts, g_array_unref);
}
