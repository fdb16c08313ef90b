/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-cli-tree-text.c: the text of `sightline-cli tree`.
 *
 * A full tree of a million kernels is a million lines (160 MB).  Walking the
 * tree and formatting the lines each took about as long as loading the
 * profile, so a big tree takes two cores.  A whole tree (no filter, any
 * depth) is streamed: its label width is known before the walk, and two
 * workers format groups of roots as they walk them, written in order.
 * Otherwise the width is only known after the walk: the lines are kept by
 * two walks of half the roots each, then formatted in chunks by two workers
 * which write the chunks in turn.  Both print the bytes of one plain pass. */
#include <stdio.h>
#include <string.h>

#include "sl-cli-tree-text.h"

/* One printed line.  The name stays where the tree keeps it (alive until
 * printed), and counting the characters of the indentation or a string
 * per line was most of the time. */
typedef struct {
  const char *name;        /* valid UTF-8: the model's names are */
  gint64  dur;
  gint64  gpu_dur;         /* GPU projection of a range */
  guint32 name_bytes;
  guint32 chars;           /* the indented label's width in terminal columns */
  guint32 indent;
  guint32 place;           /* kernels: their stream's index in the profile */
  guint8  is_kernel;
  guint8  has_gpu;
} Line;

/* A kernel's "  [GPU 0 · stream 7]" after its name, formatted once per
 * stream: it was formatted twice per kernel line (its width, then the
 * line), a fifth of the full tree's time. */
#define PLACE_SIZE 64
typedef struct {
  char    text[PLACE_SIZE];
  guint32 len;
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

/* Lines formatted and written as one piece; a walk collects its lines in
 * such blocks, which growing one array of a million lines and copying it
 * on each doubling cost a tenth of a full tree's time. */
typedef struct {
  Line  *lines;
  guint  n;
} Chunk;

/* The roots one walk takes, and the lines it collects. */
typedef struct {
  const SlTree *tree;
  guint         first_root;
  guint         n_roots;
  guint         max_depth;
  gint64        min_dur;
  const Place  *places;    /* shared, read only */
  NameSlot     *names;     /* NAME_SLOTS, its own */
  guint         chunk_lines;
  GArray       *chunks;    /* Chunk, each of at most chunk_lines lines, owned */
} Part;

/* The chunks in order, and whose turn it is to write. */
typedef struct {
  const Chunk *chunks;
  guint        n_chunks;
  guint        n_workers;
  const Place *places;
  guint        width;
  GMutex       lock;
  GCond        turn_changed;
  guint        turn;       /* the chunk to write next */
} Printer;

typedef struct {
  Printer *printer;
  guint    first;          /* its chunks: first, first + n_workers, ... */
} PrintWorker;

/* Below this many kernels one core walks and formats: threads cost more
 * than they save on small trees. */
#define PARALLEL_KERNELS 100000
#define CHUNK_LINES 8192

/* SL_TREE_TEXT_SMALL_PARTS=1 (tests): two walks and chunks of a few lines
 * whatever the size, so that small profiles take the parallel path. */
static gboolean
small_parts (void)
{
  return g_strcmp0 (g_getenv ("SL_TREE_TEXT_SMALL_PARTS"), "1") == 0;
}

static guint64
count_kernels (const SlProfile *profile)
{
  guint64 n = 0;

  for (guint s = 0; s < profile->n_streams; s++)
    n += profile->streams[s].kernels.spans.n;
  return n;
}

static Place *
format_places (const SlProfile *profile)
{
  Place *places = g_new0 (Place, MAX (profile->n_streams, 1));
  char number[SL_FORMAT_NUMBER_SIZE];

  for (guint s = 0; s < profile->n_streams; s++)
    {
      Place *p = &places[s];
      char *end = g_stpcpy (p->text, "  [GPU ");

      end = g_stpcpy (end, sl_format_count_into (profile->streams[s].device, number));
      end = g_stpcpy (end, " · stream ");
      end = g_stpcpy (end, sl_format_count_into (profile->streams[s].stream, number));
      end = g_stpcpy (end, "]");
      p->len = (guint32) (end - p->text);
      p->chars = sl_text_width (p->text, p->len);
    }
  return places;
}

static const NameSlot *
name_of (NameSlot *names, const char *name)
{
  NameSlot *slot = &names[((guintptr) name >> 3) % NAME_SLOTS];

  if (slot->name != name)
    {
      slot->name = name;
      slot->bytes = (guint32) strlen (name);
      slot->chars = sl_text_width (name, slot->bytes);
    }
  return slot;
}

/* The line of a node visited at @level. */
static Line
line_of (NameSlot *names, const Place *places, const SlTreeNode *node, const SlTreeNodeInfo *info,
         guint level)
{
  const NameSlot *name = name_of (names, info->name);
  Line line = {
    .name = info->name, .name_bytes = name->bytes,
    .indent = (level - 1) * 2, .is_kernel = node->kind == SL_TREE_KERNEL,
    .place = node->owner,
    .has_gpu = node->kind == SL_TREE_RANGE && info->has_gpu,
    .dur = info->end_ns - info->start_ns, .gpu_dur = info->gpu_end_ns - info->gpu_start_ns,
  };

  line.chars = line.indent + name->chars + (line.is_kernel ? places[node->owner].chars : 0);
  return line;
}

static void
add_line (const SlTreeNode *node, const SlTreeNodeInfo *info, guint level, gpointer data)
{
  Part *part = data;
  Line line = line_of (part->names, part->places, node, info, level);
  Chunk *last = part->chunks->len > 0 ? &g_array_index (part->chunks, Chunk, part->chunks->len - 1) : NULL;

  if (last == NULL || last->n == part->chunk_lines)
    {
      Chunk chunk = { g_new (Line, part->chunk_lines), 0 };

      g_array_append_val (part->chunks, chunk);
      last = &g_array_index (part->chunks, Chunk, part->chunks->len - 1);
    }
  last->lines[last->n++] = line;
}

static gpointer
walk_part (gpointer data)
{
  Part *part = data;

  sl_tree_walk_roots (part->tree, part->first_root, part->n_roots, part->max_depth, part->min_dur, TRUE,
                      add_line, NULL, part);
  return NULL;
}

/* A duration as the line prints it: number, space, unit. */
typedef struct {
  char        number[SL_FORMAT_DURATION_NUMBER_SIZE];
  const char *unit;
  gsize       number_len;
  gsize       unit_len;
  gsize       len;         /* bytes */
  guint       columns;     /* "µs" is three bytes in two columns */
} Duration;

/* The columns of a unit name ("µs": three bytes, two columns).  Asked for
 * on every line of a million-line tree, so remembered: the few units come
 * from one table of translated names (sl-format.c), hence by address, in a
 * cache of each worker's own (the two workers format at once). */
static guint
unit_columns (const char *unit, gsize unit_len)
{
  static _Thread_local const char *units[8];
  static _Thread_local guint widths[8];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (units) && units[i] != NULL; i++)
    if (units[i] == unit)
      return widths[i];
  if (i == G_N_ELEMENTS (units))
    return sl_text_width (unit, (gssize) unit_len);
  widths[i] = sl_text_width (unit, (gssize) unit_len);
  units[i] = unit;
  return widths[i];
}

