/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-grow.c: the loader's array growth (sl-grow.c) on simulated tables:
 * arrays whose rows are spread over a part grow a few times only, never
 * below their count, and a wrong row estimate cannot ask for absurd sizes. */
#include <glib.h>

#include "sl-grow.h"

typedef struct {
  guint grows;
  guint cap;
  guint64 copied;   /* values copied by the growths (the realloc's work) */
} Growth;

/* Appends one value every @every rows of a part of @rows rows, from row
 * @first on, to an array that grows with _sl_grow_capacity(). */
static Growth
simulate (guint64 rows, guint64 expected, guint64 first, guint every)
{
  Growth g = { 0, 0, 0 };
  guint n = 0;

  for (guint64 row = 1; row <= rows; row++)
    {
      if (row < first || (row - first) % every != 0)
        continue;
      if (n >= g.cap)
        {
          guint cap = _sl_grow_capacity (g.cap, n, first, row, expected);
          g_assert_cmpuint (cap, >, n);
          g.copied += n;
          g.cap = cap;
          g.grows++;
        }
      n++;
    }
  return g;
}

static void
test_spread_rows_grow_once_to_size (void)
{
  /* a tenth of a million rows, from the start or from row 300 000 */
  Growth g = simulate (1000000, 1000000, 1, 10);
  Growth late = simulate (1000000, 1000000, 300000, 10);

  g_assert_cmpuint (g.cap, >=, 100000);
  g_assert_cmpuint (g.cap, <=, 100000 + 100000 / 4);
  g_assert_cmpuint (g.copied, <, 100000 / 4);
  g_assert_cmpuint (late.cap, >=, 70000);
  g_assert_cmpuint (late.cap, <=, 70000 + 70000 / 4);
  g_assert_cmpuint (late.copied, <, 70000 / 4);
}

static void
test_without_estimate_doubles (void)
{
  Growth g = simulate (100000, 0, 1, 1);

  /* 64, 128, ..., 131072 */
  g_assert_cmpuint (g.cap, ==, 131072);
  g_assert_cmpuint (g.grows, ==, 12);
}

static void
test_short_estimate_still_grows (void)
{
  /* the table holds far more rows than estimated */
  Growth g = simulate (1000000, 1000, 1, 1);

  g_assert_cmpuint (g.cap, >=, 1000000);
  g_assert_cmpuint (g.copied, <, 2 * 1000000);
}

static void
test_absurd_estimate_is_bounded (void)
{
  guint cap = _sl_grow_capacity (1024, 1024, 1, 5000, G_GUINT64_CONSTANT (1) << 40);

  g_assert_cmpuint (cap, >, 1024);
  g_assert_cmpuint (cap, <=, 16 * 1024);
  g_assert_cmpuint (_sl_grow_capacity (G_MAXUINT - 1, G_MAXUINT - 1, 1, 5000, 10000), ==, G_MAXUINT);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/grow/spread-rows", test_spread_rows_grow_once_to_size);
  g_test_add_func ("/grow/no-estimate", test_without_estimate_doubles);
  g_test_add_func ("/grow/short-estimate", test_short_estimate_still_grows);
  g_test_add_func ("/grow/absurd-estimate", test_absurd_estimate_is_bounded);
  return g_test_run ();
}
