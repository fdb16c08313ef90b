/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-ranks.c: rank x iteration table, stragglers, NCCL wait. */
#include <stdlib.h>

#include "sl-ranks.h"
#include "sl-json.h"

static int
cmp_i64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The median of @v[0, n) (sorts it); the mean of the middle two for even n. */
static gint64
median_of (gint64 *v, guint n)
{
  if (n == 0)
    return 0;
  qsort (v, n, sizeof *v, cmp_i64);
  return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

typedef struct {
  SlRankSummary *sum;
  gint64         manual;
  guint          order;
} Input;

static int
by_rank (const void *a, const void *b)
{
  const Input *x = a, *y = b;

  if ((x->sum->rank < 0) != (y->sum->rank < 0))
    return x->sum->rank < 0 ? 1 : -1;
  if (x->sum->rank != y->sum->rank)
    return x->sum->rank < y->sum->rank ? -1 : 1;
  return (x->order > y->order) - (x->order < y->order);
}

static void
fill_row (SlRanksRow *row, const SlRankSummary *sum, gint64 offset, guint n_iterations)
{
  g_autofree gint64 *durs = g_new (gint64, sum->n_steps + 1);
  guint n = 0;

  row->rank = sum->rank;
  row->path = sum->path;
  row->offset_ns = offset;
  row->cells = g_new0 (SlRanksCell, n_iterations);
  for (guint s = 0; s < sum->n_steps; s++)
    {
      const SlRankStep *st = &sum->steps[s];
      SlRanksCell *c = &row->cells[st->index];
      c->present = TRUE;
      c->start_ns = st->start_ns + offset;
      c->end_ns = st->end_ns + offset;
      c->nccl_wait_ns = st->nccl_wait_ns;
      row->nccl_wait_ns += st->nccl_wait_ns;
      durs[n++] = st->end_ns - st->start_ns;
    }
  row->n_steps = n;
  row->step_median_ns = median_of (durs, n);
}

static void
find_straggler (SlRanks *ranks, guint i)
{
  g_autofree gint64 *ends = g_new (gint64, ranks->n_rows);
  SlRanksStraggler *s = &ranks->stragglers[i];
  gint64 last = G_MININT64;
  guint n = 0;

  s->rank = G_MAXUINT;
  for (guint r = 0; r < ranks->n_rows; r++)
    {
      const SlRanksCell *c = &ranks->rows[r].cells[i];
      if (!c->present)
        continue;
      ends[n++] = c->end_ns;
      if (c->end_ns > last)
        {
          last = c->end_ns;
          s->rank = r;
        }
    }
  s->median_end_ns = median_of (ends, n);
  s->late_ns = n > 0 ? last - s->median_end_ns : 0;
  if (s->late_ns <= 0)
    s->rank = G_MAXUINT;
}

SlRanks *
sl_ranks_compute (SlRankSummary *const *summaries, guint n, const gint64 *offsets_ns)
{
  g_autofree Input *in = g_new0 (Input, n + 1);
  SlRanks *ranks = g_new0 (SlRanks, 1);
  gint64 first_utc = G_MAXINT64;

  for (guint i = 0; i < n; i++)
    {
      in[i] = (Input) { summaries[i], offsets_ns != NULL ? offsets_ns[i] : 0, i };
      first_utc = MIN (first_utc, summaries[i]->session_utc_ns);
      for (guint s = 0; s < summaries[i]->n_steps; s++)
        ranks->n_iterations = MAX (ranks->n_iterations, summaries[i]->steps[s].index + 1);
    }
  qsort (in, n, sizeof *in, by_rank);
  ranks->n_rows = n;
  ranks->rows = g_new0 (SlRanksRow, n);
  for (guint i = 0; i < n; i++)
    fill_row (&ranks->rows[i], in[i].sum, in[i].sum->session_utc_ns - first_utc + in[i].manual,
              ranks->n_iterations);
  ranks->stragglers = g_new0 (SlRanksStraggler, ranks->n_iterations);
  for (guint i = 0; i < ranks->n_iterations; i++)
    find_straggler (ranks, i);
  return ranks;
}

void
sl_ranks_free (SlRanks *ranks)
{
  if (ranks == NULL)
    return;
  for (guint r = 0; r < ranks->n_rows; r++)
    g_free (ranks->rows[r].cells);
  g_free (ranks->rows);
  g_free (ranks->stragglers);
  g_free (ranks);
}

/* ---- JSON ------------------------------------------------------------------- */

static void
add_cell (JsonBuilder *b, guint index, const SlRanksCell *c)
{
  if (!c->present)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  sl_json_member_int (b, "index", index);
  sl_json_member_int (b, "start_ns", c->start_ns);
  sl_json_member_int (b, "end_ns", c->end_ns);
  sl_json_member_int (b, "dur_ns", c->end_ns - c->start_ns);
  sl_json_member_int (b, "nccl_wait_ns", c->nccl_wait_ns);
  json_builder_end_object (b);
}

static void
add_row (JsonBuilder *b, const SlRanks *ranks, const SlRanksRow *row)
{
  json_builder_begin_object (b);
  sl_json_member_int_or_null (b, "rank", row->rank >= 0, row->rank);
  sl_json_member_string (b, "path", row->path);
  sl_json_member_int (b, "offset_ns", row->offset_ns);
  sl_json_member_int_or_null (b, "step_median_ns", row->n_steps > 0, row->step_median_ns);
  sl_json_member_int (b, "nccl_wait_ns", row->nccl_wait_ns);
  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);
  for (guint i = 0; i < ranks->n_iterations; i++)
    add_cell (b, i, &row->cells[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_iteration (JsonBuilder *b, const SlRanks *ranks, guint i)
{
  const SlRanksStraggler *s = &ranks->stragglers[i];

  json_builder_begin_object (b);
  sl_json_member_int (b, "index", i);
  sl_json_member_int (b, "median_end_ns", s->median_end_ns);
  json_builder_set_member_name (b, "straggler");
  if (s->rank == G_MAXUINT)
    json_builder_add_null_value (b);
  else
    {
      const SlRanksRow *row = &ranks->rows[s->rank];
      json_builder_begin_object (b);
      sl_json_member_int_or_null (b, "rank", row->rank >= 0, row->rank);
      sl_json_member_string (b, "path", row->path);
      sl_json_member_int (b, "late_ns", s->late_ns);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
}

JsonNode *
sl_ranks_to_json (const SlRanks *ranks)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "ranks");
  json_builder_begin_array (b);
  for (guint r = 0; r < ranks->n_rows; r++)
    add_row (b, ranks, &ranks->rows[r]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "iterations");
  json_builder_begin_array (b);
  for (guint i = 0; i < ranks->n_iterations; i++)
    add_iteration (b, ranks, i);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
