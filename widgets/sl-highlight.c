/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-highlight.c: a set of events the views point out together. */
#include "sl-highlight.h"

#include <stdlib.h>

typedef struct {
  SlEventRef event;
  gint64     start;
  gint64     end;
} Entry;

struct _SlHighlight {
  gatomicrefcount ref_count;
  Entry          *entries;       /* by start, then kind, owner, index */
  guint           n;
  char           *label;
  gboolean        dim_others;
};

G_DEFINE_BOXED_TYPE (SlHighlight, sl_highlight, sl_highlight_ref, sl_highlight_unref)

static int
compare_refs (const SlEventRef *a, const SlEventRef *b)
{
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->owner != b->owner)
    return a->owner < b->owner ? -1 : 1;
  return (a->index > b->index) - (a->index < b->index);
}

static int
compare_entries (const void *pa, const void *pb)
{
  const Entry *a = pa, *b = pb;

  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  return compare_refs (&a->event, &b->event);
}

SlHighlight *
sl_highlight_new (SlTimelineModel *model, const SlEventRef *events, guint n_events,
                  const char *label, gboolean dim_others)
{
  SlHighlight *self;

  g_return_val_if_fail (model != NULL, NULL);
  self = g_new0 (SlHighlight, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->entries = g_new (Entry, MAX (n_events, 1));
  for (guint i = 0; i < n_events; i++)
    {
      Entry *e = &self->entries[self->n];

      e->event = events[i];
      if (sl_timeline_model_event_span (model, &events[i], &e->start, &e->end))
        self->n++;
    }
  /* a search hands its matches over in order already: skip the sort */
  for (guint i = 1; i < self->n; i++)
    if (compare_entries (&self->entries[i - 1], &self->entries[i]) > 0)
      {
        qsort (self->entries, self->n, sizeof (Entry), compare_entries);
        break;
      }
  self->label = g_strdup (label != NULL ? label : "");
  self->dim_others = dim_others;
  return self;
}

SlHighlight *
sl_highlight_ref (SlHighlight *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
sl_highlight_unref (SlHighlight *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->entries);
  g_free (self->label);
  g_free (self);
}

guint
sl_highlight_get_n (const SlHighlight *self)
{
  return self != NULL ? self->n : 0;
}

const SlEventRef *
sl_highlight_get (const SlHighlight *self, guint i)
{
  g_return_val_if_fail (self != NULL && i < self->n, NULL);
  return &self->entries[i].event;
}

gint64
sl_highlight_get_start (const SlHighlight *self, guint i)
{
  g_return_val_if_fail (self != NULL && i < self->n, 0);
  return self->entries[i].start;
}

gint64
sl_highlight_get_end (const SlHighlight *self, guint i)
{
  g_return_val_if_fail (self != NULL && i < self->n, 0);
  return self->entries[i].end;
}

const char *
sl_highlight_get_label (const SlHighlight *self)
{
  return self != NULL ? self->label : "";
}

gboolean
sl_highlight_get_dim_others (const SlHighlight *self)
{
  return self != NULL && self->dim_others;
}

guint
sl_highlight_first_at (const SlHighlight *self, gint64 t)
{
  guint lo = 0, hi = self != NULL ? self->n : 0;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->entries[mid].start < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint
sl_highlight_find (const SlHighlight *self, SlTimelineModel *model, const SlEventRef *event)
{
  gint64 start, end;

  if (self == NULL || event == NULL || !sl_timeline_model_event_span (model, event, &start, &end))
    return G_MAXUINT;
  for (guint i = sl_highlight_first_at (self, start); i < self->n && self->entries[i].start == start; i++)
    if (compare_refs (&self->entries[i].event, event) == 0)
      return i;
  return G_MAXUINT;
}

gboolean
sl_highlight_contains (const SlHighlight *self, SlTimelineModel *model, const SlEventRef *event)
{
  return sl_highlight_find (self, model, event) != G_MAXUINT;
}
