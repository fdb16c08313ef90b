/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cache-layout.h: what a profile cache entry holds, in order: one walk
 * over every array and scalar of a profile, run with a writing codec to
 * write an entry and with a reading codec to rebuild the profile over the
 * mapped entry (see sl-cache-codec.h).  Loader only. */
#pragma once

#include "sl-profile-private.h"
#include "sl-cache-codec.h"

G_BEGIN_DECLS

/* Writes @profile, or reads into @profile (fresh from _sl_profile_new)
 * and then checks what the analyses index with: every thread's slice of
 * the API calls, every stream's GPU, every list of streams and threads,
 * every NVTX depth table.  A refused entry leaves its reason in the codec
 * (_sl_cache_codec_failure) and @profile half-filled: unref it.  Values
 * inside the event arrays (string ids, links) are trusted to the section
 * checksums, which the caller verified. */
void  _sl_cache_layout_walk (SlCacheCodec *codec, SlProfile *profile);

G_END_DECLS
