/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-radix.c: least-significant-byte-first radix sort of (key, index)
 * pairs.  Each pass is a stable counting sort on one byte; bytes that all
 * keys share are skipped, so times within one capture (a few tens of bits
 * apart) take five or six passes. */
#include "sl-radix.h"

#include <string.h>

/* Bytes in which some key differs from the first. */
static guint64
varying_bits (const SlKeyIndex *pairs, guint n)
{
  guint64 varying = 0;

  for (guint i = 1; i < n; i++)
    varying |= pairs[i].key ^ pairs[0].key;
  return varying;
}

/* One stable counting pass on byte @byte, from @from into @to. */
static void
sort_pass (const SlKeyIndex *from, SlKeyIndex *to, guint n, guint byte)
{
  guint count[256] = { 0 };
  guint shift = byte * 8, sum = 0;

  for (guint i = 0; i < n; i++)
    count[(from[i].key >> shift) & 0xff]++;
  for (guint d = 0; d < 256; d++)
    {
      guint c = count[d];
      count[d] = sum;
      sum += c;
    }
  for (guint i = 0; i < n; i++)
    to[count[(from[i].key >> shift) & 0xff]++] = from[i];
}

void
_sl_radix_sort (SlKeyIndex *pairs, guint n)
{
  guint64 varying;
  SlKeyIndex *tmp, *from = pairs, *to;

  if (n < 2)
    return;
  varying = varying_bits (pairs, n);
  if (varying == 0)
    return;
  tmp = g_new (SlKeyIndex, n);
  to = tmp;
  for (guint byte = 0; byte < 8; byte++)
    {
      SlKeyIndex *swap;
      if (((varying >> (byte * 8)) & 0xff) == 0)
        continue;
      sort_pass (from, to, n, byte);
      swap = from;
      from = to;
      to = swap;
    }
  if (from != pairs)
    memcpy (pairs, from, (gsize) n * sizeof *pairs);
  g_free (tmp);
}
