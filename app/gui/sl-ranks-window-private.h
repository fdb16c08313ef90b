/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ranks-window-private.h: what the ranks window's files share
 * (sl-ranks-window.c: the window; sl-ranks-load.c: loading the files;
 * sl-ranks-align.c: one job clock over the timelines; sl-ranks-probe.c:
 * the state for tests). */
#pragma once

#include "sl-ranks-window.h"
#include "sightline.h"
#include "sl-session.h"
#include "sl-rank-heatmap.h"

G_BEGIN_DECLS

/* Files loading at once: one per core of the 2-core machines we target. */
#define SL_RANKS_PARALLEL 2

typedef enum {
  SL_RANK_WAITING,
  SL_RANK_LOADING,
  SL_RANK_READY,
  SL_RANK_FAILED,
  SL_RANK_SUMMARY,                /* a summary file's rank: its profile not loaded */
} SlRankState;

/* One file.  The worker writes profile .. origin_ns before its task returns;
 * the main thread reads them after.  fraction is written by the worker's
 * progress callback and polled (an atomic double is enough for a bar). */
typedef struct {
  char            *path;          /* the profile (a summary's: NULL until it is read) */
  char            *name;          /* base name, for headers */
  char            *summary_file;  /* nullable: the rank came from this summary */
  SlRankState      state;
  double           fraction;
  char            *error;         /* FAILED: the reason */
  SlProfile       *profile;
  SlRankSummary   *summary;
  SlTimelineModel *model;
  gboolean         aligned;       /* the file says when its session started */
  gint64           origin_ns;     /* capture clock at the session start (or profile start) */
  gint64           manual_ns;     /* the user's offset, added to its clock */
  SlSession       *session;
  GtkWidget       *section;       /* GtkExpander; its label widget is the header line */
  GtkWidget       *title;         /* GtkLabel, first in the header line */
  GtkWidget       *progress;
  GtkWidget       *status;
  GtkWidget       *offset;        /* GtkSpinButton, ms */
  GtkWidget       *timeline;
  GtkWidget       *load;          /* summary ranks: "Load Profile" */
  GtkWidget       *locate;        /* summary ranks: "Locate…" when the profile is missing */
  /* loaded on demand, its timeline not sized yet: the job range to show
   * then (its first size fits the whole profile, which must not move the
   * others) */
  gboolean         fresh;
  gint64           want_start, want_end;
} SlRank;

/* A summary file's rank keeps the file's summary in the table (as
 * sightline-cli ranks reads it) whether its profile is loaded or not; a
 * profile's rank is in it once its worker has summarized it. */
#define SL_RANK_IN_TABLE(r) ((r)->summary != NULL && ((r)->summary_file != NULL || (r)->state == SL_RANK_READY))

struct _SlRanksWindow {
  GtkApplicationWindow parent_instance;

  GPtrArray     *ranks;           /* SlRank*, input order */
  GCancellable  *cancellable;
  guint          poll_source;
  SlRanks       *table;           /* of the ready ranks' summaries */
  GPtrArray     *table_ranks;     /* SlRank* of table->rows, row order */
  gboolean       syncing;
  guint          pending_zoom;    /* iteration + 1 to zoom to once a rank loads; 0: none */
  guint          reading;         /* summary files being read */

  GtkWidget     *heatmap;
  GtkWidget     *heatmap_scroller;
  GtkWidget     *heatmap_label;
  GtkWidget     *sections;        /* GtkBox of the rank sections */
  GtkWidget     *sections_scroller; /* the one vertical scroll of every rank */
  GtkWidget     *ruler;           /* SlRanksRuler: the one ruler, job clock */
  gboolean       placing_ruler;   /* reading a layout can emit view-changed */
  GtkWidget     *subtitle;
  struct _SlRanksProbe *probe;
};

/* sl-ranks-load.c: starts the next loads (at most SL_RANKS_PARALLEL at once). */
void     _sl_ranks_load_next        (SlRanksWindow *self);
void     _sl_rank_free              (SlRank *rank);
/* sl-ranks-window.c: a file finished (ready or failed). */
void     _sl_ranks_window_rank_done (SlRanksWindow *self, SlRank *rank);
/* "Rank 3 · file name", or the file name while its rank is unknown. */
char    *_sl_rank_title             (SlRank *rank);

/* sl-ranks-window.c */
void     _sl_ranks_window_refresh   (SlRanksWindow *self);
void     _sl_ranks_show_iteration   (SlRanksWindow *self, guint iteration);
/* Job-clock range of @iteration over every rank (a margin around it). */
gboolean _sl_ranks_iteration_range  (SlRanksWindow *self, guint iteration, gint64 *start, gint64 *end);

/* sl-ranks-summaries.c: the window's inputs: a folder is its *.json
 * summaries, a file starting with '{' a summary, any other a profile.
 * (transfer full) SlRankInput*, sorted within a folder. */
typedef struct {
  char     *path;
  gboolean  summary;
} SlRankInput;
GPtrArray *_sl_ranks_inputs_expand   (const char * const *paths);
/* Reads the summary ranks' files in a worker, then refreshes the window. */
void       _sl_ranks_read_summaries  (SlRanksWindow *self);

/* sl-ranks-demand.c: a summary rank's profile, loaded when asked. */
GtkWidget *_sl_rank_demand_buttons   (SlRanksWindow *self, SlRank *rank);
/* Loads @rank's profile (a summary rank's), or says it is missing. */
void       _sl_rank_demand_load      (SlRanksWindow *self, SlRank *rank);
/* The header line of a summary rank: its numbers, or what went wrong. */
void       _sl_rank_demand_update    (SlRanksWindow *self, SlRank *rank);

/* sl-ranks-align.c: rank @rank's capture clock <-> the job clock (ns since
 * the earliest session start, offsets included). */
gint64   _sl_rank_offset_ns         (SlRanksWindow *self, SlRank *rank);
gint64   _sl_rank_to_job            (SlRanksWindow *self, SlRank *rank, gint64 t);
gint64   _sl_rank_from_job          (SlRanksWindow *self, SlRank *rank, gint64 t);
/* Follows @rank's visible range in every other ready rank. */
void     _sl_ranks_align_watch      (SlRanksWindow *self, SlRank *rank);
void     _sl_ranks_align_from       (SlRanksWindow *self, SlRank *rank);
void     _sl_ranks_align_unwatch    (SlRank *rank);
/* Shows job-clock range [start, end) in every ready rank. */
void     _sl_ranks_show_job_range   (SlRanksWindow *self, gint64 start, gint64 end);

/* sl-ranks-stack.c: the timelines as one: one ruler, one label width,
 * one selection. */
void     _sl_ranks_stack_add          (SlRanksWindow *self, SlRank *rank);
void     _sl_ranks_stack_update_ruler (SlRanksWindow *self);

/* sl-ranks-probe.c: SIGHTLINE_TEST_STATE=FILE writes FILE.ranks. */
typedef struct _SlRanksProbe SlRanksProbe;
SlRanksProbe *_sl_ranks_probe_new     (SlRanksWindow *self);
void          _sl_ranks_probe_changed (SlRanksProbe *probe);
void          _sl_ranks_probe_free    (SlRanksProbe *probe);

G_END_DECLS