static void
duration_of (Duration *d, gint64 ns)
{
  d->number_len = sl_format_duration_precise_parts (ns, d->number, &d->unit, &d->unit_len);
  d->len = d->number_len + 1 + d->unit_len;
  d->columns = (guint) d->number_len + 1 + unit_columns (d->unit, d->unit_len);
}

static char *
put (char *at, const char *text, gsize n)
{
  memcpy (at, text, n);
  return at + n;
}

static char *
put_spaces (char *at, gsize n)
{
  memset (at, ' ', n);
  return at + n;
}

static char *
put_duration (char *at, const Duration *d)
{
  at = put (at, d->number, d->number_len);
  *at++ = ' ';
  return put (at, d->unit, d->unit_len);
}

/* "<label><pad>  <duration right-aligned in 12 columns>[  (GPU <d>)]\n".  The line's size is known before
 * it is written, so it is written with one reservation: appending its
 * pieces to a GString one by one was a fifth of a full tree's time. */
static void
append_line (GString *out, const Line *line, const Place *places, guint width)
{
  static const char gpu_open[] = "  (GPU ";
  const Place *place = line->is_kernel ? &places[line->place] : NULL;
  gsize place_len = place != NULL ? place->len : 0;
  gsize pad = (line->chars < width ? width - line->chars : 0) + 2;
  Duration dur, gpu;
  gsize dur_pad, size, at;
  char *p;

  duration_of (&dur, line->dur);
  dur_pad = dur.columns < 12 ? 12 - dur.columns : 0;
  size = line->indent + line->name_bytes + place_len + pad + dur_pad + dur.len + 1;
  if (line->has_gpu)
    {
      duration_of (&gpu, line->gpu_dur);
      size += strlen (gpu_open) + gpu.len + 1;
    }
  at = out->len;
  g_string_set_size (out, at + size);
  p = out->str + at;
  p = put_spaces (p, line->indent);
  p = put (p, line->name, line->name_bytes);
  if (place != NULL)
    p = put (p, place->text, place->len);
  p = put_spaces (p, pad + dur_pad);
  p = put_duration (p, &dur);
  if (line->has_gpu)
    {
      p = put (p, gpu_open, strlen (gpu_open));
      p = put_duration (p, &gpu);
      *p++ = ')';
    }
  *p++ = '\n';
  g_assert (p == out->str + at + size);
}

