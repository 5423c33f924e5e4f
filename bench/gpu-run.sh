#!/usr/bin/env bash
# The one GPU batch: every GPU test and benchmark, with logs and result files written to $OUT (default ./gpu-out).
# Runs on the GPU machine over a build made on the build machine (the build folder travels along).
#   bench/gpu-run.sh [build-dir] [quick|full]
#     quick: tests, SASS, and tune + bench + cold start on bench/shapes/quick.csv (1024^3, 4096^3, 4097^3)
#     full:  the same over every row of bench/shapes/public.csv
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
MODE=${2:-quick}
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
log="$OUT/bench.log"
stamp() { echo "=== $(date -u +%FT%TZ) $*" | tee -a "$log"; }

stamp "machine ($MODE)"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv; \
  "$BUILD/jitgemm" info; } 2>&1 | tee -a "$log"

stamp "SASS of the register-blocked kernel (cubins made on the build machine by dump_cubin)"
for f in "$BUILD"/sass/*.cubin; do
    [ -e "$f" ] || continue
    echo "--- $f" >> "$OUT/sass.txt"
    cuobjdump --dump-resource-usage "$f" >> "$OUT/sass.txt" 2>&1
    echo "instruction counts:" >> "$OUT/sass.txt"
    cuobjdump --dump-sass "$f" 2>&1 | \
        grep -oE '\b(FFMA|LDS(\.[0-9A-Z]+)*|STS(\.[0-9A-Z]+)*|LDG(\.[0-9A-Z]+)*|STG(\.[0-9A-Z]+)*|LDL(\.[0-9A-Z]+)*|STL(\.[0-9A-Z]+)*|BAR(\.[0-9A-Z]+)*)\b' | \
        sort | uniq -c >> "$OUT/sass.txt"
done
grep -E "^---|REG|LDL|STL" "$OUT/sass.txt" | tee -a "$log"

stamp "GPU tests"
ctest --test-dir "$BUILD" -L gpu --output-on-failure --timeout 300 > "$OUT/gpu-tests.log" 2>&1
echo "ctest -L gpu exit $?" | tee -a "$log"
grep -E "Test +#|tests passed|FAILED" "$OUT/gpu-tests.log" | tee -a "$log"

stamp "compute-sanitizer memcheck on tails and transposes"
for cfg in naive_16x16 tiled_t16 regblock_128x128x8_t8x8_v4_s2_g8 regblock_64x64x16_t4x4_v4_s1_g4; do
    compute-sanitizer --tool memcheck --error-exitcode 9 "$BUILD/jitgemm" run --m 131 --n 77 --k 45 \
        --transa t --transb t --beta 0.5 --ldc 140 --iterations 1 --config "$cfg" 2>&1 | \
        grep -E "ERROR SUMMARY|check" | sed "s/^/$cfg: /" | tee -a "$log"
done

# Fresh tuning caches for the benchmarks, so every search below starts from nothing.
export JITGEMM_CACHE=/tmp/jitgemm-bench-cache
rm -rf "$JITGEMM_CACHE" /tmp/jitgemm-default-cache
if [ "$MODE" = full ]; then
    manifest=bench/shapes/public.csv
else
    manifest=bench/shapes/quick.csv
fi

stamp "jitgemm info (measures the ceilings once, keeps them in the cache)"
"$BUILD/jitgemm" info 2>&1 | tee -a "$log"

stamp "register-blocked fp32 against cuBLAS SGEMM: heuristic default (untuned)"
JITGEMM_CACHE=/tmp/jitgemm-default-cache "$BUILD/jitgemm" bench --manifest bench/shapes/quick.csv --tune off \
    --csv "$OUT/bench_default.csv" 2>&1 | tee -a "$log"

stamp "jitgemm tune of $manifest (10 s budget per problem)"
"$BUILD/jitgemm" tune --manifest "$manifest" --budget 10 --json > "$OUT/tune.json" 2> >(tee -a "$log" >&2)
echo "tune exit $?" | tee -a "$log"

stamp "tuned fp32 against cuBLAS SGEMM, served from the cache"
"$BUILD/jitgemm" bench --manifest "$manifest" --tune off --csv "$OUT/bench_tuned.csv" --json "$OUT/bench_tuned.json" \
    2>&1 | tee -a "$log"

stamp "cold start from the cache in a new process"
dims=$(grep -vE '^(#|name,)' "$manifest" | cut -d, -f2-4 | tr , x | tr '\n' ' ')
# shellcheck disable=SC2086
"$BUILD/bench/cold_start" --csv "$OUT/cold_start.csv" $dims 2>&1 | tee -a "$log"

stamp "hot-path overhead"
"$BUILD/bench/hot_path_overhead" --csv "$OUT/hot_path.csv" 2>&1 | tee -a "$log"
stamp "done"
