/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-options.c: the options shared by the analysis subcommands and the
 * parsers of option values. */
#include <glib/gi18n.h>

#include "sl-cli-options.h"

GOptionEntry
sl_cli_no_cache_entry (gboolean *flag)
{
  GOptionEntry entry = { "no-cache", 0, 0, G_OPTION_ARG_NONE, flag,
                         N_("Neither read nor write the cache of loaded profiles (also SIGHTLINE_NO_CACHE=1)"), NULL };
  return entry;
}

void
sl_cli_common_add (GOptionContext *context, SlCliCommon *common)
{
  GOptionEntry entries[] = {
    { "gpu", 0, 0, G_OPTION_ARG_STRING_ARRAY, &common->gpus,
      N_("Only this GPU (device id); repeatable"), "N" },
    { "pid", 0, 0, G_OPTION_ARG_STRING_ARRAY, &common->pids,
      N_("Only this process; repeatable"), "N" },
    { "range", 0, 0, G_OPTION_ARG_STRING, &common->range,
      N_("Only events starting in [START, END) (ns as 12345 or 1.5e9, with ns/us/µs/ms/s, or +1.2s from the start)"),
      "START END" },
    { "bookmark", 0, 0, G_OPTION_ARG_STRING, &common->bookmark,
      N_("Only events starting in the bookmark NAME's range, as --range would (sightline-cli bookmarks PROFILE lists them)"),
      "NAME" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &common->json,
      N_("Print JSON instead of a table"), NULL },
    sl_cli_no_cache_entry (&common->no_cache),
    { NULL }
  };
  GOptionGroup *group = g_option_group_new ("filter", _("Filter options:"),
                                            _("Show filter options"), NULL, NULL);

  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);
}

/* Whether @word is END of "--range START END": a time, or a would-be
 * number that is no file (so that "--range 2.9 3.3" gets a message about
 * the time, not about arguments). */
static gboolean
is_range_end (const char *word)
{
  SlTimePoint ignored;

  return sl_time_point_parse (word, &ignored, NULL)
         || ((g_ascii_isdigit (*word) || *word == '+' || *word == '.')
             && !g_file_test (word, G_FILE_TEST_EXISTS));
}

/* GOption takes one value per option: fold "--range START END" into one
 * word.  (transfer full) */
static char **
fold_range (int argc, char **argv)
{
  GPtrArray *args = g_ptr_array_new ();

  for (int i = 0; i < argc; i++)
    {
      /* Only when END is a time: "--range 1s PROFILE" must not eat PROFILE. */
      if (g_str_equal (argv[i], "--range") && i + 2 < argc && is_range_end (argv[i + 2]))
        {
          g_ptr_array_add (args, g_strdup_printf ("--range=%s %s", argv[i + 1], argv[i + 2]));
          i += 2;
        }
      else
        g_ptr_array_add (args, g_strdup (argv[i]));
    }
  g_ptr_array_add (args, NULL);
  return (char **) g_ptr_array_free (args, FALSE);
}

/* Adds each of @texts (--gpu or --pid values) to @filter with @add. */
static gboolean
add_ids (const char *command, const char *option, char **texts, SlFilter *filter,
         void (*add) (SlFilter *, guint32))
{
  for (guint i = 0; texts != NULL && texts[i] != NULL; i++)
    {
      guint64 v;

      if (!g_ascii_string_to_unsigned (texts[i], 10, 0, G_MAXUINT32 - 1, &v, NULL))
        {
          sl_cli_error (command, _("%s expects a non-negative integer, not “%s”"), option, texts[i]);
          return FALSE;
        }
      add (filter, (guint32) v);
    }
  return TRUE;
}

