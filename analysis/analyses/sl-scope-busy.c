/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-scope-busy.c: per GPU union components, for any scope's busy time,
 * gaps and overlap (see sl-scope-busy.h). */
#include "sl-scope-busy.h"

#include "sl-intervals.h"
#include "sl-nccl.h"
#include "sl-stats.h"


enum { CLASS_KERNELS, CLASS_NCCL, CLASS_COMPUTE, CLASS_COPIES, N_CLASSES };

/* The whole profile's union of one class on one GPU: components
 * [cs[c], ce[c]) in order, before[c] the length of those before c (n + 1
 * entries).  Gap c (1 <= c < n) lies between components c - 1 and c; tops
 * holds, per block of gap_block gap indexes, its SL_SCOPE_BUSY_TOP
 * longest, best first (G_MAXUINT: none). */
typedef struct {
  guint   n;
  gint64 *cs, *ce, *before;
  guint  *tops;
  guint   gap_block;
} Comps;

/* Per stream and list, the latest end of the operations [0, k pm_block) of
 * each half (kernels: compute at 0, NCCL at 1; copies: all at 0), G_MININT64
 * when none. */
typedef struct {
  gint64 *pm[2];
} ListPm;

struct _SlScopeBusy {
  guint    pm_block;    /* operations per prefix-maximum entry */
  guint    gap_block;   /* gaps per block of kept tops */
  guint    n_gpus, n_streams, n_funcs;
  guint8  *is_nccl;
  Comps   *comps;       /* N_CLASSES per GPU */
  ListPm  *lists;       /* 3 per stream: kernels, memcpy, memset */
};

/* One list of one stream as a class sees it. */
typedef struct {
  const SlSpans *spans;
  const guint32 *func;      /* kernels */
  const guint8  *is_nccl;
  guint          n_funcs;
  int            want;      /* -1 every operation, else NCCL (1) or not (0) */
  const ListPm  *pm;
  guint          pm_block;
} Track;

static inline gboolean
track_takes (const Track *t, guint i)
{
  guint32 f;

  if (t->want < 0)
    return TRUE;
  f = t->func[i];
  return ((f < t->n_funcs) & (t->is_nccl[f < t->n_funcs ? f : 0] != 0)) == t->want;
}

/* ---- building ---- */

typedef struct {
  GArray  *cs, *ce;
  gboolean open;
  gint64   s, e;
} Builder;

static void
builder_init (Builder *b)
{
  b->cs = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->ce = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->open = FALSE;
}

static inline void
builder_add (Builder *b, gint64 s, gint64 e)
{
  if (b->open && s <= b->e)
    {
      b->e = MAX (b->e, e);
      return;
    }
  if (b->open)
    {
      g_array_append_val (b->cs, b->s);
      g_array_append_val (b->ce, b->e);
    }
  b->open = TRUE;
  b->s = s;
  b->e = e;
}

static inline gboolean
gap_better (gint64 s1, gint64 d1, gint64 s2, gint64 d2)
{
  return d1 > d2 || (d1 == d2 && s1 < s2);
}

/* Gap @c of @comps (1 <= c < n) into @top (sorted, best first, *@n of
 * SL_SCOPE_BUSY_TOP used), as indexes. */
static void
top_insert (const Comps *cp, guint *top, guint *n, guint c)
{
  gint64 s = cp->ce[c - 1], d = cp->cs[c] - s;
  guint i = *n;

  if (i == SL_SCOPE_BUSY_TOP)
    {
      if (!gap_better (s, d, cp->ce[top[i - 1] - 1], cp->cs[top[i - 1]] - cp->ce[top[i - 1] - 1]))
        return;
      i--;
    }
  else
    (*n)++;
  for (; i > 0 && gap_better (s, d, cp->ce[top[i - 1] - 1], cp->cs[top[i - 1]] - cp->ce[top[i - 1] - 1]); i--)
    top[i] = top[i - 1];
  top[i] = c;
}

