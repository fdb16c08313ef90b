/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-work-scope.c: NVTX, category and stream scopes, applied as subset profiles. */
#include "sl-work-scope.h"
#include "sl-attribution.h"

#include <glib/gi18n.h>

G_DEFINE_QUARK (sl-work-scope-error-quark, sl_work_scope_error)

/* Lists in error messages name at most this many things. */
#define LIST_MAX 20

struct _SlWorkScope {
  GPtrArray          *nvtx;             /* char *globs */
  GPtrArray          *exclude_nvtx;
  GPtrArray          *category;         /* char *names */
  GPtrArray          *exclude_category;
  GArray             *streams;          /* guint32 stream ids */
  const SlCategories *categories;       /* nullable: the default rules */
};

/* The flags of one range name: which globs match it. */
enum { NAME_SEEN = 1, NAME_INCLUDED = 2, NAME_EXCLUDED = 4 };

SlWorkScope *
sl_work_scope_new (void)
{
  SlWorkScope *scope = g_new0 (SlWorkScope, 1);

  scope->nvtx = g_ptr_array_new_with_free_func (g_free);
  scope->exclude_nvtx = g_ptr_array_new_with_free_func (g_free);
  scope->category = g_ptr_array_new_with_free_func (g_free);
  scope->exclude_category = g_ptr_array_new_with_free_func (g_free);
  scope->streams = g_array_new (FALSE, FALSE, sizeof (guint32));
  return scope;
}

void
sl_work_scope_free (SlWorkScope *scope)
{
  if (scope == NULL)
    return;
  g_ptr_array_unref (scope->nvtx);
  g_ptr_array_unref (scope->exclude_nvtx);
  g_ptr_array_unref (scope->category);
  g_ptr_array_unref (scope->exclude_category);
  g_array_unref (scope->streams);
  g_free (scope);
}

void
sl_work_scope_add_nvtx (SlWorkScope *scope, const char *glob, gboolean exclude)
{
  g_ptr_array_add (exclude ? scope->exclude_nvtx : scope->nvtx, g_strdup (glob));
}

void
sl_work_scope_add_category (SlWorkScope *scope, const char *name, gboolean exclude)
{
  g_ptr_array_add (exclude ? scope->exclude_category : scope->category, g_strdup (name));
}

void
sl_work_scope_add_stream (SlWorkScope *scope, guint32 stream)
{
  g_array_append_val (scope->streams, stream);
}

void
sl_work_scope_set_categories (SlWorkScope *scope, const SlCategories *categories)
{
  scope->categories = categories;
}

gboolean
sl_work_scope_is_empty (const SlWorkScope *scope)
{
  return scope == NULL
         || (scope->nvtx->len == 0 && scope->exclude_nvtx->len == 0 && scope->category->len == 0
             && scope->exclude_category->len == 0 && scope->streams->len == 0);
}

static gboolean
has_nvtx (const SlWorkScope *scope)
{
  return scope->nvtx->len + scope->exclude_nvtx->len > 0;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* "a, b, c … (N in all)": the first LIST_MAX of @names (sorted in place
 * when @sort). */
static char *
list_names (GPtrArray *names, gboolean sort)
{
  GString *s = g_string_new (NULL);

  if (sort)
    g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len && i < LIST_MAX; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (const char *) names->pdata[i]);
  if (names->len > LIST_MAX)
    g_string_append_printf (s, _(" … (%u in all)"), names->len);
  if (names->len == 0)
    g_string_append (s, _("none"));
  return g_string_free (s, FALSE);
}

/* ---- NVTX ---------------------------------------------------------------- */

/* Sets NAME_INCLUDED / NAME_EXCLUDED in @flags[id] for each distinct range
 * name id seen, and fails when a glob matches none of them. */
static gboolean
match_globs (GPtrArray *globs, guint8 flag, const SlProfile *profile, guint8 *flags,
             GPtrArray *names, GError **error)
{
  for (guint g = 0; g < globs->len; g++)
    {
      g_autoptr(GPatternSpec) spec = g_pattern_spec_new (globs->pdata[g]);
      gboolean hit = FALSE;

      for (guint i = 0; i < names->len; i++)
        {
          guint32 id = GPOINTER_TO_UINT (names->pdata[i]);
          if (g_pattern_spec_match_string (spec, sl_strings_get (profile->strings, id)))
            {
              flags[id] |= flag;
              hit = TRUE;
            }
        }
      if (!hit)
        {
          g_autoptr(GPtrArray) listed = g_ptr_array_new ();
          g_autofree char *list = NULL;

          for (guint i = 0; i < names->len; i++)
            g_ptr_array_add (listed, (gpointer) sl_strings_get (profile->strings, GPOINTER_TO_UINT (names->pdata[i])));
          list = list_names (listed, FALSE);
          g_set_error (error, SL_WORK_SCOPE_ERROR, SL_WORK_SCOPE_ERROR_NO_MATCH,
                       _("no NVTX push/pop range matches “%s”; the ranges are: %s"),
                       (const char *) globs->pdata[g], list);
          return FALSE;
        }
    }
  return TRUE;
}

