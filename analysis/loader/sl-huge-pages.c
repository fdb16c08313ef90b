/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-huge-pages.c: the loader's big arrays on transparent huge pages (see
 * sl-huge-pages.h). */
#include "sl-huge-pages.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

void
_sl_huge_pages_setup (void)
{
  static gsize done = 0;

  if (!g_once_init_enter (&done))
    return;
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
  /* glibc's threshold is dynamic: after a big block is freed, blocks up to
   * 32 MB come from the heaps, where realloc copies them and the heap's
   * pages are not advised.  A fixed one keeps big arrays in mappings. */
  mallopt (M_MMAP_THRESHOLD, (int) SL_HUGE_PAGE);
#endif
  g_once_init_leave (&done, 1);
}

void
_sl_huge_advise (gpointer block, gsize bytes)
{
#ifdef MADV_HUGEPAGE
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  guintptr first, end;

  if (block == NULL || bytes < SL_HUGE_PAGE)
    return;
#ifdef __GLIBC__
  /* the whole block (its mapping ends with it): advising part of a mapping
   * would split it, and mremap could not move a split one */
  bytes = MAX (bytes, malloc_usable_size (block));
#endif
  first = (guintptr) block & ~(guintptr) (page - 1);
  end = ((guintptr) block + bytes + page - 1) & ~(guintptr) (page - 1);
  /* advice only: where THP is off this fails, and 4 kB pages still work */
  madvise ((void *) first, end - first, MADV_HUGEPAGE);
#endif
}

/* A block of @bytes on a 2 MB boundary.  Advised whole when it may grow
 * (a mapping advised in parts is split, and mremap cannot move it), else
 * only its full 2 MB stretches: the last one would otherwise be faulted as
 * a whole huge page however little of it the array uses (at 1 M calls, the
 * API arrays' tails left ~0.7 MB of zeros resident). */
static gpointer
huge_alloc (gsize n, gsize size, gboolean may_grow)
{
  gsize bytes;
  void *block = NULL;

  if (!g_size_checked_mul (&bytes, MAX (n, 1), size))
    g_error ("%s: overflow allocating %" G_GSIZE_FORMAT "×%" G_GSIZE_FORMAT " bytes", G_STRLOC, n, size);
  if (bytes < SL_HUGE_PAGE)
    return g_malloc (bytes);
  if (posix_memalign (&block, SL_HUGE_PAGE, bytes) != 0)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, bytes);
  if (may_grow)
    _sl_huge_advise (block, bytes);
#ifdef MADV_HUGEPAGE
  else
    madvise (block, bytes & ~(SL_HUGE_PAGE - 1), MADV_HUGEPAGE);
#endif
  return block;
}

gpointer
_sl_huge_new (gsize n, gsize size)
{
  return huge_alloc (n, size, FALSE);
}

/* The last, partial 2 MB stretch of a mapping @moved of @bytes that was
 * @old bytes before growing, in 4 kB pages: not faulted yet unless the old
 * block reached it. */
static void
small_pages_for_tail (gpointer moved, gsize bytes, gsize old)
{
#if defined(MADV_NOHUGEPAGE) && defined(__GLIBC__)
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  guintptr tail = ((guintptr) moved + bytes) & ~(guintptr) (SL_HUGE_PAGE - 1);
  guintptr end = ((guintptr) moved + MAX (bytes, malloc_usable_size (moved)) + page - 1) & ~(guintptr) (page - 1);

  if (tail > (guintptr) moved + old && end > tail)
    madvise ((void *) tail, end - tail, MADV_NOHUGEPAGE);
#else
  (void) moved, (void) bytes, (void) old;
#endif
}

static gpointer
resize (gpointer block, gsize n, gsize size, gboolean final)
{
  gsize bytes, old = 0;
  gpointer moved;

  if (!g_size_checked_mul (&bytes, n, size))
    g_error ("%s: overflow allocating %" G_GSIZE_FORMAT "×%" G_GSIZE_FORMAT " bytes", G_STRLOC, n, size);
  if (bytes < SL_HUGE_PAGE)
    return g_realloc (block, bytes);
#ifdef __GLIBC__
  old = block != NULL ? malloc_usable_size (block) : 0;
#endif
  /* already a mapping (or not glibc): realloc moves it with mremap */
  if (old == 0 || old >= SL_HUGE_PAGE)
    {
      moved = g_realloc (block, bytes);
      _sl_huge_advise (moved, bytes);
      if (final)
        small_pages_for_tail (moved, bytes, old);
      return moved;
    }
  moved = huge_alloc (n, size, !final);
  memcpy (moved, block, MIN (old, bytes));
  g_free (block);
  return moved;
}

gpointer
_sl_huge_renew (gpointer block, gsize n, gsize size)
{
  return resize (block, n, size, FALSE);
}

gpointer
_sl_huge_renew_final (gpointer block, gsize n, gsize size)
{
  return resize (block, n, size, TRUE);
}
