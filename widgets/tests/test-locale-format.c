/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-locale-format.c: the GUI's numbers in the user's conventions.  Run
 * once under C and once under de_DE.UTF-8 (tests/with-de-locale.sh); the
 * expected text comes from the C library's own grouping printf ("%'") in
 * the environment's locale, and from the German conventions written out. */
#include "sl-locale-format.h"
#include "sl-format.h"

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>

static void
test_rewrite (void)
{
  static const struct { const char *in, *out; } cases[] = {
    { "1.50 ms", "1,50 ms" }, { "143760", "143.760" }, { "1234567.125 s", "1.234.567,125 s" },
    { "-12345.5 µs", "-12.345,5 µs" }, { "26.2%", "26,2%" }, { "999", "999" },
    { "1.5 MiB", "1,5 MiB" }, { "Kernel 2 of 3.", "Kernel 2 of 3." }, { "", "" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = sl_locale_rewrite (cases[i].in, ",", ".");
      g_assert_cmpstr (got, ==, cases[i].out);
    }
  /* no grouping separator: only the decimal point changes */
  g_autofree char *plain = sl_locale_rewrite ("12345.25 s", ",", "");
  g_assert_cmpstr (plain, ==, "12345,25 s");
}

/* What glibc's printf makes of @v with grouping in the environment's
 * numeric locale, the process's own LC_NUMERIC left alone. */
static char *
libc_grouped (double v, int decimals)
{
  locale_t loc = newlocale (LC_NUMERIC_MASK, "", (locale_t) 0);
  locale_t old;
  char buf[64];

  g_assert_true (loc != (locale_t) 0);
  old = uselocale (loc);
  snprintf (buf, sizeof buf, "%'.*f", decimals, v);
  uselocale (old);
  freelocale (loc);
  return g_strdup (buf);
}

static void
test_environment (void)
{
  const char *lang = g_getenv ("LC_ALL") != NULL ? g_getenv ("LC_ALL") : g_getenv ("LANG");
  gboolean german = lang != NULL && g_str_has_prefix (lang, "de_DE");
  g_autofree char *count = sl_locale_count (12345678);
  g_autofree char *count_libc = libc_grouped (12345678, 0);
  g_autofree char *dur = sl_locale_duration (1500000);
  g_autofree char *dur_libc = libc_grouped (1.5, 2);
  g_autofree char *ts = sl_locale_timestamp (G_GINT64_CONSTANT (1234567891234567));
  g_autofree char *ts_libc = libc_grouped (1234567.891234567, 9);
  g_autofree char *machine = sl_format_duration (1500000);

  g_assert_cmpstr (count, ==, count_libc);
  g_assert_true (g_str_has_prefix (dur, dur_libc));
  g_assert_true (g_str_has_prefix (ts, ts_libc));
  /* the model's own formatter stays C whatever the locale */
  g_assert_cmpstr (machine, ==, "1.50 ms");
  if (german)
    {
      g_assert_cmpstr (count, ==, "12.345.678");
      g_assert_cmpstr (dur, ==, "1,50 ms");
    }
  else
    {
      g_assert_cmpstr (count, ==, "12345678");
      g_assert_cmpstr (dur, ==, "1.50 ms");
    }
}

int
main (int argc, char **argv)
{
  /* as the app runs: the locale for messages, C for numbers */
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/locale-format/rewrite", test_rewrite);
  g_test_add_func ("/widgets/locale-format/environment", test_environment);
  return g_test_run ();
}
