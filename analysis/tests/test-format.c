/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-format.c: the precise duration formatter prints what "%.3f" of the
 * double prints, though it takes the integer path below a second, and says
 * how long its parts are. */
#include <glib.h>
#include <string.h>

#include "sl-format.h"
#include "sl-text-width.h"

/* The reference: the unit by magnitude, then printf on the double. */
static char *
reference_precise (gint64 ns)
{
  guint64 a = ns < 0 ? (guint64) 0 - (guint64) ns : (guint64) ns;

  if (a < 1000)
    return g_strdup_printf ("%" G_GINT64_FORMAT " ns", ns);
  if (a < 1000000)
    return g_strdup_printf ("%.3f µs", (double) ns / 1e3);
  if (a < 1000000000)
    return g_strdup_printf ("%.3f ms", (double) ns / 1e6);
  return g_strdup_printf ("%.3f s", (double) ns / 1e9);
}

static void
check (gint64 ns)
{
  g_autofree char *got = sl_format_duration_precise (ns);
  g_autofree char *want = reference_precise (ns);
  g_autoptr(GString) appended = g_string_new ("x");

  char number[SL_FORMAT_DURATION_NUMBER_SIZE];
  const char *unit;
  gsize number_len, unit_len;
  g_autofree char *parts = NULL;

  g_assert_cmpstr (got, ==, want);
  sl_format_duration_precise_append (appended, ns);
  g_assert_cmpstr (appended->str + 1, ==, want);
  /* the parts and the lengths the tree's writer copies without measuring */
  number_len = sl_format_duration_precise_parts (ns, number, &unit, &unit_len);
  g_assert_cmpuint (number_len, ==, strlen (number));
  g_assert_cmpuint (unit_len, ==, strlen (unit));
  parts = g_strdup_printf ("%s %s", number, unit);
  g_assert_cmpstr (parts, ==, want);
}

static void
test_precise_edges (void)
{
  static const gint64 values[] = {
    0, 1, 999, 1000, 1001, 1500, 999999, 1000000, 1000499, 1000500, 1000501,
    1234567, 2500500, 999999499, 999999500, 999999501, 1000000000, 1000000500,
    G_MAXINT64, G_MININT64, G_MININT64 + 1,
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      check (values[i]);
      if (values[i] != G_MININT64)
        check (-values[i]);
    }
}

/* Every tie of the fourth decimal in the millisecond range is left to
 * printf; everything else must agree digit for digit. */
static void
test_precise_random (void)
{
  GRand *rand = g_rand_new_with_seed (20261124);

  for (guint i = 0; i < 2000000; i++)
    {
      gint64 magnitude = (gint64) 1 << g_rand_int_range (rand, 0, 40);
      gint64 ns = (gint64) (g_rand_double (rand) * (double) magnitude);

      if (i % 3 == 0)
        ns = ns / 1000 * 1000 + 500;
      check (g_rand_boolean (rand) ? ns : -ns);
    }
  g_rand_free (rand);
}

/* Columns of a terminal: wide CJK and kana two, combining marks none,
 * two-byte Latin, Greek and Cyrillic one. */
static void
test_text_width (void)
{
  guint width = 0;

  g_assert_cmpuint (sl_text_width ("", -1), ==, 0);
  g_assert_cmpuint (sl_text_width ("gemm_kernel", -1), ==, 11);
  g_assert_cmpuint (sl_text_width ("120.441 µs", -1), ==, 10);
  g_assert_cmpuint (sl_text_width ("Aktivität", -1), ==, 9);
  g_assert_cmpuint (sl_text_width ("ядро", -1), ==, 4);
  g_assert_cmpuint (sl_text_width ("预热", -1), ==, 4);
  g_assert_cmpuint (sl_text_width ("ソフトマックス", -1), ==, 14);
  g_assert_cmpuint (sl_text_width ("ＡＢ", -1), ==, 4);            /* fullwidth forms */
  g_assert_cmpuint (sl_text_width ("e\xcc\x81te", -1), ==, 3);   /* e + combining acute */
  /* a byte count stops inside the text */
  g_assert_cmpuint (sl_text_width ("预热ab", 3), ==, 2);
  g_assert_cmpuint (sl_text_width ("预热ab", 7), ==, 5);
  /* prefixes never split a character, nor overflow the columns */
  g_assert_cmpuint (sl_text_width_prefix ("预热ab", 3, &width), ==, 3);
  g_assert_cmpuint (width, ==, 2);
  g_assert_cmpuint (sl_text_width_prefix ("预热ab", 5, &width), ==, 7);
  g_assert_cmpuint (width, ==, 5);
  g_assert_cmpuint (sl_text_width_prefix ("预热", 1, &width), ==, 0);
  g_assert_cmpuint (width, ==, 0);
  g_assert_cmpuint (sl_text_width_prefix ("abc", 10, &width), ==, 3);
  g_assert_cmpuint (width, ==, 3);
  /* invalid bytes: one column each, and never a step past the end (a
   * 4-byte lead byte before the NUL, a lone continuation byte) */
  g_assert_cmpuint (sl_text_width ("ab\xf0", -1), ==, 3);
  g_assert_cmpuint (sl_text_width ("\x80x", -1), ==, 2);
  g_assert_cmpuint (sl_text_width ("\xe9\xa2", 2), ==, 2);   /* a cut 3-byte character */
  g_assert_cmpuint (sl_text_width_prefix ("a\xf0", 5, &width), ==, 2);
  g_assert_cmpuint (width, ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/format/duration-precise/edges", test_precise_edges);
  g_test_add_func ("/format/duration-precise/random", test_precise_random);
  g_test_add_func ("/format/text-width", test_text_width);
  return g_test_run ();
}
