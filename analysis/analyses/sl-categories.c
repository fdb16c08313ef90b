/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-categories.c: kernel categories from ordered regular-expression rules. */
#include "sl-categories.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sl-analysis-resources.h"

G_DEFINE_QUARK (sl-categories-error-quark, sl_categories_error)

#define OTHER_NAME "other"

typedef struct {
  GRegex *regex;
  guint   category;
} SlRule;

struct _SlCategories {
  GPtrArray *names;       /* char*, display order */
  GArray    *rules;       /* SlRule, match order */
  guint      other;
  gboolean   gputrc2graph;
  char      *engine;      /* gputrc2graph's chosen engine and model, else NULL */
  char      *model;
};

static guint
add_category (SlCategories *self, const char *name)
{
  for (guint i = 0; i < self->names->len; i++)
    if (g_str_equal (g_ptr_array_index (self->names, i), name))
      return i;
  g_ptr_array_add (self->names, g_strdup (name));
  return self->names->len - 1;
}

static SlCategories *
categories_new (void)
{
  SlCategories *self = g_new0 (SlCategories, 1);

  self->names = g_ptr_array_new_with_free_func (g_free);
  self->rules = g_array_new (FALSE, FALSE, sizeof (SlRule));
  self->other = G_MAXUINT;
  return self;
}

void
sl_categories_free (SlCategories *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->rules->len; i++)
    g_regex_unref (g_array_index (self->rules, SlRule, i).regex);
  g_array_unref (self->rules);
  g_ptr_array_unref (self->names);
  g_free (self->engine);
  g_free (self->model);
  g_free (self);
}

static gboolean
add_rule (SlCategories *self, const char *pattern, const char *category,
          const char *source, GError **error)
{
  g_autoptr(GError) local = NULL;
  SlRule rule;

  /* Compiled once; names are searched thousands of times. */
  rule.regex = g_regex_new (pattern, G_REGEX_OPTIMIZE, 0, &local);
  if (rule.regex == NULL)
    {
      g_set_error (error, SL_CATEGORIES_ERROR, SL_CATEGORIES_ERROR_REGEX,
                   _("%s: the pattern “%s” is not a valid regular expression: %s"),
                   source, pattern, local->message);
      return FALSE;
    }
  rule.category = add_category (self, category);
  g_array_append_val (self->rules, rule);
  return TRUE;
}

/* Our format: {"categories": [order...] (optional), "rules": [{"pattern", "category"}]}. */
static gboolean
parse_ours (SlCategories *self, JsonObject *root, const char *source, GError **error)
{
  JsonArray *rules = json_object_get_array_member (root, "rules");

  if (json_object_has_member (root, "categories"))
    {
      JsonNode *node = json_object_get_member (root, "categories");
      if (!JSON_NODE_HOLDS_ARRAY (node))
        goto bad;
      JsonArray *order = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (order); i++)
        {
          JsonNode *item = json_array_get_element (order, i);
          if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_STRING)
            goto bad;
          add_category (self, json_node_get_string (item));
        }
    }

  for (guint i = 0; i < json_array_get_length (rules); i++)
    {
      JsonNode *item = json_array_get_element (rules, i);
      JsonObject *rule;
      JsonNode *pattern, *category;

      if (!JSON_NODE_HOLDS_OBJECT (item))
        goto bad;
      rule = json_node_get_object (item);
      pattern = json_object_get_member (rule, "pattern");
      category = json_object_get_member (rule, "category");
      if (pattern == NULL || category == NULL
          || json_node_get_value_type (pattern) != G_TYPE_STRING
          || json_node_get_value_type (category) != G_TYPE_STRING)
        goto bad;
      if (!add_rule (self, json_node_get_string (pattern), json_node_get_string (category), source, error))
        return FALSE;
    }
  return TRUE;

bad:
  g_set_error (error, SL_CATEGORIES_ERROR, SL_CATEGORIES_ERROR_PARSE,
               _("%s: each rule must be {\"pattern\": string, \"category\": string} "
                 "and \"categories\" a list of strings"), source);
  return FALSE;
}

/* A gputrc2graph model: {"regex": "category", ...} in order, or the older
 * {"layer_anno": {"Substage": {...}}} shape of the Python dictionary. */
