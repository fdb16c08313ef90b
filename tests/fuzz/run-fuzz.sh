#!/bin/sh
# Fuzzes the profile loader with libFuzzer (clang) under ASan+UBSan for a
# bounded time.  Usage: tests/fuzz/run-fuzz.sh [SECONDS] (default 60).
# Crashing inputs land in tests/fuzz/crashes/; once fixed, move them to
# tests/fuzz/regressions/ so every test run replays them.
set -eu
seconds=${1:-60}
top=$(cd "$(dirname "$0")/../.." && pwd)
build="$top/build-fuzz"
work="${TMPDIR:-/tmp}/sightline-fuzz"
mkdir -p "$work/corpus" "$top/tests/fuzz/crashes"

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
    if os.path.exists(out):
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
cp "$top"/tests/fuzz/regressions/* "$work/corpus/" 2>/dev/null || true

"$build/tests/fuzz/fuzz-loader" "$work/corpus" -max_total_time="$seconds" -max_len=400000 \
  -artifact_prefix="$top/tests/fuzz/crashes/" -print_final_stats=1 -timeout=20 -rss_limit_mb=4096
