/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-timeline-zoom.c: scroll deltas to zoom factors. */
#include "sl-timeline-zoom.h"

#include <math.h>

double
sl_timeline_zoom_factor (double   dy,
                         gboolean wheel_unit)
{
  double notches = wheel_unit ? dy : dy / SL_TIMELINE_ZOOM_PX_PER_NOTCH;

  /* a burst of deltas must not overflow the span: the layout clamps it */
  notches = CLAMP (notches, -60.0, 60.0);
  return pow (SL_TIMELINE_ZOOM_STEP, notches);
}