static gboolean
parse_vllm_model (SlCategories *self, JsonObject *model, const char *name,
                  const char *source, GError **error)
{
  g_autoptr(GList) members = NULL;

  if (json_object_has_member (model, "layer_anno"))
    {
      JsonObject *anno = json_object_get_object_member (model, "layer_anno");
      if (anno != NULL && json_object_has_member (anno, "Substage"))
        model = json_object_get_object_member (anno, "Substage");
      if (model == NULL)
        goto bad;
    }

  /* json-glib keeps members in file order, and order is the rule priority. */
  members = json_object_get_members (model);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (model, l->data);
      if (json_node_get_value_type (value) != G_TYPE_STRING)
        goto bad;
      if (!add_rule (self, l->data, json_node_get_string (value), source, error))
        return FALSE;
    }
  return TRUE;

bad:
  g_set_error (error, SL_CATEGORIES_ERROR, SL_CATEGORIES_ERROR_PARSE,
               _("%s: model “%s” must map regular expressions to category names"), source, name);
  return FALSE;
}

/* What --model asks for: "MODEL", "ENGINE/MODEL" or "ENGINE:MODEL"; NULL
 * parts match anything. */
typedef struct {
  char       *engine;
  const char *model;
  /* what the file offers */
  JsonObject *found;
  const char *found_name;
  const char *found_engine;
  guint       n_found;
  GString    *available;   /* "engine/model, ..." for the messages */
} ModelChoice;

static void
model_choice_init (ModelChoice *mc, const char *model)
{
  const char *sep = model != NULL ? strpbrk (model, "/:") : NULL;

  memset (mc, 0, sizeof *mc);
  mc->engine = sep != NULL ? g_strndup (model, sep - model) : NULL;
  mc->model = sep != NULL ? sep + 1 : model;
  mc->available = g_string_new (NULL);
}

static void
model_choice_clear (ModelChoice *mc)
{
  g_free (mc->engine);
  g_string_free (mc->available, TRUE);
}

/* Notes the models of one engine, and those that match.  FALSE when the
 * file does not have the engine/model shape. */
static gboolean
choose_in_engine (ModelChoice *mc, const char *engine_name, JsonNode *engine_node)
{
  g_autoptr(GList) models = NULL;
  JsonObject *engine;

  if (!JSON_NODE_HOLDS_OBJECT (engine_node))
    return FALSE;
  engine = json_node_get_object (engine_node);
  models = json_object_get_members (engine);
  for (GList *m = models; m != NULL; m = m->next)
    {
      JsonNode *model_node = json_object_get_member (engine, m->data);
      if (!JSON_NODE_HOLDS_OBJECT (model_node))
        return FALSE;
      g_string_append_printf (mc->available, "%s%s/%s", mc->available->len ? ", " : "",
                              engine_name, (char *) m->data);
      if ((mc->engine == NULL || g_str_equal (mc->engine, engine_name))
          && (mc->model == NULL || g_str_equal (mc->model, m->data)))
        {
          mc->found = json_node_get_object (model_node);
          mc->found_name = m->data;
          mc->found_engine = engine_name;
          mc->n_found++;
        }
    }
  return TRUE;
}

/* Unless exactly one model matched: why, with the models there are. */
static gboolean
check_one_model (const ModelChoice *mc, const char *model, const char *source, GError **error)
{
  if (mc->n_found == 1)
    return TRUE;
  if (model == NULL)
    g_set_error (error, SL_CATEGORIES_ERROR, SL_CATEGORIES_ERROR_MODEL,
                 _("%s holds several models; choose one with --model (%s)"),
                 source, mc->available->str);
  else if (mc->n_found == 0)
    g_set_error (error, SL_CATEGORIES_ERROR, SL_CATEGORIES_ERROR_MODEL,
                 _("%s has no model “%s”; available: %s"), source, model, mc->available->str);
  else
    g_set_error (error, SL_CATEGORIES_ERROR, SL_CATEGORIES_ERROR_MODEL,
                 _("%s has model “%s” under several engines; write ENGINE/MODEL (%s)"),
                 source, model, mc->available->str);
  return FALSE;
}

