/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-locale-format.h: the model's formatters (sl-format.h) as people read
 * them in the GUI: the locale's decimal point and digit grouping ("1,5 ms",
 * "12.345" under de_DE; "1.5 ms" under C).  The process keeps LC_NUMERIC=C
 * so that JSON, CSV and the CLI's output never depend on the locale; these
 * read the user's numeric conventions from the environment instead
 * (newlocale), never from the global locale.  All return (transfer full). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @c_text (C-locale numbers, as sl-format.h writes them) with every number
 * rewritten with @decimal and integer digits grouped by three with
 * @thousands (empty: no grouping).  Only for formatter output: it does not
 * know a number from a name. */
char *sl_locale_rewrite          (const char *c_text,
                                  const char *decimal,
                                  const char *thousands);
/* The same with the user's conventions (LC_ALL / LC_NUMERIC / LANG), read
 * once.  Takes ownership of @c_text. */
char *sl_locale_adopt            (char       *c_text);

char *sl_locale_duration         (gint64      ns);
char *sl_locale_duration_precise (gint64      ns);
char *sl_locale_timestamp        (gint64      ns);
char *sl_locale_time             (double      ns,
                                  gint64      precision_ns);
char *sl_locale_time_in_unit     (double      ns,
                                  gint64      magnitude_ns,
                                  gint64      precision_ns);
char *sl_locale_bytes            (guint64     bytes);
/* A quantity (not an id: ids stay ungrouped, sl_format_count). */
char *sl_locale_count            (gint64      value);
char *sl_locale_percent          (double      pct);

G_END_DECLS
