/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-session-highlight.c: walking the session's highlighted events
 * (Enter, F3 and Shift+F3 in every view). */
#include "sl-session.h"

/* The visible range that shows [start, end): the current width centred on
 * it when it fits in a third of it, else the event with a margin of a
 * quarter of its length on each side. */
static SlTimeRange
range_showing (const SlTimeRange *visible, gint64 start, gint64 end)
{
  gint64 width = visible->end - visible->start, len = MAX (end - start, 1);
  SlTimeRange out;

  if (len * 3 <= width)
    {
      gint64 mid = start + len / 2;

      out.start = mid - width / 2;
      out.end = out.start + width;
    }
  else
    {
      out.start = start - len / 4 - 1;
      out.end = end + len / 4 + 1;
    }
  return out;
}

/* Selects @event ([start, end)) and moves the view to it when it is not
 * already well inside. */
static void
show_event (SlSession *self, const SlEventRef *event, gint64 start, gint64 end)
{
  const SlTimeRange *visible = sl_session_get_visible_range (self);

  sl_session_push_history (self);
  sl_session_set_selected_event (self, event);
  /* an event already well inside the view does not move it */
  if (start < visible->start || end > visible->end || (end - start) * 3 > visible->end - visible->start)
    {
      SlTimeRange shown = range_showing (visible, start, end);

      sl_session_set_visible_range (self, &shown);
    }
}

gboolean
sl_session_show_highlighted (SlSession *self, guint i)
{
  SlHighlight *highlight;

  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);

  highlight = sl_session_get_highlight (self);
  if (highlight == NULL || i >= sl_highlight_get_n (highlight))
    return FALSE;
  show_event (self, sl_highlight_get (highlight, i), sl_highlight_get_start (highlight, i),
              sl_highlight_get_end (highlight, i));
  return TRUE;
}

gboolean
sl_session_show_event (SlSession *self, const SlEventRef *event)
{
  gint64 start, end;

  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  if (!sl_timeline_model_event_span (sl_session_get_model (self), event, &start, &end))
    return FALSE;
  show_event (self, event, start, end);
  return TRUE;
}

/* The position to step from: the selected event's when it is highlighted,
 * else just before the first event at or after the view's start. */
static gboolean
step_target (SlSession *self, SlHighlight *highlight, int direction, guint *out)
{
  SlTimelineModel *model = sl_session_get_model (self);
  guint n = sl_highlight_get_n (highlight);
  guint at = sl_highlight_find (highlight, model, sl_session_get_selected_event (self));

  if (at == G_MAXUINT)
    {
      guint first = sl_highlight_first_at (highlight, sl_session_get_visible_range (self)->start);

      if (direction > 0 && first < n)
        return *out = first, TRUE;
      if (direction < 0 && first > 0)
        return *out = first - 1, TRUE;
      return FALSE;
    }
  if (direction > 0 && at + 1 < n)
    return *out = at + 1, TRUE;
  if (direction < 0 && at > 0)
    return *out = at - 1, TRUE;
  return FALSE;
}

gboolean
sl_session_step_highlight (SlSession *self, int direction)
{
  SlHighlight *highlight;
  guint target;

  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);

  highlight = sl_session_get_highlight (self);
  if (highlight == NULL || !step_target (self, highlight, direction, &target))
    return FALSE;
  return sl_session_show_highlighted (self, target);
}
