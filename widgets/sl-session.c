/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-session.c: the view state of one open profile, with history. */
#include "sl-session.h"

#include <string.h>

/* Back steps kept: enough for a long exploration, bounded memory. */
#define MAX_HISTORY 100

typedef struct {
  SlTimeRange visible;
  gboolean    has_selection;
  SlTimeRange selection;
  SlEventRef  event;        /* kind SL_EVENT_NONE: none */
} ViewState;

struct _SlSession {
  GObject          parent_instance;

  SlTimelineModel *model;
  SlTimeRange      visible;
  SlTimeRange     *selected_range;
  SlEventRef      *selected_event;
  SlScope          scope;
  SlTimeRange     *bookmark_range;
  char            *search;
  gboolean         exact_names;
  gboolean         loading;
  SlHighlight     *highlight;
  char            *kernel_name;
  SlBookmarkStore *bookmarks;

  GArray          *back;       /* ViewState, oldest first */
  GArray          *forward;    /* ViewState, next first at the end */
};

enum {
  PROP_0,
  PROP_MODEL,
  PROP_VISIBLE_RANGE,
  PROP_SELECTED_RANGE,
  PROP_SELECTED_EVENT,
  PROP_SCOPE,
  PROP_BOOKMARK_RANGE,
  PROP_SEARCH,
  PROP_EXACT_NAMES,
  PROP_LOADING,
  PROP_HIGHLIGHT,
  PROP_KERNEL_NAME,
  PROP_BOOKMARKS,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SlSession, sl_session, G_TYPE_OBJECT)
G_DEFINE_BOXED_TYPE (SlEventRef, sl_event_ref, sl_event_ref_copy, g_free)

GType
sl_scope_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    { SL_SCOPE_WHOLE, "SL_SCOPE_WHOLE", "whole" },
    { SL_SCOPE_VISIBLE, "SL_SCOPE_VISIBLE", "visible" },
    { SL_SCOPE_SELECTION, "SL_SCOPE_SELECTION", "selection" },
    { SL_SCOPE_BOOKMARK, "SL_SCOPE_BOOKMARK", "bookmark" },
    { 0, NULL, NULL },
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static (g_intern_static_string ("SlScope"), values));
  return type;
}

SlEventRef *
sl_event_ref_copy (const SlEventRef *event)
{
  return event != NULL ? g_memdup2 (event, sizeof *event) : NULL;
}

static gboolean
event_equal (const SlEventRef *a, const SlEventRef *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return a->kind == b->kind && a->owner == b->owner && a->index == b->index;
}

/* ---- setters -------------------------------------------------------------- */

/* Replaces *slot by a copy of @range; FALSE when nothing changed. */
static gboolean
replace_range (SlTimeRange **slot, const SlTimeRange *range)
{
  if (sl_time_range_equal (*slot, range))
    return FALSE;
  g_clear_pointer (slot, sl_time_range_free);
  *slot = sl_time_range_copy (range);
  return TRUE;
}

void
sl_session_set_visible_range (SlSession *self, const SlTimeRange *range)
{
  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (range != NULL);

  if (sl_time_range_equal (&self->visible, range) || range->end <= range->start)
    return;
  self->visible = *range;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_RANGE]);
}

void
sl_session_set_selected_range (SlSession *self, const SlTimeRange *range)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (range != NULL && range->end < range->start)
    return;
  if (replace_range (&self->selected_range, range))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_RANGE]);
}

void
sl_session_set_selected_event (SlSession *self, const SlEventRef *event)
{
  gint64 start, end;

  g_return_if_fail (SL_IS_SESSION (self));

  if (event != NULL && !sl_timeline_model_event_span (self->model, event, &start, &end))
    event = NULL;
  if (event_equal (self->selected_event, event))
    return;
  g_clear_pointer (&self->selected_event, g_free);
  self->selected_event = sl_event_ref_copy (event);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_EVENT]);
}

void
sl_session_set_scope (SlSession *self, SlScope scope)
{
  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (scope <= SL_SCOPE_BOOKMARK);

  if (self->scope == scope)
    return;
  self->scope = scope;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCOPE]);
}

void
sl_session_set_bookmark_range (SlSession *self, const SlTimeRange *range)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (replace_range (&self->bookmark_range, range))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOOKMARK_RANGE]);
}

void
sl_session_set_search (SlSession *self, const char *search)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (g_strcmp0 (self->search, search ? search : "") == 0)
    return;
  g_free (self->search);
  self->search = g_strdup (search ? search : "");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH]);
}

void
sl_session_set_exact_names (SlSession *self, gboolean exact_names)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (self->exact_names == !!exact_names)
    return;
  self->exact_names = !!exact_names;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXACT_NAMES]);
}

void
sl_session_set_loading (SlSession *self, gboolean loading)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (self->loading == !!loading)
    return;
  self->loading = !!loading;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

