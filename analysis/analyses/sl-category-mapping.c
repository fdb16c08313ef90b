/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-category-mapping.c: gputrc2graph's kernel-to-category mapping CSV. */
#include "sl-category-mapping.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shortest significant digits of @value that read back exactly: @digits
 * (no point, no sign) and the decimal exponent of the first digit. */
static void
shortest_digits (double value, char *digits, gsize size, int *exponent)
{
  char text[64];
  char *e;
  gsize n = 0;

  for (int precision = 0; precision < 17; precision++)
    {
      g_snprintf (text, sizeof text, "%.*e", precision, value);
      if (g_ascii_strtod (text, NULL) == value)
        break;
    }
  e = strchr (text, 'e');
  *exponent = atoi (e + 1);
  for (const char *p = text; p < e && n + 1 < size; p++)
    if (g_ascii_isdigit (*p))
      digits[n++] = *p;
  while (n > 1 && digits[n - 1] == '0')
    n--;
  digits[n] = '\0';
}

char *
sl_python_float_repr (double value)
{
  char digits[32];
  int exponent, n;
  GString *out = g_string_new (value < 0 ? "-" : "");

  if (value == 0)
    return g_string_free (g_string_append (out, "0.0"), FALSE);
  shortest_digits (fabs (value), digits, sizeof digits, &exponent);
  n = strlen (digits);
  /* Python switches to exponent form below 1e-4 and from 1e16 */
  if (exponent < -4 || exponent >= 16)
    {
      g_string_append_c (out, digits[0]);
      if (n > 1)
        g_string_append_printf (out, ".%s", digits + 1);
      g_string_append_printf (out, "e%c%02d", exponent < 0 ? '-' : '+', ABS (exponent));
    }
  else if (exponent < 0)
    {
      g_string_append (out, "0.");
      for (int i = exponent + 1; i < 0; i++)
        g_string_append_c (out, '0');
      g_string_append (out, digits);
    }
  else
    {
      for (int i = 0; i <= exponent; i++)
        g_string_append_c (out, i < n ? digits[i] : '0');
      g_string_append_printf (out, ".%s", n > exponent + 1 ? digits + exponent + 1 : "0");
    }
  return g_string_free (out, FALSE);
}

double
sl_python_round1 (double value)
{
  char text[64];

  /* glibc prints the exact binary value rounded half-even, as CPython's
   * round() does through its own correctly rounded conversion. */
  g_snprintf (text, sizeof text, "%.1f", value);
  return g_ascii_strtod (text, NULL);
}

/* A CSV field as Python's csv module writes it (QUOTE_MINIMAL). */
static void
append_field (GString *out, const char *field)
{
  if (strpbrk (field, ",\"\r\n") == NULL)
    {
      g_string_append (out, field);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = field; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
append_row (GString *out, const char *model_engine, const char *category, guint64 instances,
            const char *name, double seconds)
{
  g_autofree char *time = sl_python_float_repr (seconds);

  append_field (out, model_engine);
  g_string_append_c (out, ',');
  append_field (out, category);
  g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",", instances);
  append_field (out, name);
  g_string_append_printf (out, ",%s\n", time);
}

static int
compare_by_category (gconstpointer a, gconstpointer b)
{
  const SlCategoryKernel *x = *(SlCategoryKernel *const *) a, *y = *(SlCategoryKernel *const *) b;
  int c = strcmp (x->category, y->category);

  if (c != 0)
    return c;
  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  return strcmp (x->name, y->name);
}

char *
sl_category_mapping_csv (const SlCategorySummary *summary, const char *model_engine)
{
  static const char cpu[] = "CPU(non-GPU)";
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  GString *out = g_string_new ("Model_Engine,Category,Instances,Name,Elapsed Time (sec)\n");
  double gpu_sec = sl_python_round1 ((double) summary->total_ns / 1e9);
  double wall_sec = sl_python_round1 (summary->wall_time_ns > 0 ? (double) summary->wall_time_ns / 1e9 : 0);
  SlCategoryKernel nongpu = { (char *) cpu, 0, 1, 0, cpu };
  double nongpu_sec = MAX (wall_sec, gpu_sec) - gpu_sec;

  for (guint k = 0; k < summary->n_kernels; k++)
    g_ptr_array_add (rows, &summary->kernels[k]);
  g_ptr_array_add (rows, &nongpu);
  g_ptr_array_sort (rows, compare_by_category);
  for (guint r = 0; r < rows->len; r++)
    {
      const SlCategoryKernel *k = g_ptr_array_index (rows, r);
      append_row (out, model_engine, k->category, k->instances, k->name,
                  k == &nongpu ? nongpu_sec : (double) k->total_ns / 1e9);
    }
  return g_string_free (out, FALSE);
}
