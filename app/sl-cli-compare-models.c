/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-compare-models.c: a gputrc2graph model per compared profile. */
#include "sl-cli-compare-models.h"

#include <glib/gi18n.h>
#include "sl-cli.h"
#include "sl-cli-options.h"

/* "B=ds" -> 1, "ds"; "llama" -> -1, "llama"; -2 for "=x", "b=" or "AB=x". */
static int
split_model (const char *text, const char **name)
{
  const char *eq = strchr (text, '=');

  *name = text;
  if (eq == NULL)
    return -1;
  *name = eq + 1;
  if (eq - text != 1 || !g_ascii_isupper (text[0]) || eq[1] == '\0')
    return -2;
  return text[0] - 'A';
}

gboolean
sl_cli_compare_models_parse (const char *command, const char *rules, char **models, SlCliCompareModels *out)
{
  for (guint i = 0; models != NULL && models[i] != NULL; i++)
    {
      const char *name;
      int letter = split_model (models[i], &name);
      char **slot = letter >= 0 ? &out->by_letter[letter] : &out->bare;

      if (letter == -2 || name[0] == '\0')
        {
          sl_cli_error (command, _("--model expects NAME (every profile) or LETTER=NAME (A the first "
                                   "profile, B the second…), not “%s”"), models[i]);
          return FALSE;
        }
      if (*slot != NULL)
        {
          sl_cli_error (command, _("--model “%s”: that profile already has the model “%s”"), models[i], *slot);
          return FALSE;
        }
      *slot = g_strdup (name);
    }
  if (out->bare != NULL && !sl_cli_parse_rules (command, rules, out->bare, &out->bare_rules))
    return FALSE;
  for (guint l = 0; l < G_N_ELEMENTS (out->by_letter); l++)
    if (out->by_letter[l] != NULL && !sl_cli_parse_rules (command, rules, out->by_letter[l], &out->letter_rules[l]))
      return FALSE;
  return TRUE;
}

const SlCategories **
sl_cli_compare_models_for (const char *command, const char *rules, SlCliCompareModels *models, guint n)
{
  const SlCategories **out;
  gboolean uncovered = FALSE;

  for (guint l = n; l < G_N_ELEMENTS (models->by_letter); l++)
    if (models->by_letter[l] != NULL)
      {
        sl_cli_error (command, _("--model %c=%s: there are only %u profiles (A to %c)"), 'A' + l,
                      models->by_letter[l], n, 'A' + MIN (n - 1, 25));
        return NULL;
      }
  for (guint p = 0; p < n; p++)
    uncovered |= p >= 26 || models->letter_rules[p] == NULL;
  /* the file alone, for the profiles without a model (fails for a file of several models) */
  if (uncovered && models->bare_rules == NULL && rules != NULL
      && !sl_cli_parse_rules (command, rules, NULL, &models->bare_rules))
    return NULL;
  out = g_new0 (const SlCategories *, n + 1);
  for (guint p = 0; p < n; p++)
    out[p] = p < 26 && models->letter_rules[p] != NULL ? models->letter_rules[p] : models->bare_rules;
  return out;
}

void
sl_cli_compare_models_clear (SlCliCompareModels *models)
{
  g_clear_pointer (&models->bare, g_free);
  g_clear_pointer (&models->bare_rules, sl_categories_free);
  for (guint l = 0; l < G_N_ELEMENTS (models->by_letter); l++)
    {
      g_clear_pointer (&models->by_letter[l], g_free);
      g_clear_pointer (&models->letter_rules[l], sl_categories_free);
    }
}