/* Formats its chunks, each while the other worker's previous one is being
 * written, and writes each when its turn comes. */
static gpointer
print_chunks (gpointer data)
{
  const PrintWorker *w = data;
  Printer *p = w->printer;
  g_autoptr(GString) out = g_string_sized_new ((1 << 20) + 4096);

  for (guint c = w->first; c < p->n_chunks; c += p->n_workers)
    {
      const Chunk *chunk = &p->chunks[c];

      g_string_truncate (out, 0);
      for (guint i = 0; i < chunk->n; i++)
        append_line (out, &chunk->lines[i], p->places, p->width);
      g_mutex_lock (&p->lock);
      while (p->turn != c)
        g_cond_wait (&p->turn_changed, &p->lock);
      g_mutex_unlock (&p->lock);
      fwrite (out->str, 1, out->len, stdout);
      g_mutex_lock (&p->lock);
      p->turn++;
      g_cond_broadcast (&p->turn_changed);
      g_mutex_unlock (&p->lock);
    }
  return NULL;
}

/* The chunks of @parts, in order. */
static GArray *
all_chunks (const Part *parts, guint n_parts)
{
  GArray *chunks = g_array_new (FALSE, FALSE, sizeof (Chunk));

  for (guint p = 0; p < n_parts; p++)
    g_array_append_vals (chunks, parts[p].chunks->data, parts[p].chunks->len);
  return chunks;
}

/* Labels padded to the widest (at most 110 characters), then the duration. */
static void
print_parts (const Part *parts, guint n_parts, const Place *places, guint n_workers)
{
  g_autoptr(GArray) chunks = all_chunks (parts, n_parts);
  Printer printer = { (const Chunk *) chunks->data, chunks->len, MAX (MIN (n_workers, chunks->len), 1),
                      places, 0 };
  PrintWorker workers[2] = { { &printer, 0 }, { &printer, 1 } };
  GThread *other = NULL;

  for (guint c = 0; c < chunks->len; c++)
    {
      const Chunk *chunk = &g_array_index (chunks, Chunk, c);

      for (guint i = 0; i < chunk->n; i++)
        printer.width = MAX (printer.width, chunk->lines[i].chars);
    }
  printer.width = MIN (printer.width, 110);
  g_mutex_init (&printer.lock);
  g_cond_init (&printer.turn_changed);
  if (printer.n_workers > 1)
    other = g_thread_new ("sl-tree-text", print_chunks, &workers[1]);
  print_chunks (&workers[0]);
  if (other != NULL)
    g_thread_join (other);
  g_mutex_clear (&printer.lock);
  g_cond_clear (&printer.turn_changed);
}

/* A tree of a whole profile printed to any depth shows every node, so its
 * label width is known before the walk (sl_tree_widest_label), and the
 * lines are formatted as they are walked, without being kept: the workers
 * take groups of roots in order, and the one whose group is due writes as
 * it goes; the others format theirs into buffers, left for whoever
 * finishes the group before to write (up to STREAM_PENDING bytes waiting,
 * then they wait).  Keeping the lines and reading them back was a fifth of
 * a full tree's time and most of its memory. */
#define STREAM_GROUPS  256
#define STREAM_FLUSH   (1 << 20)
#define STREAM_PENDING (64u << 20)

typedef struct {
  const SlTree *tree;
  const Place  *places;
  guint         width;
  guint         n_roots;
  guint         n_groups;
  gint          next_group;    /* atomic: the next group a worker takes */
  GMutex        lock;
  GCond         turn_changed;
  gint          turn;          /* atomic: the group whose lines are written now */
  GPtrArray   **done;          /* per group: its text formatted before its turn (GString blocks) */
  gsize         pending;       /* bytes in @done */
  GMutex        spare_lock;
  GPtrArray    *spare;         /* written blocks, reused: a fresh megabyte is 256 page faults */
} Stream;

