/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-compare-window-private.h: what the comparison window's files share.
 *
 * sl-compare-window.c builds the window and its summary; sl-compare-load.c
 * loads the profiles and computes the comparison off the main thread;
 * sl-compare-table.c is the kernel diff table; sl-compare-kernel-hist.c the
 * selected kernel's overlaid histograms; sl-compare-timelines.c the linked
 * timelines; sl-compare-window-probe.c the state for tests. */
#pragma once

#include "sl-compare-window.h"
#include "sightline.h"
#include "sl-session.h"

G_BEGIN_DECLS

/* What the worker computes once every profile is in. */
typedef struct {
  SlCompare     *compare;
  SlIterations **iterations;     /* per profile, nullable entries */
  GArray        *slower_refs;    /* SlEventRef in the last profile: kernels slower there */
} SlCompareResult;

void _sl_compare_result_free (SlCompareResult *result);

struct _SlCompareWindow {
  GtkApplicationWindow parent_instance;

  guint            n;            /* profiles */
  GFile          **files;
  GCancellable    *cancellable;
  GPtrArray       *loaders;      /* SlProfileLoader, while loading */
  SlProfile      **profiles;
  SlTimelineModel **models;
  guint            n_loaded;
  char            *error;        /* shown on the error page */
  SlCompareResult *result;

  GtkWidget       *title_label, *subtitle_label;
  GtkWidget       *stack;        /* "loading", "error", "compare" */
  GtkWidget       *progress, *phase_label, *error_label;
  GtkWidget       *summary_box, *strip;
  /* sl-compare-table.c */
  GtkWidget       *status_drop, *name_entry, *column_view;
  GtkFilter       *filter;
  GtkSingleSelection *selection;
  guint            n_shown;
  /* sl-compare-kernel-hist.c */
  GtkWidget       *hist;
  char            *hist_name;    /* the kernel shown */
  GCancellable    *hist_cancellable;
  /* sl-compare-timelines.c: A and the last profile */
  GtkWidget       *timeline_box;
  SlSession       *sessions[2];
  GtkWidget       *timelines[2];
  GtkWidget       *align_drop, *spins[2], *names[2];
  char            *anchor_names[2]; /* the chosen iterations' names, nullable */
  gint64           anchor[2];
  gboolean         linking;
  guint            sized;        /* timelines laid out: bit 0 A, bit 1 B */
  gboolean         anchored;     /* A's first sized view showed the chosen iteration */
  /* sl-compare-export.c */
  GtkWidget       *export_button, *export_label;
  GCancellable    *export_cancellable;
  char            *export_path;  /* the last report written */
};

/* sl-compare-load.c */
void        _sl_compare_load          (SlCompareWindow *self);
void        _sl_compare_cancel        (SlCompareWindow *self);
/* sl-compare-window.c: the comparison is in: build the views. */
void        _sl_compare_show          (SlCompareWindow *self);
void        _sl_compare_show_error    (SlCompareWindow *self,
                                       const char      *message);
/* "A", "B"… */
char       *_sl_compare_letter        (guint            p);
guint32     _sl_compare_color         (guint            p);
/* The basis time of kernel @k in profile @p (NAN when absent). */
double      _sl_compare_basis_time    (const SlCompare       *cmp,
                                       const SlCompareKernel *k,
                                       guint                  p);
/* sl-compare-table.c */
GtkWidget  *_sl_compare_table_new     (SlCompareWindow *self);
void        _sl_compare_table_fill    (SlCompareWindow *self);
/* sl-compare-kernel-hist.c */
void        _sl_compare_hist_show     (SlCompareWindow *self,
                                       const char      *name);
/* sl-compare-timelines.c */
GtkWidget  *_sl_compare_timelines_new (SlCompareWindow *self);
void        _sl_compare_timelines_fill (SlCompareWindow *self);
void        _sl_compare_timelines_dispose (SlCompareWindow *self);
/* sl-compare-export.c: Export Report… (win.export-report, Ctrl+E) in @header. */
GtkWidget  *_sl_compare_export_new     (SlCompareWindow *self,
                                        GtkWidget       *header);
void        _sl_compare_export_enable  (SlCompareWindow *self);
/* Writes the report to @path in a worker (also the GUI tests' way in). */
void        _sl_compare_export_to      (SlCompareWindow *self,
                                        const char      *path);
void        _sl_compare_export_dispose (SlCompareWindow *self);
/* sl-compare-window-probe.c: the "probe-state" JSON text. */
char       *_sl_compare_probe_state   (SlCompareWindow *self);
void        _sl_compare_probe_changed (SlCompareWindow *self);
void        _sl_compare_probe_start   (SlCompareWindow *self);

G_END_DECLS
