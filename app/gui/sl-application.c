/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-application.c: application actions, opening files, recent profiles. */
#include "sl-application.h"
#include "sl-compare-window.h"
#include "sl-file-chooser.h"
#include "sl-preferences.h"
#include "sl-ranks-window.h"
#include "sl-recent.h"
#include "sl-settings.h"
#include "sl-window.h"

#include <glib/gi18n.h>
#include <locale.h>

struct _SlApplication {
  GtkApplication parent_instance;
  gboolean       compare;    /* --compare: the files given open as one comparison */
};

G_DEFINE_FINAL_TYPE (SlApplication, sl_application, GTK_TYPE_APPLICATION)

char *
sl_application_sample_path (void)
{
  const char *env = g_getenv ("SIGHTLINE_SAMPLE");
  g_autofree char *installed = g_build_filename (PKGDATADIR, "sample.sqlite", NULL);

  if (env && *env)
    return g_strdup (env);
  if (g_file_test (installed, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&installed);
#ifdef SL_BUILD_SAMPLE
  /* running from the build tree */
  if (g_file_test (SL_BUILD_SAMPLE, G_FILE_TEST_IS_REGULAR))
    return g_strdup (SL_BUILD_SAMPLE);
#endif
  return NULL;
}

static void
refresh_recent (SlApplication *self)
{
  GMenu *section = G_MENU (gtk_application_get_menu_by_id (GTK_APPLICATION (self), "recent-section"));
  GList *items = sl_recent_list ();

  if (section)
    {
      g_menu_remove_all (section);
      for (GList *l = items; l; l = l->next)
        {
          GtkRecentInfo *info = l->data;
          g_autoptr(GMenuItem) item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);
          g_menu_item_set_action_and_target (item, "win.open-recent", "s", gtk_recent_info_get_uri (info));
          g_menu_append_item (section, item);
        }
      if (items == NULL)
        g_menu_append (section, _("No Recent Profiles"), "app.no-recent");
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);

  for (GList *w = gtk_application_get_windows (GTK_APPLICATION (self)); w; w = w->next)
    if (SL_IS_WINDOW (w->data))
      sl_window_refresh_recent (SL_WINDOW (w->data));
}

void
sl_application_open_file (SlApplication *self,
                          GFile         *file,
                          GtkWindow     *hint)
{
  SlWindow *window = NULL;

  for (GList *w = gtk_application_get_windows (GTK_APPLICATION (self)); w; w = w->next)
    {
      GFile *shown;
      if (!SL_IS_WINDOW (w->data))
        continue;
      shown = sl_window_get_file (SL_WINDOW (w->data));
      if (shown && g_file_equal (shown, file))
        {
          gtk_window_present (GTK_WINDOW (w->data));
          return;
        }
    }
  /* one window per profile: reuse only a window that shows nothing */
  if (SL_IS_WINDOW (hint) && sl_window_is_empty (SL_WINDOW (hint)))
    window = SL_WINDOW (hint);
  if (window == NULL)
    for (GList *w = gtk_application_get_windows (GTK_APPLICATION (self)); w; w = w->next)
      if (SL_IS_WINDOW (w->data) && sl_window_is_empty (SL_WINDOW (w->data)))
        {
          window = w->data;
          break;
        }
  if (window == NULL)
    window = sl_window_new (GTK_APPLICATION (self));
  sl_window_load (window, file);
  gtk_window_present (GTK_WINDOW (window));
}

static void
sl_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (sl_window_new (GTK_APPLICATION (app)));
  gtk_window_present (window);
}

static void
sl_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  SlApplication *self = SL_APPLICATION (app);

  if (self->compare)
    {
      self->compare = FALSE;
      gtk_window_present (GTK_WINDOW (sl_compare_window_new (GTK_APPLICATION (app), files, n_files)));
      return;
    }
  for (int i = 0; i < n_files; i++)
    sl_application_open_file (SL_APPLICATION (app), files[i], NULL);
}

