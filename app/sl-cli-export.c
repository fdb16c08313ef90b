/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-export.c: `sightline-cli export PROFILE --format html|csv|perfetto
 * -o OUT`: the exports of the app's Export dialog, same code (sl-export.h). */
#include <glib/gi18n.h>
#include <stdio.h>
#include <unistd.h>

#include "sl-bookmark-store.h"
#include "sl-capture-env.h"
#include "sl-cli-cpu.h"
#include "sl-cli-run.h"
#include "sl-export.h"
#include "sl-launch-table.h"

typedef struct {
  char          *format_text;
  char          *output;
  char          *names;
  gboolean       include_environment;
  SlExportFormat format;
  SlNameStyle    style;
} Options;

static gboolean
check (const char *command, gpointer data)
{
  Options *o = data;

  if (o->output == NULL || *o->output == '\0')
    {
      sl_cli_error (command, "%s", _("missing -o OUT: where to write the export"));
      return FALSE;
    }
  if (o->format_text != NULL && !sl_export_format_parse (o->format_text, &o->format))
    {
      sl_cli_error (command, _("unknown format “%s”: html, csv or perfetto"), o->format_text);
      return FALSE;
    }
  if (o->format_text == NULL && !sl_export_format_from_path (o->output, &o->format))
    {
      sl_cli_error (command, _("cannot tell the format from “%s”: give --format html, csv or perfetto"),
                    o->output);
      return FALSE;
    }
  return sl_cli_parse_names (command, o->names, &o->style);
}

/* A line redrawn in place, only on a terminal: a log should not fill up. */
static void
progress_cb (double fraction, gpointer user_data)
{
  int *last = user_data;
  int pct = (int) (fraction * 100.0);

  if (pct == *last)
    return;
  *last = pct;
  fprintf (stderr, "\r%s %3d%%", _("Exporting…"), pct);
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = NULL;
  SlCpuActivity *cpu = NULL;
  g_autoptr(SlBookmarkStore) store = NULL;
  g_autofree char *scope_label = NULL;
  int last = -1;
  gboolean tty = isatty (STDERR_FILENO);
  SlExportOptions options = {
    .format = o->format, .filter = run->common.filter, .names = o->style,
    .include_environment = o->include_environment,
    .launch = sl_launch_table_reader (),
  };

  if (o->include_environment && (env = sl_capture_env_read (run->profile->path, &error)) == NULL)
    {
      sl_cli_error (run->command, "%s", error->message);
      return SL_CLI_INPUT;
    }
  options.environment = env;
  /* The report names the CPU side of idle gaps; a profile without CPU
   * samples has no such side, and that is no error. */
  if (o->format == SL_EXPORT_HTML)
    cpu = sl_cpu_activity_load (run->profile, NULL, NULL);
  options.cpu = cpu;
  /* the exports carry the profile's bookmarks in scope; none is no error */
  store = sl_bookmark_store_new_for_profile (run->profile, NULL);
  if (store != NULL)
    options.bookmarks = sl_bookmark_store_get_bookmarks (store);
  if (run->common.bookmark != NULL)
    options.scope_label = scope_label = g_strdup_printf (_("bookmark “%s”"), run->common.bookmark);
  gboolean ok = sl_export_to_path (run->profile, &options, o->output, tty ? progress_cb : NULL,
                                   &last, NULL, &error);
  if (tty && last >= 0)
    fputc ('\n', stderr);
  g_clear_pointer (&cpu, sl_cpu_activity_unref);
  if (!ok)
    {
      sl_cli_error (run->command, "%s", error->message);
      return SL_CLI_INPUT;
    }
  return SL_CLI_OK;
}

int
sl_cli_export (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "export", .parameter = N_("PROFILE"),
    .summary = N_("Writes a file to share: an HTML report, CSV tables (kernels.csv; a folder gets "
                  "the summary tables too) or a Perfetto trace (.json, .json.gz).  The capture's "
                  "environment (host, command lines, variables) is left out unless "
                  "--include-environment."),
    .wrong_args = N_("expected one PROFILE (see --help)"),
    .check = check, .show = show, .parts = SL_PARTS_ALL,
  };
  Options o = { .style = SL_NAMES_SHORT };
  GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &o.format_text,
      N_("html, csv or perfetto (default: from OUT's extension)"), "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, N_("Where to write"), "OUT" },
    { "names", 0, 0, G_OPTION_ARG_STRING, &o.names, N_("Kernel names: short (default) or demangled"),
      "short|demangled" },
    { "include-environment", 0, 0, G_OPTION_ARG_NONE, &o.include_environment,
      N_("Include the capture's environment (host name, command lines, environment variables)"), NULL },
    { NULL }
  };

  return sl_cli_run (&spec, entries, &o, argc, argv);
}
