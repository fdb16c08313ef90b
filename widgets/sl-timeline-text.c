/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-text.c: cached ASCII glyphs and ellipsised text runs. */
#include "sl-timeline-text.h"

#include <string.h>

#define N_ASCII SL_TIMELINE_FONT_N_ASCII
#define MAX_GLYPHS 200

static cairo_scaled_font_t *
scaled_font_new (double size, gboolean bold)
{
  cairo_font_face_t *face;
  cairo_font_options_t *options;
  cairo_matrix_t fm, ctm;
  cairo_scaled_font_t *font;

  face = cairo_toy_font_face_create ("Sans", CAIRO_FONT_SLANT_NORMAL,
                                     bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  options = cairo_font_options_create ();
  cairo_font_options_set_antialias (options, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_ON);
  cairo_matrix_init_scale (&fm, size, size);
  cairo_matrix_init_identity (&ctm);
  font = cairo_scaled_font_create (face, &fm, &ctm, options);
  cairo_font_options_destroy (options);
  cairo_font_face_destroy (face);
  return font;
}

/* Glyph index and advance of every printable ASCII character. */
static void
cache_ascii (SlTimelineFont *f)
{
  cairo_glyph_t *glyphs = NULL;
  cairo_text_extents_t te;
  char ascii[N_ASCII + 1];
  int n = 0;

  for (int i = 0; i < N_ASCII; i++)
    ascii[i] = (char) (32 + i);
  ascii[N_ASCII] = '\0';
  memset (f->glyph, 0, sizeof f->glyph);
  memset (f->adv, 0, sizeof f->adv);
  if (cairo_scaled_font_text_to_glyphs (f->font, 0, 0, ascii, N_ASCII, &glyphs, &n,
                                        NULL, NULL, NULL) == CAIRO_STATUS_SUCCESS && n == N_ASCII)
    for (int i = 0; i < N_ASCII; i++)
      {
        f->glyph[i] = glyphs[i].index;
        cairo_scaled_font_glyph_extents (f->font, &glyphs[i], 1, &te);
        f->adv[i] = te.x_advance;
      }
  cairo_glyph_free (glyphs);
}

/* The ellipsis glyph, or a '.' where the font has none. */
static void
cache_ellipsis (SlTimelineFont *f)
{
  cairo_glyph_t *glyphs = NULL;
  cairo_text_extents_t te;
  int n = 0;

  f->ell_glyph = f->glyph['.' - 32];
  f->ell_adv = f->adv['.' - 32];
  if (cairo_scaled_font_text_to_glyphs (f->font, 0, 0, "…", -1, &glyphs, &n,
                                        NULL, NULL, NULL) == CAIRO_STATUS_SUCCESS && n == 1)
    {
      f->ell_glyph = glyphs[0].index;
      cairo_scaled_font_glyph_extents (f->font, glyphs, 1, &te);
      f->ell_adv = te.x_advance;
    }
  cairo_glyph_free (glyphs);
}

void
sl_timeline_font_init (SlTimelineFont *f,
                       double          size,
                       gboolean        bold)
{
  cairo_font_extents_t fe;

  f->font = scaled_font_new (size, bold);
  cache_ascii (f);
  cache_ellipsis (f);
  cairo_scaled_font_extents (f->font, &fe);
  f->ascent = fe.ascent;
  f->descent = fe.descent;
}

void
sl_timeline_font_clear (SlTimelineFont *f)
{
  g_clear_pointer (&f->font, cairo_scaled_font_destroy);
}

/* Rare non-ASCII names: cairo maps the whole string, then it is cut to
 * @max_w like the ASCII ones. */
static gboolean
show_utf8 (cairo_t *cr, const SlTimelineFont *f, const char *text, double x, double baseline,
           double max_w)
{
  cairo_glyph_t glyphs[MAX_GLYPHS + 1];
  cairo_glyph_t *gl = NULL;
  int ng = 0, n = 0;
  double end = x + max_w;

  if (cairo_scaled_font_text_to_glyphs (f->font, x, baseline, text, -1, &gl, &ng,
                                        NULL, NULL, NULL) != CAIRO_STATUS_SUCCESS)
    return FALSE;
  while (n < ng && n < MAX_GLYPHS)
    {
      double next = n + 1 < ng ? gl[n + 1].x : gl[n].x + f->ell_adv;
      if (next > end)
        break;
      n++;
    }
  if (n < ng)
    {
      while (n > 0 && gl[n].x + f->ell_adv > end)
        n--;
      if (n == 0)
        {
          cairo_glyph_free (gl);
          return FALSE;
        }
      memcpy (glyphs, gl, n * sizeof (cairo_glyph_t));
      glyphs[n].index = f->ell_glyph;
      glyphs[n].x = gl[n].x;
      glyphs[n].y = baseline;
      n++;
    }
  else
    memcpy (glyphs, gl, n * sizeof (cairo_glyph_t));
  cairo_glyph_free (gl);
  cairo_set_scaled_font (cr, f->font);
  cairo_show_glyphs (cr, glyphs, n);
  return TRUE;
}

gboolean
sl_timeline_font_show (cairo_t              *cr,
                       const SlTimelineFont *f,
                       const char           *text,
                       double                x,
                       double                baseline,
                       double                max_w)
{
  cairo_glyph_t glyphs[MAX_GLYPHS + 1];
  double adv[MAX_GLYPHS];
  double pen = 0;
  int n = 0;
  gboolean cut = FALSE;

  for (const guchar *p = (const guchar *) text; *p; p++)
    {
      int idx = (*p < 32 || *p == 127) ? 0 : *p - 32;

      if (*p >= 0x80)
        return show_utf8 (cr, f, text, x, baseline, max_w);
      cut = n == MAX_GLYPHS || pen + f->adv[idx] > max_w;
      if (cut)
        break;
      glyphs[n].index = f->glyph[idx];
      glyphs[n].x = x + pen;
      glyphs[n].y = baseline;
      adv[n] = f->adv[idx];
      pen += adv[n];
      n++;
    }
  if (cut)
    {
      while (n > 0 && pen + f->ell_adv > max_w)
        pen -= adv[--n];
      if (n == 0)
        return FALSE;
      glyphs[n].index = f->ell_glyph;
      glyphs[n].x = x + pen;
      glyphs[n].y = baseline;
      n++;
    }
  if (n == 0)
    return FALSE;
  cairo_set_scaled_font (cr, f->font);
  cairo_show_glyphs (cr, glyphs, n);
  return TRUE;
}

double
sl_timeline_font_width (const SlTimelineFont *f,
                        const char           *text)
{
  cairo_text_extents_t ext;
  double w = 0;

  for (const guchar *p = (const guchar *) text; *p; p++)
    {
      if (*p >= 0x80)
        {
          /* "µs": cairo shapes the whole string */
          cairo_scaled_font_text_extents (f->font, text, &ext);
          return ext.x_advance;
        }
      w += f->adv[(*p < 32 || *p == 127) ? 0 : *p - 32];
    }
  return w;
}

/* @text with the characters [head, tail) replaced by "…". */
static char *
cut_middle (const char *text, glong head, glong tail)
{
  g_autofree char *a = g_utf8_substring (text, 0, head);
  g_autofree char *b = g_utf8_substring (text, tail, g_utf8_strlen (text, -1));

  return g_strconcat (a, "…", b, NULL);
}

gboolean
sl_timeline_font_show_middle (cairo_t              *cr,
                              const SlTimelineFont *f,
                              const char           *text,
                              double                x,
                              double                baseline,
                              double                max_w)
{
  glong n = g_utf8_strlen (text, -1), lo = 0, hi = n;
  g_autofree char *best = NULL;

  if (sl_timeline_font_width (f, text) <= max_w)
    return sl_timeline_font_show (cr, f, text, x, baseline, max_w);
  /* the most characters kept, split evenly around the cut (a binary
   * search: a header is drawn with a few measures, not one per length) */
  while (lo < hi)
    {
      glong keep = (lo + hi + 1) / 2;
      g_autofree char *t = cut_middle (text, (keep + 1) / 2, n - keep / 2);

      if (sl_timeline_font_width (f, t) <= max_w)
        lo = keep;
      else
        hi = keep - 1;
    }
  if (lo == 0)
    return FALSE;
  best = cut_middle (text, (lo + 1) / 2, n - lo / 2);
  return sl_timeline_font_show (cr, f, best, x, baseline, max_w + 1);
}
