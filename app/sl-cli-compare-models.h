/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-compare-models.h: `compare --rules FILE --model A=llama --model B=ds`:
 * the category rules of each profile. */
#pragma once

#include <glib.h>
#include <string.h>
#include "sl-categories.h"

G_BEGIN_DECLS

typedef struct {
  char         *bare;               /* --model NAME: every profile without its own */
  char         *by_letter[26];      /* --model A=NAME: profile A (the first), B, ... */
  SlCategories *bare_rules;         /* loaded by the check, NULL without --rules */
  SlCategories *letter_rules[26];
} SlCliCompareModels;

/* Parses the --model values (@models nullable) and loads each model named
 * from @rules; prints the mistakes and returns FALSE. */
gboolean       sl_cli_compare_models_parse (const char *command, const char *rules, char **models,
                                            SlCliCompareModels *out);
/* One rules entry per profile (NULL: the defaults), owned by @models; or
 * NULL with a message when a letter names no profile or @rules needs a
 * model.  Free the array with g_free. */
const SlCategories **sl_cli_compare_models_for (const char *command, const char *rules,
                                                SlCliCompareModels *models, guint n_profiles);
void           sl_cli_compare_models_clear (SlCliCompareModels *models);

G_END_DECLS
