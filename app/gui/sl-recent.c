/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-recent.c: recently opened profiles. */
#include "sl-recent.h"

static gint
newest_first (gconstpointer a, gconstpointer b)
{
  GDateTime *ma = gtk_recent_info_get_modified ((GtkRecentInfo *) a);
  GDateTime *mb = gtk_recent_info_get_modified ((GtkRecentInfo *) b);

  return g_date_time_compare (mb, ma);
}

static void
truncate_list (GList *list, guint keep)
{
  GList *last = g_list_nth (list, keep - 1);

  if (last != NULL && last->next != NULL)
    {
      GList *rest = last->next;
      last->next = NULL;
      rest->prev = NULL;
      g_list_free_full (rest, (GDestroyNotify) gtk_recent_info_unref);
    }
}

GList *
sl_recent_list (void)
{
  GList *all = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  GList *mine = NULL;

  for (GList *l = all; l; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      if (gtk_recent_info_has_application (info, "Sightline") && gtk_recent_info_is_local (info) &&
          gtk_recent_info_exists (info))
        mine = g_list_prepend (mine, gtk_recent_info_ref (info));
    }
  g_list_free_full (all, (GDestroyNotify) gtk_recent_info_unref);
  mine = g_list_sort (mine, newest_first);
  truncate_list (mine, SL_RECENT_MAX);
  return mine;
}

void
sl_recent_add (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *basename = g_file_get_basename (file);
  GtkRecentData data = { 0 };
  static char *groups[] = { (char *) "sightline", NULL };

  data.display_name = basename;
  data.mime_type = (char *) (g_str_has_suffix (uri, ".nsys-rep") ? "application/x-nsys-rep"
                                                                  : "application/vnd.sqlite3");
  data.app_name = (char *) "Sightline";
  data.app_exec = (char *) "sightline %u";
  data.groups = groups;
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}
