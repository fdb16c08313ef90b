/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gaps.c: busy / idle / gaps per device, NCCL overlap and the NCCL
 * table, against the generator's planted gaps and overlap, and against
 * unions computed here from SQL-ordered rows of the real exports. */
#include <math.h>
#include <string.h>

#include "sl-test-util.h"
#include "sl-gpu-busy.h"

#define FIXTURE_ARGS "--gpus 2 --streams 2 --processes 2 --threads 3 --iterations 5 --kernels 5000 " \
                     "--nccl --memcpy 60 --memset 10 --gap-ns 2000000 --seed 9"

static JsonObject *
truth_gpu (const SlTestFixture *f, guint32 device)
{
  JsonArray *gpus = json_object_get_array_member (f->truth, "gpus");

  for (guint i = 0; i < json_array_get_length (gpus); i++)
    if (json_object_get_int_member (json_array_get_object_element (gpus, i), "device") == device)
      return json_array_get_object_element (gpus, i);
  g_error ("no truth for GPU %u", device);
}

static void
test_gaps_generated (void)
{
  const SlTestFixture *f = sl_test_fixture ("gaps", FIXTURE_ARGS);
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  /* the planted gaps are gaps in any GPU work: copies count as busy */
  g_autoptr(SlGaps) gaps = sl_gaps_compute_full (profile, NULL, 0, 100, TRUE);
  g_autoptr(SlGaps) big = sl_gaps_compute_full (profile, NULL, 1000000, 2, TRUE);
  g_autoptr(SlGaps) kernels = sl_gaps_compute (profile, NULL, 0, 100);

  g_assert_cmpuint (gaps->n_devices, ==, json_array_get_length (json_object_get_array_member (f->truth, "gpus")));
  for (guint d = 0; d < gaps->n_devices; d++)
    {
      const SlGapsDevice *dev = &gaps->devices[d];
      JsonObject *t = truth_gpu (f, dev->device);
      JsonArray *tg = json_object_get_array_member (t, "gaps");
      gint64 want_idle = 0, longest = 0;

      g_assert_cmpint (dev->first_start_ns, ==, json_object_get_int_member (t, "start_ns"));
      g_assert_cmpint (dev->last_end_ns, ==, json_object_get_int_member (t, "end_ns"));
      g_assert_cmpint (dev->span_ns, ==, json_object_get_int_member (t, "span_ns"));
      g_assert_cmpint (dev->busy_ns, ==, json_object_get_int_member (t, "busy_ns"));
      g_assert_cmpint (dev->idle_ns, ==, dev->span_ns - dev->busy_ns);
      g_assert_cmpfloat (fabs (dev->utilization_pct - 100.0 * dev->busy_ns / dev->span_ns), <, 1e-9);
      g_assert_cmpint (dev->kernel_busy_ns, ==, json_object_get_int_member (t, "kernel_busy_ns"));
      g_assert_cmpint (dev->copy_busy_ns, ==, json_object_get_int_member (t, "copy_busy_ns"));
      /* by default utilization is kernel time; the busy unions are the same */
      g_assert_cmpint (kernels->devices[d].busy_ns, ==, dev->busy_ns);
      g_assert_cmpint (kernels->devices[d].kernel_busy_ns, ==, dev->kernel_busy_ns);
      g_assert_cmpfloat (fabs (kernels->devices[d].utilization_pct
                               - 100.0 * dev->kernel_busy_ns / dev->span_ns), <, 1e-9);
      g_assert_cmpfloat (fabs (kernels->devices[d].any_busy_pct - dev->utilization_pct), <, 1e-9);
      /* the truth lists every gap between busy intervals */
      g_assert_cmpuint (dev->n_gaps, ==, json_array_get_length (tg));
      for (guint i = 0; i < json_array_get_length (tg); i++)
        {
          JsonArray *g = json_array_get_array_element (tg, i);
          gint64 len = json_array_get_int_element (g, 1) - json_array_get_int_element (g, 0);
          gboolean found = FALSE;
          want_idle += len;
          longest = MAX (longest, len);
          for (guint k = 0; k < dev->n_top; k++)
            if (dev->gaps[k].start_ns == json_array_get_int_element (g, 0))
              {
                g_assert_cmpint (dev->gaps[k].end_ns, ==, json_array_get_int_element (g, 1));
                found = TRUE;
              }
          g_assert_true (found);
        }
      g_assert_cmpint (dev->idle_ns, ==, want_idle);
      g_assert_cmpint (dev->gaps_total_ns, ==, want_idle);
      if (dev->n_top > 0)
        g_assert_cmpint (dev->gaps[0].dur_ns, ==, longest);
      for (guint k = 1; k < dev->n_top; k++)
        g_assert_cmpint (dev->gaps[k - 1].dur_ns, >=, dev->gaps[k].dur_ns);
      /* The planted gaps follow each iteration's device synchronize, during
       * which the CPU loads data: the names around and the calls are set. */
      for (guint k = 0; k < dev->n_top; k++)
        {
          g_assert_nonnull (dev->gaps[k].before);
          g_assert_nonnull (dev->gaps[k].after);
          for (guint c = 0; c < dev->gaps[k].n_cpu; c++)
            {
              g_assert_cmpint (dev->gaps[k].cpu[c].overlap_ns, >, 0);
              g_assert_cmpint (dev->gaps[k].cpu[c].overlap_ns, <=, dev->gaps[k].dur_ns * 64);
            }
        }
    }

  /* --min-gap 1 ms and --top 2: the planted 2 ms gaps, longest two */
  for (guint d = 0; d < big->n_devices; d++)
    {
      g_assert_cmpuint (big->devices[d].n_top, <=, 2);
      for (guint k = 0; k < big->devices[d].n_top; k++)
        g_assert_cmpint (big->devices[d].gaps[k].dur_ns, >=, 1000000);
      g_assert_cmpint (big->devices[d].busy_ns, ==, gaps->devices[d].busy_ns);
    }
}