static void
builder_finish (Builder *b, Comps *cp, guint gap_block)
{
  guint n_blocks;

  if (b->open)
    {
      g_array_append_val (b->cs, b->s);
      g_array_append_val (b->ce, b->e);
    }
  cp->n = b->cs->len;
  cp->gap_block = gap_block;
  cp->cs = (gint64 *) g_array_free (b->cs, FALSE);
  cp->ce = (gint64 *) g_array_free (b->ce, FALSE);
  cp->before = g_new (gint64, cp->n + 1);
  cp->before[0] = 0;
  for (guint c = 0; c < cp->n; c++)
    cp->before[c + 1] = cp->before[c] + (cp->ce[c] - cp->cs[c]);
  if (gap_block == 0)   /* no gaps kept */
    return;
  n_blocks = cp->n / gap_block + 1;
  cp->tops = g_new (guint, (gsize) n_blocks * SL_SCOPE_BUSY_TOP);
  for (guint k = 0; k < n_blocks; k++)
    {
      guint *top = &cp->tops[k * SL_SCOPE_BUSY_TOP], n = 0;

      for (guint c = MAX (k * gap_block, 1); c < MIN ((k + 1) * gap_block, cp->n); c++)
        top_insert (cp, top, &n, c);
      for (; n < SL_SCOPE_BUSY_TOP; n++)
        top[n] = G_MAXUINT;
    }
}

/* The GPU's kernels in start order into the three kernel classes. */
static void
build_kernels (SlScopeBusy *sb, const SlProfile *profile, const SlGpu *gpu, Comps *comps)
{
  Builder all, nccl, compute;
  SlMerge merge;
  guint tag, index, end;
  gint64 limit;
  const SlSpans *spans;

  builder_init (&all);
  builder_init (&nccl);
  builder_init (&compute);
  sl_merge_init (&merge);
  for (guint i = 0; i < gpu->n_streams; i++)
    {
      const SlSpans *k = &profile->streams[gpu->streams[i]].kernels.spans;
      sl_merge_add (&merge, k, 0, k->n, gpu->streams[i]);
    }
  sl_merge_start (&merge);
  while (sl_merge_run_start (&merge, &tag, &spans, &index, &end, &limit))
    {
      Track t = { spans, profile->streams[tag].kernels.func, sb->is_nccl, sb->n_funcs, 1, NULL };

      do
        {
          gint64 s = spans->start[index], e = sl_spans_end (spans, index);

          builder_add (&all, s, e);
          builder_add (track_takes (&t, index) ? &nccl : &compute, s, e);
        }
      while (++index < end && spans->start[index] < limit);
      sl_merge_run_stop (&merge, index);
    }
  sl_merge_clear (&merge);
  builder_finish (&all, &comps[CLASS_KERNELS], sb->gap_block);
  builder_finish (&nccl, &comps[CLASS_NCCL], 0);
  builder_finish (&compute, &comps[CLASS_COMPUTE], 0);
}

static void
build_copies (const SlProfile *profile, const SlGpu *gpu, Comps *comps)
{
  Builder b;
  SlMerge merge;
  guint tag, index, end;
  gint64 limit;
  const SlSpans *spans;

  builder_init (&b);
  sl_merge_init (&merge);
  for (guint i = 0; i < gpu->n_streams; i++)
    {
      const SlStream *st = &profile->streams[gpu->streams[i]];
      sl_merge_add (&merge, &st->memcpy.spans, 0, st->memcpy.spans.n, 2 * i);
      sl_merge_add (&merge, &st->memset.spans, 0, st->memset.spans.n, 2 * i + 1);
    }
  sl_merge_start (&merge);
  while (sl_merge_run_start (&merge, &tag, &spans, &index, &end, &limit))
    {
      do
        builder_add (&b, spans->start[index], sl_spans_end (spans, index));
      while (++index < end && spans->start[index] < limit);
      sl_merge_run_stop (&merge, index);
    }
  sl_merge_clear (&merge);
  builder_finish (&b, &comps[CLASS_COPIES], 0);
}