void
sl_session_set_highlight (SlSession *self, SlHighlight *highlight)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (self->highlight == highlight)
    return;
  g_clear_pointer (&self->highlight, sl_highlight_unref);
  self->highlight = highlight != NULL ? sl_highlight_ref (highlight) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHT]);
}

void
sl_session_set_kernel_name (SlSession *self, const char *name)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (g_strcmp0 (self->kernel_name, name) == 0)
    return;
  g_free (self->kernel_name);
  self->kernel_name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KERNEL_NAME]);
}

void
sl_session_set_bookmarks (SlSession *self, SlBookmarkStore *bookmarks)
{
  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (bookmarks == NULL || SL_IS_BOOKMARK_STORE (bookmarks));

  if (g_set_object (&self->bookmarks, bookmarks))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOOKMARKS]);
}

SlBookmarkStore *
sl_session_get_bookmarks (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->bookmarks;
}

/* ---- getters -------------------------------------------------------------- */

const char *
sl_session_get_kernel_name (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->kernel_name;
}

SlHighlight *
sl_session_get_highlight (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->highlight;
}

SlTimelineModel *
sl_session_get_model (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->model;
}

SlProfile *
sl_session_get_profile (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->model->profile;
}

const SlTimeRange *
sl_session_get_visible_range (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return &self->visible;
}

const SlTimeRange *
sl_session_get_selected_range (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->selected_range;
}

const SlEventRef *
sl_session_get_selected_event (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->selected_event;
}

SlScope
sl_session_get_scope (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), SL_SCOPE_WHOLE);
  return self->scope;
}

const SlTimeRange *
sl_session_get_bookmark_range (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->bookmark_range;
}

const char *
sl_session_get_search (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), "");
  return self->search;
}

gboolean
sl_session_get_exact_names (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  return self->exact_names;
}

gboolean
sl_session_get_loading (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  return self->loading;
}

gboolean
sl_session_get_scope_range (SlSession *self, SlTimeRange *out)
{
  const SlTimeRange *range = NULL;
  SlTimeRange whole;

  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  whole.start = self->model->profile->start_ns;
  whole.end = self->model->profile->end_ns;
  switch (self->scope)
    {
    case SL_SCOPE_VISIBLE:
      range = &self->visible;
      break;
    case SL_SCOPE_SELECTION:
      range = self->selected_range;
      break;
    case SL_SCOPE_BOOKMARK:
      range = self->bookmark_range;
      break;
    case SL_SCOPE_WHOLE:
    default:
      range = &whole;
      break;
    }
  if (range == NULL)
    return FALSE;
  *out = *range;
  return TRUE;
}

/* ---- history ---------------------------------------------------------------- */

static ViewState
current_state (SlSession *self)
{
  ViewState state = { .visible = self->visible };

  state.has_selection = self->selected_range != NULL;
  if (state.has_selection)
    state.selection = *self->selected_range;
  if (self->selected_event != NULL)
    state.event = *self->selected_event;
  return state;
}

static gboolean
state_equal (const ViewState *a, const ViewState *b)
{
  return sl_time_range_equal (&a->visible, &b->visible) && a->has_selection == b->has_selection &&
         (!a->has_selection || sl_time_range_equal (&a->selection, &b->selection)) &&
         event_equal (&a->event, &b->event);
}

