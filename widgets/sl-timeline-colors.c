/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-colors.c: the timeline palette and themes. */
#include "sl-timeline-colors.h"

#include "sl-categories.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static const guint32 fixed_rgb[SL_COLOR_HASHED_FIRST] = {
  [SL_COLOR_NONE]           = 0x808080,
  [SL_COLOR_GEMM]           = 0x3b7dd8,
  [SL_COLOR_ATTENTION]      = 0x9a5fd0,
  [SL_COLOR_COMMUNICATION]  = 0xe0302b,
  [SL_COLOR_ELEMENTWISE]    = 0x3fae49,
  [SL_COLOR_NORMALIZATION]  = 0x1fb5c4,
  [SL_COLOR_SOFTMAX]        = 0xc4c22a,
  [SL_COLOR_REDUCTION]      = 0xf08a24,
  [SL_COLOR_OPTIMIZER]      = 0x94674a,
  [SL_COLOR_MOE]            = 0xe071c0,
  [SL_COLOR_MEMORY]         = 0xe8b517,
  [SL_COLOR_TRITON]         = 0x6462d8,
  [SL_COLOR_OTHER]          = 0x8c98ad,
  [SL_COLOR_MEMCPY_HTOD]    = 0xf5a300,
  [SL_COLOR_MEMCPY_DTOH]    = 0xd9534f,
  [SL_COLOR_MEMCPY_DTOD]    = 0xffd24d,
  [SL_COLOR_MEMCPY_OTHER]   = 0xc9a36b,
  [SL_COLOR_MEMSET]         = 0xb97a2b,
  [SL_COLOR_API_LAUNCH]     = 0x8a95a5,
  [SL_COLOR_API_SYNC]       = 0xd2691e,
  [SL_COLOR_API_MEMORY]     = 0xe0a526,
  [SL_COLOR_API_OTHER]      = 0xb0b4ba,
  [SL_COLOR_MARK]           = 0x404040,
  [23]                      = 0x808080,
};

static const guint32 hashed_rgb[SL_N_HASHED_COLORS] = {
  0x7fa7e6, 0x8fd18c, 0xf2b36f, 0xc99be6, 0x76d1d6, 0xe8d36a, 0xf08f8f, 0xa8c47a,
  0x9fb2c9, 0xe6a3cf, 0x8ccfb0, 0xd9b38c, 0xa6a6e8, 0xc7d97a, 0xe6b8a2, 0x93c2e0,
};

static const char *category_names[SL_N_KERNEL_CATEGORIES + 1] = {
  NULL, "gemm", "attention", "communication", "elementwise", "normalization", "softmax",
  "reduction", "optimizer", "moe", "memory", "triton", "other",
};

static const guint8 cube_levels[6] = { 0x00, 0x33, 0x66, 0x99, 0xcc, 0xff };

guint32
sl_timeline_color_rgb (guint8 index)
{
  if (index < SL_COLOR_HASHED_FIRST)
    return fixed_rgb[index];
  if (index < SL_COLOR_CUBE_FIRST)
    return hashed_rgb[index - SL_COLOR_HASHED_FIRST];
  index -= SL_COLOR_CUBE_FIRST;
  return ((guint32) cube_levels[index / 36] << 16) |
         ((guint32) cube_levels[(index / 6) % 6] << 8) |
         cube_levels[index % 6];
}

const char *
sl_timeline_color_category_name (guint8 index)
{
  if (index >= SL_COLOR_GEMM && index <= SL_COLOR_OTHER)
    return category_names[index];
  return NULL;
}

const char *
sl_timeline_color_label (guint8 index)
{
  switch (index)
    {
    case SL_COLOR_GEMM: return _("GEMM");
    case SL_COLOR_ATTENTION: return _("Attention");
    case SL_COLOR_COMMUNICATION: return _("Communication");
    case SL_COLOR_ELEMENTWISE: return _("Elementwise");
    case SL_COLOR_NORMALIZATION: return _("Normalization");
    case SL_COLOR_SOFTMAX: return _("Softmax");
    case SL_COLOR_REDUCTION: return _("Reduction");
    case SL_COLOR_OPTIMIZER: return _("Optimizer");
    case SL_COLOR_MOE: return _("MoE");
    case SL_COLOR_MEMORY: return _("Memory kernels");
    case SL_COLOR_TRITON: return _("Triton");
    case SL_COLOR_OTHER: return _("Other kernels");
    case SL_COLOR_MEMCPY_HTOD: return _("Memcpy HtoD");
    case SL_COLOR_MEMCPY_DTOH: return _("Memcpy DtoH");
    case SL_COLOR_MEMCPY_DTOD: return _("Memcpy DtoD");
    case SL_COLOR_MEMCPY_OTHER: return _("Memcpy (other)");
    case SL_COLOR_MEMSET: return _("Memset");
    case SL_COLOR_API_LAUNCH: return _("API: launch");
    case SL_COLOR_API_SYNC: return _("API: synchronize");
    case SL_COLOR_API_MEMORY: return _("API: memory");
    case SL_COLOR_API_OTHER: return _("API: other");
    case SL_COLOR_MARK: return _("NVTX mark");
    default: return _("NVTX range");
    }
}

