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

gpointer
_sl_huge_new (gsize n, gsize size)
{
  gsize bytes;
  void *block = NULL;

  if (!g_size_checked_mul (&bytes, MAX (n, 1), size))
    g_error ("%s: overflow allocating %" G_GSIZE_FORMAT "×%" G_GSIZE_FORMAT " bytes", G_STRLOC, n, size);
  if (bytes < SL_HUGE_PAGE)
    return g_malloc (bytes);
  if (posix_memalign (&block, SL_HUGE_PAGE, bytes) != 0)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, bytes);
  _sl_huge_advise (block, bytes);
  return block;
}

gpointer
_sl_huge_renew (gpointer block, gsize n, gsize size)
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
      return moved;
    }
  moved = _sl_huge_new (n, size);
  memcpy (moved, block, MIN (old, bytes));
  g_free (block);
  return moved;
}