static gboolean
parse_vllm (SlCategories *self, JsonObject *root, const char *model,
            const char *source, GError **error)
{
  g_autoptr(GList) engines = json_object_get_members (root);
  ModelChoice mc;
  gboolean ok = TRUE;

  model_choice_init (&mc, model);
  for (GList *e = engines; e != NULL && ok; e = e->next)
    ok = choose_in_engine (&mc, e->data, json_object_get_member (root, e->data));
  if (!ok)
    g_set_error (error, SL_CATEGORIES_ERROR, SL_CATEGORIES_ERROR_PARSE,
                 _("%s is neither a Sightline rules file ({\"rules\": [...]}) nor a "
                   "gputrc2graph engine/model file ({\"engine\": {\"model\": {...}}})"), source);
  else
    ok = check_one_model (&mc, model, source, error)
         && parse_vllm_model (self, mc.found, mc.found_name, source, error);
  if (ok)
    {
      self->gputrc2graph = TRUE;
      self->engine = g_strdup (mc.found_engine);
      self->model = g_strdup (mc.found_name);
    }
  model_choice_clear (&mc);
  return ok;
}

/* The top-level object of a rules file, (transfer full), or NULL with @error. */
static JsonObject *
parse_root (const char *data, gssize length, const char *source, GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local = NULL;
  JsonNode *root;

  if (!json_parser_load_from_data (parser, data, length, &local))
    {
      g_set_error (error, SL_CATEGORIES_ERROR, SL_CATEGORIES_ERROR_PARSE,
                   _("%s is not valid JSON: %s"), source, local->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, SL_CATEGORIES_ERROR, SL_CATEGORIES_ERROR_PARSE,
                   _("%s must hold a JSON object ({\"rules\": [...]})"), source);
      return NULL;
    }
  return json_object_ref (json_node_get_object (root));
}

static gboolean
is_ours (JsonObject *root)
{
  return json_object_has_member (root, "rules")
         && JSON_NODE_HOLDS_ARRAY (json_object_get_member (root, "rules"));
}

static SlCategories *
categories_from_root (JsonObject *root, const char *model, const char *source, GError **error)
{
  SlCategories *self = categories_new ();
  gboolean ok;

  if (is_ours (root))
    ok = parse_ours (self, root, source, error);
  else
    ok = parse_vllm (self, root, model, source, error);
  if (!ok)
    {
      sl_categories_free (self);
      return NULL;
    }
  self->other = add_category (self, OTHER_NAME);
  return self;
}

SlCategories *
sl_categories_new_from_data (const char *data, gssize length, const char *model,
                             const char *source, GError **error)
{
  g_autoptr(JsonObject) root = NULL;

  g_return_val_if_fail (data != NULL, NULL);
  if (source == NULL)
    source = _("the rules");
  root = parse_root (data, length, source, error);
  return root != NULL ? categories_from_root (root, model, source, error) : NULL;
}

/* Adds the engines of one gputrc2graph file to @merged, replacing those of
 * the same name (Python's dict.update). */
static gboolean
merge_file (JsonObject *merged, const char *path, GError **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(JsonObject) root = NULL;
  g_autoptr(GList) engines = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &contents, &length, error))
    return FALSE;
  root = parse_root (contents, length, path, error);
  if (root == NULL)
    return FALSE;
  if (is_ours (root))
    {
      g_set_error (error, SL_CATEGORIES_ERROR, SL_CATEGORIES_ERROR_PARSE,
                   _("%s: only gputrc2graph engine/model files can be merged (several --rules)"), path);
      return FALSE;
    }
  engines = json_object_get_members (root);
  for (GList *e = engines; e != NULL; e = e->next)
    json_object_set_member (merged, e->data, json_node_copy (json_object_get_member (root, e->data)));
  return TRUE;
}

SlCategories *
sl_categories_new_from_files (const char *const *paths, const char *model, GError **error)
{
  g_autoptr(JsonObject) merged = json_object_new ();
  g_autofree char *source = NULL;

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);
  if (paths[1] == NULL)
    return sl_categories_new_from_file (paths[0], model, error);
  for (guint i = 0; paths[i] != NULL; i++)
    if (!merge_file (merged, paths[i], error))
      return NULL;
  source = g_strjoinv (" + ", (char **) paths);
  return categories_from_root (merged, model, source, error);
}