static gboolean
parse_range (const char *command, char *text, SlCliCommon *common)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) parts = g_strsplit_set (g_strstrip (text), " \t,", -1);
  g_autoptr(GPtrArray) words = g_ptr_array_new ();
  SlTimePoint *points = common->range_points;

  for (guint i = 0; parts[i] != NULL; i++)
    if (*parts[i] != '\0')
      g_ptr_array_add (words, parts[i]);
  if (words->len != 2)
    {
      sl_cli_error (command, _("--range expects two times, START and END (e.g. --range 39.98s 40.5s)"));
      return FALSE;
    }
  if (!sl_time_point_parse (words->pdata[0], &points[0], &error)
      || !sl_time_point_parse (words->pdata[1], &points[1], &error))
    {
      sl_cli_error (command, "--range: %s", error->message);
      return FALSE;
    }
  common->range_from_start = points[0].from_start || points[1].from_start;
  /* with "+" the order is known once the profile's start is: sl_cli_resolve_range() */
  if (!common->range_from_start && points[1].ns <= points[0].ns)
    {
      sl_cli_error (command, _("--range: END (%s) must be after START (%s)"),
                    (char *) words->pdata[1], (char *) words->pdata[0]);
      return FALSE;
    }
  if (!common->range_from_start)
    sl_filter_set_range (common->filter, points[0].ns, points[1].ns);
  return TRUE;
}

gboolean
sl_cli_common_parse (const char *command, GOptionContext *context, SlCliCommon *common,
                     int *argc, char ***argv)
{
  g_autoptr(GError) error = NULL;
  char **strv = fold_range (*argc, *argv);

  common->args = strv;
  if (!g_option_context_parse_strv (context, &strv, &error))
    {
      sl_cli_error (command, "%s", error->message);
      return FALSE;
    }
  /* Hand back the remaining arguments; freed by sl_cli_common_clear(). */
  *argc = (int) g_strv_length (strv);
  *argv = strv;
  common->args = strv;

  if (common->no_cache)
    sl_profile_cache_set_enabled (FALSE);
  if (common->range != NULL && common->bookmark != NULL)
    {
      sl_cli_error (command, _("--range and --bookmark cannot be used together: a bookmark is a range"));
      return FALSE;
    }
  common->filter = sl_filter_new ();
  return add_ids (command, "--gpu", common->gpus, common->filter, sl_filter_add_gpu)
         && add_ids (command, "--pid", common->pids, common->filter, sl_filter_add_pid)
         && (common->range == NULL || parse_range (command, common->range, common));
}

void
sl_cli_common_clear (SlCliCommon *common)
{
  g_clear_pointer (&common->gpus, g_strfreev);
  g_clear_pointer (&common->pids, g_strfreev);
  g_clear_pointer (&common->range, g_free);
  g_clear_pointer (&common->bookmark, g_free);
  g_clear_pointer (&common->filter, sl_filter_free);
  g_clear_pointer (&common->args, g_strfreev);
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

gboolean
sl_cli_parse_names (const char *command, const char *text, SlNameStyle *out)
{
  if (text == NULL || g_str_equal (text, "short"))
    *out = SL_NAMES_SHORT;
  else if (g_str_equal (text, "demangled"))
    *out = SL_NAMES_DEMANGLED;
  else
    {
      sl_cli_error (command, _("--names expects short or demangled, not “%s”"), text);
      return FALSE;
    }
  return TRUE;
}

gboolean
sl_cli_parse_rules (const char *command, const char *rules, const char *model, SlCategories **out)
{
  g_autoptr(GError) error = NULL;

  *out = NULL;
  if (rules == NULL && model == NULL)
    return TRUE;
  if (rules == NULL)
    {
      sl_cli_error (command, _("--model needs --rules FILE (a gputrc2graph engine/model file)"));
      return FALSE;
    }
  *out = sl_categories_new_from_file (rules, model, &error);
  if (*out == NULL)
    sl_cli_error (command, "%s", error->message);
  return *out != NULL;
}

gboolean
sl_cli_parse_rule_files (const char *command, char **rules, const char *model, SlCategories **out)
{
  g_autoptr(GError) error = NULL;

  if (rules == NULL || rules[0] == NULL || rules[1] == NULL)
    return sl_cli_parse_rules (command, rules != NULL ? rules[0] : NULL, model, out);
  *out = sl_categories_new_from_files ((const char *const *) rules, model, &error);
  if (*out == NULL)
    sl_cli_error (command, "%s", error->message);
  return *out != NULL;
}
