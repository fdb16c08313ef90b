/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bench-cpu.h: the CPU side's load time on 1 M generated CPU samples. */
#pragma once

#include <json-glib/json-glib.h>

/* Adds "cpu_activity_load_ms" (wall, median of 3), "cpu_activity_load_cpu_ms"
 * (the process's CPU time), "cpu_activity_file_bytes",
 * "cpu_activity_samples", "cpu_activity_stacks", "cpu_activity_bytes_per_sample",
 * "gpu_metrics_load_ms", "gpu_metrics_samples" to @r. */
void sl_bench_cpu (const char *gen, const char *cache_dir, JsonObject *r);
