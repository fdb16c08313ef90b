/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-colors.h: every colour of the timeline (no GTK): the palette
 * of events and the light and dark themes of the frame and its overlays.
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

/* Relative luminance in [0,1] of 0xRRGGBB. */
double       sl_timeline_color_luminance        (guint32 rgb);
/* A readable text colour on a box of colour @rgb: near black or white. */
guint32      sl_timeline_color_text_on          (guint32 rgb);

/* @a blended towards @b by @t (0..1), per channel (inline: it runs per pixel). */
static inline guint32
sl_timeline_color_mix (guint32 a, guint32 b, float t)
{
  int ar = (a >> 16) & 0xff, ag = (a >> 8) & 0xff, ab = a & 0xff;
  int br = (b >> 16) & 0xff, bg = (b >> 8) & 0xff, bb = b & 0xff;

  return ((guint32) (ar + (br - ar) * t + 0.5f) << 16) |
         ((guint32) (ag + (bg - ag) * t + 0.5f) << 8) |
         (guint32) (ab + (bb - ab) * t + 0.5f);
}

/* The colours (0xRRGGBB) of one theme, for the frame and the widget's
 * overlays, and the device scale they are drawn at. */
typedef struct {
  double   scale;          /* device pixels per logical pixel */
  gboolean dark;
  guint32  bg;
  guint32  fg;
  guint32  fg_dim;
  guint32  header_bg;
  guint32  group_bg;
  guint32  grid;
  guint32  accent;         /* selection, range, API-to-GPU link, minimap window */
  /* shades derived from the colours above */
  guint32  minimap_bg;
  guint32  rule;           /* lines under the minimap and under the ruler */
  guint32  tick;
  guint32  tick_minor;
  guint32  group_rule;     /* top line of a group row */
  /* the widget's overlays */
  guint32  hover;          /* outline of the event under the pointer */
  float    hover_alpha;
  guint32  on_accent;      /* text on the accent: the selected range's length */
} SlTimelineStyle;

/* Default light or dark colours for @scale. */
void         sl_timeline_style_init             (SlTimelineStyle *style,
                                                 gboolean         dark,
                                                 double           scale);

G_END_DECLS
