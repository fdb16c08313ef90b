/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-bookmarks.c: `sightline-cli bookmarks [add|remove] PROFILE`: the
 * bookmarks the application keeps for a profile, listed, added by scripts
 * (e.g. at the slowest iteration), removed.
 *
 * The profile's start (for times relative to it, and for "+1.2s" in
 * --range) must be that of a complete load, what the application's ruler
 * calls +0.  Cheapest first: the start the bookmarks file already records
 * (written by a complete load of the same contents: same identity), else a
 * complete load (SL_PARTS_ALL, served by the profile cache after the first
 * time).  Listing never loads the profile: its file holds the start. */
#include <inttypes.h>
#include <glib/gi18n.h>
#include <fcntl.h>
#include <unistd.h>

#include "sl-cli.h"
#include "sl-cli-bookmark-range.h"
#include "sl-cli-options.h"
#include "sl-cli-table.h"

typedef struct {
  char *name;
  char *note;
  char *color;
} Options;

/* Whether @path is an SQLite file (a .nsys-rep is not: its identity is its
 * converted export's, known after a load). */
static gboolean
is_sqlite (const char *path)
{
  char head[16] = { 0 };
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  gboolean yes = fd >= 0 && read (fd, head, sizeof head) == sizeof head
                 && memcmp (head, "SQLite format 3", 16) == 0;

  if (fd >= 0)
    close (fd);
  return yes;
}

/* The store of the profile at @path; with @need_start, its start is that
 * of a complete load.  NULL after a message (exit SL_CLI_INPUT). */
static SlBookmarkStore *
find_store (const char *command, const char *path, gboolean need_start)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  g_autofree char *name = g_path_get_basename (path);
  g_autoptr(SlProfile) profile = NULL;
  gint64 start = 0;

  if (is_sqlite (path))
    {
      id = sl_content_id_from_path (path, &error);
      if (id == NULL)
        {
          sl_cli_error (command, "%s", error->message);
          return NULL;
        }
      if (sl_bookmark_store_peek_start (id, &start) || !need_start)
        return sl_bookmark_store_new (id, start, name);
    }
  /* The messages of a profile that cannot be read are the loader's. */
  profile = sl_cli_open_profile (path, SL_PARTS_ALL);
  if (profile == NULL)
    return NULL;
  if (id != NULL)
    return sl_bookmark_store_new (id, profile->start_ns, name);
  {
    SlBookmarkStore *store = sl_bookmark_store_new_for_profile (profile, &error);
    if (store == NULL)
      sl_cli_error (command, "%s", error->message);
    return store;
  }
}

/* find_store(), and a bad file it found (kept aside) reported. */
static SlBookmarkStore *
open_store (const char *command, const char *path, gboolean need_start)
{
  SlBookmarkStore *store = find_store (command, path, need_start);

  if (store != NULL && sl_bookmark_store_get_problem (store) != NULL)
    sl_cli_error (command, "%s", sl_bookmark_store_get_problem (store));
  return store;
}

/* "first line of the note" (cut by the table). (transfer full) */
static char *
note_preview (const char *note)
{
  const char *nl = strchr (note, '\n');

  return nl != NULL ? g_strdup_printf ("%.*s …", (int) (nl - note), note) : g_strdup (note);
}

static void
add_row (SlCliTable *table, const SlBookmark *b, gint64 start)
{
  g_autofree char *rel = sl_format_duration_precise (b->start - start);

  sl_cli_table_add (table, g_strdup (b->name), g_strdup_printf ("+%s", rel),
                    g_strdup_printf ("%" G_GINT64_FORMAT, b->start),
                    sl_format_duration_precise (b->end - b->start), note_preview (b->note));
}

