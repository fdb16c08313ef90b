/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-categories.h: kernel categories from ordered regular-expression rules.
 *
 * A rule set is a list of (pattern, category) pairs; a kernel name gets the
 * category of the first pattern found anywhere in it, or "other".  Rules come
 * from our own JSON ({"rules": [{"pattern", "category"}]}, the default set is
 * data/categories.json, compiled into the library) or from the engine/model
 * JSON of vLLM's gputrc2graph tool ({"vllm": {"llama": {"regex": "category"}}}).
 * A rule set is immutable once built and may be shared between threads. */
#pragma once

#include <glib.h>
#include "sl-profile.h"

G_BEGIN_DECLS

#define SL_CATEGORIES_ERROR (sl_categories_error_quark ())
GQuark sl_categories_error_quark (void);

typedef enum {
  SL_CATEGORIES_ERROR_PARSE,        /* not JSON, or not a rules file */
  SL_CATEGORIES_ERROR_REGEX,        /* a pattern does not compile */
  SL_CATEGORIES_ERROR_MODEL,        /* --model missing, unknown or ambiguous */
} SlCategoriesError;

typedef struct _SlCategories SlCategories;

/* The default rules (data/categories.json as built into the library).
 * (transfer none): built once, never freed, safe from any thread. */
const SlCategories *sl_categories_get_default  (void);

/* Parses a rules file: our format, or a gputrc2graph engine/model file in
 * which case @model picks the model ("llama", or "vllm/llama" to name the
 * engine too); @model may be NULL when the file holds a single model.
 * Returns (transfer full) or NULL with @error set. */
SlCategories *sl_categories_new_from_file      (const char  *path,
                                                const char  *model,
                                                GError     **error);
/* Several rule files merged as gputrc2graph merges the *.json of its folder
 * (Python dict.update per file: a later file's engine replaces an earlier
 * one's whole); then @model picks the model.  One path is the same as
 * sl_categories_new_from_file(); more than one must all be gputrc2graph
 * files.  @paths is NULL-terminated. */
SlCategories *sl_categories_new_from_files     (const char *const *paths,
                                                const char        *model,
                                                GError           **error);
/* Same from a string; @source names it in error messages. */
SlCategories *sl_categories_new_from_data      (const char  *data,
                                                gssize       length,
                                                const char  *model,
                                                const char  *source,
                                                GError     **error);
void          sl_categories_free               (SlCategories *categories);

/* Category names in display order.  Index sl_categories_get_other() is the
 * "other" category (present in every rule set). */
guint         sl_categories_get_n_categories   (const SlCategories *categories);
const char   *sl_categories_get_name           (const SlCategories *categories,
                                                guint               index);
guint         sl_categories_get_other          (const SlCategories *categories);
/* Index of a category name, or G_MAXUINT. */
guint         sl_categories_lookup             (const SlCategories *categories,
                                                const char         *name);
guint         sl_categories_get_n_rules        (const SlCategories *categories);
/* Whether the rules came from gputrc2graph engine/model files: then a
 * kernel is classified by its demangled name alone, as gputrc2graph does
 * on `nsys stats -r cuda_gpu_trace`'s Name column. */
gboolean      sl_categories_is_gputrc2graph    (const SlCategories *categories);
/* The chosen engine and model of a gputrc2graph file, else NULL. */
const char   *sl_categories_get_engine         (const SlCategories *categories);
const char   *sl_categories_get_model          (const SlCategories *categories);

/* Category index of one name (first matching rule; "other" when none). */
guint         sl_categories_classify           (const SlCategories *categories,
                                                const char         *name);
/* Category of a kernel known by its short and demangled names: the short
 * name, and when no rule matches it, the demangled name (gputrc2graph rules:
 * the demangled name only, or the short name when it is missing). */
guint         sl_categories_classify_names     (const SlCategories *categories,
                                                const char         *short_name,
                                                const char         *demangled);
/* Category of a kernel function (sl_categories_classify_names()). */
guint         sl_categories_classify_func      (const SlCategories *categories,
                                                const SlProfile    *profile,
                                                guint32             func);
/* Category of every kernel function of @profile: (transfer full) array of
 * profile->n_funcs entries (NULL when there are none). */
guint16      *sl_categories_classify_funcs     (const SlCategories *categories,
                                                const SlProfile    *profile);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCategories, sl_categories_free)

G_END_DECLS
