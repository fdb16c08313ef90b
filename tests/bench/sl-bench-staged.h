/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-staged.h: "first_frame_ms" and "full_load_ms" of sightline-bench. */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Loads @path as the application does, staged, and times it from the
 * start: to the first offscreen 1920x1080 frame of the GPU rows (the GPU
 * profile handed out, its timeline model built, one frame drawn), and to
 * the complete profile.  Adds "first_frame_ms", "full_load_ms" and
 * "staged_ms" (every step) to the object being built in @builder; FALSE if
 * the load failed. */
gboolean bench_staged (const char *path, JsonBuilder *builder);

G_END_DECLS