static void
print_table (SlBookmarkStore *store, GPtrArray *list)
{
  g_autoptr(SlCliTable) table = sl_cli_table_new (_("Name"), _(">Start"), _(">Start (ns)"),
                                                  _(">Duration"), _("Note"), NULL);

  sl_cli_table_set_max (table, 0, 40);
  sl_cli_table_set_max (table, 4, 50);
  for (guint i = 0; i < list->len; i++)
    add_row (table, list->pdata[i], sl_bookmark_store_get_profile_start (store));
  sl_cli_table_print (table, stdout);
}

/* The file format, with the profile's path: what Import Bookmarks… reads. */
static JsonNode *
list_json (SlBookmarkStore *store, const char *path)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  GPtrArray *list = sl_bookmark_store_get_bookmarks (store);
  gint64 start = sl_bookmark_store_get_profile_start (store);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, SL_BOOKMARKS_FORMAT_NAME);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, SL_BOOKMARKS_FORMAT_VERSION);
  json_builder_set_member_name (b, "profile");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "path");
  json_builder_add_string_value (b, path);
  json_builder_set_member_name (b, "content_id");
  json_builder_add_string_value (b, sl_bookmark_store_get_content_id (store));
  json_builder_set_member_name (b, "start_ns");
  json_builder_add_int_value (b, start);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "bookmarks");
  json_builder_begin_array (b);
  for (guint i = 0; i < list->len; i++)
    json_builder_add_value (b, sl_bookmark_file_bookmark_to_json (list->pdata[i], start));
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static int
run_list (const char *command, const SlCliCommon *common, const char *path)
{
  g_autoptr(SlBookmarkStore) store = open_store (command, path, FALSE);

  if (store == NULL)
    return SL_CLI_INPUT;
  if (common->json)
    sl_cli_print_json (list_json (store, path));
  else if (sl_bookmark_store_get_bookmarks (store)->len == 0)
    printf ("%s\n", _("No bookmarks for this profile."));
  else
    print_table (store, sl_bookmark_store_get_bookmarks (store));
  return SL_CLI_OK;
}

/* The checks of `add`'s own options, before anything is read. */
static gboolean
check_add (const char *command, const SlCliCommon *common, const Options *o)
{
  static const char hex[] = "0123456789abcdefABCDEF";

  if (o->name == NULL || common->range == NULL)
    {
      sl_cli_error (command, _("add needs --name NAME and --range START END"));
      return FALSE;
    }
  if (o->color != NULL && (strlen (o->color) != 7 || o->color[0] != '#'
                           || strspn (o->color + 1, hex) != 6))
    {
      sl_cli_error (command, _("--color expects #rrggbb, not “%s”"), o->color);
      return FALSE;
    }
  return TRUE;
}

static void
print_one (const SlCliCommon *common, SlBookmarkStore *store, const SlBookmark *b)
{
  g_autoptr(GPtrArray) one = g_ptr_array_new ();

  if (common->json)
    {
      sl_cli_print_json (sl_bookmark_file_bookmark_to_json (b, sl_bookmark_store_get_profile_start (store)));
      return;
    }
  g_ptr_array_add (one, (gpointer) b);
  print_table (store, one);
}

static int
run_add (const char *command, const SlCliCommon *common, const Options *o, const char *path)
{
  g_autoptr(SlBookmarkStore) store = NULL;
  g_autoptr(SlBookmark) b = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start, end, origin;

  if (!check_add (command, common, o))
    return SL_CLI_USAGE;
  store = open_store (command, path, TRUE);
  if (store == NULL)
    return SL_CLI_INPUT;
  origin = sl_bookmark_store_get_profile_start (store);
  start = sl_time_point_resolve (&common->range_points[0], origin);
  end = sl_time_point_resolve (&common->range_points[1], origin);
  if (end <= start)
    {
      sl_cli_error (command, _("--range: END (%" PRId64 " ns) must be after START (%"
                               PRId64 " ns)"), end, start);
      return SL_CLI_USAGE;
    }
  b = sl_bookmark_new (o->name, o->note, o->color, start, end);
  if (!sl_bookmark_store_add (store, b, &error))
    {
      sl_cli_error (command, _("could not save the bookmark: %s"), error->message);
      return SL_CLI_INPUT;
    }
  print_one (common, store, b);
  return SL_CLI_OK;
}

