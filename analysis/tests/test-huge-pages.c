/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-huge-pages.c: the loader's big arrays (sl-huge-pages.c) keep their
 * values through growth into and within their own mappings, start on 2 MB
 * boundaries, and are eligible for huge pages where THP allows them
 * (checked in the kernel's own account, /proc/self/smaps). */
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "sl-huge-pages.h"

static guint32
value_at (guint i)
{
  return i * 2654435761u;
}

static void
check_values (const guint32 *a, guint n)
{
  for (guint i = 0; i < n; i++)
    if (a[i] != value_at (i))
      g_error ("value %u lost: %u", i, a[i]);
}

static void
test_renew_keeps_values (void)
{
  static const guint sizes[] = { 1000, 300000, 1000000, 4000000, 10 };
  guint32 *a = NULL;
  guint n = 0;

  _sl_huge_pages_setup ();
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      a = _sl_huge_renew_n (a, sizes[s]);
      check_values (a, MIN (n, sizes[s]));
      for (guint i = n; i < sizes[s]; i++)
        a[i] = value_at (i);
      n = sizes[s];
      check_values (a, n);
    }
  g_free (a);
}

/* THPeligible of the mapping holding @p, -1 when smaps has none. */
static int
thp_eligible (gconstpointer p)
{
  g_autofree char *smaps = NULL;
  guintptr at = (guintptr) p;
  gboolean inside = FALSE;

  if (!g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL))
    return -1;
  for (char *line = strtok (smaps, "\n"); line != NULL; line = strtok (NULL, "\n"))
    {
      unsigned long lo, hi;
      int eligible;

      if (sscanf (line, "%lx-%lx ", &lo, &hi) == 2 && strchr (line, '=') == NULL)
        inside = at >= lo && at < hi;
      else if (inside && sscanf (line, "THPeligible: %d", &eligible) == 1)
        return eligible;
    }
  return -1;
}

static void
test_new_is_aligned_and_advised (void)
{
  g_autofree char *mode = NULL;
  gsize n = 3 * SL_HUGE_PAGE / sizeof (guint64);
  guint64 *a = _sl_huge_new (n, sizeof (guint64));

  g_assert_cmpuint ((guintptr) a % SL_HUGE_PAGE, ==, 0);
  memset (a, 1, n * sizeof (guint64));
  if (!g_file_get_contents ("/sys/kernel/mm/transparent_hugepage/enabled", &mode, NULL, NULL) ||
      strstr (mode, "[never]") != NULL || thp_eligible (a) < 0)
    g_test_skip ("no transparent huge pages here");
  else
    g_assert_cmpint (thp_eligible (a), ==, 1);
  g_free (a);
}

static gboolean
thp_madvise_mode (void)
{
  g_autofree char *mode = NULL;

  return g_file_get_contents ("/sys/kernel/mm/transparent_hugepage/enabled", &mode, NULL, NULL)
         && strstr (mode, "[never]") == NULL;
}

/* An array of @bytes written whole: the page after its end, in the same
 * 2 MB stretch and the same block, was never written, so it is resident
 * only when the stretch was faulted as one huge page (which, at a 1 M-call
 * profile's API arrays, kept ~0.7 MB of zeros resident).  FALSE, with the
 * test skipped, where this cannot be seen. */
static gboolean
tail_page_is_resident (guint8 *a, gsize bytes)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  guintptr after = ((guintptr) a + bytes + page - 1) & ~(guintptr) (page - 1);
  guintptr stretch_end = ((guintptr) a + bytes + SL_HUGE_PAGE - 1) & ~(guintptr) (SL_HUGE_PAGE - 1);
  gsize usable = 0;
  unsigned char resident = 0;

#ifdef __GLIBC__
  usable = malloc_usable_size (a);
#endif
  /* the stretch must lie inside the block for a huge page to be possible;
   * with MALLOC_PERTURB_, malloc itself writes (faults in) the whole block */
  if (g_strcmp0 (g_getenv ("MALLOC_PERTURB_"), "0") != 0 && g_getenv ("MALLOC_PERTURB_") != NULL)
    {
      g_test_skip ("MALLOC_PERTURB_ writes every page malloc hands out");
      return FALSE;
    }
  if (!thp_madvise_mode () || thp_eligible (a) != 1 || usable == 0
      || stretch_end > (guintptr) a + usable || after >= stretch_end)
    {
      g_test_skip ("no huge page possible in this array's last stretch here");
      return FALSE;
    }
  g_assert_cmpint (mincore ((void *) after, page, &resident), ==, 0);
  return resident & 1;
}

/* glibc pads an aligned block so that one of 4 MB less 64 kB ends at the
 * 4 MB boundary: its second stretch could be one huge page. */
#define TAIL_BYTES ((gsize) 2 * SL_HUGE_PAGE - 65536)

static void
test_new_tail_in_small_pages (void)
{
  guint8 *a = _sl_huge_new (TAIL_BYTES, 1);

  memset (a, 1, TAIL_BYTES);
  g_assert_false (tail_page_is_resident (a, TAIL_BYTES));
  g_free (a);
}

static void
test_renew_final_tail_in_small_pages (void)
{
  gsize n = TAIL_BYTES / sizeof (guint32), small = 200000;
  guint32 *a = g_new (guint32, small);

  for (guint i = 0; i < small; i++)
    a[i] = value_at (i);
  a = _sl_huge_renew_final_n (a, n);
  check_values (a, small);
  for (guint i = small; i < n; i++)
    a[i] = value_at (i);
  check_values (a, n);
  g_assert_false (tail_page_is_resident ((guint8 *) a, n * sizeof (guint32)));
  g_free (a);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/huge-pages/renew-keeps-values", test_renew_keeps_values);
  g_test_add_func ("/huge-pages/new-aligned-advised", test_new_is_aligned_and_advised);
  g_test_add_func ("/huge-pages/new-tail-small-pages", test_new_tail_in_small_pages);
  g_test_add_func ("/huge-pages/renew-final-tail-small-pages", test_renew_final_tail_in_small_pages);
  return g_test_run ();
}
