/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-categories.c: rule sets (default, our JSON, gputrc2graph JSON) and the
 * categories analysis on generated and real profiles. */
#include <string.h>
#include <glib/gstdio.h>

#include "sl-test-util.h"

static const char *
classify (const SlCategories *c, const char *name)
{
  return sl_categories_get_name (c, sl_categories_classify (c, name));
}

static void
test_default (void)
{
  const SlCategories *c = sl_categories_get_default ();
  static const char *expected_order[] = {
    "gemm", "attention", "communication", "elementwise", "normalization", "softmax",
    "reduction", "optimizer", "moe", "memory", "triton", "other",
  };
  static const struct { const char *name, *category; } known[] = {
    { "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", "gemm" },
    { "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_NTT", "gemm" },
    { "ampere_bf16_s16816gemm_bf16_128x256_ldg8_f2f_stages_64x3_tn", "gemm" },
    { "cutlass_80_tensorop_f16_s16816gemm_relu_f16_256x128_32x3_nn_align8", "gemm" },
    { "flash_fwd_kernel", "attention" },
    { "fmha_cutlassF_f16_aligned_64x64_rf_sm80", "attention" },
    { "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "communication" },
    { "ncclKernel_AllGather_RING_LL_Sum_int8_t", "communication" },
    { "cross_device_reduce_1stage", "communication" },
    { "vectorized_elementwise_kernel", "elementwise" },
    { "act_and_mul_kernel", "elementwise" },
    { "rmsnorm_fwd_tuned_kernel", "normalization" },
    { "cuApplyLayerNorm", "normalization" },
    { "softmax_warp_forward", "softmax" },
    { "reduce_kernel", "reduction" },
    { "multi_tensor_apply_kernel", "optimizer" },
    { "fused_moe_kernel", "moe" },
    { "CatArrayBatchedCopy_vectorized", "memory" },
    { "vectorized_gather_kernel", "memory" },
    { "triton_poi_fused_add_mul_0", "triton" },
    { "triton_red_fused__to_copy_add_mean_pow_rsqrt_0", "triton" },
    { "nvfuser_none_f0_c0_r0_g0", "other" },
    { "", "other" },
  };

  g_assert_nonnull (c);
  g_assert_true (c == sl_categories_get_default ());
  g_assert_cmpuint (sl_categories_get_n_categories (c), ==, G_N_ELEMENTS (expected_order));
  for (gsize i = 0; i < G_N_ELEMENTS (expected_order); i++)
    g_assert_cmpstr (sl_categories_get_name (c, i), ==, expected_order[i]);
  g_assert_cmpstr (sl_categories_get_name (c, sl_categories_get_other (c)), ==, "other");
  for (gsize i = 0; i < G_N_ELEMENTS (known); i++)
    {
      if (g_strcmp0 (classify (c, known[i].name), known[i].category) != 0)
        g_error ("%s: got %s, want %s", known[i].name, classify (c, known[i].name), known[i].category);
    }
  /* invalid UTF-8 is classified, not rejected */
  g_assert_cmpstr (classify (c, "nccl\xff\xfe"), ==, "communication");
}

/* Every (short, demangled) kernel name pair of the real profiles. */
static GHashTable *
real_name_pairs (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();
  GHashTable *pairs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint p = 0; paths[p] != NULL; p++)
    {
      sqlite3 *db = sl_test_db_open (paths[p]);
      sqlite3_stmt *st = NULL;

      if (sl_test_db_has_table (db, "CUPTI_ACTIVITY_KIND_KERNEL"))
        {
          g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT DISTINCT s.value, d.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                                   "JOIN StringIds s ON s.id = k.shortName "
                                                   "JOIN StringIds d ON d.id = k.demangledName", -1, &st, NULL), ==, SQLITE_OK);
          while (sqlite3_step (st) == SQLITE_ROW)
            g_hash_table_add (pairs, g_strconcat ((const char *) sqlite3_column_text (st, 0), "\t",
                                                  (const char *) sqlite3_column_text (st, 1), NULL));
          sqlite3_finalize (st);
        }
      sqlite3_close (db);
    }
  return pairs;
}

