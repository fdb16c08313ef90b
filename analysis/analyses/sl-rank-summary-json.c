/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-rank-summary-json.c: the summary file ("summarize -o"), written;
 * sl-rank-summary-read.c reads it back. */
#include "sl-rank-summary.h"
#include "sl-json.h"

static void
add_step (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlRankStep *st = item;

  json_builder_begin_object (b);
  sl_json_member_int (b, "index", st->index);
  sl_json_member_int (b, "start_ns", st->start_ns);
  sl_json_member_int (b, "end_ns", st->end_ns);
  sl_json_member_int (b, "busy_ns", st->busy_ns);
  sl_json_member_int (b, "nccl_ns", st->nccl_ns);
  sl_json_member_int (b, "nccl_wait_ns", st->nccl_wait_ns);
  sl_json_member_int (b, "idle_ns", st->idle_ns);
  sl_json_member_int (b, "kernels", (gint64) st->kernels);
  json_builder_end_object (b);
}

static void
add_kernel (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlRankKernel *k = item;

  json_builder_begin_object (b);
  sl_json_member_string (b, "name", k->name);
  sl_json_member_int (b, "total_ns", k->total_ns);
  sl_json_member_int (b, "instances", (gint64) k->instances);
  json_builder_end_object (b);
}

static void
add_gpu (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlRankGpu *g = item;

  json_builder_begin_object (b);
  sl_json_member_int (b, "device", g->device);
  sl_json_member_string (b, "name", g->name);
  json_builder_end_object (b);
}

JsonNode *
sl_rank_summary_to_json (const SlRankSummary *sum)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_string (b, "format", SL_RANK_SUMMARY_FORMAT_NAME);
  sl_json_member_int (b, "version", SL_RANK_SUMMARY_FORMAT);
  sl_json_member_string (b, "path", sum->path);
  sl_json_member_int_or_null (b, "rank", sum->rank >= 0, sum->rank);
  sl_json_member_string (b, "rank_source", sum->rank_source);
  sl_json_member_int (b, "session_start_utc_ns", sum->session_utc_ns);
  json_builder_set_member_name (b, "iterations");
  json_builder_begin_object (b);
  sl_json_member_string (b, "method", sum->method);
  sl_json_member_array (b, "steps", sum->steps, sum->n_steps, sizeof (SlRankStep), add_step, NULL);
  json_builder_end_object (b);
  sl_json_member_int (b, "kernel_total_ns", sum->kernel_total_ns);
  sl_json_member_array (b, "top_kernels", sum->kernels, sum->n_kernels, sizeof (SlRankKernel), add_kernel, NULL);
  sl_json_member_named_values (b, "categories", "total_ns", sum->categories, sum->n_categories,
                               sizeof (SlRankCategory), G_STRUCT_OFFSET (SlRankCategory, name),
                               G_STRUCT_OFFSET (SlRankCategory, total_ns));
  sl_json_member_array (b, "gpus", sum->gpus, sum->n_gpus, sizeof (SlRankGpu), add_gpu, NULL);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