SlCategories *
sl_categories_new_from_file (const char *path, const char *model, GError **error)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  if (!g_file_get_contents (path, &contents, &length, error))
    return NULL;
  return sl_categories_new_from_data (contents, length, model, path, error);
}

const SlCategories *
sl_categories_get_default (void)
{
  static SlCategories *defaults = NULL;

  if (g_once_init_enter (&defaults))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = NULL;
      SlCategories *built = NULL;

      /* Referencing the resource directly (not g_resources_lookup_data)
       * keeps the linker from dropping it out of the static library. */
      bytes = g_resource_lookup_data (sl_analysis_get_resource (),
                                      "/io/github/sightline/analysis/categories.json",
                                      G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
      if (bytes != NULL)
        built = sl_categories_new_from_data (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                             NULL, "categories.json", &error);
      if (built == NULL)
        g_error ("built-in category rules are broken: %s", error->message);
      g_once_init_leave (&defaults, built);
    }
  return defaults;
}

guint
sl_categories_get_n_categories (const SlCategories *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->names->len;
}

const char *
sl_categories_get_name (const SlCategories *self, guint index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->names->len, NULL);
  return g_ptr_array_index (self->names, index);
}

guint
sl_categories_get_other (const SlCategories *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->other;
}

guint
sl_categories_lookup (const SlCategories *self, const char *name)
{
  g_return_val_if_fail (self != NULL, G_MAXUINT);
  for (guint i = 0; i < self->names->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->names, i), name) == 0)
      return i;
  return G_MAXUINT;
}

guint
sl_categories_get_n_rules (const SlCategories *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->rules->len;
}

gboolean
sl_categories_is_gputrc2graph (const SlCategories *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->gputrc2graph;
}

const char *
sl_categories_get_engine (const SlCategories *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->engine;
}

const char *
sl_categories_get_model (const SlCategories *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->model;
}

guint
sl_categories_classify (const SlCategories *self, const char *name)
{
  g_return_val_if_fail (self != NULL, 0);
  /* An empty name still meets the rules: gputrc2graph's ".*" matches it. */
  if (name == NULL)
    name = "";
  /* Names come from the profile: invalid UTF-8 must not reach PCRE in UTF mode. */
  if (!g_utf8_validate (name, -1, NULL))
    {
      g_autofree char *valid = g_utf8_make_valid (name, -1);
      return sl_categories_classify (self, valid);
    }
  for (guint i = 0; i < self->rules->len; i++)
    {
      const SlRule *rule = &g_array_index (self->rules, SlRule, i);
      if (g_regex_match (rule->regex, name, 0, NULL))
        return rule->category;
    }
  return self->other;
}

guint
sl_categories_classify_names (const SlCategories *self, const char *short_name, const char *demangled)
{
  guint category;

  /* gputrc2graph searches the Name column of `nsys stats -r cuda_gpu_trace`:
   * the demangled name.  So must we, or "computeOffsetsKernel" meets ".*"
   * before "cudnn::gemm::computeOffsetsKernel" meets "gemm". */
  if (self->gputrc2graph)
    return sl_categories_classify (self, demangled != NULL && *demangled != '\0' ? demangled : short_name);
  category = sl_categories_classify (self, short_name);

  if (category == self->other && g_strcmp0 (short_name, demangled) != 0)
    category = sl_categories_classify (self, demangled);
  return category;
}

guint
sl_categories_classify_func (const SlCategories *self, const SlProfile *profile, guint32 func)
{
  const char *short_name, *demangled;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (profile != NULL, self->other);
  if (func >= profile->n_funcs)
    return self->other;

  short_name = sl_strings_get (profile->strings, profile->funcs[func].short_name);
  demangled = sl_strings_get (profile->strings, profile->funcs[func].demangled_name);
  return sl_categories_classify_names (self, short_name, demangled);
}

guint16 *
sl_categories_classify_funcs (const SlCategories *self, const SlProfile *profile)
{
  guint16 *out;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (profile != NULL, NULL);
  if (profile->n_funcs == 0)
    return NULL;
  out = g_new (guint16, profile->n_funcs);
  for (guint f = 0; f < profile->n_funcs; f++)
    out[f] = (guint16) sl_categories_classify_func (self, profile, f);
  return out;
}
