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

/* (transfer full): a matcher of @pattern over @profile's strings; NULL
 * with @error for an invalid regex. */
SlNameMatch *sl_name_match_new   (const SlProfile *profile,
                                  const char      *pattern,
                                  GError         **error);
void         sl_name_match_free  (SlNameMatch     *match);
/* Whether string @id matches (remembered per id). */
gboolean     sl_name_match_id    (SlNameMatch     *match,
                                  guint32          id);
/* Whether @text matches (not remembered). */
gboolean     sl_name_match_text  (const SlNameMatch *match,
                                  const char        *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlNameMatch, sl_name_match_free)

G_END_DECLS
