/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ranks-summaries.c: a ranks window's inputs (profiles, summary files,
 * folders of summaries) and the summary files read in a worker.  A
 * summary rank shows in the heat map at once; its profile (the summary's
 * "path") is loaded only when the user asks (sl-ranks-demand.c), so a
 * folder of 1,024 summaries opens without touching a profile. */
#include "sl-ranks-window-private.h"

#include <stdio.h>
#include <glib/gi18n.h>

static void
input_free (SlRankInput *in)
{
  g_free (in->path);
  g_free (in);
}

/* As sightline-cli ranks tells them apart: a summary is JSON, its first
 * non-blank byte '{' (an SQLite file starts "SQLite format 3"). */
static gboolean
is_summary (const char *path)
{
  FILE *f = fopen (path, "rb");
  int c = EOF;

  if (f == NULL)
    return FALSE;
  while ((c = fgetc (f)) != EOF && g_ascii_isspace (c))
    ;
  fclose (f);
  return c == '{';
}

static void
add_input (GPtrArray *out, const char *path, gboolean summary)
{
  SlRankInput *in = g_new0 (SlRankInput, 1);

  in->path = g_strdup (path);
  in->summary = summary;
  g_ptr_array_add (out, in);
}

static int
by_path (gconstpointer a, gconstpointer b)
{
  /* g_ptr_array_sort hands pointers to the elements */
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The *.json of @dir, by name (rows are sorted by rank later anyway). */
static void
add_folder (GPtrArray *out, const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (names, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (names, by_path);
  for (guint i = 0; i < names->len; i++)
    add_input (out, names->pdata[i], TRUE);
}

GPtrArray *
_sl_ranks_inputs_expand (const char *const *paths)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) input_free);

  for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
    {
      if (g_file_test (paths[i], G_FILE_TEST_IS_DIR))
        add_folder (out, paths[i]);
      else
        add_input (out, paths[i], is_summary (paths[i]));
    }
  return out;
}

/* ---- reading the summaries -------------------------------------------------- */

typedef struct {
  GPtrArray *ranks;       /* SlRank* (owned by the window) */
  GPtrArray *files;       /* char*: their summary files, copied for the worker */
  GPtrArray *summaries;   /* results: SlRankSummary* or NULL */
  GPtrArray *profiles;    /* results: the profile's path, resolved */
  GPtrArray *errors;      /* results: char* or NULL */
} Batch;

static void
batch_free (Batch *b)
{
  g_ptr_array_unref (b->ranks);
  g_ptr_array_unref (b->files);
  g_ptr_array_unref (b->summaries);
  g_ptr_array_unref (b->profiles);
  g_ptr_array_unref (b->errors);
  g_free (b);
}

/* A relative "path" is relative to the summary's folder: summaries and
 * profiles move together from the cluster. */
static char *
resolve (const char *summary_file, const char *recorded)
{
  g_autofree char *dir = NULL;

  if (recorded == NULL || *recorded == '\0')
    return NULL;
  if (g_path_is_absolute (recorded))
    return g_strdup (recorded);
  dir = g_path_get_dirname (summary_file);
  return g_canonicalize_filename (recorded, dir);
}

static SlRankSummary *
read_one (const char *file, GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local = NULL;
  SlRankSummary *sum;

  if (!json_parser_load_from_file (parser, file, error))
    return NULL;
  sum = sl_rank_summary_from_json (json_parser_get_root (parser), &local);
  if (sum == NULL)
    g_propagate_error (error, g_steal_pointer (&local));
  return sum;
}

static void
read_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Batch *b = data;

  for (guint i = 0; i < b->files->len && !g_cancellable_is_cancelled (cancellable); i++)
    {
      g_autoptr(GError) error = NULL;
      SlRankSummary *sum = read_one (b->files->pdata[i], &error);

      g_ptr_array_add (b->summaries, sum);
      g_ptr_array_add (b->profiles, sum ? resolve (b->files->pdata[i], sum->path) : NULL);
      g_ptr_array_add (b->errors, error ? g_strdup (error->message) : NULL);
    }
  g_task_return_boolean (task, TRUE);
}

static void
read_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  SlRanksWindow *self = SL_RANKS_WINDOW (source);
  Batch *b = g_task_get_task_data (G_TASK (result));

  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;   /* the window is closing */
  for (guint i = 0; i < b->ranks->len; i++)
    {
      SlRank *rank = b->ranks->pdata[i];
      rank->summary = g_steal_pointer (&b->summaries->pdata[i]);
      rank->path = g_steal_pointer (&b->profiles->pdata[i]);
      rank->error = g_steal_pointer (&b->errors->pdata[i]);
      rank->aligned = rank->summary != NULL && rank->summary->session_utc_ns != 0;
      if (rank->summary == NULL)
        rank->state = SL_RANK_FAILED;
      else if (rank->path != NULL)
        {
          g_free (rank->name);
          rank->name = g_path_get_basename (rank->path);
        }
    }
  self->reading = 0;
  _sl_ranks_window_refresh (self);
}

void
_sl_ranks_read_summaries (SlRanksWindow *self)
{
  Batch *b = g_new0 (Batch, 1);
  g_autoptr(GTask) task = NULL;

  b->ranks = g_ptr_array_new ();
  b->files = g_ptr_array_new_with_free_func (g_free);
  b->summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_rank_summary_free);
  b->profiles = g_ptr_array_new_with_free_func (g_free);
  b->errors = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < self->ranks->len; i++)
    {
      SlRank *rank = self->ranks->pdata[i];
      if (rank->summary_file == NULL || rank->summary != NULL)
        continue;
      g_ptr_array_add (b->ranks, rank);
      g_ptr_array_add (b->files, g_strdup (rank->summary_file));
    }
  self->reading = b->ranks->len;
  if (b->ranks->len == 0)
    {
      batch_free (b);
      return;
    }
  task = g_task_new (self, self->cancellable, read_done_cb, NULL);
  g_task_set_task_data (task, b, (GDestroyNotify) batch_free);
  g_task_run_in_thread (task, read_thread);
}
