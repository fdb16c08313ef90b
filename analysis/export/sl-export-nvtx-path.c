/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-export-nvtx-path.c: the NVTX path of a kernel ("outer > inner"): the
 * push/pop ranges enclosing its launching API call (sl-attribution.h).
 * Millions of kernels share a few thousand ranges, so each range's path is
 * built once, on first use, from its parent's. */
#include "sl-export-private.h"

struct _SlNvtxPaths {
  const SlProfile     *profile;
  const SlAttribution *attr;
  char               **paths;    /* per global range id, NULL until asked */
};

SlNvtxPaths *
sl_nvtx_paths_new (const SlProfile *profile)
{
  SlNvtxPaths *self = g_new0 (SlNvtxPaths, 1);

  self->profile = profile;
  self->attr = sl_attribution_get (profile);
  self->paths = g_new0 (char *, self->attr->n_ranges + 1);
  return self;
}

const char *
sl_nvtx_paths_get (SlNvtxPaths *self, guint32 range)
{
  guint local;
  guint32 thread, parent;
  const SlNvtxRanges *nvtx;
  const char *name;

  if (range == SL_NONE || range >= self->attr->n_ranges)
    return "";
  if (self->paths[range] != NULL)
    return self->paths[range];
  thread = sl_attribution_range_thread (self->attr, range, &local);
  nvtx = &self->profile->threads[thread].nvtx;
  name = sl_strings_get (self->profile->strings, nvtx->name[local]);
  if (name == NULL)
    name = "";
  parent = nvtx->parent[local];
  /* Depth is bounded by NVTX's nesting (a few dozen), so recursion is fine. */
  if (parent == SL_NONE)
    self->paths[range] = g_strdup (name);
  else
    self->paths[range] = g_strconcat (sl_nvtx_paths_get (self, self->attr->range_base[thread] + parent),
                                      " > ", name, NULL);
  return self->paths[range];
}

guint32
sl_nvtx_paths_kernel_range (SlNvtxPaths *self, guint32 stream, guint i)
{
  return self->attr->kernel_range[self->attr->kernel_base[stream] + i];
}

void
sl_nvtx_paths_free (SlNvtxPaths *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->attr->n_ranges; i++)
    g_free (self->paths[i]);
  g_free (self->paths);
  g_free (self);
}
