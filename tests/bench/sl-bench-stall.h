/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-stall.h: the "stall_ms" section of sightline-bench (GUI builds). */
#pragma once

#include <json-glib/json-glib.h>
#include "sightline.h"

void bench_stall (SlProfile *profile, JsonBuilder *builder);
