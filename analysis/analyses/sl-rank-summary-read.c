/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-rank-summary-read.c: a summary file read back, every member checked.
 *
 * Summaries come from other machines (a cluster's scheduler writes them,
 * by the thousand), so nothing in one is trusted: a member of the wrong
 * type, a missing one or a value out of the limits of sl-rank-summary.h
 * is an error naming the member ("iterations.steps[3].end_ns: …"), never
 * a crash, an overflow or a huge allocation in sl_ranks_compute. */
#include "sl-rank-summary.h"

#include <glib/gi18n-lib.h>

/* A JSON value as the messages name it. */
static const char *
kind_of (JsonNode *n)
{
  if (JSON_NODE_HOLDS_NULL (n))
    return _("null");
  if (JSON_NODE_HOLDS_OBJECT (n))
    return _("an object");
  if (JSON_NODE_HOLDS_ARRAY (n))
    return _("an array");
  switch (json_node_get_value_type (n))
    {
    case G_TYPE_STRING: return _("a string");
    case G_TYPE_BOOLEAN: return _("a boolean");
    case G_TYPE_DOUBLE: return _("a number with a fraction or out of range");
    default: return _("a number");
    }
}

static void
fail (GError **error, const char *where, const char *problem)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s%s%s", where, *where ? ": " : "", problem);
}

/* Member @key of @o, or an error naming @where when absent. */
static JsonNode *
member (JsonObject *o, const char *where, const char *key, GError **error)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL)
    {
      g_autofree char *problem = g_strdup_printf (_("missing “%s”"), key);
      fail (error, where, problem);
    }
  return n;
}

static char *
path_of (const char *where, const char *key)
{
  return g_strdup_printf ("%s%s%s", where, *where ? "." : "", key);
}

/* Integer member @key in [@min, @max]; @nullable: null reads as @min - 1. */
static gboolean
get_int (JsonObject *o, const char *where, const char *key, gint64 min, gint64 max, gboolean nullable,
         gint64 *out, GError **error)
{
  JsonNode *n = member (o, where, key, error);
  g_autofree char *at = path_of (where, key);
  g_autofree char *problem = NULL;

  if (n == NULL)
    return FALSE;
  if (nullable && JSON_NODE_HOLDS_NULL (n))
    {
      *out = min - 1;
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64)
    problem = g_strdup_printf (_("expected an integer, found %s"), kind_of (n));
  else if ((*out = json_node_get_int (n)) < min || *out > max)
    {
      g_autofree char *v = g_strdup_printf ("%" G_GINT64_FORMAT, *out);
      g_autofree char *lo = g_strdup_printf ("%" G_GINT64_FORMAT, min);
      g_autofree char *hi = g_strdup_printf ("%" G_GINT64_FORMAT, max);
      /* Translators: a value, then the least and the greatest allowed */
      problem = g_strdup_printf (_("%s is out of range (%s to %s)"), v, lo, hi);
    }
  if (problem != NULL)
    fail (error, at, problem);
  return problem == NULL;
}

/* String member @key (a copy; NULL for null when @nullable). */
static gboolean
get_string (JsonObject *o, const char *where, const char *key, gboolean nullable, char **out,
            GError **error)
{
  JsonNode *n = member (o, where, key, error);
  g_autofree char *at = path_of (where, key);
  g_autofree char *problem = NULL;

  *out = NULL;
  if (n == NULL)
    return FALSE;
  if (nullable && JSON_NODE_HOLDS_NULL (n))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    {
      problem = g_strdup_printf (_("expected a string, found %s"), kind_of (n));
      fail (error, at, problem);
      return FALSE;
    }
  *out = g_strdup (json_node_get_string (n));
  return TRUE;
}

static JsonObject *
as_object (JsonNode *n, const char *at, GError **error)
{
  g_autofree char *problem = NULL;

  if (n != NULL && JSON_NODE_HOLDS_OBJECT (n))
    return json_node_get_object (n);
  if (n != NULL)
    {
      problem = g_strdup_printf (_("expected an object, found %s"), kind_of (n));
      fail (error, at, problem);
    }
  return NULL;
}

/* Object member @key of @o. */
static JsonObject *
get_object (JsonObject *o, const char *where, const char *key, GError **error)
{
  g_autofree char *at = path_of (where, key);

  return as_object (member (o, where, key, error), at, error);
}

