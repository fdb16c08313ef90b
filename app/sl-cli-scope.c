/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-scope.c: --nvtx, --exclude-nvtx, --category, --exclude-category and
 * --stream for every analysis command. */
#include <glib/gi18n.h>

#include "sl-cli-scope.h"

void
sl_cli_scope_add (GOptionContext *context, SlCliScope *scope)
{
  GOptionEntry entries[] = {
    { "nvtx", 0, 0, G_OPTION_ARG_STRING_ARRAY, &scope->nvtx,
      N_("Only GPU work launched inside NVTX ranges matching GLOB (* and ?, whole name); repeatable"), "GLOB" },
    { "exclude-nvtx", 0, 0, G_OPTION_ARG_STRING_ARRAY, &scope->exclude_nvtx,
      N_("Leave out GPU work launched inside NVTX ranges matching GLOB; repeatable"), "GLOB" },
    { "category", 0, 0, G_OPTION_ARG_STRING_ARRAY, &scope->category,
      N_("Only kernels of this category (see categories); repeatable"), "NAME" },
    { "exclude-category", 0, 0, G_OPTION_ARG_STRING_ARRAY, &scope->exclude_category,
      N_("Leave out kernels of this category; repeatable"), "NAME" },
    { "stream", 0, 0, G_OPTION_ARG_STRING_ARRAY, &scope->streams,
      N_("Only GPU work on this CUDA stream id; repeatable"), "N" },
    { NULL }
  };
  GOptionGroup *group = g_option_group_new ("scope", _("Scope options:"),
                                            _("Show scope options"), NULL, NULL);

  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_add_group (context, group);
}

static void
add_texts (SlWorkScope *scope, char **texts, gboolean exclude,
           void (*add) (SlWorkScope *, const char *, gboolean))
{
  for (guint i = 0; texts != NULL && texts[i] != NULL; i++)
    add (scope, texts[i], exclude);
}

gboolean
sl_cli_scope_parse (const char *command, SlCliScope *scope)
{
  scope->scope = sl_work_scope_new ();
  add_texts (scope->scope, scope->nvtx, FALSE, sl_work_scope_add_nvtx);
  add_texts (scope->scope, scope->exclude_nvtx, TRUE, sl_work_scope_add_nvtx);
  add_texts (scope->scope, scope->category, FALSE, sl_work_scope_add_category);
  add_texts (scope->scope, scope->exclude_category, TRUE, sl_work_scope_add_category);
  for (guint i = 0; scope->streams != NULL && scope->streams[i] != NULL; i++)
    {
      guint64 v;

      if (!g_ascii_string_to_unsigned (scope->streams[i], 10, 0, G_MAXUINT32 - 1, &v, NULL))
        {
          sl_cli_error (command, _("%s expects a non-negative integer, not “%s”"), "--stream",
                        scope->streams[i]);
          return FALSE;
        }
      sl_work_scope_add_stream (scope->scope, (guint32) v);
    }
  return TRUE;
}

gboolean
sl_cli_scope_apply (const char *command, SlCliScope *scope, const SlCategories *categories,
                    const SlFilter *filter, GPtrArray *profiles)
{
  if (scope->scope == NULL || sl_work_scope_is_empty (scope->scope))
    return TRUE;
  sl_work_scope_set_categories (scope->scope, categories);
  for (guint i = 0; i < profiles->len; i++)
    {
      g_autoptr(GError) error = NULL;
      SlProfile *subset = sl_work_scope_apply (scope->scope, profiles->pdata[i], &error);

      if (subset == NULL)
        {
          if (profiles->len > 1)
            sl_cli_error (command, "%s: %s", ((SlProfile *) profiles->pdata[i])->path, error->message);
          else
            sl_cli_error (command, "%s", error->message);
          return FALSE;
        }
      sl_profile_unref (profiles->pdata[i]);
      profiles->pdata[i] = subset;
    }
  sl_cli_set_json_scope (sl_work_scope_to_json (scope->scope, filter));
  return TRUE;
}

void
sl_cli_scope_clear (SlCliScope *scope)
{
  g_clear_pointer (&scope->nvtx, g_strfreev);
  g_clear_pointer (&scope->exclude_nvtx, g_strfreev);
  g_clear_pointer (&scope->category, g_strfreev);
  g_clear_pointer (&scope->exclude_category, g_strfreev);
  g_clear_pointer (&scope->streams, g_strfreev);
  g_clear_pointer (&scope->scope, sl_work_scope_free);
  sl_cli_set_json_scope (NULL);
}
