/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-check.c: the shared options checked against the loaded profiles.
 * A filter naming a GPU or a process the profile does not hold is a typo or
 * the wrong file: an empty answer would read as "nothing happened there". */
#include <inttypes.h>
#include <glib/gi18n.h>

#include "sl-cli-check.h"

/* At most this many ids are listed; the rest is "…". */
#define MAX_LISTED 16

gboolean
sl_cli_resolve_range (const char *command, SlCliCommon *common, GPtrArray *profiles)
{
  const SlProfile *first;
  gint64 start, end;

  if (!common->range_from_start || profiles->len == 0)
    return TRUE;
  first = profiles->pdata[0];
  for (guint i = 1; i < profiles->len; i++)
    if (((const SlProfile *) profiles->pdata[i])->start_ns != first->start_ns)
      {
        sl_cli_error (command, _("--range +TIME is relative to a profile's start and these profiles "
                                 "start at different times: give absolute times (ns or with a unit)"));
        return FALSE;
      }
  start = sl_time_point_resolve (&common->range_points[0], first->start_ns);
  end = sl_time_point_resolve (&common->range_points[1], first->start_ns);
  if (end <= start)
    {
      sl_cli_error (command, _("--range: END (%" PRId64 " ns) must be after START (%"
                               PRId64 " ns)"), end, start);
      return FALSE;
    }
  sl_filter_set_range (common->filter, start, end);
  return TRUE;
}

static gboolean
has_gpu (const SlProfile *profile, guint32 device)
{
  for (guint g = 0; g < profile->n_gpus; g++)
    if (profile->gpus[g].device == device && profile->gpus[g].n_streams > 0)
      return TRUE;
  return FALSE;
}

/* "0, 1" of the GPUs with activity, or "none". (transfer full) */
static char *
list_gpus (const SlProfile *profile)
{
  GString *s = g_string_new (NULL);
  guint n = 0;

  for (guint g = 0; g < profile->n_gpus; g++)
    if (profile->gpus[g].n_streams > 0 && n++ < MAX_LISTED)
      g_string_append_printf (s, "%s%u", s->len ? ", " : "", profile->gpus[g].device);
  if (n > MAX_LISTED)
    g_string_append (s, ", …");
  if (n == 0)
    g_string_append (s, _("none"));
  return g_string_free (s, FALSE);
}

/* "1234 (python), 5678" of the processes, or "none". (transfer full) */
static char *
list_processes (const SlProfile *profile)
{
  GString *s = g_string_new (NULL);

  for (guint p = 0; p < profile->n_processes && p < MAX_LISTED; p++)
    {
      const char *name = sl_profile_process_name (profile, p);
      g_string_append_printf (s, "%s%u", s->len ? ", " : "", profile->processes[p].pid);
      if (name != NULL && *name != '\0')
        g_string_append_printf (s, " (%s)", name);
    }
  if (profile->n_processes > MAX_LISTED)
    g_string_append (s, ", …");
  if (profile->n_processes == 0)
    g_string_append (s, _("none"));
  return g_string_free (s, FALSE);
}

gboolean
sl_cli_check_filter (const char *command, const SlCliCommon *common, const SlProfile *profile,
                     const char *path)
{
  const SlFilter *f = common->filter;

  for (guint i = 0; f != NULL && f->gpus != NULL && i < f->gpus->len; i++)
    if (!has_gpu (profile, g_array_index (f->gpus, guint32, i)))
      {
        g_autofree char *have = list_gpus (profile);
        sl_cli_error (command, _("--gpu %u matches no GPU with activity in “%s”; its GPUs: %s"),
                      g_array_index (f->gpus, guint32, i), path, have);
        return FALSE;
      }
  for (guint i = 0; f != NULL && f->pids != NULL && i < f->pids->len; i++)
    if (sl_profile_find_process (profile, g_array_index (f->pids, guint32, i)) == SL_NONE)
      {
        g_autofree char *have = list_processes (profile);
        sl_cli_error (command, _("--pid %u matches no process in “%s”; its processes: %s"),
                      g_array_index (f->pids, guint32, i), path, have);
        return FALSE;
      }
  return TRUE;
}