typedef struct {
  Stream   *stream;
  NameSlot *names;
  GString  *out;               /* the block being formatted */
  GPtrArray *held;             /* the group's full blocks formatted before its turn */
  guint     group;
  guint     widest;            /* the widest label it formatted */
  guint64   n_lines;
} __attribute__ ((aligned (128))) StreamWorker;   /* a cache line of its own: the two
                                                   * workers update theirs per line */

static void
free_block (gpointer block)
{
  g_string_free (block, TRUE);
}

static GString *
take_block (Stream *st)
{
  GString *block;

  g_mutex_lock (&st->spare_lock);
  block = st->spare->len > 0 ? g_ptr_array_steal_index_fast (st->spare, st->spare->len - 1)
                             : g_string_sized_new (STREAM_FLUSH + 4096);
  g_mutex_unlock (&st->spare_lock);
  g_string_truncate (block, 0);
  return block;
}

/* Writes the blocks of @blocks and gives them back to be reused, counting
 * their bytes off @pending. */
static void
write_blocks (Stream *st, GPtrArray *blocks, gsize *pending)
{
  for (guint i = 0; i < blocks->len; i++)
    {
      GString *block = blocks->pdata[i];

      fwrite (block->str, 1, block->len, stdout);
      if (pending != NULL)
        *pending -= block->len;
    }
  g_mutex_lock (&st->spare_lock);
  for (guint i = 0; i < blocks->len; i++)
    g_ptr_array_add (st->spare, blocks->pdata[i]);
  g_mutex_unlock (&st->spare_lock);
  g_ptr_array_set_size (blocks, 0);   /* no free function: the blocks live on in @spare */
}

static void
stream_line (const SlTreeNode *node, const SlTreeNodeInfo *info, guint level, gpointer data)
{
  StreamWorker *w = data;
  Stream *st = w->stream;
  Line line = line_of (w->names, st->places, node, info, level);

  w->widest = MAX (w->widest, line.chars);
  w->n_lines++;
  append_line (w->out, &line, st->places, st->width);
  if (w->out->len < STREAM_FLUSH)
    return;
  if ((guint) g_atomic_int_get (&st->turn) == w->group)
    {
      write_blocks (st, w->held, NULL);
      fwrite (w->out->str, 1, w->out->len, stdout);
      g_string_truncate (w->out, 0);
    }
  else
    {
      /* blocks rather than one growing buffer: no copy on growth */
      g_ptr_array_add (w->held, w->out);
      w->out = take_block (st);
    }
}

/* Writes the worker's group and the groups after it already formatted
 * when its turn has come; else leaves it to be written. */
static void
finish_group (StreamWorker *w)
{
  Stream *st = w->stream;
  guint turn;

  g_mutex_lock (&st->lock);
  if ((guint) g_atomic_int_get (&st->turn) == w->group)
    {
      write_blocks (st, w->held, NULL);
      fwrite (w->out->str, 1, w->out->len, stdout);
      for (turn = w->group + 1; turn < st->n_groups && st->done[turn] != NULL; turn++)
        {
          write_blocks (st, st->done[turn], &st->pending);
          g_clear_pointer (&st->done[turn], g_ptr_array_unref);
        }
      g_atomic_int_set (&st->turn, (gint) turn);
      g_cond_broadcast (&st->turn_changed);
    }
  else
    {
      g_ptr_array_add (w->held, w->out);
      for (guint i = 0; i < w->held->len; i++)
        st->pending += ((GString *) w->held->pdata[i])->len;
      st->done[w->group] = g_steal_pointer (&w->held);
      w->held = g_ptr_array_new ();
      w->out = take_block (st);
      while (st->pending > STREAM_PENDING)
        g_cond_wait (&st->turn_changed, &st->lock);
    }
  g_mutex_unlock (&st->lock);
}

static gpointer
stream_groups (gpointer data)
{
  StreamWorker *w = data;
  Stream *st = w->stream;
  guint g;

  while ((g = (guint) g_atomic_int_add (&st->next_group, 1)) < st->n_groups)
    {
      guint first = (guint) ((guint64) st->n_roots * g / st->n_groups);
      guint end = (guint) ((guint64) st->n_roots * (g + 1) / st->n_groups);

      w->group = g;
      g_string_truncate (w->out, 0);
      sl_tree_walk_roots (st->tree, first, end - first, 0, 0, TRUE, stream_line, NULL, w);
      finish_group (w);
    }
  return NULL;
}

/* The whole tree, streamed; FALSE (nothing printed) when its width is not
 * known before the walk.  SL_TREE_TEXT_KEEP_LINES=1 (tests) takes the
 * other path, which must print the same bytes. */
