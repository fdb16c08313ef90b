/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-nvtx-name.c: the grouping rule of NVTX range names (see the header). */
#include "sl-nvtx-name.h"
#include "sl-strings-private.h"

#include <string.h>

/* Length of a decimal integer (optionally negative) at @s, 0 when none. */
static gsize
integer_len (const char *s)
{
  gsize n = s[0] == '-' ? 1 : 0, digits = 0;

  while (g_ascii_isdigit (s[n + digits]))
    digits++;
  return digits > 0 ? n + digits : 0;
}

/* Length of a balanced [...] at @s, 0 when none. */
static gsize
brackets_len (const char *s)
{
  guint depth = 0;

  if (s[0] != '[')
    return 0;
  for (gsize i = 0; s[i] != '\0'; i++)
    if (s[i] == '[')
      depth++;
    else if (s[i] == ']' && --depth == 0)
      return i + 1;
  return 0;
}

/* Length of one PyTorch argument item (", op_id = 12") at @s, 0 when none. */
static gsize
item_len (const char *s)
{
  static const struct { const char *key; gboolean list; } items[] = {
    { ", seq = ", FALSE }, { ", stashed seq = ", FALSE }, { ", op_id = ", FALSE },
    { ", sizes = ", TRUE }, { ", input_op_ids = ", TRUE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (items); i++)
    if (g_str_has_prefix (s, items[i].key))
      {
        gsize k = strlen (items[i].key);
        gsize v = items[i].list ? brackets_len (s + k) : integer_len (s + k);
        return v > 0 ? k + v : 0;
      }
  return 0;
}

/* TRUE when @s is a run of argument items to its end. */
static gboolean
is_argument_tail (const char *s)
{
  while (*s != '\0')
    {
      gsize n = item_len (s);
      if (n == 0)
        return FALSE;
      s += n;
    }
  return TRUE;
}

gsize
sl_nvtx_group_len (const char *name)
{
  const char *p;

  g_return_val_if_fail (name != NULL, 0);
  /* The first ", " from which everything is arguments; not at 0, so that
   * no name becomes empty. */
  for (p = strstr (name, ", "); p != NULL; p = strstr (p + 1, ", "))
    if (p > name && is_argument_tail (p))
      return (gsize) (p - name);
  return strlen (name);
}

char *
sl_nvtx_group_name (const char *name)
{
  return g_strndup (name, sl_nvtx_group_len (name));
}

static void
groups_free (SlNvtxGroups *groups)
{
  if (groups == NULL)
    return;
  _sl_strings_free (groups->names);
  g_free (groups->group_of);
  g_free (groups);
}

/* The NVTX range names of @r, each distinct string id grouped once. */
static void
group_ranges (SlNvtxGroups *groups, const SlStrings *strings, const SlNvtxRanges *r)
{
  for (guint i = 0; i < r->spans.n; i++)
    {
      guint32 id = r->name[i];
      const char *name;

      if (id >= groups->n_ids || groups->group_of[id] != SL_NONE)
        continue;
      name = sl_strings_get (strings, id);
      groups->group_of[id] = _sl_strings_intern_len (groups->names, name, sl_nvtx_group_len (name));
    }
}

static gpointer
groups_build (const SlProfile *profile)
{
  SlNvtxGroups *groups = g_new0 (SlNvtxGroups, 1);

  groups->names = _sl_strings_new ();
  groups->n_ids = sl_strings_count (profile->strings);
  groups->group_of = g_new (guint32, MAX (groups->n_ids, 1));
  memset (groups->group_of, 0xff, MAX (groups->n_ids, 1) * sizeof (guint32));
  for (guint t = 0; t < profile->n_threads; t++)
    {
      group_ranges (groups, profile->strings, &profile->threads[t].nvtx);
      group_ranges (groups, profile->strings, &profile->threads[t].nvtx_startend);
    }
  _sl_strings_seal (groups->names);
  return groups;
}

const SlNvtxGroups *
sl_nvtx_groups_get (const SlProfile *profile)
{
  g_return_val_if_fail (profile != NULL, NULL);
  return sl_profile_get_derived (profile, "sl-nvtx-groups", groups_build, (GDestroyNotify) groups_free);
}

SlNvtxNaming
sl_nvtx_naming (const SlProfile *profile, gboolean exact_names)
{
  SlNvtxNaming naming = { profile->strings, NULL, sl_strings_count (profile->strings) };
  const SlNvtxGroups *groups;

  if (exact_names)
    return naming;
  groups = sl_nvtx_groups_get (profile);
  naming.strings = groups->names;
  naming.key_of = groups->group_of;
  naming.n_ids = groups->n_ids;
  return naming;
}
