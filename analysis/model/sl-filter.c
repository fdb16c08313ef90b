/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-filter.c: GPU / process / time-window filters shared by the analyses. */
#include "sl-filter.h"

#include <string.h>
#include <glib/gi18n-lib.h>

SlFilter *
sl_filter_new (void)
{
  SlFilter *self = g_new0 (SlFilter, 1);

  self->gpus = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->pids = g_array_new (FALSE, FALSE, sizeof (guint32));
  return self;
}

SlFilter *
sl_filter_copy (const SlFilter *filter)
{
  SlFilter *self = sl_filter_new ();

  if (filter == NULL)
    return self;
  g_array_append_vals (self->gpus, filter->gpus->data, filter->gpus->len);
  g_array_append_vals (self->pids, filter->pids->data, filter->pids->len);
  self->has_range = filter->has_range;
  self->range_start = filter->range_start;
  self->range_end = filter->range_end;
  return self;
}

void
sl_filter_free (SlFilter *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->gpus);
  g_array_unref (self->pids);
  g_free (self);
}

static gboolean
array_has (const GArray *array, guint32 value)
{
  for (guint i = 0; i < array->len; i++)
    if (g_array_index (array, guint32, i) == value)
      return TRUE;
  return FALSE;
}

void
sl_filter_add_gpu (SlFilter *self, guint32 device)
{
  g_return_if_fail (self != NULL);
  if (!array_has (self->gpus, device))
    g_array_append_val (self->gpus, device);
}

void
sl_filter_add_pid (SlFilter *self, guint32 pid)
{
  g_return_if_fail (self != NULL);
  if (!array_has (self->pids, pid))
    g_array_append_val (self->pids, pid);
}

void
sl_filter_set_range (SlFilter *self, gint64 start, gint64 end)
{
  g_return_if_fail (self != NULL);
  self->has_range = TRUE;
  self->range_start = start;
  self->range_end = end;
}

gboolean
sl_filter_is_empty (const SlFilter *self)
{
  return self == NULL || (self->gpus->len == 0 && self->pids->len == 0 && !self->has_range);
}

gboolean
sl_filter_match_device (const SlFilter *self, guint32 device)
{
  return self == NULL || self->gpus->len == 0 || array_has (self->gpus, device);
}

gboolean
sl_filter_match_pid (const SlFilter *self, guint32 pid)
{
  return self == NULL || self->pids->len == 0 || array_has (self->pids, pid);
}

gboolean
sl_filter_match_time (const SlFilter *self, gint64 start)
{
  return self == NULL || !self->has_range || (start >= self->range_start && start < self->range_end);
}

gboolean
sl_filter_match_stream (const SlFilter *self, const SlStream *stream)
{
  return sl_filter_match_device (self, stream->device) && sl_filter_match_pid (self, stream->pid);
}

gboolean
sl_filter_match_process (const SlFilter *self, const SlProfile *profile, guint32 pid)
{
  if (!sl_filter_match_pid (self, pid))
    return FALSE;
  if (self == NULL || self->gpus->len == 0)
    return TRUE;
  for (guint s = 0; s < profile->n_streams; s++)
    if (profile->streams[s].pid == pid && array_has (self->gpus, profile->streams[s].device))
      return TRUE;
  return FALSE;
}

gboolean
sl_filter_match_thread (const SlFilter *self, const SlProfile *profile, guint32 thread)
{
  g_return_val_if_fail (thread < profile->n_threads, FALSE);
  return sl_filter_match_process (self, profile, profile->threads[thread].pid);
}

void
sl_filter_span_bounds (const SlFilter *self, const SlSpans *spans, guint lo, guint hi,
                       guint *first, guint *last)
{
  if (self == NULL || !self->has_range)
    {
      *first = lo;
      *last = hi;
      return;
    }
  if (self->range_end <= self->range_start)
    {
      *first = *last = lo;
      return;
    }
  *first = sl_spans_lower_bound_in (spans, lo, hi, self->range_start);
  *last = sl_spans_lower_bound_in (spans, *first, hi, self->range_end);
}

/* A decimal number: whole digits, and fraction digits (frac holds n_frac of
 * them, beyond nanosecond precision truncated). */
typedef struct {
  gboolean negative;
  guint64  whole;
  guint64  frac;
  guint    n_frac;
} Decimal;

/* Reads [space][sign]digits[.digits] at *p; FALSE without a digit or when
 * the whole part overflows. */