/* Array member @key of @o, of at most @max elements (its length in @n). */
static JsonArray *
get_array (JsonObject *o, const char *where, const char *key, guint max, guint *n, GError **error)
{
  JsonNode *node = member (o, where, key, error);
  g_autofree char *at = path_of (where, key);
  g_autofree char *problem = NULL;

  *n = 0;
  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    problem = g_strdup_printf (_("expected an array, found %s"), kind_of (node));
  else if ((*n = json_array_get_length (json_node_get_array (node))) > max)
    problem = g_strdup_printf (_("%u elements, more than the %u a summary may hold"), *n, max);
  if (problem == NULL)
    return json_node_get_array (node);
  *n = 0;
  fail (error, at, problem);
  return NULL;
}

/* Element @i of @a, an object; its place ("top_kernels[3]") in @at. */
static JsonObject *
element (JsonArray *a, const char *where, guint i, char **at, GError **error)
{
  *at = g_strdup_printf ("%s[%u]", where, i);
  return as_object (json_array_get_element (a, i), *at, error);
}

#define SPAN SL_RANK_SUMMARY_MAX_SPAN_NS
#define TOTAL (SL_RANK_SUMMARY_MAX_SPAN_NS * SL_RANK_SUMMARY_MAX_GPUS)

/* The times of one step; @prev: the index before it (-1 for the first). */
static gboolean
read_step (JsonObject *s, const char *at, gint64 prev, SlRankStep *st, GError **error)
{
  gint64 index, kernels;

  if (s == NULL
      || !get_int (s, at, "index", 0, SL_RANK_SUMMARY_MAX_STEPS - 1, FALSE, &index, error)
      || !get_int (s, at, "start_ns", -SPAN, SPAN, FALSE, &st->start_ns, error)
      || !get_int (s, at, "end_ns", -SPAN, SPAN, FALSE, &st->end_ns, error)
      || !get_int (s, at, "busy_ns", 0, TOTAL, FALSE, &st->busy_ns, error)
      || !get_int (s, at, "nccl_ns", 0, TOTAL, FALSE, &st->nccl_ns, error)
      || !get_int (s, at, "nccl_wait_ns", 0, TOTAL, FALSE, &st->nccl_wait_ns, error)
      || !get_int (s, at, "idle_ns", 0, TOTAL, FALSE, &st->idle_ns, error)
      || !get_int (s, at, "kernels", 0, G_MAXINT64, FALSE, &kernels, error))
    return FALSE;
  st->index = (guint) index;
  st->kernels = (guint64) kernels;
  if (index <= prev)
    {
      g_autofree char *where = g_strdup_printf ("%s.index", at);
      fail (error, where, _("indices must be increasing (each iteration once)"));
      return FALSE;
    }
  if (st->end_ns < st->start_ns)
    fail (error, at, _("the step ends before it starts"));
  return st->end_ns >= st->start_ns;
}