static gboolean
stream_whole_tree (const SlProfile *profile, const SlTree *tree, const Place *places,
                   guint n_workers, gboolean small, guint *n_lines)
{
  g_autofree guint *suffix = g_new0 (guint, MAX (profile->n_streams, 1));
  Stream st = { tree, places, 0, sl_tree_get_n_roots (tree), 0, 0 };
  StreamWorker workers[2];
  GThread *other = NULL;
  guint widest = 0;
  guint64 lines = 0;

  if (g_strcmp0 (g_getenv ("SL_TREE_TEXT_KEEP_LINES"), "1") == 0)
    return FALSE;
  for (guint s = 0; s < profile->n_streams; s++)
    suffix[s] = places[s].chars;
  if (!sl_tree_widest_label (tree, 2, suffix, 110, &st.width))
    return FALSE;
  st.n_groups = MIN (st.n_roots, small ? st.n_roots : STREAM_GROUPS);
  n_workers = MIN (n_workers, MAX (st.n_groups, 1));
  st.done = g_new0 (GPtrArray *, MAX (st.n_groups, 1));
  st.spare = g_ptr_array_new_with_free_func (free_block);
  g_mutex_init (&st.spare_lock);
  g_mutex_init (&st.lock);
  g_cond_init (&st.turn_changed);
  for (guint i = 0; i < n_workers; i++)
    workers[i] = (StreamWorker) { &st, g_new0 (NameSlot, NAME_SLOTS),
                                  g_string_sized_new (STREAM_FLUSH + 4096), g_ptr_array_new (), 0, 0, 0 };
  if (n_workers > 1)
    other = g_thread_new ("sl-tree-text", stream_groups, &workers[1]);
  stream_groups (&workers[0]);
  if (other != NULL)
    g_thread_join (other);
  for (guint i = 0; i < n_workers; i++)
    {
      widest = MAX (widest, workers[i].widest);
      lines += workers[i].n_lines;
      g_free (workers[i].names);
      g_string_free (workers[i].out, TRUE);
      g_ptr_array_unref (workers[i].held);
    }
  g_free (st.done);
  g_ptr_array_unref (st.spare);
  g_mutex_clear (&st.spare_lock);
  g_mutex_clear (&st.lock);
  g_cond_clear (&st.turn_changed);
  /* what sl_tree_widest_label promises; the tests compare both paths */
  if (MIN (widest, 110) != st.width)
    g_warning ("tree text: labels %u wide, %u expected", MIN (widest, 110), st.width);
  *n_lines = (guint) MIN (lines, G_MAXUINT);
  return TRUE;
}

guint
sl_cli_tree_print_text (const SlProfile *profile, const SlTree *tree, guint max_depth, gint64 min_dur_ns)
{
  g_autofree Place *places = format_places (profile);
  guint n_roots = sl_tree_get_n_roots (tree);
  gboolean small = small_parts ();
  gboolean big = small || count_kernels (profile) >= PARALLEL_KERNELS;
  guint n_parts = big && n_roots >= 2 && g_get_num_processors () >= 2 ? 2 : 1;
  Part parts[2];
  GThread *other = NULL;
  guint n_lines = 0;

  if (max_depth == 0 && min_dur_ns == 0
      && stream_whole_tree (profile, tree, places, big && g_get_num_processors () >= 2 ? 2 : 1, small,
                            &n_lines))
    return n_lines;
  /* the roots halved by count: roots are mostly iterations of one size */
  for (guint p = 0; p < n_parts; p++)
    {
      guint first = n_roots * p / n_parts, end = n_roots * (p + 1) / n_parts;

      parts[p] = (Part) { tree, first, end - first, max_depth, min_dur_ns, places,
                          g_new0 (NameSlot, NAME_SLOTS), small ? 7 : CHUNK_LINES,
                          g_array_new (FALSE, FALSE, sizeof (Chunk)) };
    }
  if (n_parts > 1)
    other = g_thread_new ("sl-tree-walk", walk_part, &parts[1]);
  walk_part (&parts[0]);
  if (other != NULL)
    g_thread_join (other);

  print_parts (parts, n_parts, places, big && g_get_num_processors () >= 2 ? 2 : 1);
  for (guint p = 0; p < n_parts; p++)
    {
      for (guint c = 0; c < parts[p].chunks->len; c++)
        {
          Chunk *chunk = &g_array_index (parts[p].chunks, Chunk, c);

          n_lines += chunk->n;
          g_free (chunk->lines);
        }
      g_free (parts[p].names);
      g_array_unref (parts[p].chunks);
    }
  return n_lines;
}
