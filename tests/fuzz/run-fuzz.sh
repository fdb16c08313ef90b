#!/bin/sh
# Fuzzes the profile loader with libFuzzer (clang) under ASan+UBSan for a
# bounded time.  Usage: tests/fuzz/run-fuzz.sh [SECONDS] (default 60).
# Crashing inputs land in tests/fuzz/crashes/; once fixed, move them to
# tests/fuzz/regressions/ so every test run replays them.
#
# The meson test 'fuzz-loader' runs it in CI with, in the environment:
#   SL_FUZZ_BUILD      the clang build folder (default: build-fuzz/ in the tree)
#   SL_FUZZ_WORK       where the seed corpus is made (default: $TMPDIR/sightline-fuzz)
#   SL_FUZZ_ARTIFACTS  where crashing inputs go (default: tests/fuzz/crashes/)
#   SL_GEN             sightline-gen, for the hostile-SQLite seeds (optional)
# and exits 77 (skipped) when clang or libFuzzer is missing.
set -eu
seconds=${1:-60}
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${SL_FUZZ_BUILD:-"$top/build-fuzz"}
work=${SL_FUZZ_WORK:-"${TMPDIR:-/tmp}/sightline-fuzz"}
artifacts=${SL_FUZZ_ARTIFACTS:-"$top/tests/fuzz/crashes"}
mkdir -p "$work/corpus" "$artifacts"

# libFuzzer ships with clang on Debian (libclang-rt-14-dev); without it, skip.
probe="$work/probe"
if ! command -v clang >/dev/null 2>&1 ||
   ! printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' |
     clang -fsanitize=fuzzer,address -x c - -o "$probe" >/dev/null 2>&1; then
  echo "clang with libFuzzer is not installed: skipped"
  exit 77
fi
rm -f "$probe"

if [ ! -f "$build/build.ninja" ]; then
  CC=clang meson setup "$build" "$top" -Dgui=false -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false -Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all" \
    -Dbuildtype=debugoptimized >/dev/null
fi
ninja -C "$build" tests/fuzz/fuzz-loader >/dev/null

# Seeds: small real exports, shrunk to 512-byte pages so mutations reach
# every b-tree, plus the regression inputs.
python3 - "$top/../shared/profiles" "$work/corpus" <<'PY'
import os, shutil, sqlite3, sys
src, dst = sys.argv[1], sys.argv[2]
for name in ("nsysai-mock-rtx3080.sqlite", "pipit-saxpy-mpi-rank0.sqlite", "fuser-report2-h100.sqlite"):
    out = os.path.join(dst, "seed-" + name)
    if os.path.exists(out) or not os.path.exists(os.path.join(src, name)):
        continue
    shutil.copy(os.path.join(src, name), out)
    db = sqlite3.connect(out)
    keep = {"StringIds", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY",
            "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS", "TARGET_INFO_GPU",
            "META_DATA_EXPORT", "EXPORT_META_DATA", "ThreadNames"}
    for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
        if t not in keep:
            db.execute(f'DROP TABLE "{t}"')
    db.execute("DELETE FROM StringIds WHERE id NOT IN (SELECT nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME) AND id NOT IN (SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL) AND id NOT IN (SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL)") if db.execute("SELECT count(*) FROM sqlite_master WHERE name='CUPTI_ACTIVITY_KIND_KERNEL'").fetchone()[0] else None
    db.commit()
    db.execute("PRAGMA page_size=512")
    db.execute("VACUUM")
    db.close()
PY
# The hostile-SQLite matrix (page sizes, auto-vacuum, overflow, odd types,
# views, WITHOUT ROWID, UTF-16 ...) as single files.
if [ -n "${SL_GEN:-}" ] && ! ls "$work/corpus"/hostile-* >/dev/null 2>&1; then
  python3 "$top/analysis/tests/test-hostile-sqlite.py" --corpus "$work/corpus" "$SL_GEN"
fi
cp "$top"/tests/fuzz/regressions/* "$work/corpus/" 2>/dev/null || true
echo "corpus: $(ls "$work/corpus" | wc -l) files; fuzzing for $seconds s"

"$build/tests/fuzz/fuzz-loader" "$work/corpus" -max_total_time="$seconds" -max_len=400000 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 -timeout=20 -rss_limit_mb=4096 \
  -error_exitcode=1 -timeout_exitcode=1
