/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-colors.h: the timeline palette (no GTK).
 *
 * Every drawn event maps to one palette index (a guint8) so that the level of
 * detail summaries can store a colour per bucket in one byte.  Kernels map to
 * their category, copies to their direction, API calls to their class, NVTX
 * ranges to their own colour (quantised to a 6x6x6 cube) or a hashed hue. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  SL_COLOR_NONE = 0,
  /* kernel categories, in the order of the category rules */
  SL_COLOR_GEMM = 1,
  SL_COLOR_ATTENTION,
  SL_COLOR_COMMUNICATION,
  SL_COLOR_ELEMENTWISE,
  SL_COLOR_NORMALIZATION,
  SL_COLOR_SOFTMAX,
  SL_COLOR_REDUCTION,
  SL_COLOR_OPTIMIZER,
  SL_COLOR_MOE,
  SL_COLOR_MEMORY,
  SL_COLOR_TRITON,
  SL_COLOR_OTHER,
  /* copies */
  SL_COLOR_MEMCPY_HTOD = 13,
  SL_COLOR_MEMCPY_DTOH,
  SL_COLOR_MEMCPY_DTOD,
  SL_COLOR_MEMCPY_OTHER,
  SL_COLOR_MEMSET,
  /* CUDA API classes */
  SL_COLOR_API_LAUNCH = 18,
  SL_COLOR_API_SYNC,
  SL_COLOR_API_MEMORY,
  SL_COLOR_API_OTHER,
  SL_COLOR_MARK = 22,
  SL_COLOR_HASHED_FIRST = 24,   /* 16 hues for NVTX ranges without a colour */
  SL_COLOR_CUBE_FIRST = 40,     /* 6x6x6 cube for explicit NVTX colours */
} SlColorIndex;

#define SL_N_KERNEL_CATEGORIES 12
#define SL_N_HASHED_COLORS     16

/* 0xRRGGBB of a palette index. */
guint32      sl_timeline_color_rgb              (guint8 index);
/* Name of a kernel category colour ("gemm"), NULL for other indexes. */
const char  *sl_timeline_color_category_name    (guint8 index);
/* Translated legend label of a palette index ("GEMM", "Memcpy HtoD"). */
const char  *sl_timeline_color_label            (guint8 index);

/* The colour of a kernel category (a name of the analyses' category rules). */
guint8       sl_timeline_colors_for_category    (const char *category);
/* The colour of a kernel name, classified with the default category rules. */
guint8       sl_timeline_colors_for_func        (const char *name);
/* copyKind (ENUM_CUDA_MEMCPY_OPER) of a memcpy. */
guint8       sl_timeline_colors_for_memcpy      (guint8 copy_kind);
/* Class of a CUDA API call from its name. */
guint8       sl_timeline_colors_for_api         (const char *name);
/* NVTX range: explicit ARGB colour when non-zero, else a hash of the name. */
guint8       sl_timeline_colors_for_nvtx        (guint32 argb, guint32 name_id);
/* Nearest cube entry of an RGB colour. */
guint8       sl_timeline_colors_quantize        (guint32 rgb);

/* Relative luminance in [0,1] of 0xRRGGBB (to pick a label colour). */
double       sl_timeline_color_luminance        (guint32 rgb);

G_END_DECLS