guint8
sl_timeline_colors_for_category (const char *category)
{
  if (category == NULL)
    return SL_COLOR_OTHER;
  for (guint i = SL_COLOR_GEMM; i <= SL_COLOR_OTHER; i++)
    if (g_strcmp0 (category_names[i], category) == 0)
      return i;
  /* A category from user rules that the palette does not know: a stable hue. */
  return SL_COLOR_HASHED_FIRST + (g_str_hash (category) % SL_N_HASHED_COLORS);
}

guint8
sl_timeline_colors_for_func (const char *name)
{
  const SlCategories *rules = sl_categories_get_default ();

  return sl_timeline_colors_for_category (
      sl_categories_get_name (rules, sl_categories_classify (rules, name ? name : "")));
}

guint8
sl_timeline_colors_for_memcpy (guint8 copy_kind)
{
  /* ENUM_CUDA_MEMCPY_OPER: 1 HtoD, 2 DtoH, 8 DtoD, 10 PtoP */
  switch (copy_kind)
    {
    case 1: return SL_COLOR_MEMCPY_HTOD;
    case 2: return SL_COLOR_MEMCPY_DTOH;
    case 8: return SL_COLOR_MEMCPY_DTOD;
    default: return SL_COLOR_MEMCPY_OTHER;
    }
}

guint8
sl_timeline_colors_for_api (const char *name)
{
  if (name == NULL)
    return SL_COLOR_API_OTHER;
  if (strstr (name, "Launch"))
    return SL_COLOR_API_LAUNCH;
  if (strstr (name, "Synchronize") || strstr (name, "Sync") || strstr (name, "Wait") ||
      strstr (name, "Query"))
    return SL_COLOR_API_SYNC;
  if (strstr (name, "emcpy") || strstr (name, "emset") || strstr (name, "Malloc") ||
      strstr (name, "Free") || strstr (name, "MemAlloc") || strstr (name, "MemFree"))
    return SL_COLOR_API_MEMORY;
  return SL_COLOR_API_OTHER;
}

guint8
sl_timeline_colors_quantize (guint32 rgb)
{
  guint r = ((rgb >> 16) & 0xff), g = ((rgb >> 8) & 0xff), b = rgb & 0xff;

  r = (r + 25) / 51;
  g = (g + 25) / 51;
  b = (b + 25) / 51;
  return SL_COLOR_CUBE_FIRST + r * 36 + g * 6 + b;
}

guint8
sl_timeline_colors_for_nvtx (guint32 argb, guint32 name_id)
{
  if (argb != 0)
    return sl_timeline_colors_quantize (argb & 0xffffff);
  /* Fibonacci hashing spreads consecutive string ids over the hues. */
  return SL_COLOR_HASHED_FIRST + (((guint32) (name_id * 2654435761u)) >> 28);
}

double
sl_timeline_color_luminance (guint32 rgb)
{
  double r = ((rgb >> 16) & 0xff) / 255.0;
  double g = ((rgb >> 8) & 0xff) / 255.0;
  double b = (rgb & 0xff) / 255.0;

  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

guint32
sl_timeline_color_text_on (guint32 rgb)
{
  return sl_timeline_color_luminance (rgb) > 0.55 ? 0x1a1a1a : 0xffffff;
}

void
sl_timeline_style_init (SlTimelineStyle *style,
                        gboolean         dark,
                        double           scale)
{
  style->scale = scale;
  style->dark = dark;
  style->bg          = dark ? 0x1e1e1e : 0xffffff;
  style->fg          = dark ? 0xeeeeee : 0x202020;
  style->fg_dim      = dark ? 0xa8a8a8 : 0x606060;
  style->header_bg   = dark ? 0x2a2a2a : 0xf4f4f4;
  style->group_bg    = dark ? 0x333338 : 0xe8e8ec;
  style->grid        = dark ? 0x2e2e2e : 0xececec;
  style->accent      = dark ? 0x78aeed : 0x1c71d8;
  style->hover       = dark ? 0xe6e6e6 : 0x808080;
  style->hover_alpha = dark ? 0.8f : 0.9f;
  style->on_accent   = 0xffffff;

  style->minimap_bg = sl_timeline_color_mix (style->header_bg, style->fg, dark ? 0.03f : 0.02f);
  style->rule = sl_timeline_color_mix (style->grid, style->fg, 0.15f);
  style->tick = sl_timeline_color_mix (style->header_bg, style->fg, 0.6f);
  style->tick_minor = sl_timeline_color_mix (style->header_bg, style->fg, 0.35f);
  style->group_rule = sl_timeline_color_mix (style->group_bg, style->fg, 0.12f);
}
