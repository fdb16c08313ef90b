/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-compare-html-private.h: the parts of the comparison report
 * (sl-export-compare-html*.c), written through the profile report's buffer
 * and escaping (sl-export-html-private.h). */
#pragma once

#include "sl-export-compare-html.h"
#include "sl-export-html-private.h"

G_BEGIN_DECLS

typedef struct {
  SlHtml                 html;        /* html.profile is NULL: there are several */
  const SlCompareReport *report;
  SlIterations *const   *iterations;  /* per profile, entries nullable */
} SlCompareHtml;

/* "A", "B"… for profile @p. (transfer full) */
char *_sl_compare_html_letter     (guint p);
/* sl-export-compare-html-charts.c */
void  _sl_compare_html_categories (SlCompareHtml *c);
void  _sl_compare_html_strips     (SlCompareHtml *c);
/* sl-export-compare-html-diff.c: the kernel diff table and its filter. */
void  _sl_compare_html_diff       (SlCompareHtml *c);

G_END_DECLS