/* The prefix maxima of one list: of the halves @t splits it in (want
 * NCCL: compute at 0, NCCL at 1), or of all at 0. */
static void
build_pm (ListPm *pm, const Track *t, gboolean split, guint block)
{
  guint n = t->spans->n, n_blocks = n / block + 1;
  gint64 run[2] = { G_MININT64, G_MININT64 };

  pm->pm[0] = g_new (gint64, n_blocks);
  pm->pm[1] = split ? g_new (gint64, n_blocks) : NULL;
  for (guint i = 0; i <= n; i++)
    {
      if (i % block == 0)
        {
          pm->pm[0][i / block] = run[0];
          if (split)
            pm->pm[1][i / block] = run[1];
        }
      if (i < n)
        {
          int half = split ? track_takes (t, i) : 0;
          run[half] = MAX (run[half], sl_spans_end (t->spans, i));
        }
    }
}

SlScopeBusy *
sl_scope_busy_build (const SlProfile *profile, guint pm_block, guint gap_block)
{
  SlScopeBusy *sb = g_new0 (SlScopeBusy, 1);

  sb->pm_block = pm_block;
  sb->gap_block = gap_block;
  sb->n_gpus = profile->n_gpus;
  sb->n_streams = profile->n_streams;
  sb->n_funcs = profile->n_funcs;
  sb->is_nccl = sl_nccl_func_mask (profile);
  sb->comps = g_new0 (Comps, (gsize) MAX (profile->n_gpus, 1) * N_CLASSES);
  sb->lists = g_new0 (ListPm, (gsize) MAX (profile->n_streams, 1) * 3);
  for (guint g = 0; g < profile->n_gpus; g++)
    {
      build_kernels (sb, profile, &profile->gpus[g], &sb->comps[g * N_CLASSES]);
      build_copies (profile, &profile->gpus[g], &sb->comps[g * N_CLASSES]);
    }
  for (guint s = 0; s < profile->n_streams; s++)
    {
      const SlStream *st = &profile->streams[s];
      Track k = { &st->kernels.spans, st->kernels.func, sb->is_nccl, sb->n_funcs, 1, NULL };
      Track mc = { &st->memcpy.spans, NULL, NULL, 0, -1, NULL };
      Track ms = { &st->memset.spans, NULL, NULL, 0, -1, NULL };

      build_pm (&sb->lists[3 * s], &k, TRUE, pm_block);
      build_pm (&sb->lists[3 * s + 1], &mc, FALSE, pm_block);
      build_pm (&sb->lists[3 * s + 2], &ms, FALSE, pm_block);
    }
  return sb;
}

void
sl_scope_busy_free (SlScopeBusy *sb)
{
  if (sb == NULL)
    return;
  for (guint c = 0; c < sb->n_gpus * N_CLASSES; c++)
    {
      g_free (sb->comps[c].cs);
      g_free (sb->comps[c].ce);
      g_free (sb->comps[c].before);
      g_free (sb->comps[c].tops);
    }
  for (guint l = 0; l < sb->n_streams * 3; l++)
    {
      g_free (sb->lists[l].pm[0]);
      g_free (sb->lists[l].pm[1]);
    }
  g_free (sb->comps);
  g_free (sb->lists);
  g_free (sb->is_nccl);
  g_free (sb);
}

/* ---- a scope ---- */

/* The union of a scope's operations of one class, as sl-gaps.c's walk
 * makes it: busy length, first start, last end, and the @top longest gaps
 * (best first) when @gaps. */
typedef struct {
  gboolean any, open, gaps;
  gint64   first, cur_start, cur_end, closed;
  guint    top, n_top;
  gint64   top_s[SL_SCOPE_BUSY_TOP], top_d[SL_SCOPE_BUSY_TOP];
} Acc;

/* The gap [s, s + d) among the kept ones; FALSE when not better than the
 * worst of a full list. */