/* Issue 9 item 7: analysis/tests/kernel-categories.tsv holds every kernel
 * name pair of the real profiles (and cuDNN families from other captures)
 * with the category a GPU engineer gives it; the default rules agree. */
static void
test_default_real_names (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("SL_SOURCE_DIR"), "analysis", "tests",
                                            "kernel-categories.tsv", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GHashTable) pairs = real_name_pairs ();
  g_autoptr(GString) wrong = g_string_new (NULL);
  const SlCategories *c = sl_categories_get_default ();
  guint n = 0, n_real = 0, n_wrong = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], "\t", 4);
      const char *got;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      g_assert_cmpuint (g_strv_length (f), ==, 4);
      n++;
      if (g_str_has_suffix (f[1], ".sqlite"))
        {
          g_autofree char *key = g_strconcat (f[2], "\t", f[3], NULL);
          /* a row said to come from the profiles must be there, once */
          if (!g_hash_table_remove (pairs, key))
            g_error ("%s: %s is in no real profile (or twice in the table)", path, f[2]);
          n_real++;
        }
      got = sl_categories_get_name (c, sl_categories_classify_names (c, f[2], f[3]));
      if (!g_str_equal (got, f[0]))
        {
          n_wrong++;
          g_string_append_printf (wrong, "  %s: got %s, want %s (%.100s)\n", f[2], got, f[0], f[3]);
        }
    }
  if (wrong->len > 0)
    g_error ("default categories disagree on %u of %u kernel names:\n%s", n_wrong, n, wrong->str);
  g_assert_cmpuint (n, >=, 60);
  g_assert_cmpuint (n_real, >=, 50);
  /* and no pair of the profiles is missing from the table */
  g_assert_cmpuint (g_hash_table_size (pairs), ==, 0);
}

/* data/categories.json, the installed copy, is the compiled-in rule set. */
static void
test_data_file (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("SL_SOURCE_DIR"), "data", "categories.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlCategories) c = sl_categories_new_from_file (path, NULL, &error);
  const SlCategories *d = sl_categories_get_default ();

  g_assert_no_error (error);
  g_assert_cmpuint (sl_categories_get_n_rules (c), ==, sl_categories_get_n_rules (d));
  g_assert_cmpuint (sl_categories_get_n_categories (c), ==, sl_categories_get_n_categories (d));
  g_assert_cmpuint (sl_categories_get_n_rules (c), >=, 10);
}

static void
test_first_match_wins (void)
{
  const char *json = "{\"rules\": [{\"pattern\": \"gemm\", \"category\": \"matmul\"},"
                     " {\"pattern\": \"(?i)GEMM|flash\", \"category\": \"late\"},"
                     " {\"pattern\": \"^x\", \"category\": \"matmul\"}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(SlCategories) c = sl_categories_new_from_data (json, -1, NULL, "test", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (sl_categories_get_n_categories (c), ==, 3);
  g_assert_cmpstr (classify (c, "my_gemm_kernel"), ==, "matmul");
  g_assert_cmpstr (classify (c, "MY_GEMM"), ==, "late");
  g_assert_cmpstr (classify (c, "flash_fwd"), ==, "late");
  g_assert_cmpstr (classify (c, "xyz"), ==, "matmul");
  g_assert_cmpstr (classify (c, "abc"), ==, "other");
  g_assert_cmpuint (sl_categories_lookup (c, "late"), ==, 1);
  g_assert_cmpuint (sl_categories_lookup (c, "nope"), ==, G_MAXUINT);
}

/* The shape of vLLM's tools/profiler/nsys_profile_tools/vllm_engine_model.json:
 * engine -> model -> ordered {regex: category}, ending with ".*" -> misc. */