static void
apply_state (SlSession *self, const ViewState *state)
{
  g_object_freeze_notify (G_OBJECT (self));
  sl_session_set_visible_range (self, &state->visible);
  sl_session_set_selected_range (self, state->has_selection ? &state->selection : NULL);
  sl_session_set_selected_event (self, state->event.kind != SL_EVENT_NONE ? &state->event : NULL);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
notify_history (SlSession *self, gboolean could_go_back, gboolean could_go_forward)
{
  if (could_go_back != sl_session_can_go_back (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  if (could_go_forward != sl_session_can_go_forward (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
}

void
sl_session_push_history (SlSession *self)
{
  gboolean could_go_back, could_go_forward;
  ViewState state;

  g_return_if_fail (SL_IS_SESSION (self));

  could_go_back = sl_session_can_go_back (self);
  could_go_forward = sl_session_can_go_forward (self);
  state = current_state (self);
  /* a new path forks the history: the old way forward is gone */
  g_array_set_size (self->forward, 0);
  if (self->back->len == 0 || !state_equal (&g_array_index (self->back, ViewState, self->back->len - 1), &state))
    g_array_append_val (self->back, state);
  if (self->back->len > MAX_HISTORY)
    g_array_remove_index (self->back, 0);
  notify_history (self, could_go_back, could_go_forward);
}

void
sl_session_navigate_to (SlSession *self, const SlTimeRange *visible)
{
  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (visible != NULL);

  sl_session_push_history (self);
  sl_session_set_visible_range (self, visible);
}

gboolean
sl_session_can_go_back (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  return self->back->len > 0;
}

gboolean
sl_session_can_go_forward (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  return self->forward->len > 0;
}

/* Moves one state from @from to @to: the current state goes onto @to and
 * the last of @from is shown. */
static gboolean
step_history (SlSession *self, GArray *from, GArray *to)
{
  gboolean could_go_back = sl_session_can_go_back (self);
  gboolean could_go_forward = sl_session_can_go_forward (self);
  ViewState current, target;

  if (from->len == 0)
    return FALSE;
  current = current_state (self);
  target = g_array_index (from, ViewState, from->len - 1);
  g_array_set_size (from, from->len - 1);
  g_array_append_val (to, current);
  apply_state (self, &target);
  notify_history (self, could_go_back, could_go_forward);
  return TRUE;
}

gboolean
sl_session_go_back (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  return step_history (self, self->back, self->forward);
}

gboolean
sl_session_go_forward (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  return step_history (self, self->forward, self->back);
}

/* ---- the model ---------------------------------------------------------------- */

/* The visible range that shows all of @model (an empty profile still has a
 * window of 1 ns). */
static SlTimeRange
whole_range (const SlTimelineModel *model)
{
  SlTimeRange whole = { model->start_ns, MAX (model->end_ns, model->start_ns + 1) };

  return whole;
}

/* History states that showed all of the old model show all of the new. */
static void
widen_history (GArray *states, const SlTimeRange *old_whole, const SlTimeRange *new_whole)
{
  for (guint i = 0; i < states->len; i++)
    {
      ViewState *state = &g_array_index (states, ViewState, i);

      if (sl_time_range_equal (&state->visible, old_whole))
        state->visible = *new_whole;
    }
}

/* Every field changes first, then "model" is notified, then the rest: a
 * view rebuilding on "model" reads the final state. */
void
sl_session_set_model (SlSession *self, SlTimelineModel *model)
{
  SlTimeRange old_whole, new_whole;
  gboolean visible_changed = FALSE, event_dropped = FALSE;
  gint64 start, end;

  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (model != NULL);

  if (self->model == model)
    return;
  new_whole = whole_range (model);
  if (self->model == NULL)
    {
      /* construction: the whole profile, nothing selected */
      self->model = sl_timeline_model_ref (model);
      self->visible = new_whole;
      return;
    }
  old_whole = whole_range (self->model);
  g_clear_pointer (&self->model, sl_timeline_model_unref);
  self->model = sl_timeline_model_ref (model);
  widen_history (self->back, &old_whole, &new_whole);
  widen_history (self->forward, &old_whole, &new_whole);
  /* a view of all of it (an empty profile's may be wider) shows all of the new one */
  if (self->visible.start <= old_whole.start && self->visible.end >= old_whole.end &&
      !sl_time_range_equal (&old_whole, &new_whole))
    {
      self->visible = new_whole;
      visible_changed = TRUE;
    }
  /* the GPU operations of a first stage are in the complete profile too */
  if (self->selected_event != NULL && !sl_timeline_model_event_span (model, self->selected_event, &start, &end))
    {
      g_clear_pointer (&self->selected_event, g_free);
      event_dropped = TRUE;
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
  /* its events were found in the old model; the view that made it redoes it */
  sl_session_set_highlight (self, NULL);
  if (visible_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_RANGE]);
  if (event_dropped)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_EVENT]);
}

/* ---- GObject ---------------------------------------------------------------- */

SlSession *
sl_session_new (SlTimelineModel *model)
{
  g_return_val_if_fail (model != NULL, NULL);
  return g_object_new (SL_TYPE_SESSION, "model", model, NULL);
}

static void
sl_session_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  SlSession *self = SL_SESSION (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_pointer (value, self->model);
      break;
    case PROP_VISIBLE_RANGE:
      g_value_set_boxed (value, &self->visible);
      break;
    case PROP_SELECTED_RANGE:
      g_value_set_boxed (value, self->selected_range);
      break;
    case PROP_SELECTED_EVENT:
      g_value_set_boxed (value, self->selected_event);
      break;
    case PROP_SCOPE:
      g_value_set_enum (value, self->scope);
      break;
    case PROP_BOOKMARK_RANGE:
      g_value_set_boxed (value, self->bookmark_range);
      break;
    case PROP_SEARCH:
      g_value_set_string (value, self->search);
      break;
    case PROP_EXACT_NAMES:
      g_value_set_boolean (value, self->exact_names);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    case PROP_HIGHLIGHT:
      g_value_set_boxed (value, self->highlight);
      break;
    case PROP_KERNEL_NAME:
      g_value_set_string (value, self->kernel_name);
      break;
    case PROP_BOOKMARKS:
      g_value_set_object (value, self->bookmarks);
      break;
    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, sl_session_can_go_back (self));
      break;
    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, sl_session_can_go_forward (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_session_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  SlSession *self = SL_SESSION (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      if (g_value_get_pointer (value) != NULL)
        sl_session_set_model (self, g_value_get_pointer (value));
      break;
    case PROP_VISIBLE_RANGE:
      if (g_value_get_boxed (value) != NULL)
        sl_session_set_visible_range (self, g_value_get_boxed (value));
      break;
    case PROP_SELECTED_RANGE:
      sl_session_set_selected_range (self, g_value_get_boxed (value));
      break;
    case PROP_SELECTED_EVENT:
      sl_session_set_selected_event (self, g_value_get_boxed (value));
      break;
    case PROP_SCOPE:
      sl_session_set_scope (self, g_value_get_enum (value));
      break;
    case PROP_BOOKMARK_RANGE:
      sl_session_set_bookmark_range (self, g_value_get_boxed (value));
      break;
    case PROP_SEARCH:
      sl_session_set_search (self, g_value_get_string (value));
      break;
    case PROP_EXACT_NAMES:
      sl_session_set_exact_names (self, g_value_get_boolean (value));
      break;
    case PROP_LOADING:
      sl_session_set_loading (self, g_value_get_boolean (value));
      break;
    case PROP_HIGHLIGHT:
      sl_session_set_highlight (self, g_value_get_boxed (value));
      break;
    case PROP_KERNEL_NAME:
      sl_session_set_kernel_name (self, g_value_get_string (value));
      break;
    case PROP_BOOKMARKS:
      sl_session_set_bookmarks (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_session_finalize (GObject *object)
{
  SlSession *self = SL_SESSION (object);

  g_clear_pointer (&self->model, sl_timeline_model_unref);
  g_clear_pointer (&self->selected_range, sl_time_range_free);
  g_clear_pointer (&self->selected_event, g_free);
  g_clear_pointer (&self->bookmark_range, sl_time_range_free);
  g_free (self->search);
  g_clear_pointer (&self->highlight, sl_highlight_unref);
  g_free (self->kernel_name);
  g_clear_object (&self->bookmarks);
  g_array_unref (self->back);
  g_array_unref (self->forward);
  G_OBJECT_CLASS (sl_session_parent_class)->finalize (object);
}

static GParamSpec *
range_param (const char *name, GParamFlags extra)
{
  return g_param_spec_boxed (name, NULL, NULL, SL_TYPE_TIME_RANGE,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS | extra);
}

static void
sl_session_class_init (SlSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = sl_session_finalize;
  object_class->get_property = sl_session_get_property;
  object_class->set_property = sl_session_set_property;

  /* a plain pointer: the timeline model is a refcounted C struct */
  properties[PROP_MODEL] =
    g_param_spec_pointer ("model", NULL, NULL, G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_EXPLICIT_NOTIFY |
                          G_PARAM_STATIC_STRINGS);
  properties[PROP_VISIBLE_RANGE] = range_param ("visible-range", 0);
  properties[PROP_SELECTED_RANGE] = range_param ("selected-range", 0);
  properties[PROP_BOOKMARK_RANGE] = range_param ("bookmark-range", 0);
  properties[PROP_SELECTED_EVENT] =
    g_param_spec_boxed ("selected-event", NULL, NULL, SL_TYPE_EVENT_REF, rw);
  properties[PROP_SCOPE] =
    g_param_spec_enum ("scope", NULL, NULL, SL_TYPE_SCOPE, SL_SCOPE_WHOLE, rw);
  properties[PROP_SEARCH] = g_param_spec_string ("search", NULL, NULL, "", rw);
  properties[PROP_EXACT_NAMES] = g_param_spec_boolean ("exact-names", NULL, NULL, FALSE, rw);
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE, rw);
  properties[PROP_HIGHLIGHT] = g_param_spec_boxed ("highlight", NULL, NULL, SL_TYPE_HIGHLIGHT, rw);
  properties[PROP_KERNEL_NAME] = g_param_spec_string ("kernel-name", NULL, NULL, NULL, rw);
  properties[PROP_BOOKMARKS] =
    g_param_spec_object ("bookmarks", NULL, NULL, SL_TYPE_BOOKMARK_STORE, rw);
  properties[PROP_CAN_GO_BACK] = g_param_spec_boolean ("can-go-back", NULL, NULL, FALSE, ro);
  properties[PROP_CAN_GO_FORWARD] = g_param_spec_boolean ("can-go-forward", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_session_init (SlSession *self)
{
  self->search = g_strdup ("");
  self->back = g_array_new (FALSE, FALSE, sizeof (ViewState));
  self->forward = g_array_new (FALSE, FALSE, sizeof (ViewState));
}
