/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-compare-gate.c: the CI gate of `compare` (--fail-if-slower). */
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-cli.h"
#include "sl-cli-compare-gate.h"
#include "sl-cli-options.h"

#define N_OFFENDERS 10

gboolean
sl_cli_compare_gate_parse (const char *command, const char *text, double *pct)
{
  *pct = NAN;
  return sl_cli_parse_percent (command, "--fail-if-slower", text, 100000, pct);
}

/* The time @k added to the last profile: per iteration, or in total. */
static double
added_ns (const SlCompare *cmp, const SlCompareKernel *k)
{
  guint last = cmp->n_profiles - 1;

  if (cmp->basis == SL_COMPARE_PER_ITERATION)
    return (isnan (k->per_iteration_ns[last]) ? 0 : k->per_iteration_ns[last])
           - (isnan (k->per_iteration_ns[0]) ? 0 : k->per_iteration_ns[0]);
  return (double) k->delta_ns;
}

static int
by_added_desc (gconstpointer a, gconstpointer b, gpointer data)
{
  double x = added_ns (data, *(const SlCompareKernel *const *) a);
  double y = added_ns (data, *(const SlCompareKernel *const *) b);

  return (x < y) - (x > y);
}

/* The kernels that got slower or were added, by the time they added. */
static void
print_offenders (const SlCompare *cmp)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new ();

  for (guint i = 0; i < cmp->n_kernels; i++)
    if (cmp->kernels[i].status == SL_COMPARE_SLOWER || cmp->kernels[i].status == SL_COMPARE_ADDED)
      g_ptr_array_add (list, &cmp->kernels[i]);
  g_ptr_array_sort_with_data (list, by_added_desc, (gpointer) cmp);
  fprintf (stderr, "%s\n", cmp->basis == SL_COMPARE_PER_ITERATION ? _("Top offenders (time added per iteration):")
                                                                  : _("Top offenders (time added):"));
  for (guint i = 0; i < MIN (list->len, N_OFFENDERS); i++)
    {
      const SlCompareKernel *k = list->pdata[i];
      g_autofree char *added = sl_format_duration_precise (sl_round_ns (added_ns (cmp, k)));
      g_autofree char *change = isnan (k->change_pct) ? g_strdup ("–") : g_strdup_printf ("%+.1f %%", k->change_pct);

      fprintf (stderr, "  +%s  %s  %s  %s\n", added, change, sl_compare_status_name (k->status), k->name);
    }
  if (list->len == 0)
    fprintf (stderr, "  %s\n", _("(no kernel got slower: the time went elsewhere, e.g. idle gaps)"));
}

int
sl_cli_compare_gate_check (const SlCompare *cmp, double pct)
{
  if (isnan (pct) || isnan (cmp->verdict_change_pct) || cmp->verdict_change_pct <= pct)
    return SL_CLI_OK;
  if (cmp->has_step)
    fprintf (stderr, _("sightline-cli compare: step time %+.1f %% is slower than allowed (%g %%)\n"),
             cmp->verdict_change_pct, pct);
  else
    fprintf (stderr, _("sightline-cli compare: GPU time per call basis %+.1f %% is slower than allowed (%g %%)\n"),
             cmp->verdict_change_pct, pct);
  print_offenders (cmp);
  return SL_CLI_SLOWER;
}