static void
test_overlap_generated (void)
{
  const SlTestFixture *f = sl_test_fixture ("gaps", FIXTURE_ARGS);
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlOverlap) o = sl_overlap_compute (profile, NULL);

  g_assert_cmpuint (o->n_devices, ==, 2);
  for (guint d = 0; d < o->n_devices; d++)
    {
      const SlOverlapDevice *dev = &o->devices[d];
      JsonObject *t = truth_gpu (f, dev->device);

      g_assert_cmpint (dev->compute_ns, ==, json_object_get_int_member (t, "compute_ns"));
      g_assert_cmpint (dev->nccl_ns, ==, json_object_get_int_member (t, "nccl_ns"));
      g_assert_cmpint (dev->overlap_ns, ==, json_object_get_int_member (t, "overlap_ns"));
      g_assert_cmpint (dev->compute_only_ns, ==, dev->compute_ns - dev->overlap_ns);
      g_assert_cmpint (dev->nccl_only_ns, ==, dev->nccl_ns - dev->overlap_ns);
      g_assert_cmpfloat (fabs (dev->overlap_pct - 100.0 * dev->overlap_ns / dev->nccl_ns), <, 1e-9);
      g_assert_cmpint (dev->nccl_ns, >, 0);
    }
}

static void
test_nccl_generated (void)
{
  const SlTestFixture *f = sl_test_fixture ("gaps", FIXTURE_ARGS);
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlNccl) n = sl_nccl_compute (profile, NULL);
  JsonArray *names = json_object_get_array_member (f->truth, "kernel_names");
  gint64 want_total = 0, want_n = 0;

  for (guint i = 0; i < json_array_get_length (names); i++)
    {
      JsonObject *o = json_array_get_object_element (names, i);
      if (strstr (json_object_get_string_member (o, "short_name"), "nccl") != NULL)
        {
          want_total += json_object_get_int_member (o, "total_ns");
          want_n += json_object_get_int_member (o, "instances");
        }
    }
  g_assert_cmpint (want_n, >, 0);
  g_assert_cmpint (n->total_ns, ==, want_total);
  g_assert_cmpint ((gint64) n->count, ==, want_n);
  /* one NCCL stream per GPU, all all-reduce (ncclDevKernel_AllReduce_Sum_bf16_RING_LL) */
  g_assert_cmpuint (n->n_rows, ==, 2);
  for (guint r = 0; r < n->n_rows; r++)
    g_assert_cmpint (n->rows[r].collective, ==, SL_NCCL_ALL_REDUCE);
  /* the NCCL NVTX domain's ncclAllReduce calls */
  g_assert_cmpuint (n->n_nvtx, >=, 1);
  g_assert_cmpstr (n->nvtx[0].name, ==, "ncclAllReduce");
  g_assert_cmpuint (n->nvtx[0].stats.count, ==, (guint64) want_n);
}

