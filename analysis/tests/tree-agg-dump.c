/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tree-agg-dump.c: prints sl_tree_agg_to_json() of a profile, for
 * test-tree-agg.py to check against its own aggregation of
 * `sightline-cli tree --json`.  Usage: tree-agg-dump PROFILE [--exact-names] */
#include <stdio.h>
#include <string.h>

#include "sightline.h"

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(SlTreeAgg) agg = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autofree char *text = NULL;
  gboolean exact = argc > 2 && strcmp (argv[2], "--exact-names") == 0;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s PROFILE [--exact-names]\n", argv[0]);
      return 2;
    }
  profile = sl_profile_load (argv[1], NULL, NULL, NULL, &error);
  if (profile == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  agg = sl_tree_agg_compute (profile, NULL, exact, NULL);
  json = sl_tree_agg_to_json (agg);
  text = json_to_string (json, FALSE);
  puts (text);
  return 0;
}
