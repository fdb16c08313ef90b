/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-memcpy-summary.c: copies and memsets per kind. */
#include "sl-memcpy-summary.h"
#include "sl-int.h"
#include "sl-json.h"
#include "sl-stats.h"

#define MEMSET_KEY 256

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const SlMemcpyRow *x = a, *y = b;

  return sl_rank_compare (x->total_ns, x->kind, y->total_ns, y->kind);
}

static void
add_copies (const SlFilter *filter, const SlCopies *c, gboolean memset_kind,
            guint64 *count, guint64 *bytes, gint64 *total)
{
  guint first, last;

  sl_filter_span_bounds (filter, &c->spans, 0, c->spans.n, &first, &last);
  for (guint i = first; i < last; i++)
    {
      guint key = memset_kind ? MEMSET_KEY : c->kind[i];
      count[key]++;
      bytes[key] += c->bytes[i];
      total[key] = sl_sat_add (total[key], sl_spans_dur (&c->spans, i));
    }
}

SlMemcpySummary *
sl_memcpy_summary_compute (const SlProfile *profile, const SlFilter *filter)
{
  SlMemcpySummary *self = g_new0 (SlMemcpySummary, 1);
  guint64 count[MEMSET_KEY + 1] = { 0 }, bytes[MEMSET_KEY + 1] = { 0 };
  gint64 total[MEMSET_KEY + 1] = { 0 };

  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *stream = &profile->streams[s];
      if (!sl_filter_match_stream (filter, stream))
        continue;
      add_copies (filter, &stream->memcpy, FALSE, count, bytes, total);
      add_copies (filter, &stream->memset, TRUE, count, bytes, total);
    }

  self->rows = g_new0 (SlMemcpyRow, MEMSET_KEY + 1);
  for (guint k = 0; k <= MEMSET_KEY; k++)
    {
      SlMemcpyRow *row;

      if (count[k] == 0)
        continue;
      row = &self->rows[self->n_rows++];
      row->is_memset = k == MEMSET_KEY;
      row->copy_kind = k == MEMSET_KEY ? 0 : (guint8) k;
      row->kind = k == MEMSET_KEY ? "memset" : sl_memcpy_kind_name ((guint8) k);
      row->count = count[k];
      row->bytes = bytes[k];
      row->total_ns = total[k];
      row->gbps = total[k] > 0 ? (double) bytes[k] / (double) total[k] : 0.0;
      self->count += count[k];
      self->bytes += bytes[k];
      self->total_ns = sl_sat_add (self->total_ns, total[k]);
    }
  qsort (self->rows, self->n_rows, sizeof (SlMemcpyRow), compare_rows);
  return self;
}

void
sl_memcpy_summary_free (SlMemcpySummary *self)
{
  if (self == NULL)
    return;
  g_free (self->rows);
  g_free (self);
}

static void
add_row_json (JsonBuilder *b, gconstpointer item, gconstpointer data)
{
  const SlMemcpyRow *row = item;

  json_builder_begin_object (b);
  sl_json_member_string (b, "kind", row->kind);
  sl_json_member_int (b, "count", (gint64) row->count);
  sl_json_member_int (b, "bytes", (gint64) row->bytes);
  sl_json_member_int (b, "total_ns", row->total_ns);
  sl_json_member_double (b, "gbps", row->gbps);
  json_builder_end_object (b);
}

JsonNode *
sl_memcpy_summary_to_json (const SlMemcpySummary *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  sl_json_member_array (b, "operations", self->rows, self->n_rows, sizeof (SlMemcpyRow), add_row_json, NULL);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