static void
test_collective_names (void)
{
  static const struct { const char *name; SlNcclCollective c; } cases[] = {
    { "ncclDevKernel_AllReduce_Sum_f32_RING_LL", SL_NCCL_ALL_REDUCE },
    { "ncclKernel_AllGather_RING_LL_Sum_int8_t", SL_NCCL_ALL_GATHER },
    { "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL", SL_NCCL_REDUCE_SCATTER },
    { "ncclDevKernel_Broadcast_RING_LL", SL_NCCL_BROADCAST },
    { "ncclDevKernel_Reduce_Sum_f16_RING_LL", SL_NCCL_REDUCE },
    { "ncclDevKernel_SendRecv", SL_NCCL_SEND_RECV },
    { "ncclKernel_AllToAll", SL_NCCL_ALL_TO_ALL },
    { "ncclDevKernel_Generic", SL_NCCL_OTHER },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (sl_nccl_collective_of (cases[i].name), ==, cases[i].c);
  g_assert_true (sl_nccl_is_nccl_name ("NCCLKERNEL"));
  g_assert_false (sl_nccl_is_nccl_name ("gemm"));
}

/* Union of intervals of a SQL query (start, end) ordered by start, computed
 * here; returns busy and fills the gaps. */
static gint64
union_of (sqlite3 *db, const char *sql, GArray *gaps, gint64 *first, gint64 *last)
{
  sqlite3_stmt *stmt = NULL;
  gint64 busy = 0, cs = 0, ce = 0;
  gboolean open = FALSE;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 s = sqlite3_column_int64 (stmt, 0), e = sqlite3_column_int64 (stmt, 1);
      if (!open)
        {
          *first = s;
          *last = e;
          cs = s;
          ce = e;
          open = TRUE;
          continue;
        }
      *last = MAX (*last, e);
      if (s > ce)
        {
          gint64 gap = s - ce;
          busy += ce - cs;
          if (gaps != NULL)
            g_array_append_val (gaps, gap);
          cs = s;
          ce = e;
        }
      else if (e > ce)
        ce = e;
    }
  sqlite3_finalize (stmt);
  return open ? busy + ce - cs : 0;
}

static void
test_real (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  for (guint p = 0; paths[p] != NULL; p++)
    {
      g_autoptr(SlProfile) profile = sl_test_load (paths[p]);
      g_autoptr(SlGaps) gaps = sl_gaps_compute_full (profile, NULL, 0, 3, TRUE);
      g_autoptr(SlOverlap) overlap = sl_overlap_compute (profile, NULL);
      sqlite3 *db = sl_test_db_open (paths[p]);
      guint n_devices;

      sl_test_db_prepare (db);
      n_devices = (guint) sl_test_db_int (db, "SELECT count(DISTINCT device) FROM t_gpu");
      g_assert_cmpuint (gaps->n_devices, ==, n_devices);
      for (guint d = 0; d < gaps->n_devices; d++)
        {
          const SlGapsDevice *dev = &gaps->devices[d];
          g_autoptr(GArray) all_gaps = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_autofree char *sql = g_strdup_printf ("SELECT start, end FROM t_gpu WHERE device = %u ORDER BY start", dev->device);
          gint64 first = 0, last = 0, busy = union_of (db, sql, all_gaps, &first, &last);
          SlTestStats gs;

          g_assert_cmpint (dev->busy_ns, ==, busy);
          g_assert_cmpint (dev->span_ns, ==, last - first);
          g_assert_cmpuint (dev->n_gaps, ==, all_gaps->len);
          sl_test_stats (all_gaps, &gs);
          if (all_gaps->len > 0)
            g_assert_cmpint (dev->gaps[0].dur_ns, ==, gs.max);
          /* the CPU side of the longest gap: that process's calls overlapping it */
          if (dev->n_top > 0)
            {
              const SlGap *gap = &dev->gaps[0];
              g_autofree char *cpu_sql = g_strdup_printf (
                "SELECT sum(min(end, %" G_GINT64_FORMAT ") - max(start, %" G_GINT64_FORMAT ")) AS o FROM t_api "
                "WHERE pid = %u AND start < %" G_GINT64_FORMAT " AND end > %" G_GINT64_FORMAT
                " GROUP BY name ORDER BY o DESC LIMIT 1", gap->end_ns, gap->start_ns, gap->pid, gap->end_ns, gap->start_ns);
              gint64 top = sl_test_db_int (db, cpu_sql);
              if (gap->n_cpu > 0)
                g_assert_cmpint (gap->cpu[0].overlap_ns, ==, top);
              else
                g_assert_cmpint (top, ==, 0);
            }

          /* overlap: unions of NCCL and other kernels of this device */
          {
            g_autofree char *nccl_sql = g_strdup_printf ("SELECT start, end FROM t_gpu WHERE kind = 0 AND device = %u "
                                                         "AND name LIKE '%%nccl%%' ORDER BY start", dev->device);
            g_autofree char *comp_sql = g_strdup_printf ("SELECT start, end FROM t_gpu WHERE kind = 0 AND device = %u "
                                                         "AND name NOT LIKE '%%nccl%%' ORDER BY start", dev->device);
            gint64 f1, l1;
            gint64 nccl = union_of (db, nccl_sql, NULL, &f1, &l1);
            gint64 comp = union_of (db, comp_sql, NULL, &f1, &l1);
            gboolean found = FALSE;
            for (guint o = 0; o < overlap->n_devices; o++)
              if (overlap->devices[o].device == dev->device)
                {
                  g_assert_cmpint (overlap->devices[o].nccl_ns, ==, nccl);
                  g_assert_cmpint (overlap->devices[o].compute_ns, ==, comp);
                  g_assert_cmpint (overlap->devices[o].overlap_ns, ==, 0);
                  found = TRUE;
                }
            g_assert_true (found || nccl + comp == 0);
          }
        }
      sqlite3_close (db);
    }
}

