/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-session-info.c: session start and rank of one export. */
#include <sqlite3.h>
#include <string.h>
#include <stdlib.h>

#include "sl-session-info.h"

/* In the order launchers set them: torchrun, Open MPI, Slurm, MPICH. */
static const char *const rank_vars[] = { "RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID", "PMI_RANK" };

static gboolean
has_column (sqlite3 *db, const char *table, const char *column)
{
  return sqlite3_table_column_metadata (db, NULL, table, column, NULL, NULL, NULL, NULL, NULL) == SQLITE_OK;
}

static void
read_start (sqlite3 *db, SlSessionInfo *info)
{
  gboolean clock = has_column (db, "TARGET_INFO_SESSION_START_TIME", "systemClockNs");
  sqlite3_stmt *st = NULL;

  if (!has_column (db, "TARGET_INFO_SESSION_START_TIME", "utcEpochNs"))
    return;
  if (sqlite3_prepare_v2 (db, clock ? "SELECT utcEpochNs, systemClockNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1"
                                    : "SELECT utcEpochNs, NULL FROM TARGET_INFO_SESSION_START_TIME LIMIT 1",
                          -1, &st, NULL) == SQLITE_OK && sqlite3_step (st) == SQLITE_ROW)
    {
      info->utc_ns = sqlite3_column_int64 (st, 0);
      info->has_clock = sqlite3_column_type (st, 1) == SQLITE_INTEGER;
      info->clock_ns = sqlite3_column_int64 (st, 1);
    }
  sqlite3_finalize (st);
}

/* "NAME=VALUE" with NAME rank_vars[i] and VALUE a non-negative integer:
 * its priority (i), else -1. */
static int
rank_of (const char *text, int *rank)
{
  for (guint i = 0; i < G_N_ELEMENTS (rank_vars); i++)
    {
      gsize n = strlen (rank_vars[i]);
      char *end = NULL;
      gint64 v;

      if (strncmp (text, rank_vars[i], n) != 0 || text[n] != '=' || !g_ascii_isdigit (text[n + 1]))
        continue;
      v = g_ascii_strtoll (text + n + 1, &end, 10);
      if (*end != '\0' || v > G_MAXINT)
        continue;
      *rank = (int) v;
      return (int) i;
    }
  return -1;
}

static void
read_rank (sqlite3 *db, SlSessionInfo *info)
{
  sqlite3_stmt *st = NULL;
  int best = G_N_ELEMENTS (rank_vars);

  if (!has_column (db, "META_DATA_CAPTURE", "value"))
    return;
  if (sqlite3_prepare_v2 (db, "SELECT value FROM META_DATA_CAPTURE WHERE name LIKE '%ENVIRONMENT_VARIABLE'",
                          -1, &st, NULL) != SQLITE_OK)
    return;
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      const char *text = (const char *) sqlite3_column_text (st, 0);
      int rank = -1, priority = text != NULL ? rank_of (text, &rank) : -1;

      if (priority >= 0 && priority < best)
        {
          best = priority;
          info->rank = rank;
          g_free (info->rank_source);
          info->rank_source = g_strconcat ("env:", rank_vars[priority], NULL);
        }
    }
  sqlite3_finalize (st);
}

gboolean
sl_session_info_read (const char *path, SlSessionInfo *info, GError **error)
{
  sqlite3 *db = NULL;

  memset (info, 0, sizeof *info);
  info->rank = -1;
  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK
      || sqlite3_exec (db, "SELECT 1 FROM sqlite_master LIMIT 1", NULL, NULL, NULL) != SQLITE_OK)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: %s", path,
                   db != NULL ? sqlite3_errmsg (db) : "out of memory");
      sqlite3_close (db);
      return FALSE;
    }
  read_start (db, info);
  read_rank (db, info);
  sqlite3_close (db);
  return TRUE;
}

void
sl_session_info_clear (SlSessionInfo *info)
{
  g_clear_pointer (&info->rank_source, g_free);
}