/* --compare A B [C…]: open() then opens the files given as one
 * comparison.  A running instance would open them as separate profiles
 * (its open() cannot know of the option): say so rather than do that. */
static int
sl_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  g_autoptr(GError) error = NULL;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("sightline %s\n", SL_VERSION);
      return 0;
    }
  if (!g_variant_dict_contains (options, "compare"))
    return -1;
  if (!g_application_register (app, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  if (g_application_get_is_remote (app))
    {
      g_printerr ("%s\n", _("--compare: Sightline is already running; use File → Compare With… in its window"));
      return 1;
    }
  SL_APPLICATION (app)->compare = TRUE;
  return -1;
}

static void
quit_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  g_application_quit (G_APPLICATION (data));
}

static void
new_window_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  gtk_window_present (GTK_WINDOW (sl_window_new (GTK_APPLICATION (data))));
}

static void
open_sample_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  SlApplication *self = data;
  g_autofree char *path = sl_application_sample_path ();
  g_autoptr(GFile) file = NULL;
  GtkWindow *active;

  if (path == NULL)
    return;
  file = g_file_new_for_path (path);
  active = gtk_application_get_active_window (GTK_APPLICATION (self));
  sl_application_open_file (self, file, active);
}

static void
about_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  static const char *authors[] = { "The Sightline authors", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (GTK_APPLICATION (data)),
                         "program-name", _("Sightline"),
                         "logo-icon-name", SL_APP_ID,
                         "version", SL_VERSION,
                         "comments", _("Explore NVIDIA Nsight Systems profiles: every GPU, stream, "
                                       "CUDA call and NVTX range on one fast timeline."),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
preferences_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (data));
  GSettings *settings = sl_settings_get ();

  if (settings != NULL)
    gtk_window_present (GTK_WINDOW (sl_preferences_new (parent, settings)));
}

static void
no_recent_action (GSimpleAction *action, GVariant *param, gpointer data)
{
}

/* app.merge(paths): the files as the ranks of one job, in a ranks window. */
static void
merge_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  g_autofree const char **paths = g_variant_get_strv (param, NULL);

  if (paths != NULL && paths[0] != NULL)
    gtk_window_present (GTK_WINDOW (sl_ranks_window_new (GTK_APPLICATION (data), paths)));
}

static void
ranks_chosen_cb (GPtrArray *files, gpointer data)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < files->len; i++)
    {
      char *path = g_file_get_path (g_ptr_array_index (files, i));
      if (path != NULL)
        g_ptr_array_add (paths, path);
    }
  if (paths->len > 1)
    g_action_group_activate_action (G_ACTION_GROUP (data), "merge",
                                    g_variant_new_strv ((const char * const *) paths->pdata, paths->len));
}

static void
open_ranks_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  sl_file_chooser_open_many (gtk_application_get_active_window (GTK_APPLICATION (data)), _("Open Ranks"),
                             _("_Open"), ranks_chosen_cb, data);
}

static void
summaries_chosen_cb (GFile *folder, gpointer data)
{
  g_autofree char *path = folder != NULL ? g_file_get_path (folder) : NULL;
  const char *paths[] = { path, NULL };

  if (path != NULL)
    g_action_group_activate_action (G_ACTION_GROUP (data), "merge", g_variant_new_strv (paths, 1));
}

/* app.open-rank-summaries: a folder of `sightline-cli summarize` outputs
 * as the rank heat map; the profiles load when the user clicks a rank. */
static void
open_rank_summaries_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  sl_file_chooser_open_folder (gtk_application_get_active_window (GTK_APPLICATION (data)),
                               _("Open Rank Summaries"), _("_Open"), summaries_chosen_cb, data);
}

static const GActionEntry app_entries[] = {
  { "merge", merge_action, "as" },
  { "open-ranks", open_ranks_action },
  { "open-rank-summaries", open_rank_summaries_action },
  { "quit", quit_action },
  { "new-window", new_window_action },
  { "open-sample", open_sample_action },
  { "about", about_action },
  { "preferences", preferences_action },
  { "no-recent", no_recent_action },
};

