/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-summary-page.c: the side panel's scope summary page.  A placeholder until
 * the page lands (issue 11): it follows the session and says so. */
#include "sl-summary-page.h"

#include <glib/gi18n.h>

struct _SlSummaryPage {
  GtkWidget  parent_instance;

  GtkWidget *label;
  SlSession *session;
};

enum { PROP_0, PROP_SESSION, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SlSummaryPage, sl_summary_page, GTK_TYPE_WIDGET)

static void
sl_summary_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  SlSummaryPage *self = SL_SUMMARY_PAGE (object);

  if (prop_id == PROP_SESSION)
    g_value_set_object (value, self->session);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
sl_summary_page_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  SlSummaryPage *self = SL_SUMMARY_PAGE (object);

  if (prop_id == PROP_SESSION)
    g_set_object (&self->session, g_value_get_object (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
sl_summary_page_dispose (GObject *object)
{
  SlSummaryPage *self = SL_SUMMARY_PAGE (object);

  g_clear_object (&self->session);
  g_clear_pointer (&self->label, gtk_widget_unparent);
  G_OBJECT_CLASS (sl_summary_page_parent_class)->dispose (object);
}

static void
sl_summary_page_class_init (SlSummaryPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sl_summary_page_dispose;
  object_class->get_property = sl_summary_page_get_property;
  object_class->set_property = sl_summary_page_set_property;
  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SL_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
sl_summary_page_init (SlSummaryPage *self)
{
  self->label = gtk_label_new (_("The summary is not built yet."));
  gtk_widget_add_css_class (self->label, "dim-label");
  gtk_widget_set_parent (self->label, GTK_WIDGET (self));
}

GtkWidget *
sl_summary_page_new (void)
{
  return g_object_new (SL_TYPE_SUMMARY_PAGE, NULL);
}
