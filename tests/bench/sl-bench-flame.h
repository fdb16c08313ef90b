/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-flame.h: the "flame_ms" section of sightline-bench. */
#pragma once

#include <json-glib/json-glib.h>

#include "sl-profile.h"
#include "sl-highlight.h"

G_BEGIN_DECLS

/* Lays out the flame stack of the whole profile, then renders a full frame
 * of each mode into a 1920x400 image surface; adds {"stack": ms, "flame":
 * ms, "layout": ms, ...} to @builder. */
void bench_flame (SlProfile *profile, JsonBuilder *builder);

/* (transfer full) the matches of a search for @pattern, highlighted as the
 * search page does (sl-bench-search.c). */
SlHighlight *sl_bench_search_highlight (SlTimelineModel *model, const char *pattern);

G_END_DECLS
