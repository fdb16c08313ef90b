/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-text.h: the renderer's fonts and single-line text runs (no GTK).
 *
 * Labels are mostly ASCII kernel and range names: their glyphs and advances
 * are looked up once per font, so a label costs one cairo_show_glyphs(). */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

#define SL_TIMELINE_FONT_N_ASCII 95

typedef struct {
  cairo_scaled_font_t *font;
  unsigned long        glyph[SL_TIMELINE_FONT_N_ASCII];
  double               adv[SL_TIMELINE_FONT_N_ASCII];
  unsigned long        ell_glyph;
  double               ell_adv;
  double               ascent, descent;
} SlTimelineFont;

/* "Sans" at @size device pixels. */
void     sl_timeline_font_init  (SlTimelineFont       *font,
                                 double                size,
                                 gboolean              bold);
void     sl_timeline_font_clear (SlTimelineFont       *font);
/* Shows @text from (x, baseline) cut with an ellipsis to @max_w.  Returns
 * FALSE when not even one character fits. */
gboolean sl_timeline_font_show  (cairo_t              *cr,
                                 const SlTimelineFont *font,
                                 const char           *text,
                                 double                x,
                                 double                baseline,
                                 double                max_w);

/* The advance of @text, uncut. */
double   sl_timeline_font_width (const SlTimelineFont *font,
                                 const char           *text);
/* Like sl_timeline_font_show() but cut in the middle ("Stream 7 · pid 1…2345"):
 * the end of a row's name (a pid, a tid) tells rows apart. */
gboolean sl_timeline_font_show_middle (cairo_t              *cr,
                                       const SlTimelineFont *font,
                                       const char           *text,
                                       double                x,
                                       double                baseline,
                                       double                max_w);

G_END_DECLS
