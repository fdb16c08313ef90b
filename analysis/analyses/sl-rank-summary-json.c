/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-rank-summary-json.c: the summary file ("summarize -o"), both ways. */
#include "sl-rank-summary.h"
#include "sl-json.h"

#define FORMAT_NAME "sightline-rank-summary"

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
  sl_json_member_string (b, "format", FORMAT_NAME);
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

/* ---- reading ---------------------------------------------------------------- */

static char *
dup_string (JsonObject *o, const char *member)
{
  JsonNode *n = json_object_get_member (o, member);

  return n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING
         ? g_strdup (json_node_get_string (n)) : NULL;
}

/* The elements of array @member of @o that are objects (none when absent). */
static guint
objects_of (JsonObject *o, const char *member, JsonArray **out)
{
  JsonNode *n = o != NULL ? json_object_get_member (o, member) : NULL;

  *out = n != NULL && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
  return *out != NULL ? json_array_get_length (*out) : 0;
}

static void
read_steps (SlRankSummary *sum, JsonObject *its)
{
  JsonArray *a;

  sum->method = its != NULL ? dup_string (its, "method") : NULL;
  sum->n_steps = objects_of (its, "steps", &a);
  sum->steps = g_new0 (SlRankStep, sum->n_steps);
  for (guint i = 0; i < sum->n_steps; i++)
    {
      JsonObject *s = json_array_get_object_element (a, i);
      SlRankStep *st = &sum->steps[i];
      st->index = (guint) json_object_get_int_member_with_default (s, "index", i);
      st->start_ns = json_object_get_int_member_with_default (s, "start_ns", 0);
      st->end_ns = json_object_get_int_member_with_default (s, "end_ns", 0);
      st->busy_ns = json_object_get_int_member_with_default (s, "busy_ns", 0);
      st->nccl_ns = json_object_get_int_member_with_default (s, "nccl_ns", 0);
      st->nccl_wait_ns = json_object_get_int_member_with_default (s, "nccl_wait_ns", 0);
      st->idle_ns = json_object_get_int_member_with_default (s, "idle_ns", 0);
      st->kernels = (guint64) json_object_get_int_member_with_default (s, "kernels", 0);
    }
}

static void
read_lists (SlRankSummary *sum, JsonObject *o)
{
  JsonArray *a;

  sum->n_kernels = objects_of (o, "top_kernels", &a);
  sum->kernels = g_new0 (SlRankKernel, sum->n_kernels);
  for (guint i = 0; i < sum->n_kernels; i++)
    {
      JsonObject *k = json_array_get_object_element (a, i);
      sum->kernels[i].name = dup_string (k, "name");
      sum->kernels[i].total_ns = json_object_get_int_member_with_default (k, "total_ns", 0);
      sum->kernels[i].instances = (guint64) json_object_get_int_member_with_default (k, "instances", 0);
    }
  sum->n_categories = objects_of (o, "categories", &a);
  sum->categories = g_new0 (SlRankCategory, sum->n_categories);
  for (guint i = 0; i < sum->n_categories; i++)
    {
      JsonObject *c = json_array_get_object_element (a, i);
      sum->categories[i].name = dup_string (c, "name");
      sum->categories[i].total_ns = json_object_get_int_member_with_default (c, "total_ns", 0);
    }
  sum->n_gpus = objects_of (o, "gpus", &a);
  sum->gpus = g_new0 (SlRankGpu, sum->n_gpus);
  for (guint i = 0; i < sum->n_gpus; i++)
    {
      JsonObject *g = json_array_get_object_element (a, i);
      sum->gpus[i].device = (guint32) json_object_get_int_member_with_default (g, "device", 0);
      sum->gpus[i].name = dup_string (g, "name");
    }
}

SlRankSummary *
sl_rank_summary_from_json (JsonNode *node, GError **error)
{
  JsonObject *o = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  g_autofree char *format = o != NULL ? dup_string (o, "format") : NULL;
  JsonNode *its, *rank;
  SlRankSummary *sum;

  if (g_strcmp0 (format, FORMAT_NAME) != 0
      || json_object_get_int_member_with_default (o, "version", 0) != SL_RANK_SUMMARY_FORMAT)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "not a Sightline rank summary (version %d)",
                   SL_RANK_SUMMARY_FORMAT);
      return NULL;
    }
  sum = g_new0 (SlRankSummary, 1);
  sum->path = dup_string (o, "path");
  rank = json_object_get_member (o, "rank");
  sum->rank = rank != NULL && JSON_NODE_HOLDS_VALUE (rank) ? (int) json_node_get_int (rank) : -1;
  sum->rank_source = dup_string (o, "rank_source");
  sum->session_utc_ns = json_object_get_int_member_with_default (o, "session_start_utc_ns", 0);
  sum->kernel_total_ns = json_object_get_int_member_with_default (o, "kernel_total_ns", 0);
  its = json_object_get_member (o, "iterations");
  read_steps (sum, its != NULL && JSON_NODE_HOLDS_OBJECT (its) ? json_node_get_object (its) : NULL);
  read_lists (sum, o);
  return sum;
}
