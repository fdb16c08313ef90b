/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-tree.c: `sightline-cli tree`: the NVTX hierarchy with kernels as leaves. */
#include <glib/gi18n.h>
#include <string.h>

#include "sl-cli-run.h"

typedef struct {
  char   *depth_text;
  char   *min_dur_text;
  guint   depth;
  gint64  min_dur;
  gboolean exact_names;
} Options;

/* One printed line.  A million are printed: the name stays where the tree
 * keeps it (alive until printed), and counting the characters of the
 * indentation or a string per line was most of the time. */
typedef struct {
  const char *name;        /* valid UTF-8: the model's names are */
  guint32 name_bytes;
  guint32 chars;           /* the indented label's width in characters */
  guint32 indent;
  gboolean is_kernel;
  guint32 place;           /* kernels: their stream's index in Collect.places */
  gboolean has_gpu;
  gint64  dur;
  gint64  gpu_dur;         /* GPU projection of a range */
} Line;

/* A kernel's "  [GPU 0 · stream 7]" after its name, formatted once per
 * stream: it was formatted twice per kernel line (its width, then the
 * line), a fifth of the full tree's time. */
#define PLACE_SIZE 64
typedef struct {
  char    text[PLACE_SIZE];
  guint32 len;             /* 0: not formatted yet */
  guint32 chars;
} Place;

/* Names by address (the tree hands out the same pointer for the same
 * name), with their length and width: most lines repeat a few names. */
#define NAME_SLOTS 4096
typedef struct {
  const char *name;
  guint32 bytes;
  guint32 chars;
} NameSlot;

/* What the walk collects: the lines, and the caches of their parts. */
typedef struct {
  GArray   *lines;
  Place    *places;        /* one per stream of the profile */
  NameSlot *names;         /* NAME_SLOTS */
} Collect;

static guint32
utf8_chars (const char *text, gsize bytes)
{
  guint32 chars = 0;

  for (gsize i = 0; i < bytes; i++)
    chars += ((guchar) text[i] & 0xC0) != 0x80;
  return chars;
}

static const Place *
place_of (Collect *c, guint32 stream_index, const SlTreeNodeInfo *info)
{
  Place *p = &c->places[stream_index];
  char number[SL_FORMAT_NUMBER_SIZE];
  char *end;

  if (p->len > 0)
    return p;
  end = g_stpcpy (p->text, "  [GPU ");
  end = g_stpcpy (end, sl_format_count_into (info->device, number));
  end = g_stpcpy (end, " · stream ");
  end = g_stpcpy (end, sl_format_count_into (info->stream, number));
  end = g_stpcpy (end, "]");
  p->len = (guint32) (end - p->text);
  p->chars = utf8_chars (p->text, p->len);
  return p;
}

static const NameSlot *
name_of (Collect *c, const char *name)
{
  NameSlot *slot = &c->names[((guintptr) name >> 3) % NAME_SLOTS];

  if (slot->name != name)
    {
      slot->name = name;
      slot->bytes = (guint32) strlen (name);
      slot->chars = utf8_chars (name, slot->bytes);
    }
  return slot;
}

static void
add_line (const SlTreeNode *node, const SlTreeNodeInfo *info, guint level, gpointer data)
{
  Collect *c = data;
  const NameSlot *name = name_of (c, info->name);
  Line line = {
    .name = info->name, .name_bytes = name->bytes,
    .indent = (level - 1) * 2, .is_kernel = node->kind == SL_TREE_KERNEL,
    .place = node->owner,
    .has_gpu = node->kind == SL_TREE_RANGE && info->has_gpu,
    .dur = info->end_ns - info->start_ns, .gpu_dur = info->gpu_end_ns - info->gpu_start_ns,
  };

  line.chars = line.indent + name->chars + (line.is_kernel ? place_of (c, node->owner, info)->chars : 0);
  g_array_append_val (c->lines, line);
}

static void
append_spaces (GString *out, guint n)
{
  gsize at = out->len;

  g_string_set_size (out, at + n);
  memset (out->str + at, ' ', n);
}

/* "<label><pad>  <duration right-aligned in 12 bytes>[  (GPU <d>)]\n", as
 * printf ("%s%*s  %12s", ...) printed it. */
