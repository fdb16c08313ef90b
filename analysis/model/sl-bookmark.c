/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-bookmark.c: the boxed bookmark. */
#include "sl-bookmark.h"

G_DEFINE_BOXED_TYPE (SlBookmark, sl_bookmark, sl_bookmark_copy, sl_bookmark_free)

/* Distinct on the ruler and in the list, readable on light and dark themes;
 * the first is the default. */
static const char * const palette[] = {
  "#3584e4", "#e5a50a", "#2ec27e", "#e01b24", "#9141ac", "#ff7800", "#986a44", "#5e5c64", NULL
};

const char * const *
sl_bookmark_palette (void)
{
  return palette;
}

SlBookmark *
sl_bookmark_new (const char *name, const char *note, const char *color, gint64 start, gint64 end)
{
  SlBookmark *b = g_new0 (SlBookmark, 1);

  b->id = g_uuid_string_random ();
  b->name = g_strdup (name != NULL ? name : "");
  b->note = g_strdup (note != NULL ? note : "");
  b->color = g_strdup (color != NULL ? color : palette[0]);
  b->start = MIN (start, end);
  b->end = MAX (start, end);
  return b;
}

SlBookmark *
sl_bookmark_copy (const SlBookmark *bookmark)
{
  SlBookmark *b = g_new0 (SlBookmark, 1);

  b->id = g_strdup (bookmark->id);
  b->name = g_strdup (bookmark->name);
  b->note = g_strdup (bookmark->note);
  b->color = g_strdup (bookmark->color);
  b->start = bookmark->start;
  b->end = bookmark->end;
  return b;
}

void
sl_bookmark_free (SlBookmark *bookmark)
{
  if (bookmark == NULL)
    return;
  g_free (bookmark->id);
  g_free (bookmark->name);
  g_free (bookmark->note);
  g_free (bookmark->color);
  g_free (bookmark);
}

gboolean
sl_bookmark_equal (const SlBookmark *a, const SlBookmark *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return g_strcmp0 (a->id, b->id) == 0 && g_strcmp0 (a->name, b->name) == 0
         && g_strcmp0 (a->note, b->note) == 0 && g_strcmp0 (a->color, b->color) == 0
         && a->start == b->start && a->end == b->end;
}

gboolean
sl_bookmark_in_range (const SlBookmark *bookmark, const SlTimeRange *range)
{
  if (range == NULL)
    return TRUE;
  /* A zero-length bookmark (a mark) overlaps a range it lies in. */
  if (bookmark->start == bookmark->end)
    return bookmark->start >= range->start && bookmark->start < range->end;
  return bookmark->start < range->end && bookmark->end > range->start;
}
