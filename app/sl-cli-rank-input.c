/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-rank-input.c: a summary from a profile or from its summary file. */
#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-cli-rank-input.h"

/* A summary file is JSON: its first non-blank byte is '{' (or '[': JSON
 * still, to be reported as not a summary), or it is named *.json (so that
 * an empty or blank summary is reported as one, not as a bad profile).
 * An SQLite file starts "SQLite format 3", an .nsys-rep is binary. */
static int
first_byte (const char *path)
{
  FILE *f = fopen (path, "rb");
  int c = EOF;

  if (f == NULL)
    return -2;
  while ((c = fgetc (f)) != EOF && g_ascii_isspace (c))
    ;
  fclose (f);
  return c;
}

static gboolean
is_json (const char *path)
{
  int c = first_byte (path);

  return c == '{' || c == '[' || (c == EOF && g_str_has_suffix (path, ".json"));
}

/* Every error names @path: ranks reads many files at once. */
static SlRankSummary *
read_summary (const char *path, GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local = NULL;
  SlRankSummary *sum = NULL;

  if (!json_parser_load_from_file (parser, path, &local))
    {
      /* json-glib 1.6 refuses an empty file; its message is about the parser */
      if (first_byte (path) == EOF)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s", path, _("the file is empty"));
      else
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("%s: not valid JSON: %s"), path, local->message);
      return NULL;
    }
  sum = sl_rank_summary_from_json (json_parser_get_root (parser), &local);
  if (sum == NULL)
    g_set_error (error, local->domain, local->code, "%s: %s", path, local->message);
  return sum;
}

static SlRankSummary *
summarize_profile (const char *path, guint top, guint threads, GError **error)
{
  SlLoadOptions options = { .parts = SL_CLI_RANK_PARTS, .threads = threads };
  g_autoptr(SlProfile) profile = sl_profile_load_with (path, &options, NULL, NULL, NULL, error);
  SlSessionInfo info = { 0 };
  SlRankSummary *sum;

  if (profile == NULL)
    return NULL;
  /* nsys before 2026.1 does not record the capture clock at the session
   * start: its first event stands in (ranks then line up within the time
   * each took to start its first work). */
  if (!sl_session_info_read (path, &info, NULL))
    info.rank = -1;
  sum = sl_rank_summary_compute (profile, info.rank, info.rank_source,
                                 info.utc_ns != 0 ? info.utc_ns : profile->session_utc_ns,
                                 info.has_clock ? info.clock_ns : profile->start_ns, top);
  sl_session_info_clear (&info);
  return sum;
}

/* A profile's summary passes the checks a summary file does: a hostile
 * profile can hold absurd times too, and ranks trusts what it is given. */
static SlRankSummary *
checked (const char *path, SlRankSummary *sum, GError **error)
{
  g_autoptr(SlRankSummary) owned = sum;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) local = NULL;
  SlRankSummary *copy;

  if (sum == NULL)
    return NULL;
  node = sl_rank_summary_to_json (sum);
  copy = sl_rank_summary_from_json (node, &local);
  if (copy == NULL)
    g_set_error (error, local->domain, local->code, "%s: %s", path, local->message);
  return copy;
}

SlRankSummary *
sl_cli_rank_input_load (const char *path, guint top, guint threads, GError **error)
{
  return is_json (path) ? read_summary (path, error)
                        : checked (path, summarize_profile (path, top, threads, error), error);
}
