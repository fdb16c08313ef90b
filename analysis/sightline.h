/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sightline.h: umbrella header of the analysis library (no GTK). */
#pragma once

#include "sl-profile.h"
#include "sl-categories.h"
