/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-overlap.h: how much NCCL communication overlaps compute, per device
 * ("sightline-cli overlap"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sl-profile.h"
#include "sl-filter.h"

G_BEGIN_DECLS

typedef struct {
  guint32 device;
  gint64  compute_ns;      /* union of non-NCCL kernels */
  gint64  nccl_ns;         /* union of NCCL kernels */
  gint64  overlap_ns;      /* length of the intersection of the two unions */
  gint64  compute_only_ns;
  gint64  nccl_only_ns;
  double  overlap_pct;     /* overlap / nccl * 100, 0 without NCCL */
} SlOverlapDevice;

typedef struct {
  guint            n_devices;
  SlOverlapDevice *devices;   /* devices with kernels in the filter, by id */
} SlOverlap;

SlOverlap *sl_overlap_compute (const SlProfile *profile, const SlFilter *filter);
void       sl_overlap_free    (SlOverlap *overlap);
/* Fills @dev from the lengths of the unions of all kernels, NCCL ones and
 * the others (for analyses that walk the kernels anyway: sl-gaps.h). */
void       sl_overlap_device_set (SlOverlapDevice *dev, guint32 device, gint64 all_ns,
                                  gint64 nccl_ns, gint64 compute_ns);
/* {"devices": [{"device", "compute_ns", "nccl_ns", "overlap_ns",
 *  "compute_only_ns", "nccl_only_ns", "overlap_pct"}]} */
JsonNode  *sl_overlap_to_json (const SlOverlap *overlap);
/* The GPUs are measured in two parts on two cores from this many kernels
 * (default 500 000); tests lower it to compare the parts with one pass. */
void       _sl_overlap_set_parallel_kernels (guint64 kernels);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlOverlap, sl_overlap_free)

G_END_DECLS
