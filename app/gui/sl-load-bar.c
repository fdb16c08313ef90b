/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-load-bar.c: the CPU side of a staged load, under the header bar.
 *
 * While the CPU rows load, the bar follows the loader's phase and fraction
 * (bound, like the loading page) and offers Cancel; afterwards it stays
 * only if they are missing, and says why.  Nothing in it animates on its
 * own (no spinner): with software rendering every frame costs a core's
 * tens of milliseconds that the loader would rather have. */
#include "sl-load-bar.h"

#include <glib/gi18n.h>

struct _SlLoadBar {
  GtkWidget      parent_instance;

  GtkWidget     *revealer;
  GtkWidget     *icon;
  GtkWidget     *label;
  GtkWidget     *progress_bar;
  GtkWidget     *button;

  GBindingGroup *bindings;     /* the loader's progress, while loading */
  const char    *state;        /* static string */
};

G_DEFINE_FINAL_TYPE (SlLoadBar, sl_load_bar, GTK_TYPE_WIDGET)

static void
set_button (SlLoadBar *self, const char *label, const char *action)
{
  gtk_button_set_label (GTK_BUTTON (self->button), label);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->button), action);
}

void
sl_load_bar_show_progress (SlLoadBar       *self,
                           SlProfileLoader *loader)
{
  g_return_if_fail (SL_IS_LOAD_BAR (self));
  g_return_if_fail (SL_IS_PROFILE_LOADER (loader));

  self->state = "loading";
  g_binding_group_set_source (self->bindings, loader);
  gtk_widget_set_visible (self->icon, FALSE);
  gtk_widget_set_visible (self->progress_bar, TRUE);
  set_button (self, _("_Cancel"), "win.cancel-load");
  gtk_widget_set_tooltip_text (self->button, _("Stop loading the CUDA API calls and NVTX ranges; the GPU rows stay"));
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->revealer), TRUE);
}

void
sl_load_bar_show_missing (SlLoadBar    *self,
                          const GError *error)
{
  g_autofree char *text = NULL;

  g_return_if_fail (SL_IS_LOAD_BAR (self));

  self->state = error != NULL ? "failed" : "cancelled";
  g_binding_group_set_source (self->bindings, NULL);
  gtk_widget_set_visible (self->progress_bar, FALSE);
  gtk_image_set_from_icon_name (GTK_IMAGE (self->icon), error != NULL ? "dialog-warning-symbolic"
                                                                      : "dialog-information-symbolic");
  gtk_widget_set_visible (self->icon, TRUE);
  if (error != NULL)
    /* Translators: %s says why, and names the file */
    text = g_strdup_printf (_("Only the GPU rows are shown: the CUDA API calls and NVTX ranges could not be loaded. %s"),
                            error->message);
  else
    text = g_strdup (_("Only the GPU rows are shown: loading the CUDA API calls and NVTX ranges was cancelled."));
  gtk_label_set_text (GTK_LABEL (self->label), text);
  set_button (self, error != NULL ? _("_Try Again") : _("_Load Them"), "win.reload");
  gtk_widget_set_tooltip_text (self->button, _("Open the profile again, with every row"));
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->revealer), TRUE);
}

void
sl_load_bar_show_text (SlLoadBar  *self,
                       const char *text,
                       gboolean    failed)
{
  g_return_if_fail (SL_IS_LOAD_BAR (self));

  self->state = failed ? "failed" : "loading";
  g_binding_group_set_source (self->bindings, NULL);
  gtk_widget_set_visible (self->progress_bar, FALSE);
  gtk_image_set_from_icon_name (GTK_IMAGE (self->icon), failed ? "dialog-warning-symbolic"
                                                               : "document-open-symbolic");
  gtk_widget_set_visible (self->icon, TRUE);
  gtk_label_set_text (GTK_LABEL (self->label), text);
  if (failed)
    set_button (self, _("_Try Again"), "win.reload");
  else
    set_button (self, _("_Cancel"), "win.cancel-load");
  gtk_widget_set_tooltip_text (self->button, failed ? _("Open the profile again, with every row")
                                                    : _("Stop reading them; the rows shown stay"));
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->revealer), TRUE);
}

void
sl_load_bar_hide (SlLoadBar *self)
{
  g_return_if_fail (SL_IS_LOAD_BAR (self));

  self->state = "hidden";
  g_binding_group_set_source (self->bindings, NULL);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->revealer), FALSE);
}

const char *
sl_load_bar_get_state (SlLoadBar *self)
{
  g_return_val_if_fail (SL_IS_LOAD_BAR (self), NULL);
  return self->state;
}

const char *
sl_load_bar_get_text (SlLoadBar *self)
{
  g_return_val_if_fail (SL_IS_LOAD_BAR (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->label));
}

GtkWidget *
sl_load_bar_get_button (SlLoadBar *self)
{
  g_return_val_if_fail (SL_IS_LOAD_BAR (self), NULL);
  return self->button;
}

GtkWidget *
sl_load_bar_new (void)
{
  return g_object_new (SL_TYPE_LOAD_BAR, NULL);
}

static void
sl_load_bar_dispose (GObject *object)
{
  SlLoadBar *self = SL_LOAD_BAR (object);

  g_clear_object (&self->bindings);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_LOAD_BAR);
  G_OBJECT_CLASS (sl_load_bar_parent_class)->dispose (object);
}

static void
sl_load_bar_class_init (SlLoadBarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = sl_load_bar_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sightline/Sightline/sl-load-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, SlLoadBar, revealer);
  gtk_widget_class_bind_template_child (widget_class, SlLoadBar, icon);
  gtk_widget_class_bind_template_child (widget_class, SlLoadBar, label);
  gtk_widget_class_bind_template_child (widget_class, SlLoadBar, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SlLoadBar, button);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  /* Adwaita styles "actionbar > revealer > box" like GtkActionBar's */
  gtk_widget_class_set_css_name (widget_class, "actionbar");
  /* a bar that reports progress or a result: a screen reader's "status" */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_STATUS);
}

static void
sl_load_bar_init (SlLoadBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Loading…"), -1);
  self->state = "hidden";
  self->bindings = g_binding_group_new ();
  g_binding_group_bind (self->bindings, "fraction", self->progress_bar, "fraction", G_BINDING_SYNC_CREATE);
  g_binding_group_bind (self->bindings, "message", self->label, "label", G_BINDING_SYNC_CREATE);
}