static const char *vllm_json =
  "{\n"
  "  \"vllm\": {\n"
  "    \"llama\": {\n"
  "      \"fused_moe_kernel|GroupProblemShape\": \"moe_gemm\",\n"
  "      \"gemm|nvjet\": \"gemm\",\n"
  "      \"ncclDevKernel|cross_device_reduce\": \"nccl_and_custom_ar\",\n"
  "      \"_norm_|Norm\": \"norm\",\n"
  "      \"flash|fmha\": \"attn\",\n"
  "      \".*\": \"misc\"\n"
  "    },\n"
  "    \"ds\": {\n"
  "      \".*\": \"misc\",\n"
  "      \"gemm\": \"never\"\n"
  "    }\n"
  "  },\n"
  "  \"sglang\": { \"llama\": { \"gemm\": \"g\" } }\n"
  "}\n";

static void
test_vllm (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlCategories) llama = sl_categories_new_from_data (vllm_json, -1, "vllm/llama", "v.json", &error);
  g_autoptr(SlCategories) ds = NULL;
  g_autoptr(SlCategories) missing = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (classify (llama, "fused_moe_kernel_gemm"), ==, "moe_gemm");
  g_assert_cmpstr (classify (llama, "nvjet_tst_192x192"), ==, "gemm");
  g_assert_cmpstr (classify (llama, "ncclDevKernel_AllReduce"), ==, "nccl_and_custom_ar");
  g_assert_cmpstr (classify (llama, "rmsNorm"), ==, "norm");
  g_assert_cmpstr (classify (llama, "anything"), ==, "misc");
  /* patterns are case-sensitive, as in gputrc2graph (re.search) */
  g_assert_cmpstr (classify (llama, "GEMM"), ==, "misc");
  /* gputrc2graph searches the demangled name only: the short name would
   * meet ".*" first (issue 9, item 10) */
  g_assert_true (sl_categories_is_gputrc2graph (llama));
  g_assert_cmpstr (sl_categories_get_engine (llama), ==, "vllm");
  g_assert_cmpstr (sl_categories_get_model (llama), ==, "llama");
  g_assert_cmpstr (sl_categories_get_name (llama, sl_categories_classify_names (llama, "computeOffsetsKernel",
                   "void cudnn::gemm::computeOffsetsKernel<float, float>(cudnn::gemm::ComputeOffsetsParams)")), ==, "gemm");
  g_assert_cmpstr (sl_categories_get_name (llama, sl_categories_classify_names (llama, "flash_fwd", NULL)), ==, "attn");
  g_assert_cmpstr (classify (llama, ""), ==, "misc");

  /* order is the file's: ".*" first swallows everything */
  ds = sl_categories_new_from_data (vllm_json, -1, "ds", "v.json", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (classify (ds, "gemm"), ==, "misc");

  /* "llama" exists under two engines: ambiguous without the engine */
  missing = sl_categories_new_from_data (vllm_json, -1, "llama", "v.json", &error);
  g_assert_null (missing);
  g_assert_error (error, SL_CATEGORIES_ERROR, SL_CATEGORIES_ERROR_MODEL);
  g_clear_error (&error);
  missing = sl_categories_new_from_data (vllm_json, -1, "gpt-oss", "v.json", &error);
  g_assert_null (missing);
  g_assert_error (error, SL_CATEGORIES_ERROR, SL_CATEGORIES_ERROR_MODEL);
  g_assert_nonnull (strstr (error->message, "vllm/ds"));
  g_clear_error (&error);
  missing = sl_categories_new_from_data (vllm_json, -1, NULL, "v.json", &error);
  g_assert_null (missing);
  g_assert_error (error, SL_CATEGORIES_ERROR, SL_CATEGORIES_ERROR_MODEL);
}