static gboolean
acc_keep (Acc *u, gint64 s, gint64 d)
{
  guint i = u->n_top;

  if (u->top == 0)
    return FALSE;
  if (i == u->top)
    {
      if (!gap_better (s, d, u->top_s[i - 1], u->top_d[i - 1]))
        return FALSE;
      i--;
    }
  else
    u->n_top++;
  for (; i > 0 && gap_better (s, d, u->top_s[i - 1], u->top_d[i - 1]); i--)
    {
      u->top_s[i] = u->top_s[i - 1];
      u->top_d[i] = u->top_d[i - 1];
    }
  u->top_s[i] = s;
  u->top_d[i] = d;
  return TRUE;
}

static inline void
acc_add (Acc *u, gint64 s, gint64 e)
{
  if (!u->any)
    {
      u->any = TRUE;
      u->first = s;
    }
  if (u->open && s <= u->cur_end)
    {
      u->cur_end = MAX (u->cur_end, e);
      return;
    }
  if (u->open)
    {
      u->closed += u->cur_end - u->cur_start;
      if (u->gaps)
        acc_keep (u, u->cur_end, s - u->cur_end);
    }
  u->open = TRUE;
  u->cur_start = s;
  u->cur_end = e;
}

static gint64
acc_total (const Acc *u)
{
  return u->closed + (u->open ? u->cur_end - u->cur_start : 0);
}

/* The latest end of the class's operations starting before @x (G_MININT64:
 * none). */
static gint64
class_pm (const Track *tracks, guint n_tracks, gint64 x)
{
  gint64 m = G_MININT64;

  for (guint k = 0; k < n_tracks; k++)
    {
      const Track *t = &tracks[k];
      guint i = sl_spans_lower_bound (t->spans, x), b = i / t->pm_block;
      const gint64 *const *pm = (const gint64 *const *) t->pm->pm;

      m = MAX (m, t->want >= 0 ? pm[t->want][b] : pm[1] != NULL ? MAX (pm[0][b], pm[1][b]) : pm[0][b]);
      for (guint j = b * t->pm_block; j < i; j++)
        if (track_takes (t, j))
          m = MAX (m, sl_spans_end (t->spans, j));
    }
  return m;
}

typedef struct {
  gint64 s, e;
} Op;

static int
compare_ops (gconstpointer a, gconstpointer b)
{
  const Op *x = a, *y = b;

  return x->s != y->s ? (x->s < y->s ? -1 : 1) : (x->e < y->e ? -1 : x->e > y->e);
}

/* The class's operations starting in [lo, hi), in start order, into @u. */
static void
walk_ops (const Track *tracks, guint n_tracks, gint64 lo, gint64 hi, Acc *u)
{
  g_autoptr(GArray) ops = g_array_new (FALSE, FALSE, sizeof (Op));

  if (lo >= hi)
    return;
  for (guint k = 0; k < n_tracks; k++)
    {
      const Track *t = &tracks[k];

      for (guint i = sl_spans_lower_bound (t->spans, lo); i < t->spans->n && t->spans->start[i] < hi; i++)
        if (track_takes (t, i))
          {
            Op op = { t->spans->start[i], sl_spans_end (t->spans, i) };
            g_array_append_val (ops, op);
          }
    }
  g_array_sort (ops, compare_ops);
  for (guint i = 0; i < ops->len; i++)
    acc_add (u, g_array_index (ops, Op, i).s, g_array_index (ops, Op, i).e);
}

/* The first start of the class's operations in [lo, hi) (G_MAXINT64: none). */
static gint64
first_from (const Track *tracks, guint n_tracks, gint64 lo, gint64 hi)
{
  gint64 first = G_MAXINT64;

  for (guint k = 0; k < n_tracks; k++)
    {
      const Track *t = &tracks[k];

      for (guint i = sl_spans_lower_bound (t->spans, lo); i < t->spans->n && t->spans->start[i] < MIN (hi, first); i++)
        if (track_takes (t, i))
          {
            first = t->spans->start[i];
            break;
          }
    }
  return first;
}

static guint
comps_lower_bound (const Comps *cp, gint64 t)
{
  return sl_times_lower_bound (cp->cs, 0, cp->n, t);
}

