/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-flame.h: the "flame_ms" section of sightline-bench. */
#pragma once

#include <json-glib/json-glib.h>

#include "sl-profile.h"

G_BEGIN_DECLS

/* Lays out the flame stack of the whole profile, then renders a full frame
 * of each mode into a 1920x400 image surface; adds {"stack": ms, "flame":
 * ms, "layout": ms, ...} to @builder. */
void bench_flame (SlProfile *profile, JsonBuilder *builder);

G_END_DECLS
