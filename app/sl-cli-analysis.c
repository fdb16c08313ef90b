/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-analysis.c: common filter options and aligned tables of the
 * analysis subcommands. */
#include <stdarg.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-cli-analysis.h"

void
sl_cli_common_add (GOptionContext *context, SlCliCommon *common)
{
  GOptionEntry entries[] = {
    { "gpu", 0, 0, G_OPTION_ARG_STRING_ARRAY, &common->gpus,
      N_("Only this GPU (device id); repeatable"), "N" },
    { "pid", 0, 0, G_OPTION_ARG_STRING_ARRAY, &common->pids,
      N_("Only this process; repeatable"), "N" },
    { "range", 0, 0, G_OPTION_ARG_STRING, &common->range,
      N_("Only events starting in [START, END) (ns, or with ns/us/ms/s)"), "START END" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &common->json,
      N_("Print JSON instead of a table"), NULL },
    { NULL }
  };
  GOptionGroup *group = g_option_group_new ("filter", _("Filter options:"),
                                            _("Show filter options"), NULL, NULL);

  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);
}

static gboolean
parse_id (const char *command, const char *option, const char *text, guint32 *out)
{
  guint64 v;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32 - 1, &v, NULL))
    {
      sl_cli_error (command, _("%s expects a non-negative integer, not “%s”"), option, text);
      return FALSE;
    }
  *out = (guint32) v;
  return TRUE;
}

gboolean
sl_cli_common_parse (const char *command, GOptionContext *context, SlCliCommon *common,
                     int *argc, char ***argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  char **strv;
  int n;

  /* GOption takes one value per option: fold "--range START END" into one. */
  for (int i = 0; i < *argc; i++)
    {
      gint64 ignored;

      /* Only when END is a time: "--range 1s PROFILE" must not eat PROFILE. */
      if (g_str_equal ((*argv)[i], "--range") && i + 2 < *argc
          && sl_parse_time ((*argv)[i + 2], &ignored, NULL))
        {
          g_ptr_array_add (args, g_strdup_printf ("--range=%s %s", (*argv)[i + 1], (*argv)[i + 2]));
          i += 2;
        }
      else
        g_ptr_array_add (args, g_strdup ((*argv)[i]));
    }
  g_ptr_array_add (args, NULL);
  strv = (char **) g_ptr_array_free (g_steal_pointer (&args), FALSE);
  n = (int) g_strv_length (strv);

  common->args = strv;
  if (!g_option_context_parse_strv (context, &strv, &error))
    {
      sl_cli_error (command, "%s", error->message);
      return FALSE;
    }
  (void) n;
  /* Hand back the remaining arguments; freed by sl_cli_common_clear(). */
  *argc = (int) g_strv_length (strv);
  *argv = strv;
  common->args = strv;

  common->filter = sl_filter_new ();
  for (guint i = 0; common->gpus != NULL && common->gpus[i] != NULL; i++)
    {
      guint32 id;
      if (!parse_id (command, "--gpu", common->gpus[i], &id))
        return FALSE;
      sl_filter_add_gpu (common->filter, id);
    }
  for (guint i = 0; common->pids != NULL && common->pids[i] != NULL; i++)
    {
      guint32 id;
      if (!parse_id (command, "--pid", common->pids[i], &id))
        return FALSE;
      sl_filter_add_pid (common->filter, id);
    }
  if (common->range != NULL)
    {
      g_auto(GStrv) parts = g_strsplit_set (g_strstrip (common->range), " \t,", -1);
      g_autoptr(GPtrArray) words = g_ptr_array_new ();
      gint64 start, end;

      for (guint i = 0; parts[i] != NULL; i++)
        if (*parts[i] != '\0')
          g_ptr_array_add (words, parts[i]);
      if (words->len != 2)
        {
          sl_cli_error (command, _("--range expects two times, START and END (e.g. --range 39.98s 40.5s)"));
          return FALSE;
        }
      if (!sl_parse_time (words->pdata[0], &start, &error) || !sl_parse_time (words->pdata[1], &end, &error))
        {
          sl_cli_error (command, "--range: %s", error->message);
          return FALSE;
        }
      if (end <= start)
        {
          sl_cli_error (command, _("--range: END (%s) must be after START (%s)"),
                        (char *) words->pdata[1], (char *) words->pdata[0]);
          return FALSE;
        }
      sl_filter_set_range (common->filter, start, end);
    }
  return TRUE;
}

int
sl_cli_prepare (const char *command, const char *usage, GOptionContext *context,
                SlCliCommon *common, guint n_before, int *argc, char ***argv, SlProfile **profile)
{
  *profile = NULL;
  if (!sl_cli_common_parse (command, context, common, argc, argv))
    return SL_CLI_USAGE;
  if (*argc != (int) n_before + 2)
    {
      sl_cli_error (command, _("wrong number of arguments; usage: sightline-cli %s [OPTIONS] %s"),
                    command, usage);
      return SL_CLI_USAGE;
    }
  *profile = sl_cli_open_profile ((*argv)[n_before + 1]);
  return *profile != NULL ? -1 : SL_CLI_INPUT;
}

