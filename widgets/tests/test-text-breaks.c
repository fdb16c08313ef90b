/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-text-breaks.c: break opportunities in long names, and their removal. */
#include "sl-text-breaks.h"

#include <string.h>

#define B SL_TEXT_BREAK

static void
test_breaks (void)
{
  static const struct { const char *in, *out; } cases[] = {
    { "cudaLaunchKernel_v7000", "cudaLaunchKernel_" B "v7000" },
    { "void flash::flash_fwd<Flash_fwd_traits<128, 64>, true>(Params)",
      "void flash::" B "flash_" B "fwd<" B "Flash_" B "fwd_" B "traits<" B "128, 64>, true>(" B "Params)" },
    { "a::b", "a::" B "b" },
    { "f()", "f()" },
    { "x_", "x_" },
    { "", "" },
    { "µs_ß", "µs_" B "ß" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *with = sl_text_add_breaks (cases[i].in);
      g_autofree char *back = sl_text_strip_breaks (with);

      g_assert_cmpstr (with, ==, cases[i].out);
      g_assert_true (g_utf8_validate (with, -1, NULL));
      /* what is copied or compared is the name itself */
      g_assert_cmpstr (back, ==, cases[i].in);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/text-breaks/breaks", test_breaks);
  return g_test_run ();
}