static int
compare_name_ids (gconstpointer a, gconstpointer b, gpointer strings)
{
  return g_strcmp0 (sl_strings_get (strings, GPOINTER_TO_UINT (*(gpointer const *) a)),
                    sl_strings_get (strings, GPOINTER_TO_UINT (*(gpointer const *) b)));
}

/* Adds to @names the ids of the range names first seen at depth @d, sorted
 * by name; returns FALSE when no thread has ranges that deep. */
static gboolean
collect_depth (const SlProfile *profile, guint d, guint8 *flags, GPtrArray *names)
{
  guint first = names->len;
  gboolean deeper = FALSE;

  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;

      if (d >= r->n_depths)
        continue;
      deeper = TRUE;
      for (guint i = r->depth_first[d]; i < r->depth_first[d + 1]; i++)
        if (!(flags[r->name[i]] & NAME_SEEN))
          {
            flags[r->name[i]] |= NAME_SEEN;
            g_ptr_array_add (names, GUINT_TO_POINTER (r->name[i]));
          }
    }
  g_qsort_with_data (names->pdata + first, (gint) (names->len - first), sizeof (gpointer), compare_name_ids,
                profile->strings);
  return deeper;
}

/* Per string id, which globs match it (0 for names of no push/pop range).
 * Names are listed outermost first, so an error shows the step-level ones. */
static guint8 *
name_flags (const SlWorkScope *scope, const SlProfile *profile, GError **error)
{
  guint8 *flags = g_new0 (guint8, MAX (sl_strings_count (profile->strings), 1));
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  for (guint d = 0; collect_depth (profile, d, flags, names); d++)
    ;
  if (!match_globs (scope->nvtx, NAME_INCLUDED, profile, flags, names, error)
      || !match_globs (scope->exclude_nvtx, NAME_EXCLUDED, profile, flags, names, error))
    g_clear_pointer (&flags, g_free);
  return flags;
}

/* Per push/pop range (global id): in scope?  A range inherits its parent's
 * matches (parents come first: ranges are sorted by depth). */
static guint8 *
ranges_in_scope (const SlWorkScope *scope, const SlProfile *profile, const guint8 *flags)
{
  const SlAttribution *attr = sl_attribution_get (profile);
  g_autofree guint8 *matched = g_new0 (guint8, MAX (attr->n_ranges, 1));
  guint8 *kept = g_new0 (guint8, MAX (attr->n_ranges, 1));

  for (guint t = 0; t < profile->n_threads; t++)
    {
      const SlNvtxRanges *r = &profile->threads[t].nvtx;
      guint base = attr->range_base[t];

      for (guint i = 0; i < r->spans.n; i++)
        {
          guint8 m = flags[r->name[i]] & (NAME_INCLUDED | NAME_EXCLUDED);
          if (r->parent[i] != SL_NONE)
            m |= matched[base + r->parent[i]];
          matched[base + i] = m;
          kept[base + i] = (scope->nvtx->len == 0 || (m & NAME_INCLUDED)) && !(m & NAME_EXCLUDED);
        }
    }
  return kept;
}