/* The mapping CSV prints seconds as Python does (values from python3's repr and round). */
static void
test_python_floats (void)
{
  static const struct { double value; const char *repr; } reprs[] = {
    { 0.0, "0.0" }, { 1.0, "1.0" }, { 6.4727e-05, "6.4727e-05" }, { 0.031121662, "0.031121662" },
    { 1e16, "1e+16" }, { 123456.789, "123456.789" }, { 0.0001, "0.0001" }, { 1e-07, "1e-07" },
    { 1.5e-10, "1.5e-10" }, { 100.0, "100.0" }, { 12345678901234567.0, "1.2345678901234568e+16" },
    { 0.1 + 0.2, "0.30000000000000004" }, { -2.5, "-2.5" },
  };
  static const struct { double value, rounded; } rounds[] = {
    { 0.25, 0.2 }, { 0.35, 0.3 }, { 2.675, 2.7 }, { 0.05, 0.1 }, { 0.15, 0.1 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (reprs); i++)
    {
      g_autofree char *text = sl_python_float_repr (reprs[i].value);
      g_assert_cmpstr (text, ==, reprs[i].repr);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (rounds); i++)
    g_assert_cmpfloat (sl_python_round1 (rounds[i].value), ==, rounds[i].rounded);
}

static void
test_bad_rules (void)
{
  static const struct { const char *json; int code; } cases[] = {
    { "not json", SL_CATEGORIES_ERROR_PARSE },
    { "[1, 2]", SL_CATEGORIES_ERROR_PARSE },
    { "{\"rules\": [{\"pattern\": \"(unclosed\", \"category\": \"x\"}]}", SL_CATEGORIES_ERROR_REGEX },
    { "{\"rules\": [{\"pattern\": 3, \"category\": \"x\"}]}", SL_CATEGORIES_ERROR_PARSE },
    { "{\"rules\": [\"gemm\"]}", SL_CATEGORIES_ERROR_PARSE },
    { "{\"vllm\": {\"m\": {\"gemm\": 1}}}", SL_CATEGORIES_ERROR_PARSE },
    { "{\"vllm\": 3}", SL_CATEGORIES_ERROR_PARSE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SlCategories) c = sl_categories_new_from_data (cases[i].json, -1, NULL, "bad.json", &error);
      g_assert_null (c);
      g_assert_error (error, SL_CATEGORIES_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, "bad.json"));
    }
}

/* Generated profile: the truth's per-name totals, mapped to categories by a
 * table written here, give each category's time and count. */
static void
test_summary_generated (void)
{
  static const struct { const char *prefix, *category; } map[] = {
    { "ampere_bf16_s16816gemm", "gemm" }, { "nvjet_", "gemm" }, { "sm90_xmma_gemm", "gemm" },
    { "flash_", "attention" }, { "ncclDevKernel", "communication" },
    { "vectorized_elementwise", "elementwise" }, { "elementwise_kernel", "elementwise" },
    { "unrolled_elementwise", "elementwise" }, { "rmsnorm_", "normalization" },
    { "softmax_", "softmax" }, { "reduce_kernel", "reduction" }, { "multi_tensor_apply", "optimizer" },
  };
  const SlTestFixture *f = sl_test_fixture ("cat", "--gpus 2 --streams 2 --iterations 4 --kernels 4000 --nccl --seed 11");
  g_autoptr(SlProfile) profile = sl_test_load (f->path);
  g_autoptr(SlCategorySummary) s = sl_category_summary_compute (profile, NULL, NULL, SL_NAMES_SHORT, 3);
  g_autoptr(GHashTable) want_total = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GHashTable) want_n = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  JsonArray *names = json_object_get_array_member (f->truth, "kernel_names");
  gint64 all = 0;

  for (guint i = 0; i < json_array_get_length (names); i++)
    {
      JsonObject *o = json_array_get_object_element (names, i);
      const char *name = json_object_get_string_member (o, "short_name");
      const char *category = NULL;
      gint64 *t, *n;

      for (gsize m = 0; m < G_N_ELEMENTS (map) && category == NULL; m++)
        if (g_str_has_prefix (name, map[m].prefix))
          category = map[m].category;
      if (category == NULL)
        g_error ("the test's table lacks %s", name);
      t = g_hash_table_lookup (want_total, category);
      n = g_hash_table_lookup (want_n, category);
      if (t == NULL)
        {
          t = g_new0 (gint64, 1);
          n = g_new0 (gint64, 1);
          g_hash_table_insert (want_total, (gpointer) category, t);
          g_hash_table_insert (want_n, (gpointer) category, n);
        }
      *t += json_object_get_int_member (o, "total_ns");
      *n += json_object_get_int_member (o, "instances");
      all += json_object_get_int_member (o, "total_ns");
    }

  g_assert_cmpint (s->total_ns, ==, all);
  g_assert_cmpuint (s->n_rows, ==, g_hash_table_size (want_total));
  for (guint r = 0; r < s->n_rows; r++)
    {
      gint64 *t = g_hash_table_lookup (want_total, s->rows[r].name);
      gint64 *n = g_hash_table_lookup (want_n, s->rows[r].name);
      g_assert_nonnull (t);
      g_assert_cmpint (s->rows[r].total_ns, ==, *t);
      g_assert_cmpint ((gint64) s->rows[r].instances, ==, *n);
      if (r > 0)
        g_assert_cmpint (s->rows[r - 1].total_ns, >=, s->rows[r].total_ns);
      g_assert_cmpuint (s->rows[r].n_top, <=, 3);
    }
}

