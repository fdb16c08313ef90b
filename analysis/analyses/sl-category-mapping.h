/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-category-mapping.h: gputrc2graph's kernel-to-category mapping CSV.
 *
 * vLLM's gputrc2graph writes result.csv with the columns
 * Model_Engine,Category,Instances,Name,Elapsed Time (sec): one row per
 * kernel name and a "CPU(non-GPU)" row, sorted by category; times are
 * seconds as Python prints a float.  This writes the same file from a
 * category summary, so its users can diff the two. */
#pragma once

#include <glib.h>
#include "sl-category-summary.h"

G_BEGIN_DECLS

/* @model_engine: the first column ("llama_vllm_report1_0").  The
 * CPU(non-GPU) row is gputrc2graph's: the wall time (0 without one) and the
 * GPU time each rounded to 0.1 s, the wall time raised to the GPU time when
 * below it, then subtracted.  Returns (transfer full) the CSV text. */
char  *sl_category_mapping_csv  (const SlCategorySummary *summary,
                                 const char              *model_engine);

/* The shortest text that reads back as @value, in Python's repr() form
 * ("0.000123", "2.5e-06", "1.0"). */
char  *sl_python_float_repr     (double value);

/* Python's round(@value, 1). */
double sl_python_round1         (double value);

G_END_DECLS