static void
set_accels (GtkApplication *app, const char *action, const char *first, ...)
{
  const char *accels[4] = { first, NULL, NULL, NULL };
  va_list args;
  guint n = 1;

  va_start (args, first);
  for (const char *a = va_arg (args, const char *); a && n < 3; a = va_arg (args, const char *))
    accels[n++] = a;
  va_end (args);
  gtk_application_set_accels_for_action (app, action, accels);
}

static void
sl_application_startup (GApplication *app)
{
  GtkApplication *gtk_app = GTK_APPLICATION (app);
  g_autofree char *sample = NULL;

  G_APPLICATION_CLASS (sl_application_parent_class)->startup (app);
  /* gtk_init set every category from the environment; numbers stay C so
   * the exports and JSON written from here match the CLI's, and the views
   * localize theirs (sl-locale-format.h) */
  setlocale (LC_NUMERIC, "C");

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_entries, G_N_ELEMENTS (app_entries), app);
  sample = sl_application_sample_path ();
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (app), "open-sample")),
                               sample != NULL);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (app), "no-recent")),
                               FALSE);
  /* without the schema there is nothing to edit nor to remember */
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (app), "preferences")),
                               sl_settings_get () != NULL);
  sl_settings_apply_theme ();
  sl_settings_apply_cache_limit ();

  set_accels (gtk_app, "app.quit", "<Control>q", NULL);
  set_accels (gtk_app, "app.new-window", "<Control>n", NULL);
  set_accels (gtk_app, "app.preferences", "<Control>comma", NULL);
  set_accels (gtk_app, "win.open", "<Control>o", NULL);
  set_accels (gtk_app, "app.open-ranks", "<Control><Shift>o", NULL);
  set_accels (gtk_app, "win.close", "<Control>w", NULL);
  set_accels (gtk_app, "win.reload", "F5", "<Control>r", NULL);
  set_accels (gtk_app, "win.export", "<Control>e", NULL);
  set_accels (gtk_app, "win.compare-with", "<Control><Shift>c", NULL);
  set_accels (gtk_app, "win.zoom-in", "<Control>plus", "<Control>equal", NULL);
  set_accels (gtk_app, "win.zoom-out", "<Control>minus", NULL);
  set_accels (gtk_app, "win.fit", "<Control>0", NULL);
  set_accels (gtk_app, "win.show-details", "<Control>i", NULL);
  set_accels (gtk_app, "win.show-panel", "F9", NULL);
  set_accels (gtk_app, "win.show-page::search", "<Control>f", NULL);
  set_accels (gtk_app, "win.next-match", "F3", NULL);
  set_accels (gtk_app, "win.previous-match", "<Shift>F3", NULL);
  set_accels (gtk_app, "win.show-flame", "<Control><Shift>f", NULL);
  set_accels (gtk_app, "win.go-back", "<Alt>Left", "Back", NULL);
  set_accels (gtk_app, "win.go-forward", "<Alt>Right", "Forward", NULL);
  set_accels (gtk_app, "win.add-bookmark", "<Control>d", NULL);

  g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                           G_CALLBACK (refresh_recent), app, G_CONNECT_SWAPPED);
  refresh_recent (SL_APPLICATION (app));
}

/* A window asks for a file to be shown: maybe it is open already, or the
 * window is busy with another profile. */
static void
window_open_request_cb (SlWindow *window,
                        GFile    *file,
                        gpointer  data)
{
  sl_application_open_file (SL_APPLICATION (data), file, GTK_WINDOW (window));
}

static void
sl_application_window_added (GtkApplication *app,
                             GtkWindow      *window)
{
  GTK_APPLICATION_CLASS (sl_application_parent_class)->window_added (app, window);
  if (SL_IS_WINDOW (window))
    g_signal_connect_object (window, "open-request", G_CALLBACK (window_open_request_cb), app, 0);
}