/* Per API call: in scope by its innermost enclosing range. */
static guint8 *
api_in_scope (const SlWorkScope *scope, const SlProfile *profile, const guint8 *ranges_kept)
{
  const SlAttribution *attr = sl_attribution_get (profile);
  guint n = profile->api.spans.n;
  guint8 *kept = g_new (guint8, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    kept[i] = attr->api_range[i] == SL_NONE ? scope->nvtx->len == 0 : ranges_kept[attr->api_range[i]];
  return kept;
}

/* ---- categories and streams ---------------------------------------------- */

/* Sets @keep[c] for the categories named in @names; fails on an unknown name
 * or on a category no kernel of @profile has. */
static gboolean
resolve_categories (GPtrArray *names, const SlCategories *rules, const guint64 *n_kernels,
                    guint8 *keep, GError **error)
{
  guint n = sl_categories_get_n_categories (rules);

  for (guint i = 0; i < names->len; i++)
    {
      guint c = sl_categories_lookup (rules, names->pdata[i]);
      g_autoptr(GPtrArray) listed = g_ptr_array_new ();
      g_autofree char *list = NULL;

      if (c < n && n_kernels[c] > 0)
        {
          keep[c] = 1;
          continue;
        }
      for (guint k = 0; k < n; k++)
        if (c >= n || n_kernels[k] > 0)
          g_ptr_array_add (listed, (gpointer) sl_categories_get_name (rules, k));
      list = list_names (listed, TRUE);
      if (c >= n)
        g_set_error (error, SL_WORK_SCOPE_ERROR, SL_WORK_SCOPE_ERROR_UNKNOWN_CATEGORY,
                     _("unknown category “%s”; the categories are: %s"), (const char *) names->pdata[i], list);
      else
        g_set_error (error, SL_WORK_SCOPE_ERROR, SL_WORK_SCOPE_ERROR_NO_MATCH,
                     _("no kernel is in category “%s”; the categories with kernels are: %s"),
                     (const char *) names->pdata[i], list);
      return FALSE;
    }
  return TRUE;
}

/* Kernels per category in @profile. */
static guint64 *
count_categories (const SlProfile *profile, const guint16 *func_cat, guint n_categories)
{
  guint64 *n = g_new0 (guint64, MAX (n_categories, 1));

  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlKernels *k = &profile->streams[s].kernels;
      for (guint i = 0; i < k->spans.n; i++)
        n[func_cat[k->func[i]]]++;
    }
  return n;
}

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

/* Per stream of @profile: is its stream id one of the scope's?  Fails when
 * an id names no stream. */
static guint8 *
streams_in_scope (const SlWorkScope *scope, const SlProfile *profile, GError **error)
{
  guint8 *kept = g_new0 (guint8, MAX (profile->n_streams, 1));

  for (guint i = 0; i < scope->streams->len; i++)
    {
      guint32 want = g_array_index (scope->streams, guint32, i);
      gboolean hit = FALSE;

      for (guint s = 0; s < profile->n_streams; s++)
        if (profile->streams[s].stream == want)
          hit = kept[s] = TRUE;
      if (!hit)
        {
          g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_autoptr(GString) list = g_string_new (NULL);

          for (guint s = 0; s < profile->n_streams; s++)
            g_array_append_val (ids, profile->streams[s].stream);
          g_array_sort (ids, compare_u32);
          for (guint k = 0; k < ids->len; k++)
            if (k == 0 || g_array_index (ids, guint32, k) != g_array_index (ids, guint32, k - 1))
              g_string_append_printf (list, "%s%u", list->len ? ", " : "", g_array_index (ids, guint32, k));
          g_set_error (error, SL_WORK_SCOPE_ERROR, SL_WORK_SCOPE_ERROR_NO_MATCH,
                       _("no GPU work on stream %u; the streams are: %s"), want,
                       list->len ? list->str : _("none"));
          g_free (kept);
          return NULL;
        }
    }
  return kept;
}

/* ---- applying ------------------------------------------------------------ */

typedef struct {
  const SlWorkScope       *scope;
  const SlAttribution *attr;
  guint8              *ranges_kept;     /* NULL: no NVTX part */
  guint8              *api_kept;
  guint8              *streams_kept;    /* NULL: no stream part */
  guint16             *func_cat;        /* NULL: no category part */
  guint8              *cat_keep;        /* per category: 1 keep, 2 drop */
  gboolean             copies_kept;     /* FALSE with --category */
} Keep;

static void
keep_clear (Keep *k)
{
  g_free (k->ranges_kept);
  g_free (k->api_kept);
  g_free (k->streams_kept);
  g_free (k->func_cat);
  g_free (k->cat_keep);
}

