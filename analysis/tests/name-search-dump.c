/* SPDX-License-Identifier: GPL-3.0-or-later */
/* name-search-dump PROFILE PATTERN: what the search page's search finds,
 * as JSON, for test-name-search.py to hold against sightline-cli and SQL:
 * {"n_kernels", "n_ranges", "n_api", "hits": [[kind, name, start, end, group]],
 *  "groups": [[kind, name, n, total_ns, [hit indexes]]]} */
#include <stdio.h>

#include "sightline.h"

static const char *const hit_kinds[] = { "kernel", "api", "range", "range" };
static const char *const group_kinds[] = { "kernel", "range", "api" };

static void
add_hit (JsonBuilder *b, const SlProfile *p, const SlNameSearch *s, const SlNameHit *h)
{
  char *name;

  json_builder_begin_array (b);
  json_builder_add_string_value (b, hit_kinds[h->kind]);
  if (h->kind == SL_NAME_HIT_KERNEL)
    name = g_strdup (sl_profile_kernel_name (p, p->streams[h->owner].kernels.func[h->index], FALSE));
  else
    name = g_strdup (sl_name_search_group_name (p, &s->groups[h->group]));
  json_builder_add_string_value (b, name);
  json_builder_add_int_value (b, h->start);
  json_builder_add_int_value (b, sl_name_search_hit_end (p, h));
  json_builder_add_int_value (b, h->group);
  json_builder_end_array (b);
  g_free (name);
}

static void
add_group (JsonBuilder *b, const SlProfile *p, const SlNameSearch *s, const SlNameGroup *g)
{
  json_builder_begin_array (b);
  json_builder_add_string_value (b, group_kinds[g->kind]);
  json_builder_add_string_value (b, sl_name_search_group_name (p, g));
  json_builder_add_int_value (b, g->n);
  json_builder_add_int_value (b, g->total_ns);
  json_builder_begin_array (b);
  for (guint i = 0; i < g->n; i++)
    json_builder_add_int_value (b, s->order[g->first + i]);
  json_builder_end_array (b);
  json_builder_end_array (b);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlNameSearch) s = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  if (argc != 3)
    return 2;
  profile = sl_profile_load (argv[1], NULL, NULL, NULL, &error);
  if (profile != NULL)
    s = sl_name_search_compute (profile, NULL, argv[2], NULL, &error);
  if (s == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  if (g_getenv ("SL_NS_TIME"))
    {
      for (int i = 0; i < 4; i++)
        {
          gint64 t0 = g_get_monotonic_time ();
          sl_name_search_free (sl_name_search_compute (profile, NULL, argv[2], NULL, NULL));
          g_printerr ("total %.1f ms\n", (g_get_monotonic_time () - t0) / 1e3);
        }
      return 0;
    }
  json_builder_begin_object (b);
#define INT(k, v) do { json_builder_set_member_name (b, k); json_builder_add_int_value (b, v); } while (0)
  INT ("n_kernels", s->n_kernels);
  INT ("n_ranges", s->n_ranges);
  INT ("n_api", s->n_api);
  json_builder_set_member_name (b, "hits");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->n_hits; i++)
    add_hit (b, profile, s, &s->hits[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "groups");
  json_builder_begin_array (b);
  for (guint g = 0; g < s->n_groups; g++)
    add_group (b, profile, s, &s->groups[g]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = json_to_string (root, FALSE);
  puts (text);
  return 0;
}
