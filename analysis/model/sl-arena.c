/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-arena.c: reference-counted bags of memory blocks (see sl-arena.h). */
#include "sl-arena.h"

typedef struct {
  gpointer       data;
  GDestroyNotify destroy;
} Kept;

struct _SlArena {
  gint       ref_count;
  GPtrArray *blocks;   /* g_free'd */
  GArray    *kept;     /* Kept, released in reverse order */
};

SlArena *
_sl_arena_new (void)
{
  SlArena *arena = g_new0 (SlArena, 1);

  arena->ref_count = 1;
  arena->blocks = g_ptr_array_new_with_free_func (g_free);
  arena->kept = g_array_new (FALSE, FALSE, sizeof (Kept));
  return arena;
}

SlArena *
_sl_arena_ref (SlArena *arena)
{
  g_atomic_int_inc (&arena->ref_count);
  return arena;
}

void
_sl_arena_unref (SlArena *arena)
{
  if (arena == NULL || !g_atomic_int_dec_and_test (&arena->ref_count))
    return;
  g_ptr_array_unref (arena->blocks);
  /* Last kept first: a mapping may be kept after what points into it. */
  for (guint i = arena->kept->len; i > 0; i--)
    {
      Kept *k = &g_array_index (arena->kept, Kept, i - 1);
      k->destroy (k->data);
    }
  g_array_unref (arena->kept);
  g_free (arena);
}

gpointer
_sl_arena_adopt (SlArena *arena, gpointer block)
{
  if (block != NULL)
    g_ptr_array_add (arena->blocks, block);
  return block;
}

void
_sl_arena_keep (SlArena *arena, gpointer data, GDestroyNotify destroy)
{
  Kept k = { data, destroy };

  g_return_if_fail (destroy != NULL);
  g_array_append_val (arena->kept, k);
}