/* Real profiles: categories against LIKE queries on the kernel names. */
static void
test_summary_real (void)
{
  g_auto(GStrv) paths = sl_test_real_profiles ();

  for (guint p = 0; paths[p] != NULL; p++)
    {
      g_autoptr(SlProfile) profile = sl_test_load (paths[p]);
      g_autoptr(SlCategorySummary) s = sl_category_summary_compute (profile, NULL, NULL, SL_NAMES_SHORT, 5);
      sqlite3 *db = sl_test_db_open (paths[p]);
      gint64 sum = 0;

      sl_test_db_prepare (db);
      g_assert_cmpint (s->total_ns, ==, sl_test_db_int (db, "SELECT coalesce(sum(end - start), 0) FROM t_gpu WHERE kind = 0"));
      for (guint r = 0; r < s->n_rows; r++)
        {
          sum += s->rows[r].total_ns;
          if (g_str_equal (s->rows[r].name, "gemm"))
            g_assert_cmpint (s->rows[r].total_ns, ==,
                             sl_test_db_int (db, "SELECT sum(end - start) FROM t_gpu WHERE kind = 0 AND "
                                                 "(name LIKE '%gemm%' OR name LIKE 'nvjet%')"));
          if (g_str_equal (s->rows[r].name, "softmax"))
            g_assert_cmpint (s->rows[r].total_ns, ==,
                             sl_test_db_int (db, "SELECT sum(end - start) FROM t_gpu WHERE kind = 0 AND name LIKE '%softmax%'"));
          if (g_str_equal (s->rows[r].name, "reduction"))
            g_assert_cmpint (s->rows[r].total_ns, ==,
                             sl_test_db_int (db, "SELECT sum(end - start) FROM t_gpu WHERE kind = 0 AND name = 'reduce_kernel'"));
        }
      g_assert_cmpint (sum, ==, s->total_ns);
      sqlite3_close (db);
    }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/categories/default", test_default);
  g_test_add_func ("/analysis/categories/data-file", test_data_file);
  g_test_add_func ("/analysis/categories/default-real-names", test_default_real_names);
  g_test_add_func ("/analysis/categories/first-match-wins", test_first_match_wins);
  g_test_add_func ("/analysis/categories/gputrc2graph", test_vllm);
  g_test_add_func ("/analysis/categories/bad-rules", test_bad_rules);
  g_test_add_func ("/analysis/categories/python-floats", test_python_floats);
  g_test_add_func ("/analysis/categories/summary-generated", test_summary_generated);
  g_test_add_func ("/analysis/categories/summary-real", test_summary_real);
  status = g_test_run ();
  sl_test_cleanup ();
  return status;
}