static int
run_remove (const char *command, const Options *o, const char *path)
{
  g_autoptr(SlBookmarkStore) store = NULL;
  g_autoptr(GError) error = NULL;
  const SlBookmark *found = NULL;
  GPtrArray *list;

  if (o->name == NULL)
    {
      sl_cli_error (command, _("remove needs --name NAME"));
      return SL_CLI_USAGE;
    }
  store = open_store (command, path, TRUE);
  if (store == NULL)
    return SL_CLI_INPUT;
  list = sl_bookmark_store_get_bookmarks (store);
  /* Removing asks for the exact name: a part of it could hit another. */
  for (guint i = 0; i < list->len; i++)
    if (g_str_equal (((SlBookmark *) list->pdata[i])->name, o->name))
      {
        if (found != NULL)
          {
            sl_cli_error (command, _("several bookmarks are named “%s”"), o->name);
            return SL_CLI_USAGE;
          }
        found = list->pdata[i];
      }
  if (found == NULL)
    {
      g_autofree char *names = sl_cli_bookmark_names (store);
      sl_cli_error (command, _("no bookmark is named “%s”; the bookmarks: %s"), o->name, names);
      return SL_CLI_USAGE;
    }
  if (!sl_bookmark_store_remove (store, found->id, &error))
    {
      sl_cli_error (command, _("could not save the bookmarks: %s"), error->message);
      return SL_CLI_INPUT;
    }
  return SL_CLI_OK;
}

/* Runs the action @args[1] names ("add", "remove", or the profile). */
static int
dispatch (const char *command, const SlCliCommon *common, const Options *o, int argc, char **args)
{
  const char *action = argc == 3 ? args[1] : NULL;

  if (common->gpus != NULL || common->pids != NULL || common->bookmark != NULL)
    sl_cli_error (command, _("--gpu, --pid and --bookmark mean nothing to bookmarks"));
  else if (argc == 2 && common->range == NULL && o->name == NULL)
    return run_list (command, common, args[1]);
  else if (g_strcmp0 (action, "add") == 0)
    return run_add (command, common, o, args[2]);
  else if (g_strcmp0 (action, "remove") == 0 && common->range == NULL)
    return run_remove (command, o, args[2]);
  else
    sl_cli_error (command, _("usage: sightline-cli bookmarks PROFILE [--json] | bookmarks add PROFILE "
                             "--name NAME --range START END [--note TEXT] [--color #rrggbb] | "
                             "bookmarks remove PROFILE --name NAME"));
  return SL_CLI_USAGE;
}

int
sl_cli_bookmarks (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("[add|remove] PROFILE"));
  SlCliCommon common = { 0 };
  Options o = { 0 };
  GOptionEntry entries[] = {
    { "name", 0, 0, G_OPTION_ARG_STRING, &o.name, N_("add, remove: the bookmark's name"), "NAME" },
    { "note", 0, 0, G_OPTION_ARG_STRING, &o.note, N_("add: a note (may hold newlines)"), "TEXT" },
    { "color", 0, 0, G_OPTION_ARG_STRING, &o.color, N_("add: its colour"), "#rrggbb" },
    { NULL }
  };
  int status = SL_CLI_USAGE;

  g_option_context_set_summary (context, _("The bookmarks Sightline keeps for a profile (named time "
                                           "ranges): list them, add one (--range takes what every "
                                           "--range takes, e.g. +1.2s), remove one."));
  sl_cli_common_add (context, &common);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (sl_cli_common_parse ("bookmarks", context, &common, &argc, &argv))
    status = dispatch ("bookmarks", &common, &o, argc, argv);
  sl_cli_common_clear (&common);
  g_free (o.name);
  g_free (o.note);
  g_free (o.color);
  return status;
}
