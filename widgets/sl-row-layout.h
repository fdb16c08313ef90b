/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-row-layout.h: the rows the user hid, pinned and reordered (no GTK).
 *
 * Plain state keyed by row keys (sl-row-key.h), so it applies to any model
 * of the same profile and is saved per profile as JSON:
 *
 *   {"version": 1, "hidden": [key, ...], "pinned": [key, ...],
 *    "order": {key: rank, ...}}
 *
 * "pinned" is in the band's order; a rank orders a row among its siblings
 * (rows without one keep their place in the model). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlRowLayout SlRowLayout;

SlRowLayout *sl_row_layout_new        (void);
SlRowLayout *sl_row_layout_copy       (const SlRowLayout *self);
void         sl_row_layout_free       (SlRowLayout       *self);
/* Nothing hidden, pinned or moved. */
gboolean     sl_row_layout_is_default (const SlRowLayout *self);
void         sl_row_layout_reset      (SlRowLayout       *self);

void         sl_row_layout_set_hidden (SlRowLayout       *self,
                                       const char        *key,
                                       gboolean           hidden);
gboolean     sl_row_layout_get_hidden (const SlRowLayout *self,
                                       const char        *key);
/* (transfer container): the hidden keys, in the order they were hidden. */
GPtrArray   *sl_row_layout_get_hidden_keys (const SlRowLayout *self);
/* Unhides every row. */
void         sl_row_layout_show_all   (SlRowLayout       *self);

/* Pinning appends @key to the band; unpinning removes it. */
void         sl_row_layout_set_pinned (SlRowLayout       *self,
                                       const char        *key,
                                       gboolean           pinned);
/* Place of @key in the band, -1 when not pinned. */
int          sl_row_layout_get_pin_position (const SlRowLayout *self,
                                             const char        *key);
guint        sl_row_layout_get_n_pinned (const SlRowLayout *self);
const char  *sl_row_layout_get_pinned_key (const SlRowLayout *self,
                                           guint              i);

/* Ranks @keys (siblings, in their new order) 0, 1, 2 ... */
void         sl_row_layout_set_order  (SlRowLayout       *self,
                                       const char *const *keys,
                                       guint              n_keys);
/* The rank of @key among its siblings, -1 when never moved. */
int          sl_row_layout_get_rank   (const SlRowLayout *self,
                                       const char        *key);

/* (transfer full): the JSON text described above. */
char        *sl_row_layout_to_json    (const SlRowLayout *self);
/* (transfer full): NULL with @error set when @text is not such JSON. */
SlRowLayout *sl_row_layout_from_json  (const char        *text,
                                       GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlRowLayout, sl_row_layout_free)

G_END_DECLS
