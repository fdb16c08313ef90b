/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sightline.h: umbrella header of the analysis library (no GTK). */
#pragma once

/* model/: the immutable profile and its units */
#include "sl-profile.h"
#include "sl-filter.h"
#include "sl-format.h"
#include "sl-lanes.h"
#include "sl-time-range.h"
#include "sl-nvtx-name.h"
/* loader/: reading an export */
#include "sl-profile-loader.h"
#include "sl-kernel-details.h"
#include "sl-content-id.h"
#include "sl-profile-cache.h"
/* analyses/ */
#include "sl-stats.h"
#include "sl-intervals.h"
#include "sl-attribution.h"
#include "sl-categories.h"
#include "sl-kernel-summary.h"
#include "sl-api-summary.h"
#include "sl-nvtx-summary.h"
#include "sl-memcpy-summary.h"
#include "sl-gaps.h"
#include "sl-overlap.h"
#include "sl-nccl.h"
#include "sl-iterations.h"
#include "sl-launch.h"
#include "sl-category-summary.h"
#include "sl-category-mapping.h"
#include "sl-compare.h"
#include "sl-tree.h"
#include "sl-tree-agg.h"
#include "sl-search.h"
#include "sl-work-scope.h"
