/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-ranks.c: `sightline-cli ranks FILE…`: the ranks of one job side by
 * side, from their profiles or summaries (mixed). */
#include <string.h>
#include <glib/gi18n.h>

#include "sl-cli.h"
#include "sl-cli-rank-input.h"
#include "sl-cli-table.h"

/* Some files could not be read; the others are shown. */
enum { SL_CLI_PARTIAL = 4 };

typedef struct {
  const char    *path;
  guint          threads;   /* the loader's */
  SlRankSummary *sum;
  char          *error;
} Job;

static void
load_one (gpointer data, gpointer user_data)
{
  Job *job = data;
  g_autoptr(GError) error = NULL;

  job->sum = sl_cli_rank_input_load (job->path, 20, job->threads, &error);
  if (job->sum == NULL)
    job->error = g_strdup (error->message);
}

/* Loads every file, as many at once as there are cores, each by one
 * loader thread when several run at once (as compare's profiles: two
 * loads of two threads each contend for the process's page faults). */
static void
load_all (Job *jobs, guint n)
{
  guint threads = MIN (n, MAX (g_get_num_processors (), 1));
  GThreadPool *pool = g_thread_pool_new (load_one, NULL, (int) threads, TRUE, NULL);

  for (guint i = 0; i < n; i++)
    {
      jobs[i].threads = threads > 1 ? 1 : 0;
      g_thread_pool_push (pool, &jobs[i], NULL);
    }
  g_thread_pool_free (pool, FALSE, TRUE);
}

/* --offset FILE=NS (NS may carry a unit: 1.5ms): the manual offsets. */
static gboolean
parse_offsets (char **specs, char **files, guint n, gint64 *offsets)
{
  for (guint s = 0; specs != NULL && specs[s] != NULL; s++)
    {
      const char *eq = strrchr (specs[s], '=');
      g_autofree char *file = eq != NULL ? g_strndup (specs[s], eq - specs[s]) : NULL;
      gboolean neg = eq != NULL && eq[1] == '-';
      gint64 v = 0;
      guint i;

      for (i = 0; file != NULL && i < n && !g_str_equal (files[i], file); i++)
        ;
      /* bounded as a summary's times are, so that the shifted times cannot overflow */
      if (file == NULL || i == n || !sl_parse_duration (eq + 1 + neg, &v, NULL) || v > SL_RANK_SUMMARY_MAX_SPAN_NS)
        {
          sl_cli_error ("ranks", _("--offset expects FILE=NS with FILE one of the files given, not “%s”"), specs[s]);
          return FALSE;
        }
      offsets[i] = neg ? -v : v;
    }
  return TRUE;
}

static char *
rank_text (const SlRanksRow *row)
{
  return row->rank >= 0 ? g_strdup_printf ("%d", row->rank) : g_strdup ("?");
}

static void
print_ranks (const SlRanks *ranks)
{
  g_autoptr(SlCliTable) t = sl_cli_table_new (_(">Rank"), _(">Offset"), _(">Step (med)"), _(">NCCL wait"),
                                              _("File"), NULL);

  for (guint r = 0; r < ranks->n_rows; r++)
    {
      const SlRanksRow *row = &ranks->rows[r];
      sl_cli_table_add (t, rank_text (row), sl_format_duration_precise (row->offset_ns),
                        row->n_steps > 0 ? sl_format_duration_precise (row->step_median_ns) : g_strdup ("–"),
                        sl_format_duration_precise (row->nccl_wait_ns), g_strdup (row->path));
    }
  sl_cli_table_print (t, stdout);
}

/* One cell of the iteration table, right-aligned in 12 characters (takes @text). */
static void
print_cell (char *text)
{
  g_autofree char *owned = text;

  printf ("  %*s", sl_cli_field (owned, 12), owned);
}

/* One line per iteration: each rank's step duration, then the straggler. */
static void
print_iterations (const SlRanks *ranks)
{
  /* the iteration column as wide as its header ("Iter." in German) */
  const char *iter = _("Iter");
  int iter_width = (int) MAX (4, sl_text_width (iter, -1));

  printf ("\n%*s", sl_cli_field (iter, (guint) iter_width), iter);
  for (guint r = 0; r < ranks->n_rows; r++)
    {
      g_autofree char *rank = rank_text (&ranks->rows[r]);
      print_cell (g_strdup_printf ("%s %s", _("rank"), rank));
    }
  printf ("  %s\n", _("Straggler (last end vs median end)"));
  for (guint i = 0; i < ranks->n_iterations; i++)
    {
      const SlRanksStraggler *s = &ranks->stragglers[i];
      printf ("%*u", iter_width, i);
      for (guint r = 0; r < ranks->n_rows; r++)
        {
          const SlRanksCell *c = &ranks->rows[r].cells[i];
          print_cell (c->present ? sl_format_duration_precise (c->end_ns - c->start_ns) : g_strdup ("–"));
        }
      if (s->rank == G_MAXUINT)
        printf ("  –\n");
      else
        {
          g_autofree char *rank = rank_text (&ranks->rows[s->rank]);
          g_autofree char *late = sl_format_duration_precise (s->late_ns);
          printf ("  ");
          printf (_("rank %s, +%s"), rank, late);
          printf ("\n");
        }
    }
}