void
sl_cli_common_clear (SlCliCommon *common)
{
  g_clear_pointer (&common->gpus, g_strfreev);
  g_clear_pointer (&common->pids, g_strfreev);
  g_clear_pointer (&common->range, g_free);
  g_clear_pointer (&common->filter, sl_filter_free);
  g_clear_pointer (&common->args, g_strfreev);
}

char *
sl_cli_common_describe (const SlCliCommon *common)
{
  GString *s = g_string_new (NULL);
  const SlFilter *f = common->filter;

  if (f == NULL || sl_filter_is_empty (f))
    return g_string_free (s, FALSE);
  if (f->gpus->len > 0)
    {
      g_string_append (s, f->gpus->len > 1 ? _("GPUs") : _("GPU"));
      for (guint i = 0; i < f->gpus->len; i++)
        g_string_append_printf (s, "%s%u", i ? ", " : " ", g_array_index (f->gpus, guint32, i));
    }
  if (f->pids->len > 0)
    {
      if (s->len)
        g_string_append (s, " · ");
      g_string_append (s, f->pids->len > 1 ? _("pids") : _("pid"));
      for (guint i = 0; i < f->pids->len; i++)
        g_string_append_printf (s, "%s%u", i ? ", " : " ", g_array_index (f->pids, guint32, i));
    }
  if (f->has_range)
    {
      if (s->len)
        g_string_append (s, " · ");
      g_string_append_printf (s, "[%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") ns",
                              f->range_start, f->range_end);
    }
  return g_string_free (s, FALSE);
}

void
sl_cli_print_empty (const SlCliCommon *common, const char *what)
{
  g_autofree char *described = sl_cli_common_describe (common);

  if (*described == '\0')
    printf (_("No %s in this profile.\n"), what);
  else
    printf (_("No %s match the filter (%s).\n"), what, described);
}

gboolean
sl_cli_parse_count (const char *command, const char *option, const char *text, guint *out)
{
  guint64 v;

  if (text == NULL)
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, &v, NULL))
    {
      sl_cli_error (command, _("%s expects a non-negative integer, not “%s”"), option, text);
      return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

gboolean
sl_cli_parse_dur (const char *command, const char *option, const char *text, gint64 *out)
{
  g_autoptr(GError) error = NULL;

  if (text == NULL)
    return TRUE;
  if (!sl_parse_time (text, out, &error) || *out < 0)
    {
      sl_cli_error (command, "%s: %s", option,
                    error != NULL ? error->message : _("a duration cannot be negative"));
      return FALSE;
    }
  return TRUE;
}

/* ---- tables ------------------------------------------------------------ */

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
sl_cli_table_add (SlCliTable *t, ...)
{
  char **row = g_new0 (char *, t->n_columns + 1);
  va_list args;

  va_start (args, t);
  for (guint c = 0; c < t->n_columns; c++)
    {
      char *cell = va_arg (args, char *);
      row[c] = cell != NULL ? cell : g_strdup ("");
    }
  va_end (args);
  g_ptr_array_add (t->rows, row);
}

/* Cuts @cell to @max characters; profile strings may be invalid UTF-8. */
static char *
fit (const char *cell, guint max)
{
  g_autofree char *valid = g_utf8_make_valid (cell, -1);

  if (max > 1 && g_utf8_strlen (valid, -1) > max)
    {
      const char *end = g_utf8_offset_to_pointer (valid, max - 1);
      return g_strdup_printf ("%.*s…", (int) (end - valid), valid);
    }
  return g_steal_pointer (&valid);
}

void
sl_cli_table_print (SlCliTable *t, FILE *out)
{
  g_autofree guint *width = g_new0 (guint, t->n_columns);
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);

  for (guint c = 0; c < t->n_columns; c++)
    width[c] = g_utf8_strlen (t->headers[c], -1);
  for (guint r = 0; r < t->rows->len; r++)
    {
      char **row = t->rows->pdata[r];
      for (guint c = 0; c < t->n_columns; c++)
        {
          char *cell = fit (row[c], t->max[c]);
          width[c] = MAX (width[c], (guint) g_utf8_strlen (cell, -1));
          g_ptr_array_add (cells, cell);
        }
    }

  for (guint r = 0; r <= t->rows->len; r++)
    {
      GString *line = g_string_new (NULL);
      for (guint c = 0; c < t->n_columns; c++)
        {
          const char *cell = r == 0 ? t->headers[c] : cells->pdata[(r - 1) * t->n_columns + c];
          guint len = g_utf8_strlen (cell, -1), pad = width[c] - len;
          gboolean last = c + 1 == t->n_columns;

          if (c > 0)
            g_string_append (line, "  ");
          if (t->right[c])
            {
              for (guint i = 0; i < pad; i++)
                g_string_append_c (line, ' ');
              g_string_append (line, cell);
            }
          else
            {
              g_string_append (line, cell);
              for (guint i = 0; i < pad && !last; i++)
                g_string_append_c (line, ' ');
            }
        }
      fprintf (out, "%s\n", line->str);
      g_string_free (line, TRUE);
    }
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
sl_cli_fmt_dur (gint64 ns)
{
  return sl_cli_format_duration (ns);
}

char *
sl_cli_fmt_int (gint64 value)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, value);
}

char *
sl_cli_fmt_pct (double pct)
{
  return g_strdup_printf ("%.1f%%", pct);
}

char *
sl_cli_fmt_bytes (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}
