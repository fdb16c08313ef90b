/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-window-private.h: what the window's files share.
 *
 * sl-window.c builds the window and its pages; sl-window-load.c opens a
 * profile; sl-window-actions.c holds the win.* actions; sl-window-dnd.c
 * takes dropped files; sl-window-narrow.c folds panes in a narrow window;
 * sl-window-probe.c observes it all for tests and the
 * stall benchmark. */
#pragma once

#include "sl-window.h"
#include "sl-details-pane.h"
#include "sl-side-panel.h"
#include "sl-timeline.h"
#include "sl-timeline-legend.h"
#include "sightline.h"

G_BEGIN_DECLS

typedef struct _SlWindowProbe SlWindowProbe;

struct _SlWindow {
  GtkApplicationWindow parent_instance;

  /* template children */
  GtkWidget       *title_label;
  GtkWidget       *subtitle_label;
  GtkWidget       *menu_button;
  GtkWidget       *details_button;
  GtkWidget       *panel_button;
  GtkWidget       *stack;
  GtkWidget       *recent_list;
  GtkWidget       *recent_title;
  GtkWidget       *loading_label;
  GtkWidget       *progress_bar;
  GtkWidget       *phase_label;
  GtkWidget       *error_title;
  GtkWidget       *error_message;
  GtkWidget       *error_open_button;
  GtkWidget       *side_paned;
  GtkWidget       *side_panel;
  GtkWidget       *paned;
  GtkWidget       *timeline_paned;
  GtkWidget       *flame_slot;
  GtkWidget       *timeline;
  GtkWidget       *legend;
  GtkWidget       *empty_label;
  GtkWidget       *details;
  GtkWidget       *details_scroller;
  GtkWidget       *load_bar;

  GFile           *file;         /* shown or being loaded */
  SlSession       *session;      /* of the profile shown, NULL before the first */
  SlProfileLoader *loader;       /* while loading; a finished or replaced one is dropped */
  gboolean         staged_shown; /* the session shows the GPU rows of this loader */
  GCancellable    *cancellable;  /* of the current load */
  GBindingGroup   *progress_bindings; /* the loading page from the current loader */
  GCancellable    *cpu_cancellable;   /* the CPU side's stage (sl-window-cpu-load.c) */
  guint            cpu_bar_timeout;   /* shows the load bar if that stage takes a while */

  SlWindowProbe   *probe;        /* SIGHTLINE_TEST_STATE or SIGHTLINE_MEASURE_STALL */

  /* sl-window-narrow.c: panes folded away to leave the timeline its room */
  gboolean         details_folded, panel_folded;
  int              details_width, panel_width;   /* as last shown */
  int              fitted_width;
  guint            fit_source;
  /* sl-window-bookmarks.c: the bar saying what went wrong with them */
  GtkWidget       *bookmark_bar;
  GtkWidget       *bookmark_problem;
  char            *rows_id;      /* content id of the profile shown: its row layout's key */
  GCancellable    *rows_cancellable;

  /* sl-window-export.c */
  GtkWidget       *export_dialog;  /* (weak) made on first use */
  GtkWidget       *export_toast;
  SlSession       *export_bookmarks_session;  /* (weak) whose notify::bookmarks is followed */
  gulong           export_bookmarks_handler;
};

/* sl-window-cpu-load.c: the CPU side and GPU counters, after the complete
 * profile (@model) shows; cancelled by a new load or win.cancel-load. */
void        _sl_window_load_cpu_side   (SlWindow        *self,
                                        SlTimelineModel *model);
void        _sl_window_cancel_cpu_side (SlWindow        *self);

/* sl-window.c */
const char *_sl_window_get_page      (SlWindow   *self);
void        _sl_window_set_page      (SlWindow   *self,
                                      const char *page);
void        _sl_window_set_titles    (SlWindow   *self,
                                      const char *title,
                                      const char *subtitle);
void        _sl_window_show_error    (SlWindow   *self,
                                      const char *title,
                                      const char *message);
void        _sl_window_request_open  (SlWindow   *self,
                                      GFile      *file);
/* Setters that notify the window's properties. */
void        _sl_window_set_file      (SlWindow        *self,
                                      GFile           *file);
void        _sl_window_set_loader    (SlWindow        *self,
                                      SlProfileLoader *loader);
/* Hands @session to every view and the history actions. */
void        _sl_window_set_session   (SlWindow        *self,
                                      SlSession       *session);

/* sl-window-load.c */
void        _sl_window_bind_progress (SlWindow   *self);
void        _sl_window_cancel_load   (SlWindow   *self);
/* Title and subtitle for the profile shown, or the welcome page. */
void        _sl_window_show_current  (SlWindow   *self);

/* sl-window-actions.c */
void        _sl_window_add_actions   (SlWindow   *self);
/* Enables what makes sense on @page. */
void        _sl_window_update_actions (SlWindow  *self,
                                       const char *page);
void        _sl_window_bind_history  (SlWindow   *self);
/* Gives a new session the state of the "exact-names" action. */
void        _sl_window_sync_exact_names (SlWindow *self);

/* sl-window-narrow.c */
void        _sl_window_fit_panes     (SlWindow   *self,
                                      GtkWidget  *opened);
void        _sl_window_pane_toggled  (SlWindow   *self,
                                      GtkWidget  *pane,
                                      gboolean    shown);
void        _sl_window_queue_fit     (SlWindow   *self,
                                      int         width);

/* sl-window-dnd.c */
void        _sl_window_add_drop_target (SlWindow *self);

/* sl-window-export.c: win.export, and the bar after an export */
void        _sl_window_export_init   (SlWindow   *self);
void        _sl_window_export        (SlWindow   *self);

/* sl-window-probe.c: NULL when neither variable is set. */
SlWindowProbe *_sl_window_probe_new  (SlWindow      *self);
void           _sl_window_probe_free (SlWindowProbe *probe);

/* sl-window-bookmarks.c: the profile's bookmark store, made after a
 * complete load; Ctrl+D (the popover), ' and Shift+', export and import. */
void        _sl_window_bookmarks_init          (SlWindow   *self);
void        _sl_window_bookmarks_profile_loaded (SlWindow  *self);
/* Opens the popover that bookmarks [@start, @end] (@name nullable: guessed). */
void        _sl_window_bookmark_range          (SlWindow   *self,
                                                gint64      start,
                                                gint64      end,
                                                const char *name);
/* Selects @bookmark's range and zooms to it (a history step). */
void        _sl_window_show_bookmark           (SlWindow         *self,
                                                const SlBookmark *bookmark);
/* sl-window-clock.c: the wall-clock time display (Preferences → Times) */
void        _sl_window_clock_init    (SlWindow   *self);
void        _sl_window_clock_dispose (SlWindow   *self);

/* sl-window-rows.c */
void        _sl_window_rows_init            (SlWindow *self);
void        _sl_window_rows_session_changed (SlWindow *self);
void        _sl_window_rows_dispose         (SlWindow *self);

G_END_DECLS
