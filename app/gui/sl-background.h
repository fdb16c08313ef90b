/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-background.h: the priority of the views' worker threads. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Called first in a view's worker (a GTask thread): the thread runs at the
 * profile loader's nice value from then on, so that the main loop, at 0,
 * wins a core whenever it has a frame to draw. */
void sl_background_thread (void);

G_END_DECLS
