/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ui-state.h: small things the window remembers between runs (the side
 * panel's page, whether it is shown), in $XDG_STATE_HOME/sightline/ui.ini.
 * Not the profile's: per-profile state (bookmarks, row layout) lives
 * elsewhere, keyed by the profile's content. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* (transfer full): the value, or a copy of @fallback when unset or unreadable. */
char     *sl_ui_state_get_string  (const char *key,
                                   const char *fallback);
void      sl_ui_state_set_string  (const char *key,
                                   const char *value);
gboolean  sl_ui_state_get_boolean (const char *key,
                                   gboolean    fallback);
void      sl_ui_state_set_boolean (const char *key,
                                   gboolean    value);

G_END_DECLS
