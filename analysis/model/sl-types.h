/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-types.h: the sentinels every array of the model shares. */
#pragma once

#include <glib.h>

#define SL_NONE       G_MAXUINT32   /* "no index / no string" in any guint32 slot */
#define SL_LONG_DUR   G_MAXUINT32   /* dur[] marker: the real duration is in the overflow table */
