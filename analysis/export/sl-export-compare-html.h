/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-compare-html.h: a comparison ("sightline-cli compare A B
 * --html OUT", the comparison window's Export Report…) as one
 * self-contained HTML file in the style of the profile report: profiles,
 * step times, the change, basis and verdict as `compare --json` gives them,
 * categories as side-by-side stacked bars, the kernel diff table (sortable,
 * filtered by status and name) and the iterations as a strip plot.  No
 * capture environment is ever written. */
#pragma once

#include <gio/gio.h>

#include "sl-compare.h"
#include "sl-filter.h"
#include "sl-iterations.h"
#include "sl-profile.h"

G_BEGIN_DECLS

typedef struct {
  SlProfile *const    *profiles;      /* the compared profiles, in order */
  guint                n_profiles;
  const SlCompare     *compare;       /* of these profiles */
  SlIterations *const *iterations;    /* (nullable) per profile, entries nullable; NULL:
                                         computed (durations only) */
  const SlFilter      *filter;        /* (nullable) the comparison's scope */
  double               threshold;     /* the change counted as faster / slower (0.05) */
} SlCompareReport;

/* Writes the report to @out; may run in a worker (nothing is shared but
 * read).  Stops with G_IO_ERROR_CANCELLED when @cancellable is. */
gboolean sl_export_compare_html_write   (const SlCompareReport *report, GOutputStream *out,
                                         GCancellable *cancellable, GError **error);
/* The same into @path, atomically: a temporary file in @path's folder,
 * renamed onto @path at the end; on error or cancel no file is left and
 * @path is untouched.  The error names the path. */
gboolean sl_export_compare_html_to_path (const SlCompareReport *report, const char *path,
                                         GCancellable *cancellable, GError **error);

G_END_DECLS
