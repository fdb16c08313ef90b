/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-huge-pages.h: the loader's big arrays on transparent huge pages.
 *
 * A 1 M-event load touches ~120 MB of fresh memory; in 4 kB pages that is
 * ~30 k page faults, a good part of the load's CPU.  Where transparent huge
 * pages are "madvise" (Debian's default), memory only gets 2 MB pages when
 * asked for with MADV_HUGEPAGE.  Arrays of 2 MB and more are therefore
 * (a) separate mappings (a fixed malloc mmap threshold), so growing one
 * moves its pages with mremap instead of copying them, and (b) advised
 * MADV_HUGEPAGE, so they fault 2 MB at a time.  They stay ordinary malloc
 * blocks: g_free() releases them.  Loader only. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SL_HUGE_PAGE ((gsize) 2 << 20)

/* Once per process, before the first load: arrays of SL_HUGE_PAGE bytes
 * and more get mappings of their own. */
void      _sl_huge_pages_setup  (void);
/* Asks for huge pages for the malloc block @block holding @bytes (its
 * whole mapping); nothing under SL_HUGE_PAGE bytes or without THP. */
void      _sl_huge_advise       (gpointer block,
                                 gsize    bytes);
/* g_new (@n × @size) for an array written once whole: a big one starts on
 * a 2 MB boundary, so all its full 2 MB stretches get huge pages, and the
 * rest 4 kB pages (a huge page faulted for a few bytes is resident whole).
 * Free with g_free(). */
gpointer  _sl_huge_new          (gsize    n,
                                 gsize    size);

/* g_renew (@block, @n × @size) that moves a block reaching SL_HUGE_PAGE
 * bytes into an advised mapping before its values are copied, so the copy
 * faults in 2 MB pages too. */
gpointer  _sl_huge_renew        (gpointer block,
                                 gsize    n,
                                 gsize    size);
/* _sl_huge_renew() to an array's final size: it will not grow again, so
 * the last, partial 2 MB stretch gets 4 kB pages (as _sl_huge_new()). */
gpointer  _sl_huge_renew_final  (gpointer block,
                                 gsize    n,
                                 gsize    size);
#define _sl_huge_renew_final_n(array, n) \
  ((__typeof__ (array)) _sl_huge_renew_final ((array), (n), sizeof *(array)))
#define _sl_huge_renew_n(array, n) \
  ((__typeof__ (array)) _sl_huge_renew ((array), (n), sizeof *(array)))

/* _sl_huge_advise() of a span array's two columns, @capacity long. */
#define _sl_huge_advise_spans(spans, capacity) \
  G_STMT_START { \
    _sl_huge_advise_n ((spans)->start, (capacity)); \
    _sl_huge_advise_n ((spans)->dur, (capacity)); \
  } G_STMT_END

/* _sl_huge_advise() of an array of @n values. */
#define _sl_huge_advise_n(array, n) \
  _sl_huge_advise ((array), (gsize) (n) * sizeof *(array))

G_END_DECLS
