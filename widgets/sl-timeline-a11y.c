/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-a11y.c: the timeline is drawn with cairo, so nothing in it is
 * a widget a screen reader could read: its accessible description carries
 * the view instead, rewritten when the view or the selection changes. */
#include "sl-timeline-a11y.h"
#include "sl-locale-format.h"

#include <glib/gi18n.h>

char *
sl_timeline_a11y_describe (const SlTimelineModel *model,
                           const SlTimeRange     *visible,
                           const SlEventRef      *selected)
{
  GString *text = g_string_new (NULL);
  gint64 origin = model ? model->profile->start_ns : 0;
  gint64 start, end;

  if (model == NULL)
    return g_strdup (_("No profile loaded"));
  if (visible != NULL && visible->end > visible->start)
    {
      g_autofree char *from = sl_locale_duration (visible->start - origin);
      g_autofree char *to = sl_locale_duration (visible->end - origin);
      g_autofree char *span = sl_locale_duration (visible->end - visible->start);
      g_string_append_printf (text, _("Showing %s to %s (%s)."), from, to, span);
    }
  if (selected != NULL && selected->kind != SL_EVENT_NONE &&
      sl_timeline_model_event_span (model, selected, &start, &end))
    {
      g_autofree char *dur = sl_locale_duration (end - start);
      g_autofree char *at = sl_locale_duration (start - origin);
      if (text->len > 0)
        g_string_append_c (text, ' ');
      g_string_append_printf (text, _("Selected: %s, %s at %s."),
                              sl_timeline_model_event_name (model, selected), dur, at);
    }
  else
    g_string_append (text, text->len > 0 ? _(" No event selected.") : _("No event selected."));
  return g_string_free (text, FALSE);
}

void
sl_timeline_a11y_update (GtkWidget *widget, SlSession *session)
{
  g_autofree char *text = NULL;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  text = session ? sl_timeline_a11y_describe (sl_session_get_model (session),
                                              sl_session_get_visible_range (session),
                                              sl_session_get_selected_event (session))
                 : sl_timeline_a11y_describe (NULL, NULL, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}
