/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-profile-private.h: what the loader may touch of the model while it
 * builds a profile (creation, clearing arrays, string and span building).
 * Nothing outside analysis/loader/ and the model itself includes it. */
#pragma once

#include "sl-profile.h"
#include "sl-spans-private.h"
#include "sl-strings-private.h"

G_BEGIN_DECLS

SlProfile  *_sl_profile_new           (const char *path);
void        _sl_kernels_clear         (SlKernels *kernels);
void        _sl_copies_clear          (SlCopies *copies);
void        _sl_nvtx_ranges_clear     (SlNvtxRanges *ranges);
void        _sl_nvtx_marks_clear      (SlNvtxMarks *marks);

/* A globalTid packs the pid in bits 24..47 and the tid in bits 0..23. */
static inline guint32
_sl_pid_of (guint64 global_id)
{
  return (guint32) ((global_id >> 24) & 0xFFFFFF);
}

static inline guint32
_sl_tid_of (guint64 global_tid)
{
  return (guint32) (global_tid & 0xFFFFFF);
}

G_END_DECLS
