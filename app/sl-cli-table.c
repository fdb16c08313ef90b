/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-table.c: aligned text tables of sightline-cli. */
#include <stdarg.h>
#include <string.h>

#include "sl-cli-table.h"
#include "sightline.h"

struct _SlCliTable {
  guint      n_columns;
  char     **headers;
  gboolean  *right;
  guint     *max;
  GPtrArray *rows;         /* char** of n_columns */
};

SlCliTable *
sl_cli_table_new (const char *first, ...)
{
  SlCliTable *t = g_new0 (SlCliTable, 1);
  g_autoptr(GPtrArray) headers = g_ptr_array_new ();
  va_list args;

  va_start (args, first);
  for (const char *h = first; h != NULL; h = va_arg (args, const char *))
    g_ptr_array_add (headers, (gpointer) h);
  va_end (args);

  t->n_columns = headers->len;
  t->headers = g_new0 (char *, t->n_columns + 1);
  t->right = g_new0 (gboolean, t->n_columns);
  t->max = g_new0 (guint, t->n_columns);
  for (guint c = 0; c < t->n_columns; c++)
    {
      const char *h = headers->pdata[c];
      t->right[c] = h[0] == '>';
      t->headers[c] = g_strdup (t->right[c] ? h + 1 : h);
    }
  t->rows = g_ptr_array_new ();
  return t;
}

void
sl_cli_table_set_max (SlCliTable *t, guint column, guint max_chars)
{
  g_return_if_fail (column < t->n_columns);
  t->max[column] = max_chars;
}

void
sl_cli_table_add_cells (SlCliTable *t, char **cells)
{
  char **row = g_new0 (char *, t->n_columns + 1);

  for (guint c = 0; c < t->n_columns; c++)
    row[c] = cells[c] != NULL ? cells[c] : g_strdup ("");
  g_ptr_array_add (t->rows, row);
}

void
sl_cli_table_add (SlCliTable *t, ...)
{
  g_autofree char **cells = g_new0 (char *, t->n_columns);
  va_list args;

  va_start (args, t);
  for (guint c = 0; c < t->n_columns; c++)
    cells[c] = va_arg (args, char *);
  va_end (args);
  sl_cli_table_add_cells (t, cells);
}

/* Cuts @cell to @max columns (a CJK character takes two); profile strings
 * may be invalid UTF-8. */
static char *
fit (const char *cell, guint max)
{
  g_autofree char *valid = g_utf8_make_valid (cell, -1);
  guint width;

  if (max > 1 && sl_text_width (valid, -1) > max)
    {
      gsize bytes = sl_text_width_prefix (valid, max - 1, &width);
      return g_strdup_printf ("%.*s…", (int) bytes, valid);
    }
  return g_steal_pointer (&valid);
}

int
sl_cli_field (const char *text, guint columns)
{
  gsize bytes = strlen (text);
  guint width = sl_text_width (text, (gssize) bytes);

  return width >= columns ? 0 : (int) (columns - width + bytes);
}

/* The cells of every row, fitted, row after row; @width gets the width of
 * each column in terminal columns. (transfer full) */
static GPtrArray *
fit_cells (const SlCliTable *t, guint *width)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);

  for (guint c = 0; c < t->n_columns; c++)
    width[c] = sl_text_width (t->headers[c], -1);
  for (guint r = 0; r < t->rows->len; r++)
    {
      char **row = t->rows->pdata[r];
      for (guint c = 0; c < t->n_columns; c++)
        {
          char *cell = fit (row[c], t->max[c]);
          width[c] = MAX (width[c], sl_text_width (cell, -1));
          g_ptr_array_add (cells, cell);
        }
    }
  return cells;
}

static void
print_line (const SlCliTable *t, const char *const *cells, const guint *width, FILE *out)
{
  GString *line = g_string_new (NULL);

  for (guint c = 0; c < t->n_columns; c++)
    {
      guint pad = width[c] - sl_text_width (cells[c], -1);
      gboolean last = c + 1 == t->n_columns;

      if (c > 0)
        g_string_append (line, "  ");
      if (t->right[c])
        {
          for (guint i = 0; i < pad; i++)
            g_string_append_c (line, ' ');
          g_string_append (line, cells[c]);
        }
      else
        {
          g_string_append (line, cells[c]);
          for (guint i = 0; i < pad && !last; i++)
            g_string_append_c (line, ' ');
        }
    }
  fprintf (out, "%s\n", line->str);
  g_string_free (line, TRUE);
}

void
sl_cli_table_print (SlCliTable *t, FILE *out)
{
  g_autofree guint *width = g_new0 (guint, t->n_columns);
  g_autoptr(GPtrArray) cells = fit_cells (t, width);

  print_line (t, (const char *const *) t->headers, width, out);
  for (guint r = 0; r < t->rows->len; r++)
    print_line (t, (const char *const *) cells->pdata + r * t->n_columns, width, out);
}

void
sl_cli_table_free (SlCliTable *t)
{
  if (t == NULL)
    return;
  for (guint r = 0; r < t->rows->len; r++)
    g_strfreev (t->rows->pdata[r]);
  g_ptr_array_unref (t->rows);
  g_strfreev (t->headers);
  g_free (t->right);
  g_free (t->max);
  g_free (t);
}

char *
sl_cli_cell_named_durations (gconstpointer first, guint n, gsize stride, gsize name_offset,
                             gsize ns_offset, gboolean parenthesized)
{
  GString *cell = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      gconstpointer item = (const char *) first + i * stride;
      const char *name = G_STRUCT_MEMBER (const char *, item, name_offset);
      g_autofree char *d = sl_format_duration_precise (G_STRUCT_MEMBER (gint64, item, ns_offset));

      g_string_append_printf (cell, parenthesized ? "%s%s (%s)" : "%s%s %s", i ? ", " : "", name, d);
    }
  return g_string_free (cell, FALSE);
}
