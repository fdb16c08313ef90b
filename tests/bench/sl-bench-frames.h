/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-frames.h: the "frame_ms" section of sightline-bench. */
#pragma once

#include <json-glib/json-glib.h>

#include "sl-profile.h"

G_BEGIN_DECLS

/* Renders the timeline into an offscreen 1920x1080 image surface: the whole
 * profile, then 50 random windows from 1 us to the whole run; adds one object
 * of timings (ms) and level-of-detail memory to @builder. */
void bench_frames (SlProfile *profile, JsonBuilder *builder);

G_END_DECLS
