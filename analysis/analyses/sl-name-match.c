/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-name-match.c: a search pattern matched against names. */
#include "sl-name-match.h"

#include <string.h>

enum { UNKNOWN = 0, NO = 1, YES = 2 };

struct _SlNameMatch {
  SlNameMatchVerdicts v;      /* first: read by the inline sl_name_match_id() */
  const SlProfile    *profile;
  GRegex             *regex;  /* NULL: substring */
  char               *needle;
};

G_STATIC_ASSERT (G_STRUCT_OFFSET (SlNameMatch, v) == 0);

/* "/REGEX/" or "/REGEX/i" compiles a regex; anything else stays a
 * substring.  FALSE with @error for an invalid regex. */
static gboolean
parse (SlNameMatch *self, const char *pattern, GError **error)
{
  gsize len = strlen (pattern);

  if (len >= 2 && pattern[0] == '/'
      && (pattern[len - 1] == '/' || (len >= 3 && pattern[len - 2] == '/' && pattern[len - 1] == 'i')))
    {
      gboolean caseless = pattern[len - 1] == 'i';
      g_autofree char *body = g_strndup (pattern + 1, len - (caseless ? 3 : 2));

      self->regex = g_regex_new (body, G_REGEX_OPTIMIZE | (caseless ? G_REGEX_CASELESS : 0), 0, error);
      return self->regex != NULL;
    }
  return TRUE;
}

SlNameMatch *
sl_name_match_new (const SlProfile *profile, const char *pattern, GError **error)
{
  g_autoptr(SlNameMatch) self = g_new0 (SlNameMatch, 1);

  g_return_val_if_fail (profile != NULL && pattern != NULL, NULL);
  self->profile = profile;
  self->needle = g_strdup (pattern);
  if (!parse (self, pattern, error))
    return NULL;
  self->v.n_strings = sl_strings_count (profile->strings);
  self->v.verdict = g_new0 (guint8, MAX (self->v.n_strings, 1));
  return g_steal_pointer (&self);
}

void
sl_name_match_free (SlNameMatch *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->regex, g_regex_unref);
  g_free (self->needle);
  g_free (self->v.verdict);
  g_free (self);
}

gboolean
sl_name_match_text (const SlNameMatch *self, const char *text)
{
  if (self->regex != NULL)
    {
      /* GRegex wants UTF-8; names come from the profile, untrusted */
      g_autofree char *valid = g_utf8_make_valid (text, -1);
      return g_regex_match (self->regex, valid, 0, NULL);
    }
  return strcasestr (text, self->needle) != NULL;
}

gboolean
_sl_name_match_id_slow (SlNameMatch *self, guint32 id)
{
  gboolean yes = sl_name_match_text (self, sl_strings_get (self->profile->strings, id));

  if (id < self->v.n_strings)
    self->v.verdict[id] = yes ? YES : NO;
  return yes;
}
