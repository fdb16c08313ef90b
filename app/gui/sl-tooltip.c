/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-tooltip.c: tooltips set without a round trip to the X server. */
#include "sl-tooltip.h"

#define KEY_TEXT "sl-tooltip-text"

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  const char *text = sl_tooltip_get_text (widget);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
sl_tooltip_set_text (GtkWidget *widget, const char *text)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (text != NULL && *text == '\0')
    text = NULL;
  if (g_strcmp0 (text, sl_tooltip_get_text (widget)) == 0)
    return;
  /* connected once, with the first text */
  if (g_object_get_data (G_OBJECT (widget), KEY_TEXT) == NULL
      && !g_signal_handler_find (widget, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, query_tooltip_cb, NULL))
    g_signal_connect (widget, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  g_object_set_data_full (G_OBJECT (widget), KEY_TEXT, g_strdup (text), g_free);
  gtk_widget_set_has_tooltip (widget, text != NULL);
}

const char *
sl_tooltip_get_text (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  return g_object_get_data (G_OBJECT (widget), KEY_TEXT);
}
