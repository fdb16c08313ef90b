/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-arena.h: the memory a profile's arrays live in.
 *
 * A profile does not free its arrays one by one: they belong to arenas,
 * reference-counted bags of heap blocks and other resources (a memory-mapped
 * cache file).  Profiles that share arrays (a profile showing the GPU rows
 * while the CPU side still loads and the complete profile after it, a
 * profile read from a mapped cache) each hold the arenas they point into,
 * so whoever goes last frees them.  Model and loader only. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlArena SlArena;

SlArena  *_sl_arena_new     (void);
SlArena  *_sl_arena_ref     (SlArena        *arena);
void      _sl_arena_unref   (SlArena        *arena);
/* @block (nullable) is freed with g_free() with the arena.  Returns it. */
gpointer  _sl_arena_adopt   (SlArena        *arena,
                             gpointer        block);
/* @data is released with @destroy with the arena (a mapped file, a
 * reference on another arena). */
void      _sl_arena_keep    (SlArena        *arena,
                             gpointer        data,
                             GDestroyNotify  destroy);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlArena, _sl_arena_unref)

G_END_DECLS
