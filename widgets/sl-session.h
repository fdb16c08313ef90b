/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-session.h: the view state of one open profile.
 *
 * What is visible, what is selected (a time range, an event), what the
 * analyses are scoped to and what is searched for, with back/forward
 * history.  Every view (timeline, details pane, later the side panel and
 * flame stack) reads and writes it and listens to its notify signals; no
 * view relays another's state.  A GObject without GTK, so it is tested
 * without a display. */
#pragma once

#include <glib-object.h>

#include "sl-bookmark-store.h"
#include "sl-highlight.h"
#include "sl-time-range.h"
#include "sl-timeline-model.h"

G_BEGIN_DECLS

/* What "the current range" of an analysis or export means. */
typedef enum {
  SL_SCOPE_WHOLE,          /* the whole profile */
  SL_SCOPE_VISIBLE,        /* what the timeline shows */
  SL_SCOPE_SELECTION,      /* the selected time range */
  SL_SCOPE_BOOKMARK,       /* the range of the bookmark in scope */
} SlScope;

#define SL_TYPE_SCOPE     (sl_scope_get_type ())
#define SL_TYPE_EVENT_REF (sl_event_ref_get_type ())
GType       sl_scope_get_type     (void) G_GNUC_CONST;
GType       sl_event_ref_get_type (void) G_GNUC_CONST;
/* (transfer full), free with g_free() */
SlEventRef *sl_event_ref_copy     (const SlEventRef *event);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlEventRef, g_free)

#define SL_TYPE_SESSION (sl_session_get_type ())
G_DECLARE_FINAL_TYPE (SlSession, sl_session, SL, SESSION, GObject)

/* A session over @model, showing the whole profile, nothing selected. */
SlSession         *sl_session_new                (SlTimelineModel   *model);
/* (transfer none) */
SlTimelineModel   *sl_session_get_model          (SlSession         *self);
SlProfile         *sl_session_get_profile        (SlSession         *self);
/* Replaces the model by one of the same file that holds more of it (a
 * staged load: the complete profile after its GPU rows).  The view state
 * stays: visible and selected range, the selected event when @model has
 * it, scope, bookmark, search, exact names and history; only a visible
 * range that was the whole old profile (the user had not moved) becomes
 * the whole new one, in the history too.  Notifies "model"; views rebuild
 * what they drew from the old one. */
void               sl_session_set_model          (SlSession         *self,
                                                  SlTimelineModel   *model);

/* Whether more of the profile is on its way (a staged load shows its GPU
 * rows first): views say "still loading" rather than "none" about what
 * the model lacks (profile->parts).  FALSE by default. */
gboolean           sl_session_get_loading        (SlSession         *self);
void               sl_session_set_loading        (SlSession         *self,
                                                  gboolean           loading);

/* The time window the timeline shows; never NULL. */
const SlTimeRange *sl_session_get_visible_range  (SlSession         *self);
void               sl_session_set_visible_range  (SlSession         *self,
                                                  const SlTimeRange *range);
/* (nullable): no range selected. */
const SlTimeRange *sl_session_get_selected_range (SlSession         *self);
void               sl_session_set_selected_range (SlSession         *self,
                                                  const SlTimeRange *range);
/* (nullable): no event selected.  An event the model does not have is
 * taken as none. */
const SlEventRef  *sl_session_get_selected_event (SlSession         *self);
void               sl_session_set_selected_event (SlSession         *self,
                                                  const SlEventRef  *event);

SlScope            sl_session_get_scope          (SlSession         *self);
void               sl_session_set_scope          (SlSession         *self,
                                                  SlScope            scope);
/* (nullable): the range of the bookmark that SL_SCOPE_BOOKMARK means. */
const SlTimeRange *sl_session_get_bookmark_range (SlSession         *self);
void               sl_session_set_bookmark_range (SlSession         *self,
                                                  const SlTimeRange *range);
/* The range the scope stands for now; FALSE when the scope is a selection
 * or bookmark and there is none (callers then say so, they do not guess). */
gboolean           sl_session_get_scope_range    (SlSession         *self,
                                                  SlTimeRange       *out);

/* The search text of the views, "" when none. */
const char        *sl_session_get_search         (SlSession         *self);
void               sl_session_set_search         (SlSession         *self,
                                                  const char        *search);

/* Whether views that aggregate NVTX ranges by name keep names apart that
 * differ only by PyTorch's op ids and argument lists (sl-nvtx-name.h);
 * FALSE (the default) groups them. */
gboolean           sl_session_get_exact_names    (SlSession         *self);
void               sl_session_set_exact_names    (SlSession         *self,
                                                  gboolean           exact_names);

/* (nullable) (transfer none): the events every view points out now (a
 * search's matches, a tree row's instances, a histogram's bins); replaced
 * by whichever view sets it last, cleared with the model. */
SlHighlight       *sl_session_get_highlight      (SlSession         *self);
void               sl_session_set_highlight      (SlSession         *self,
                                                  SlHighlight       *highlight);
/* (nullable): the kernel name last picked in any list (tree, search,
 * summary) or of the kernel selected in the timeline, as the model names
 * it (short names unless exact): the histogram shows its durations. */
const char        *sl_session_get_kernel_name    (SlSession         *self);
void               sl_session_set_kernel_name    (SlSession         *self,
                                                  const char        *name);
/* (nullable) (transfer none): the bookmarks of the profile shown (the
 * window makes the store after the load); views draw and list them and
 * follow its "changed". */
SlBookmarkStore   *sl_session_get_bookmarks      (SlSession         *self);
void               sl_session_set_bookmarks      (SlSession         *self,
                                                  SlBookmarkStore   *bookmarks);
/* Selects the @i-th highlighted event and brings it into view: the visible
 * width kept when it fits (centred on the event), else zoomed to it with a
 * margin; a history step.  FALSE when there is no such event. */
gboolean           sl_session_show_highlighted   (SlSession         *self,
                                                  guint              i);
/* Selects @event and brings it into view as sl_session_show_highlighted()
 * does (a history step, so Back returns): a link in the details pane.
 * FALSE when the model has no such event. */
gboolean           sl_session_show_event         (SlSession         *self,
                                                  const SlEventRef  *event);
/* The next (@direction > 0) or previous highlighted event after the
 * selected one (or from the visible range's start), shown as above; F3 and
 * Shift+F3.  FALSE at either end or with no highlight. */
gboolean           sl_session_step_highlight     (SlSession         *self,
                                                  int                direction);

/* History of view states (visible range, selected range and event).
 * push_history records the current state before a jump; navigate_to does
 * that and shows @visible.  Going back or forward restores a state. */
void               sl_session_push_history       (SlSession         *self);
void               sl_session_navigate_to        (SlSession         *self,
                                                  const SlTimeRange *visible);
gboolean           sl_session_can_go_back        (SlSession         *self);
gboolean           sl_session_can_go_forward     (SlSession         *self);
gboolean           sl_session_go_back            (SlSession         *self);
gboolean           sl_session_go_forward         (SlSession         *self);

G_END_DECLS