static void
append_line (GString *out, const Line *line, const Place *places, guint width, GString *dur)
{
  append_spaces (out, line->indent);
  g_string_append_len (out, line->name, line->name_bytes);
  if (line->is_kernel)
    g_string_append_len (out, places[line->place].text, places[line->place].len);
  append_spaces (out, (line->chars < width ? width - line->chars : 0) + 2);
  g_string_truncate (dur, 0);
  sl_format_duration_precise_append (dur, line->dur);
  append_spaces (out, dur->len < 12 ? 12 - (guint) dur->len : 0);
  g_string_append_len (out, dur->str, (gssize) dur->len);
  if (line->has_gpu)
    {
      g_string_append (out, "  (GPU ");
      sl_format_duration_precise_append (out, line->gpu_dur);
      g_string_append_c (out, ')');
    }
  g_string_append_c (out, '\n');
}

/* Labels padded to the widest (at most 110 characters), then the duration;
 * written in blocks of a megabyte. */
static void
print_lines (GArray *lines, const Place *places)
{
  g_autoptr(GString) out = g_string_sized_new (1 << 20);
  g_autoptr(GString) dur = g_string_sized_new (32);
  guint width = 0;

  for (guint i = 0; i < lines->len; i++)
    width = MAX (width, g_array_index (lines, Line, i).chars);
  width = MIN (width, 110);
  for (guint i = 0; i < lines->len; i++)
    {
      append_line (out, &g_array_index (lines, Line, i), places, width, dur);
      if (out->len >= (1 << 20) || i + 1 == lines->len)
        {
          fwrite (out->str, 1, out->len, stdout);
          g_string_truncate (out, 0);
        }
    }
}

static int
show (const SlCliRun *run, gpointer data)
{
  Options *o = data;
  g_autoptr(SlTree) tree = NULL;
  g_autoptr(GArray) lines = NULL;
  g_autofree Place *places = NULL;
  g_autofree NameSlot *names = NULL;

  if (!sl_cli_parse_count (run->command, "--depth", o->depth_text, &o->depth)
      || !sl_cli_parse_dur (run->command, "--min-dur", o->min_dur_text, &o->min_dur))
    return SL_CLI_USAGE;
  tree = sl_tree_compute_names (run->profile, run->common.filter, o->exact_names);
  if (run->common.json)
    {
      sl_cli_print_json (sl_tree_to_json (tree, o->depth, o->min_dur));
      return SL_CLI_OK;
    }
  lines = g_array_new (FALSE, FALSE, sizeof (Line));
  places = g_new0 (Place, MAX (run->profile->n_streams, 1));
  names = g_new0 (NameSlot, NAME_SLOTS);
  Collect collect = { lines, places, names };
  sl_tree_walk (tree, o->depth, o->min_dur, add_line, NULL, &collect);
  if (lines->len == 0)
    sl_cli_print_empty (run->common.filter, _("NVTX ranges or kernels"));
  print_lines (lines, places);
  return SL_CLI_OK;
}

int
sl_cli_tree (int argc, char **argv)
{
  static const SlCliSpec spec = {
    .name = "tree", .parameter = N_("PROFILE"),
    .summary = N_("The NVTX range hierarchy with the kernels each range launched "
                  "as leaves; ranges show CPU time and their GPU projection."),
    .show = show,
    .parts = SL_PARTS_GPU | SL_PART_API | SL_PART_NVTX,
  };
  Options o = { 0 };
  GOptionEntry entries[] = {
    { "depth", 0, 0, G_OPTION_ARG_STRING, &o.depth_text, N_("Show N levels (default: all)"), "N" },
    { "min-dur", 0, 0, G_OPTION_ARG_STRING, &o.min_dur_text, N_("Hide nodes shorter than D"), "D" },
    { "exact-names", 0, 0, G_OPTION_ARG_NONE, &o.exact_names,
      N_("Keep NVTX names apart that differ only by PyTorch's op_id, seq or sizes"), NULL },
    { NULL }
  };

  return sl_cli_run (&spec, entries, &o, argc, argv);
}