/* Gaps [g1, g2] of @cp into @u's kept ones: the blocks' tops for the whole
 * blocks between, each walked until one is not kept. */
static void
range_tops (const Comps *cp, guint g1, guint g2, Acc *u)
{
  guint size = cp->gap_block, k1 = g1 / size, k2 = g2 / size;

  for (guint c = g1; c <= MIN (g2, (k1 + 1) * size - 1); c++)
    acc_keep (u, cp->ce[c - 1], cp->cs[c] - cp->ce[c - 1]);
  for (guint k = k1 + 1; k < k2; k++)
    for (guint i = 0; i < SL_SCOPE_BUSY_TOP; i++)
      {
        guint c = cp->tops[k * SL_SCOPE_BUSY_TOP + i];
        if (c == G_MAXUINT || !acc_keep (u, cp->ce[c - 1], cp->cs[c] - cp->ce[c - 1]))
          break;
      }
  for (guint c = MAX (g1, k2 * size); k2 > k1 && c <= g2; c++)
    acc_keep (u, cp->ce[c - 1], cp->cs[c] - cp->ce[c - 1]);
}

/* Components [c1, c2) whole into @u (c2 > c1), the last left open. */
static void
jump (const Comps *cp, guint c1, guint c2, Acc *u)
{
  acc_add (u, cp->cs[c1], cp->ce[c1]);
  if (c2 - c1 < 2)
    return;
  u->closed += cp->before[c2 - 1] - cp->before[c1];
  if (u->gaps)
    range_tops (cp, c1 + 1, c2 - 1, u);
  u->cur_start = cp->cs[c2 - 1];
  u->cur_end = cp->ce[c2 - 1];
}

/* The union of the class's operations starting in [a, b) (a < b): see
 * sl-scope-busy.h. */
static void
class_query (const Comps *cp, const Track *tracks, guint n_tracks, gint64 a, gint64 b, Acc *u)
{
  guint c_lo = comps_lower_bound (cp, a), c_hi = comps_lower_bound (cp, b);
  gint64 limit = c_lo < cp->n ? MIN (b, cp->cs[c_lo]) : b;
  gint64 pma = class_pm (tracks, n_tracks, a);
  gint64 sync = pma == G_MAXINT64 ? G_MAXINT64 : MAX (a, pma + 1);

  walk_ops (tracks, n_tracks, a, MIN (limit, sync), u);
  if (sync < limit)
    {
      gint64 s1 = first_from (tracks, n_tracks, sync, limit);
      if (s1 < limit)
        acc_add (u, s1, class_pm (tracks, n_tracks, limit));
    }
  if (c_lo >= c_hi)
    return;
  if (c_hi - 1 > c_lo)
    jump (cp, c_lo, c_hi - 1, u);
  acc_add (u, cp->cs[c_hi - 1], class_pm (tracks, n_tracks, b));
}

/* The tracks of class @cls on @gpu inside @filter, into @out (2 per stream
 * at most). */
static guint
class_tracks (const SlScopeBusy *sb, const SlProfile *profile, const SlFilter *filter, const SlGpu *gpu,
              int cls, Track *out)
{
  static const int want[] = { -1, 1, 0 };
  guint n = 0;

  for (guint i = 0; i < gpu->n_streams; i++)
    {
      guint32 s = gpu->streams[i];
      const SlStream *st = &profile->streams[s];

      if (!sl_filter_match_stream (filter, st))
        continue;
      if (cls == CLASS_COPIES)
        {
          out[n++] = (Track) { &st->memcpy.spans, NULL, NULL, 0, -1, &sb->lists[3 * s + 1], sb->pm_block };
          out[n++] = (Track) { &st->memset.spans, NULL, NULL, 0, -1, &sb->lists[3 * s + 2], sb->pm_block };
        }
      else
        out[n++] = (Track) { &st->kernels.spans, st->kernels.func, sb->is_nccl, sb->n_funcs, want[cls],
                             &sb->lists[3 * s], sb->pm_block };
    }
  return n;
}

