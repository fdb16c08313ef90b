/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-bookmark-range.c: --bookmark NAME as a --range.  The bookmark's
 * times are absolute (the capture clock), so the profile's start, and so a
 * complete load, is not needed: the parts the command reads suffice. */
#include <glib/gi18n.h>

#include "sl-cli-bookmark-range.h"

/* At most this many names are listed; the rest is "…". */
#define MAX_LISTED 20

char *
sl_cli_bookmark_names (SlBookmarkStore *store)
{
  GPtrArray *all = sl_bookmark_store_get_bookmarks (store);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < all->len && i < MAX_LISTED; i++)
    g_string_append_printf (s, "%s“%s”", i > 0 ? ", " : "", ((SlBookmark *) all->pdata[i])->name);
  if (all->len > MAX_LISTED)
    g_string_append (s, ", …");
  if (all->len == 0)
    g_string_append (s, _("none"));
  return g_string_free (s, FALSE);
}

gboolean
sl_cli_resolve_bookmark (const char *command, SlCliCommon *common, GPtrArray *profiles)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlBookmarkStore) store = NULL;
  const SlBookmark *b;
  SlProfile *profile;

  if (common->bookmark == NULL || profiles->len == 0)
    return TRUE;
  profile = profiles->pdata[0];
  store = sl_bookmark_store_new_for_profile (profile, &error);
  if (store == NULL)
    {
      sl_cli_error (command, "--bookmark: %s", error->message);
      return FALSE;
    }
  if (sl_bookmark_store_get_problem (store) != NULL)
    sl_cli_error (command, "%s", sl_bookmark_store_get_problem (store));
  b = sl_bookmark_store_lookup_name (store, common->bookmark);
  if (b == NULL)
    {
      g_autofree char *names = sl_cli_bookmark_names (store);
      sl_cli_error (command, _("--bookmark “%s” names no bookmark of “%s” (or more than one); "
                               "its bookmarks: %s"), common->bookmark, profile->path, names);
      return FALSE;
    }
  if (b->end <= b->start)
    {
      sl_cli_error (command, _("--bookmark “%s” is a moment, not a range: it has no duration"), b->name);
      return FALSE;
    }
  sl_filter_set_range (common->filter, b->start, b->end);
  return TRUE;
}
