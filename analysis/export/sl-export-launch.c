/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-launch.c: kernels' launch configurations in the exports: the
 * reader the caller passed (the export room cannot read the file itself)
 * and the CSV and Perfetto forms of a configuration. */
#include "sl-export-private.h"

gboolean
sl_export_launch_open (SlExportLaunch *launch, SlProfile *profile, const SlExportOptions *options,
                       GCancellable *cancellable, GError **error)
{
  GError *local = NULL;

  launch->reader = options->launch;
  launch->cursor = NULL;
  if (launch->reader == NULL)
    return TRUE;
  launch->cursor = launch->reader->open (profile, cancellable, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

void
sl_export_launch_close (SlExportLaunch *launch)
{
  if (launch->cursor != NULL)
    launch->reader->close (launch->cursor);
  launch->cursor = NULL;
}

static gboolean
dim3_known (const gint64 v[3])
{
  return v[0] >= 0 && v[1] >= 0 && v[2] >= 0;
}

static void
csv_dim3 (GString *buf, const gint64 v[3])
{
  if (dim3_known (v))
    for (guint i = 0; i < 3; i++)
      {
        if (i > 0)
          g_string_append_c (buf, 'x');
        sl_export_append_i64 (buf, v[i]);
      }
  g_string_append_c (buf, ',');
}

static void
csv_count (GString *buf, gint64 v)
{
  if (v >= 0)
    sl_export_append_i64 (buf, v);
  g_string_append_c (buf, ',');
}

void
sl_export_launch_csv (GString *buf, const SlLaunchConfig *config)
{
  if (config == NULL)
    {
      g_string_append (buf, ",,,,,");
      return;
    }
  csv_dim3 (buf, config->grid);
  csv_dim3 (buf, config->block);
  csv_count (buf, config->registers);
  csv_count (buf, config->static_smem);
  csv_count (buf, config->dynamic_smem);
}

static void
json_dim3 (GString *buf, const char *key, const gint64 v[3])
{
  if (!dim3_known (v))
    return;
  /* printf per kernel would cost more than the rest of the row */
  g_string_append (buf, ",\"");
  g_string_append (buf, key);
  g_string_append (buf, "\":[");
  for (guint i = 0; i < 3; i++)
    {
      if (i > 0)
        g_string_append_c (buf, ',');
      sl_export_append_i64 (buf, v[i]);
    }
  g_string_append_c (buf, ']');
}

static void
json_count (GString *buf, const char *key, gint64 v)
{
  if (v < 0)
    return;
  g_string_append (buf, ",\"");
  g_string_append (buf, key);
  g_string_append (buf, "\":");
  sl_export_append_i64 (buf, v);
}

void
sl_export_launch_json (GString *buf, const SlLaunchConfig *config)
{
  if (config == NULL)
    return;
  json_dim3 (buf, "grid", config->grid);
  json_dim3 (buf, "block", config->block);
  json_count (buf, "registers", config->registers);
  json_count (buf, "static shared memory", config->static_smem);
  json_count (buf, "dynamic shared memory", config->dynamic_smem);
}