/* Reports the files that failed; the exit status for what was read. */
static int
report (Job *jobs, guint n, GPtrArray *sums)
{
  for (guint i = 0; i < n; i++)
    if (jobs[i].sum != NULL)
      g_ptr_array_add (sums, jobs[i].sum);
    else
      sl_cli_error ("ranks", "%s", jobs[i].error);
  if (sums->len == n)
    return SL_CLI_OK;
  return sums->len == 0 ? SL_CLI_INPUT : SL_CLI_PARTIAL;
}

/* Ranks of one job start their sessions within seconds of each other; files
 * hours apart are most likely not one job, and their "stragglers" would be
 * hours late: say so rather than print such numbers silently. */
static void
warn_far_apart (const SlRanks *ranks)
{
  const gint64 hour = 3600 * G_GINT64_CONSTANT (1000000000);
  gint64 spread = 0;

  for (guint r = 0; r < ranks->n_rows; r++)
    spread = MAX (spread, ranks->rows[r].offset_ns);
  if (spread > hour)
    {
      g_autofree char *text = sl_format_duration (spread);
      sl_cli_error ("ranks", _("warning: these files' sessions started up to %s apart: they are probably "
                               "not the ranks of one job (their times are aligned through the session starts)"),
                    text);
    }
}

static int
run (char **files, guint n, const gint64 *offsets, gboolean json)
{
  g_autofree Job *jobs = g_new0 (Job, n);
  g_autoptr(GPtrArray) sums = g_ptr_array_new ();
  g_autofree gint64 *kept = g_new0 (gint64, n);
  g_autoptr(SlRanks) ranks = NULL;
  int status;

  for (guint i = 0; i < n; i++)
    jobs[i].path = files[i];
  load_all (jobs, n);
  status = report (jobs, n, sums);
  for (guint i = 0, k = 0; i < n; i++)
    if (jobs[i].sum != NULL)
      kept[k++] = offsets[i];
  if (sums->len > 0)
    {
      ranks = sl_ranks_compute ((SlRankSummary *const *) sums->pdata, sums->len, kept);
      warn_far_apart (ranks);
      if (json)
        sl_cli_print_json (sl_ranks_to_json (ranks));
      else
        {
          print_ranks (ranks);
          print_iterations (ranks);
        }
    }
  for (guint i = 0; i < n; i++)
    {
      sl_rank_summary_free (jobs[i].sum);
      g_free (jobs[i].error);
    }
  return status;
}

int
sl_cli_ranks (int argc, char **argv)
{
  g_auto(GStrv) offset_specs = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Output JSON"), NULL },
    { "offset", 0, 0, G_OPTION_ARG_STRING_ARRAY, &offset_specs,
      N_("Shift FILE's clock by NS (units ns, us, ms, s; may be negative), after the session starts align them"),
      "FILE=NS" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new (_("FILE [FILE...]"));
  g_autoptr(GError) error = NULL;
  g_autofree gint64 *offsets = NULL;

  g_option_context_set_summary (ctx, _("The ranks of one job side by side, from their profiles or summaries "
                                       "(mixed; see summarize), clocks aligned through each session start: "
                                       "per-rank step times, the straggler of each iteration (the rank whose "
                                       "step ends last, and by how much against the median end) and each "
                                       "rank's NCCL wait (NCCL time not overlapped with compute).  Exit "
                                       "status 4 when some files could not be read (the others are shown)."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      sl_cli_error ("ranks", "%s", error->message);
      return SL_CLI_USAGE;
    }
  if (argc < 2)
    {
      sl_cli_error ("ranks", "%s", _("usage: sightline-cli ranks [--json] [--offset FILE=NS] FILE [FILE...]"));
      return SL_CLI_USAGE;
    }
  offsets = g_new0 (gint64, argc - 1);
  if (!parse_offsets (offset_specs, argv + 1, (guint) argc - 1, offsets))
    return SL_CLI_USAGE;
  return run (argv + 1, (guint) argc - 1, offsets, json);
}
