/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-name-match.h: the one meaning of a search pattern, shared by
 * "sightline-cli search" and the application's search page.
 *
 * A pattern is a substring matched in any (ASCII) case, or /REGEX/
 * (case-sensitive) or /REGEX/i.  Names are string ids, so each distinct
 * name is matched once and its verdict remembered: a search over millions
 * of events costs one table look-up per event. */
#pragma once

#include <glib.h>
#include "sl-profile.h"

G_BEGIN_DECLS

typedef struct _SlNameMatch SlNameMatch;

/* The start of every SlNameMatch: the verdicts so far, read inline. */
typedef struct {
  guint8  *verdict;     /* per string id: 0 not matched yet, 1 no, 2 yes */
  guint32  n_strings;
} SlNameMatchVerdicts;

/* (transfer full): a matcher of @pattern over @profile's strings; NULL
 * with @error for an invalid regex. */
SlNameMatch *sl_name_match_new   (const SlProfile *profile,
                                  const char      *pattern,
                                  GError         **error);
void         sl_name_match_free  (SlNameMatch     *match);
gboolean     _sl_name_match_id_slow (SlNameMatch *match,
                                     guint32      id);
/* Whether string @id matches (remembered per id; a table look-up once
 * known, as the loops over millions of events need). */
static inline gboolean
sl_name_match_id (SlNameMatch *match,
                  guint32      id)
{
  const SlNameMatchVerdicts *v = (const SlNameMatchVerdicts *) (const void *) match;

  if (G_LIKELY (id < v->n_strings && v->verdict[id] != 0))
    return v->verdict[id] == 2;
  return _sl_name_match_id_slow (match, id);
}
/* Whether @text matches (not remembered). */
gboolean     sl_name_match_text  (const SlNameMatch *match,
                                  const char        *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlNameMatch, sl_name_match_free)

G_END_DECLS