static gboolean
keep_work (const SlProfile *profile, guint32 stream, SlWorkKind kind, guint index, gpointer data)
{
  const Keep *k = data;
  const SlStream *st = &profile->streams[stream];
  guint32 api;

  if (k->streams_kept != NULL && !k->streams_kept[stream])
    return FALSE;
  if (kind == SL_WORK_KERNEL)
    {
      guint32 r = k->attr->kernel_range[k->attr->kernel_base[stream] + index];
      if (k->func_cat != NULL && k->cat_keep[k->func_cat[st->kernels.func[index]]] != 1)
        return FALSE;
      return k->ranges_kept == NULL || (r == SL_NONE ? k->scope->nvtx->len == 0 : k->ranges_kept[r]);
    }
  if (!k->copies_kept)
    return FALSE;
  api = kind == SL_WORK_MEMCPY ? st->memcpy.api[index] : st->memset.api[index];
  return k->api_kept == NULL || (api == SL_NONE ? k->scope->nvtx->len == 0 : k->api_kept[api]);
}

/* The category part of @k: 1 for kept categories, 2 for dropped ones. */
static gboolean
prepare_categories (const SlWorkScope *scope, const SlProfile *profile, Keep *k, GError **error)
{
  const SlCategories *rules = scope->categories ? scope->categories : sl_categories_get_default ();
  guint n = sl_categories_get_n_categories (rules);
  g_autofree guint64 *n_kernels = NULL;
  g_autofree guint8 *excluded = g_new0 (guint8, MAX (n, 1));

  if (scope->category->len + scope->exclude_category->len == 0)
    return TRUE;
  k->func_cat = sl_categories_classify_funcs (rules, profile);
  if (k->func_cat == NULL)
    k->func_cat = g_new0 (guint16, 1);
  n_kernels = count_categories (profile, k->func_cat, n);
  k->cat_keep = g_new0 (guint8, MAX (n, 1));
  if (!resolve_categories (scope->category, rules, n_kernels, k->cat_keep, error)
      || !resolve_categories (scope->exclude_category, rules, n_kernels, excluded, error))
    return FALSE;
  for (guint c = 0; c < n; c++)
    if (scope->category->len == 0)
      k->cat_keep[c] = 1;
  for (guint c = 0; c < n; c++)
    if (excluded[c])
      k->cat_keep[c] = 2;
  k->copies_kept = scope->category->len == 0;
  return TRUE;
}

SlProfile *
sl_work_scope_apply (const SlWorkScope *scope, SlProfile *profile, GError **error)
{
  Keep k = { scope, sl_attribution_get (profile), .copies_kept = TRUE };
  SlProfile *subset = NULL;

  g_return_val_if_fail (scope != NULL && profile != NULL, NULL);
  if (has_nvtx (scope))
    {
      g_autofree guint8 *flags = name_flags (scope, profile, error);
      if (flags == NULL)
        goto out;
      k.ranges_kept = ranges_in_scope (scope, profile, flags);
      k.api_kept = api_in_scope (scope, profile, k.ranges_kept);
    }
  if (scope->streams->len > 0 && (k.streams_kept = streams_in_scope (scope, profile, error)) == NULL)
    goto out;
  if (!prepare_categories (scope, profile, &k, error))
    goto out;
  subset = sl_profile_new_subset (profile, keep_work, &k);
  if (k.ranges_kept != NULL)
    {
      /* the subset takes the CPU scope */
      sl_profile_subset_set_cpu_scope (subset, k.api_kept, k.ranges_kept);
      k.api_kept = k.ranges_kept = NULL;
    }
out:
  keep_clear (&k);
  return subset;
}

/* ---- JSON ---------------------------------------------------------------- */

static void
add_strings (JsonBuilder *b, const char *member, GPtrArray *values)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < values->len; i++)
    json_builder_add_string_value (b, values->pdata[i]);
  json_builder_end_array (b);
}

static void
add_ids (JsonBuilder *b, const char *member, GArray *ids)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; ids != NULL && i < ids->len; i++)
    json_builder_add_int_value (b, g_array_index (ids, guint32, i));
  json_builder_end_array (b);
}

JsonNode *
sl_work_scope_to_json (const SlWorkScope *scope, const SlFilter *filter)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  add_strings (b, "nvtx", scope->nvtx);
  add_strings (b, "exclude_nvtx", scope->exclude_nvtx);
  add_strings (b, "category", scope->category);
  add_strings (b, "exclude_category", scope->exclude_category);
  add_ids (b, "stream", scope->streams);
  add_ids (b, "gpu", filter != NULL ? filter->gpus : NULL);
  add_ids (b, "pid", filter != NULL ? filter->pids : NULL);
  json_builder_set_member_name (b, "range");
  if (filter != NULL && filter->has_range)
    {
      json_builder_begin_array (b);
      json_builder_add_int_value (b, filter->range_start);
      json_builder_add_int_value (b, filter->range_end);
      json_builder_end_array (b);
    }
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