static void
device_class (const SlScopeBusy *sb, const SlProfile *profile, const SlFilter *filter, guint g, int cls,
              gint64 a, gint64 b, Acc *u)
{
  const SlGpu *gpu = &profile->gpus[g];
  g_autofree Track *tracks = g_new (Track, 2 * MAX (gpu->n_streams, 1));
  guint n = class_tracks (sb, profile, filter, gpu, cls, tracks);

  class_query (&sb->comps[g * N_CLASSES + cls], tracks, n, a, b, u);
}

/* The device's kept gaps as sl-gaps.c lists them (start, end, dur only). */
static void
set_gaps (SlGapsDevice *dev, const Acc *k)
{
  dev->n_top = k->n_top;
  dev->gaps = g_new0 (SlGap, MAX (k->n_top, 1));
  for (guint i = 0; i < k->n_top; i++)
    {
      dev->gaps[i].start_ns = k->top_s[i];
      dev->gaps[i].end_ns = k->top_s[i] + k->top_d[i];
      dev->gaps[i].dur_ns = k->top_d[i];
    }
}

/* One GPU of sl_gaps_compute_with_overlap () for [a, b): FALSE when it has
 * no operation there. */
static gboolean
device_query (const SlScopeBusy *sb, const SlProfile *profile, const SlFilter *filter, guint g,
              gint64 a, gint64 b, guint top, SlGapsDevice *dev, SlOverlap *overlap)
{
  Acc k = { .gaps = TRUE, .top = top }, c = { 0 }, nccl = { 0 }, compute = { 0 };

  device_class (sb, profile, filter, g, CLASS_KERNELS, a, b, &k);
  device_class (sb, profile, filter, g, CLASS_COPIES, a, b, &c);
  if (!k.any && !c.any)
    return FALSE;
  dev->device = profile->gpus[g].device;
  dev->first_start_ns = !k.any ? c.first : !c.any ? k.first : MIN (c.first, k.first);
  dev->last_end_ns = !k.any ? c.cur_end : !c.any ? k.cur_end : MAX (c.cur_end, k.cur_end);
  dev->span_ns = dev->last_end_ns - dev->first_start_ns;
  dev->kernel_busy_ns = acc_total (&k);
  dev->copy_busy_ns = acc_total (&c);
  dev->utilization_pct = sl_percent (dev->kernel_busy_ns, dev->span_ns);
  set_gaps (dev, &k);
  if (k.any)
    {
      device_class (sb, profile, filter, g, CLASS_NCCL, a, b, &nccl);
      device_class (sb, profile, filter, g, CLASS_COMPUTE, a, b, &compute);
      sl_overlap_device_set (&overlap->devices[overlap->n_devices++], dev->device, acc_total (&k),
                             acc_total (&nccl), acc_total (&compute));
    }
  return TRUE;
}

SlGaps *
sl_scope_busy_query (const SlScopeBusy *sb, const SlProfile *profile, const SlFilter *filter, guint top,
                     SlOverlap **overlap_out)
{
  gboolean range = filter != NULL && filter->has_range;
  gint64 a = range ? filter->range_start : G_MININT64, b = range ? filter->range_end : G_MAXINT64;
  SlGaps *self;
  SlOverlap *overlap;

  if ((filter != NULL && filter->pids->len > 0) || top > SL_SCOPE_BUSY_TOP)
    return NULL;
  self = g_new0 (SlGaps, 1);
  self->devices = g_new0 (SlGapsDevice, MAX (profile->n_gpus, 1));
  overlap = g_new0 (SlOverlap, 1);
  overlap->devices = g_new0 (SlOverlapDevice, MAX (profile->n_gpus, 1));
  *overlap_out = overlap;
  for (guint g = 0; g < profile->n_gpus && a < b; g++)
    if (sl_filter_match_device (filter, profile->gpus[g].device) && profile->gpus[g].n_streams > 0
        && device_query (sb, profile, filter, g, a, b, top, &self->devices[self->n_devices], overlap))
      self->n_devices++;
  return self;
}