/* Window and GPU filters: only operations starting inside count. */
static void
test_filters (void)
{
  const SlTestFixture *f = sl_test_fixture ("gaps", FIXTURE_ARGS);
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlFilter) filter = sl_filter_new ();
  sqlite3 *db = sl_test_db_open (f->path);
  gint64 lo, hi;

  sl_test_db_prepare (db);
  lo = sl_test_db_int (db, "SELECT min(start) FROM t_gpu");
  hi = sl_test_db_int (db, "SELECT max(start) FROM t_gpu");
  sl_filter_add_gpu (filter, 1);
  sl_filter_set_range (filter, lo + (hi - lo) / 3, lo + 2 * (hi - lo) / 3);
  {
    g_autoptr(SlGaps) gaps = sl_gaps_compute_full (profile, filter, 0, 5, TRUE);
    g_autofree char *sql = g_strdup_printf ("SELECT start, end FROM t_gpu WHERE device = 1 AND start >= %"
                                            G_GINT64_FORMAT " AND start < %" G_GINT64_FORMAT " ORDER BY start",
                                            filter->range_start, filter->range_end);
    gint64 first, last, busy = union_of (db, sql, NULL, &first, &last);

    g_assert_cmpuint (gaps->n_devices, ==, 1);
    g_assert_cmpuint (gaps->devices[0].device, ==, 1);
    g_assert_cmpint (gaps->devices[0].busy_ns, ==, busy);
    g_assert_cmpint (gaps->devices[0].span_ns, ==, last - first);
  }
  {
    g_autoptr(SlFilter) none = sl_filter_new ();
    g_autoptr(SlGaps) gaps = NULL;
    g_autoptr(SlOverlap) overlap = NULL;
    sl_filter_add_gpu (none, 77);
    gaps = sl_gaps_compute (profile, none, 0, 5);
    overlap = sl_overlap_compute (profile, none);
    g_assert_cmpuint (gaps->n_devices, ==, 0);
    g_assert_cmpuint (overlap->n_devices, ==, 0);
  }
  sqlite3_close (db);
}

/* A GPU that copies most of the time: the timeline strip's bins hold kernel
 * time only, and with count_copies any work, as the planted unions. */
static void
test_busy_bins (void)
{
  const SlTestFixture *f = sl_test_fixture ("copy-heavy", "--gpus 2 --streams 2 --iterations 5 --kernels 200 "
                                            "--copy-ns 40000000 --memcpy 10 --memset 4 --seed 3");
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  guint n = 1000;
  g_autofree float *bins = g_new (float, n);

  for (guint d = 0; d < 2; d++)
    {
      JsonObject *t = truth_gpu (f, d);
      gint64 t0 = json_object_get_int_member (t, "start_ns");
      double bin_ns = (double) json_object_get_int_member (t, "span_ns") / n;
      double sum = 0;

      sl_gpu_busy_bins (profile, d, FALSE, t0, bin_ns, n, bins);
      for (guint i = 0; i < n; i++)
        sum += bins[i];
      g_assert_cmpfloat (fabs (sum * bin_ns - json_object_get_int_member (t, "kernel_busy_ns")), <, 1000);
      g_assert_cmpfloat (sum / n, <, 0.05);   /* ~3 % compute */
      sl_gpu_busy_bins (profile, d, TRUE, t0, bin_ns, n, bins);
      sum = 0;
      for (guint i = 0; i < n; i++)
        sum += bins[i];
      g_assert_cmpfloat (fabs (sum * bin_ns - json_object_get_int_member (t, "busy_ns")), <, 1000);
    }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/gaps/generated", test_gaps_generated);
  g_test_add_func ("/analysis/gaps/filters", test_filters);
  g_test_add_func ("/analysis/overlap/generated", test_overlap_generated);
  g_test_add_func ("/analysis/nccl/generated", test_nccl_generated);
  g_test_add_func ("/analysis/nccl/collective-names", test_collective_names);
  g_test_add_func ("/analysis/gaps/real", test_real);
  g_test_add_func ("/analysis/gaps/busy-bins", test_busy_bins);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
