/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-nvtx-name.h: NVTX range names grouped the way a user reads them.
 *
 * PyTorch's emit_nvtx names every range after its op and that instance's
 * arguments: "aten::to, op_id = 999599", or with record_shapes
 * "aten::mm, seq = 12, op_id = 34, sizes = [[2, 3], [3, 4]], input_op_ids = [(33,0)]".
 * Every name is then unique, so summaries list one-instance rows.  The
 * grouping rule, the only one in Sightline: a name whose tail is a run of
 * PyTorch's argument items ", seq = N", ", stashed seq = N", ", op_id = N",
 * ", sizes = [...]", ", input_op_ids = [...]" (in any order, N an integer,
 * [...] balanced brackets) is grouped under the text before that tail.  Any
 * other name is its own group: numbers that are not such items stay
 * ("layer_12", "FSDP::pre_forward (encoder.block.18.layer.0)"), and so does a
 * name that would become empty.  Summaries group by default; "exact names"
 * keeps every distinct name apart. */
#pragma once

#include <glib.h>
#include "sl-profile.h"

G_BEGIN_DECLS

/* The length of @name's group prefix: strlen (@name) when it is its own group. */
gsize        sl_nvtx_group_len        (const char *name);
/* @name's group name. (transfer full) */
char        *sl_nvtx_group_name       (const char *name);

/* The rule applied once per distinct string of a profile. */
typedef struct {
  SlStrings *names;        /* the group names, ids dense from 0 */
  guint32   *group_of;     /* per profile string id: its group's id in @names */
  guint      n_ids;        /* profile string ids covered */
} SlNvtxGroups;

/* (transfer none): computed once on first use, kept with the profile. */
const SlNvtxGroups *sl_nvtx_groups_get (const SlProfile *profile);

/* How a summary names NVTX ranges: the table it reads names from, and the
 * key of each profile string id in it. */
typedef struct {
  const SlStrings *strings;
  const guint32   *key_of;  /* NULL: the string id itself */
  guint            n_ids;
} SlNvtxNaming;

SlNvtxNaming sl_nvtx_naming           (const SlProfile *profile, gboolean exact_names);

static inline guint32
sl_nvtx_naming_key (const SlNvtxNaming *naming, guint32 name_id)
{
  if (naming->key_of == NULL)
    return name_id;
  return name_id < naming->n_ids ? naming->key_of[name_id] : SL_NONE;
}

static inline const char *
sl_nvtx_naming_get (const SlNvtxNaming *naming, guint32 name_id)
{
  return sl_strings_get (naming->strings, sl_nvtx_naming_key (naming, name_id));
}

G_END_DECLS