static gboolean
read_steps (SlRankSummary *sum, JsonObject *o, GError **error)
{
  JsonObject *its = get_object (o, "", "iterations", error);
  JsonArray *a;
  gint64 wait = 0;

  if (its == NULL || !get_string (its, "iterations", "method", TRUE, &sum->method, error)
      || (a = get_array (its, "iterations", "steps", SL_RANK_SUMMARY_MAX_STEPS, &sum->n_steps, error)) == NULL)
    return FALSE;
  sum->steps = g_new0 (SlRankStep, sum->n_steps);
  for (guint i = 0; i < sum->n_steps; i++)
    {
      g_autofree char *at = NULL;
      JsonObject *s = element (a, "iterations.steps", i, &at, error);
      if (!read_step (s, at, i > 0 ? (gint64) sum->steps[i - 1].index : -1, &sum->steps[i], error))
        return FALSE;
      /* ranks sums a rank's NCCL wait over its steps: keep the sum in range */
      if ((wait += sum->steps[i].nccl_wait_ns) > TOTAL)
        {
          fail (error, at, _("the NCCL wait of the steps adds up beyond any session"));
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
read_kernels (SlRankSummary *sum, JsonObject *o, GError **error)
{
  JsonArray *a = get_array (o, "", "top_kernels", G_MAXINT32, &sum->n_kernels, error);

  if (a == NULL)
    return FALSE;
  sum->kernels = g_new0 (SlRankKernel, sum->n_kernels);
  for (guint i = 0; i < sum->n_kernels; i++)
    {
      g_autofree char *at = NULL;
      JsonObject *k = element (a, "top_kernels", i, &at, error);
      gint64 instances;
      if (k == NULL || !get_string (k, at, "name", FALSE, &sum->kernels[i].name, error)
          || !get_int (k, at, "total_ns", 0, TOTAL, FALSE, &sum->kernels[i].total_ns, error)
          || !get_int (k, at, "instances", 0, G_MAXINT64, FALSE, &instances, error))
        return FALSE;
      sum->kernels[i].instances = (guint64) instances;
    }
  return TRUE;
}

static gboolean
read_categories (SlRankSummary *sum, JsonObject *o, GError **error)
{
  JsonArray *a = get_array (o, "", "categories", G_MAXINT32, &sum->n_categories, error);

  if (a == NULL)
    return FALSE;
  sum->categories = g_new0 (SlRankCategory, sum->n_categories);
  for (guint i = 0; i < sum->n_categories; i++)
    {
      g_autofree char *at = NULL;
      JsonObject *c = element (a, "categories", i, &at, error);
      if (c == NULL || !get_string (c, at, "name", FALSE, &sum->categories[i].name, error)
          || !get_int (c, at, "total_ns", 0, TOTAL, FALSE, &sum->categories[i].total_ns, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
read_gpus (SlRankSummary *sum, JsonObject *o, GError **error)
{
  JsonArray *a = get_array (o, "", "gpus", SL_RANK_SUMMARY_MAX_GPUS, &sum->n_gpus, error);

  if (a == NULL)
    return FALSE;
  sum->gpus = g_new0 (SlRankGpu, sum->n_gpus);
  for (guint i = 0; i < sum->n_gpus; i++)
    {
      g_autofree char *at = NULL;
      JsonObject *g = element (a, "gpus", i, &at, error);
      gint64 device;
      if (g == NULL || !get_int (g, at, "device", 0, G_MAXUINT16, FALSE, &device, error)
          || !get_string (g, at, "name", TRUE, &sum->gpus[i].name, error))
        return FALSE;
      sum->gpus[i].device = (guint32) device;
    }
  return TRUE;
}

/* The format and version, first: a file of another kind or version says so
 * rather than which of its members look wrong. */
static gboolean
read_header (JsonNode *node, JsonObject **o, GError **error)
{
  g_autofree char *format = NULL, *problem = NULL;
  gint64 version;

  if (node == NULL)
    {
      fail (error, "", _("the file is empty"));
      return FALSE;
    }
  if ((*o = as_object (node, _("the top level"), error)) == NULL
      || !get_string (*o, "", "format", FALSE, &format, error))
    return FALSE;
  if (!g_str_equal (format, SL_RANK_SUMMARY_FORMAT_NAME))
    {
      problem = g_strdup_printf (_("not a Sightline rank summary (format “%s”, expected “%s”)"),
                                 format, SL_RANK_SUMMARY_FORMAT_NAME);
      fail (error, "", problem);
      return FALSE;
    }
  if (!get_int (*o, "", "version", 0, G_MAXINT64, FALSE, &version, error))
    return FALSE;
  if (version != SL_RANK_SUMMARY_FORMAT)
    {
      g_autofree char *v = g_strdup_printf ("%" G_GINT64_FORMAT, version);
      problem = g_strdup_printf (_("summary version %s is not supported (this Sightline reads version %d: "
                                   "write it again with this sightline-cli summarize)"),
                                 v, SL_RANK_SUMMARY_FORMAT);
      fail (error, "", problem);
    }
  return version == SL_RANK_SUMMARY_FORMAT;
}

SlRankSummary *
sl_rank_summary_from_json (JsonNode *node, GError **error)
{
  g_autoptr(SlRankSummary) sum = g_new0 (SlRankSummary, 1);
  JsonObject *o;
  gint64 rank;

  if (!read_header (node, &o, error)
      || !get_string (o, "", "path", TRUE, &sum->path, error)
      || !get_int (o, "", "rank", 0, G_MAXINT32, TRUE, &rank, error)
      || !get_string (o, "", "rank_source", TRUE, &sum->rank_source, error)
      || !get_int (o, "", "session_start_utc_ns", 0, SL_RANK_SUMMARY_MAX_UTC_NS, FALSE,
                   &sum->session_utc_ns, error)
      || !get_int (o, "", "kernel_total_ns", 0, TOTAL, FALSE, &sum->kernel_total_ns, error)
      || !read_steps (sum, o, error) || !read_kernels (sum, o, error)
      || !read_categories (sum, o, error) || !read_gpus (sum, o, error))
    return NULL;
  sum->rank = (int) rank;
  return g_steal_pointer (&sum);
}