static gboolean
parse_decimal (const char **p, Decimal *d)
{
  const char *q = *p;
  guint n_whole = 0;

  while (g_ascii_isspace (*q))
    q++;
  if (*q == '-' || *q == '+')
    d->negative = *q++ == '-';
  for (; g_ascii_isdigit (*q); q++, n_whole++)
    {
      if (d->whole > (G_MAXINT64 - 9) / 10)
        return FALSE;
      d->whole = d->whole * 10 + (guint64) (*q - '0');
    }
  if (*q == '.')
    for (q++; g_ascii_isdigit (*q); q++, d->n_frac++)
      {
        /* Digits beyond nanosecond precision are dropped (truncated). */
        if (d->n_frac < 18)
          d->frac = d->frac * 10 + (guint64) (*q - '0');
        else
          d->n_frac--;
      }
  *p = q;
  return n_whole + d->n_frac > 0;
}

/* The unit after the number, as a power of ten of nanoseconds; FALSE for
 * anything but [space](nothing|ns|us|µs|ms|s). */
static gboolean
parse_unit (const char *p, guint *digits)
{
  while (g_ascii_isspace (*p))
    p++;
  if (*p == '\0' || g_str_equal (p, "ns"))
    *digits = 0;
  else if (g_str_equal (p, "us") || g_str_equal (p, "µs"))
    *digits = 3;
  else if (g_str_equal (p, "ms"))
    *digits = 6;
  else if (g_str_equal (p, "s"))
    *digits = 9;
  else
    return FALSE;
  return TRUE;
}

/* @d in units of 10^@scale_digits ns, as nanoseconds; FALSE on overflow. */
static gboolean
scale_to_ns (const Decimal *d, guint scale_digits, gint64 *out)
{
  guint64 scale = 1, whole, frac = d->frac;

  for (guint i = 0; i < scale_digits; i++)
    scale *= 10;
  if (d->whole > (guint64) G_MAXINT64 / scale)
    return FALSE;
  whole = d->whole * scale;
  /* frac has n_frac digits: value = frac * 10^scale_digits / 10^n_frac. */
  for (guint i = scale_digits; i < d->n_frac; i++)
    frac /= 10;
  for (guint i = d->n_frac; i < scale_digits; i++)
    frac *= 10;
  if (whole > (guint64) G_MAXINT64 - frac)
    return FALSE;
  *out = (gint64) (whole + frac);
  if (d->negative)
    *out = -*out;
  return TRUE;
}

/* An exponent after the number ("e9", "E-3"); none leaves *@exp at 0. */
static gboolean
parse_exponent (const char **p, int *exp)
{
  const char *q = *p;
  gboolean negative = FALSE;
  int n = 0, digits = 0;

  if (*q != 'e' && *q != 'E')
    return TRUE;
  q++;
  if (*q == '-' || *q == '+')
    negative = *q++ == '-';
  for (; g_ascii_isdigit (*q) && digits < 3; q++, digits++)
    n = n * 10 + (*q - '0');
  if (digits == 0 || g_ascii_isdigit (*q))
    return FALSE;
  *exp = negative ? -n : n;
  *p = q;
  return TRUE;
}

static gboolean
has_unit (const char *p)
{
  while (g_ascii_isspace (*p))
    p++;
  return *p != '\0';
}

gboolean
sl_parse_time (const char *text, gint64 *out, GError **error)
{
  const char *p = text;
  Decimal d = { 0 };
  guint unit_digits;
  int exp = 0, digits;

  g_return_val_if_fail (text != NULL, FALSE);

  /* The number times 10^exp in units of 10^unit_digits ns.  Without a unit
   * it must be whole nanoseconds: "2.9" is more likely meant as seconds
   * than as 2 ns, so it is refused rather than guessed. */
  if (parse_decimal (&p, &d) && parse_exponent (&p, &exp) && parse_unit (p, &unit_digits))
    {
      digits = (int) unit_digits + exp;
      if (digits >= 0 && digits <= 18 && (has_unit (p) || d.n_frac <= (guint) digits)
          && scale_to_ns (&d, (guint) digits, out))
        return TRUE;
    }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("“%s” is not a time: write whole nanoseconds (12345 or 1.5e9) or a number "
                 "with a unit ns, us, µs, ms or s (39.98s); a fraction needs a unit"), text);
  return FALSE;
}