/* sightline --merge A B C: the files as ranks of one job in one window,
 * by app.merge (a running instance gets the action), not opened one by
 * one.  GApplication keeps the file arguments from handle-local-options,
 * so they are taken here, before it parses the rest. */
static gboolean
sl_application_local_command_line (GApplication *app, char ***arguments, int *exit_status)
{
  char **argv = *arguments;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  gboolean merge = FALSE;

  for (guint i = 1; argv[i] != NULL; i++)
    merge |= g_strcmp0 (argv[i], "--merge") == 0;
  if (!merge)
    return G_APPLICATION_CLASS (sl_application_parent_class)->local_command_line (app, arguments, exit_status);
  for (guint i = 1; argv[i] != NULL; i++)
    if (argv[i][0] != '-')
      {
        g_autoptr(GFile) file = g_file_new_for_commandline_arg (argv[i]);
        g_ptr_array_add (paths, g_file_get_path (file));
      }
  g_ptr_array_add (paths, NULL);
  if (paths->len < 2)
    {
      g_printerr ("%s\n", _("--merge needs the profiles, summaries or folders of summaries to open"));
      *exit_status = 1;
      return TRUE;
    }
  if (!g_application_register (app, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      *exit_status = 1;
      return TRUE;
    }
  g_action_group_activate_action (G_ACTION_GROUP (app), "merge",
                                  g_variant_new_strv ((const char * const *) paths->pdata, -1));
  /* the rest as a plain start: activate presents the ranks window (or a
   * running instance's), the main loop runs while it is open */
  for (guint i = 1; argv[i] != NULL; i++)
    g_clear_pointer (&argv[i], g_free);
  return G_APPLICATION_CLASS (sl_application_parent_class)->local_command_line (app, arguments, exit_status);
}

/* dconf writes asynchronously: the last window size must reach it */
static void
sl_application_shutdown (GApplication *app)
{
  for (GList *w = gtk_application_get_windows (GTK_APPLICATION (app)); w; w = w->next)
    if (SL_IS_WINDOW (w->data))
      sl_settings_save_window (GTK_WINDOW (w->data));
  if (sl_settings_get () != NULL)
    g_settings_sync ();
  G_APPLICATION_CLASS (sl_application_parent_class)->shutdown (app);
}

static void
sl_application_class_init (SlApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  GTK_APPLICATION_CLASS (klass)->window_added = sl_application_window_added;

  app_class->activate = sl_application_activate;
  app_class->local_command_line = sl_application_local_command_line;
  app_class->open = sl_application_open;
  app_class->startup = sl_application_startup;
  app_class->shutdown = sl_application_shutdown;
  app_class->handle_local_options = sl_application_handle_local_options;
}

static void
sl_application_init (SlApplication *self)
{
  static const GOptionEntry entries[] = {
    { "merge", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Open the profiles (or rank summaries, or a folder of them) as the ranks of one job, in one window"), NULL },
    { NULL }
  };

  g_set_application_name (_("Sightline"));
  g_application_add_main_option (G_APPLICATION (self), "compare", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                 _("Compare the profiles given (the first against the others)"), NULL);
  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_add_main_option (G_APPLICATION (self), "version", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                 _("Print the version and exit"), NULL);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[PROFILE…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
    _("Explore NVIDIA Nsight Systems profiles: each PROFILE (an .sqlite export or an "
      ".nsys-rep report) opens in a window of its own."));
  g_application_set_option_context_description (G_APPLICATION (self),
    _("Analyses without a window: sightline-cli --help.\n"
      "Report bugs at https://github.com/sightline/sightline/issues"));
}

SlApplication *
sl_application_new (void)
{
  return g_object_new (SL_TYPE_APPLICATION,
                       "application-id", SL_APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/sightline/Sightline",
                       NULL);
}
