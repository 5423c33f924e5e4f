#!/usr/bin/env bash
# The one GPU batch: every GPU test and benchmark, with logs and result files written to $OUT (default ./gpu-out).
# Runs on the GPU machine over a build made on the build machine (the build folder travels along: the whole folder is
# ~60 MiB, near the device tool's 64 MiB, so carry what the batch runs — build/CTestTestfile.cmake, build/tests,
# build/bench, build/jitgemm, build/jitgemm-compile-worker, and build/libjitgemm.a and build/generated, which the
# Python package's tests build against (3 MB; without the generated headers their CMake step fails) — and an old
# build's jitgemm beside them for compare/fixed).
#   bench/gpu-run.sh [build-dir] [quick|full|tests|bench|targets] [tune-budget-seconds] [sets]
#     tests: machine, SASS, GPU tests, compute-sanitizer
#     quick: tests, then per precision the untuned default and the tuned kernels against cuBLAS on the quick rows
#            (bench/shapes/quick.csv for fp32, bench/shapes/quick_tensor.csv for bf16, fp16 and TF32), cold start
#            and hot-path overhead
#     full:  tests, then tune and bench every row of bench/shapes/public*.csv in the sets named (default
#            "f32 bf16 f16 tf32"; one device call may not hold them all), without the untuned runs
#     bench: as full, without the tests
#     compare: the previous build against this one ($OLD names its folder, holding its jitgemm, dump_cubin and
#            hot_path_overhead): SASS of the main kernels side by side, the hot path of both, then per set in $SETS
#            both builds tune the public rows ($BUDGET s each, fresh caches) and bench them against cuBLAS, one build
#            after the other (bench_<set>_old.csv, bench_<set>_new.csv)
#     fixed: the previous build ($OLD) against this one with fixed configurations (rows "m n k dtype compute
#            config", or "m n k dtype transa transb config [compute]", in $FIXED_ROWS, default
#            bench/shapes/fixed_compare.txt), $ROUNDS alternating rounds (default 3)
#     hopper: the wgmma family — SASS, correctness tests, sanitizers, fixed configurations against cuBLAS, and the
#            manifests named in $SETS_HOPPER tuned ($BUDGET s) after their untuned default
#     decode: the decode family — kernel resources, correctness tests, sanitizers, fixed configurations against
#            cuBLAS, and the manifests named in $SETS_DECODE (default decode_targets) untuned and tuned ($BUDGET s)
#            (hopper and decode: where $NCU_ROWS names a file of fixed rows, ncu's view of each after the fixed ones)
#     batched: every GPU test, compute-sanitizer on batched calls, the batched manifests ($SETS_BATCHED, default
#            batched_targets) untuned and tuned against cublasGemmStridedBatchedEx
#     newpaths: C through the TMA (wgmma _ts) and regblock split-K — SASS, correctness tests, sanitizers, fixed
#            configurations with and without each ($FIXED_ROWS, default bench/shapes/store_split_fixed.txt), then the
#            manifests of $SETS_NEW (default "batched_targets batched_decode simt_split_targets") untuned and tuned
#     runtime: run-time-shape variants — every GPU test and memcheck on variant sweeps ($PARTS tests), the M sweep
#            of bench/shapes/m_sweep*.csv against cuBLAS and against exact tuning ($PARTS sweep)
#     roof: the read roof at the decode weights' sizes (bench/read_roof: the fastest read of N bytes, timed as the
#            GEMMs are), $ROOF_SIZES
#     rows: (the GPU tests of $ROW_TESTS and compute-sanitizer on the rows of $SANITIZE_ROWS where set) fixed
#            configurations against cuBLAS — the rows "m n k dtype transa transb config [batch [compute]]"
#            (column-major; the dtype "f16:f32" names C's type after the colon) of each file in $ROWS, $ROUNDS rounds
#            (default 2), then the manifests named in $UNTUNED untuned (bench_<set>_default.csv) and those named in
#            $TUNED untuned and tuned ($BUDGET s each; bench_<set>_tuned.csv), then ncu's view of each row of
#            $NCU_ROWS where set (with $NCU_SOURCE set, instruction by instruction as well: ncu_source_<row>.csv;
#            $NCU_KERNELS, a regex, and $NCU_LAUNCHES widen it from the GEMM's first launch, e.g. to the operand
#            packs before it), and of the kernels cuBLAS runs for each row of $NCU_CUBLAS_ROWS (name, grid, cluster,
#            time), then (where $LD_SWEEP names configurations) 4096^3 f16 in nn and tt with each operand's leading
#            dimension 0, 8, 16 and 64 elements past 4096, in each configuration (what an operand off 32-byte sectors
#            or 128-byte lines costs)
#     defaultcmp: an untuned default's change — each row of $DEFAULT_ROWS ("m n k dtype transa transb config-before",
#            column-major) benched with this build's default and with the one before, alternating, then
#            $DEFAULT_MANIFEST untuned
#     searchcmp: search time and quality — bench/shapes/$SEARCH_SET.csv searched with the short budget of
#            $SEARCH_BUDGETS (default "10 60"), then (unless $SEARCH_TWINS_TRIAL is empty) again with
#            JITGEMM_SEARCH_TWINS=all, and (where $SEARCH_TRIAL names environment settings, e.g.
#            "JITGEMM_COMPILE_WORKER=off"; several sets separated by ';') again with each, then with the long budget row by row (all), in fresh
#            caches; each short search against the long one by bench/search_summary.py
#     report: the command's GPU tests (its JSON), then the quick rows tuned and benched as JSON and `jitgemm report`
#            of the cache and those files (report.html)
#     python: the Python package's tests and bench/python_overhead.py (per-call cost; public shapes of $PY_SETS (empty: none),
#            default "bf16 f32")
#     targets: a short batch for issue 5's speed targets — the rows of bench/shapes/tensor_targets.csv (4096^3,
#            and the misaligned rows that take the packed and split-K paths) tuned and against cuBLAS first, then
#            the split-K and Tensor Core correctness tests, compute-sanitizer on packed and split kernels, and
#            ncu's view of where the 777x1111x3333 time goes, with the GEMM's stall reasons, and an nsys timeline
#            of the timed 777 calls where Nsight Systems is installed ($TESTS, a ctest regex, narrows the tests)
# $OUT gets bench.log (everything said, as it runs) and results.tgz: bench_<set>_default.csv,
# bench_<set>_tuned.csv/.json, tune_<set>.json, sass.txt, gpu-tests.log, cold_start.csv, hot_path.csv — packed at
# exit, also when the batch is stopped, since the device tool brings back only a few files.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
MODE=${2:-quick}
BUDGET=${3:-10}
SETS=${4:-f32 bf16 f16 tf32}
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
RES=$(mktemp -d)
trap 'tar czf "$OUT/results.tgz" -C "$RES" . 2>/dev/null' EXIT
trap 'exit 143' TERM INT
export PATH="/usr/local/cuda/bin:$PATH"
# On the GPU machine a skipped GPU test means a broken driver or device: it fails (tests/support/gpu_test_main.cpp),
# and a failed test run fails the batch (its exit status), whatever else the batch then measures.
export JITGEMM_TEST_NO_SKIP=1
status=0
# ctest marks a test whose output says "[  SKIPPED ]" as skipped whatever its exit status (the GPU tests' skip rule
# for machines without a GPU), and skipped tests do not change its own exit status: so a skip is looked for in the
# log as well as a failure.
judge_ctest() {  # judge_ctest EXIT_STATUS LOG
    echo "ctest exit $1" | tee -a "$log"
    [ "$1" = 0 ] || status=1
    if grep -qE '\*\*\*Skipped|tests did not run' "$2"; then
        echo "GPU tests were skipped on the GPU machine: the batch fails" | tee -a "$log"
        status=1
    fi
}
log="$OUT/bench.log"
stamp() { echo "=== $(date -u +%FT%TZ) $*" | tee -a "$log"; }

# The Python package for the GPU machine's python3: the binding compiled there (it has no SQLite or Boost headers to
# build the library) against this build's position-independent libjitgemm.a, staged with python/jitgemm.
python_stage=""
stage_python_package() {
    [ -n "$python_stage" ] && return 0
    python_stage=$(mktemp -d)
    cmake -S python -B "$python_stage/build" -G Ninja -DJITGEMM_PREBUILT_DIR="$PWD/$BUILD" \
        -DPython_EXECUTABLE="$(command -v python3)" && cmake --build "$python_stage/build" \
        && cp -r python/jitgemm "$python_stage/" && cp "$python_stage"/build/_jitgemm*.so "$python_stage/jitgemm/"
}
python_tests() {
    stamp "the Python package's tests against PyTorch and CuPy"
    { stage_python_package && PYTHONPATH="$python_stage" python3 -X faulthandler -m unittest discover -s python/tests -p 'test_*.py' -v; } \
        > "$RES/python-tests.log" 2>&1 || { echo "Python tests failed" | tee -a "$log"; status=1; }
    tail -5 "$RES/python-tests.log" | tee -a "$log"
}
python_bench() {
    stamp "jitgemm.matmul from Python against torch.matmul: per-call cost and the public shapes ($BUDGET s budget)"
    { stage_python_package && PYTHONPATH="$python_stage" python3 bench/python_overhead.py "$RES" "$BUDGET" "${PY_SETS-bf16 f32}"; } \
        2>&1 | tee -a "$log" || status=1
}
if [ "$MODE" = python ]; then
    python_tests
    python_bench
    stamp "done"; exit "$status"
fi

stamp "machine ($MODE, tuning budget $BUDGET s)"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv; \
  "$BUILD/jitgemm" info; } 2>&1 | tee -a "$log"

if [ "$MODE" = compare ]; then
    OLD=${OLD:?compare needs OLD, the folder of the previous build}
    stamp "SASS of the main kernels, previous build (old) and this one (new)"
    while read -r name m n k ta tb config dtype compute; do
        for who in old new; do
            bin="$BUILD/bench/dump_cubin"; c="$config"
            [ "$who" = old ] && bin="$OLD/dump_cubin"
            "$bin" "$RES/$name.$who.cubin" sm_90a "$m" "$n" "$k" "$ta" "$tb" "$c" "$dtype" "$compute" > /dev/null 2>&1
            { echo "--- $name $who ($c)"; cuobjdump --dump-resource-usage "$RES/$name.$who.cubin" 2>&1 | grep -E "REG"; \
              cuobjdump --dump-sass "$RES/$name.$who.cubin" | grep -cE '^\s+/\*[0-9a-f]{4}\*/' | sed 's/^/instructions: /'; \
              cuobjdump --dump-sass "$RES/$name.$who.cubin" | grep -oE '\b(HMMA|LDSM|LDGSTS|LDG|STG|LDL|STL|FFMA|UBLKCP)(\.[0-9A-Z]+)*' | \
                sort | uniq -c | tr '\n' ' '; echo; } >> "$RES/sass_compare.txt" 2>&1
            rm -f "$RES/$name.$who.cubin"
        done
    done <<'EOF'
regblock_f32_4096 4096 4096 4096 n n regblock_128x128x8_t8x8_v4_s2_g8 f32 f32
naive_f32_777 777 1111 3333 n t naive_16x16 f32 f32
tiled_f32_777 777 1111 3333 t n tiled_t16 f32 f32
mma_bf16_4096 4096 4096 4096 n n mma_sync_128x128x32_w2x4_s3_g8 bf16 f32
mma_bf16_777_split 777 1111 3333 n n mma_sync_128x64x64_w2x2_s4_g8_k2_p3_bulk bf16 f32
mma_f16_4097_tt 4097 4097 4097 t t mma_sync_128x256x32_w2x4_s4_g8_p3 f16 f32
mma_tf32_4096 4096 4096 4096 n n mma_sync_128x128x32_w2x4_s3_g8 f32 tf32
mma_bf16_777_streamk 777 1111 3333 n n mma_sync_64x64x16_w2x2_s3_g8_sk264 bf16 f32
EOF
    tee -a "$log" < "$RES/sass_compare.txt"
    stamp "hot path, previous build then this one"
    JITGEMM_CACHE=/tmp/jg-hot-old "$OLD/hot_path_overhead" --csv "$RES/hot_path_old.csv" 2>&1 | tee -a "$log"
    JITGEMM_CACHE=/tmp/jg-hot-new "$BUILD/bench/hot_path_overhead" --csv "$RES/hot_path_new.csv" 2>&1 | tee -a "$log"
    for s in $SETS; do
        if [ "$s" = f32 ]; then manifest=bench/shapes/public.csv; else manifest=bench/shapes/public_$s.csv; fi
        for who in old new; do
            bin="$BUILD/jitgemm"; [ "$who" = old ] && bin="$OLD/jitgemm"
            export JITGEMM_CACHE=/tmp/jg-compare-$who
            "$bin" info > /dev/null 2>&1  # the ceilings, measured once per cache
            stamp "$s, $who build: tune $manifest ($BUDGET s per problem), then bench against cuBLAS"
            "$bin" tune --manifest "$manifest" --budget "$BUDGET" > /dev/null 2> >(tail -3 >> "$log")
            "$bin" bench --manifest "$manifest" --tune off --csv "$RES/bench_${s}_${who}.csv" 2>&1 | tail -4 | tee -a "$log"
        done
    done
    stamp "done"
    exit 0
fi

if [ "$MODE" = fixed ]; then
    # The previous build and this one with fixed configurations, alternating in $ROUNDS rounds, each row against
    # cuBLAS in the same run: a kernel comparison that no search's choice can blur. $OLD names the previous build's
    # folder (its jitgemm and jitgemm-compile-worker).
    # Rows are "m n k dtype compute config" (nn), or "m n k dtype transa transb config [compute]" (column-major) as
    # the hopper and decode modes' fixed rows.
    OLD=${OLD:?fixed needs OLD, the folder of the previous build}
    for round in $(seq "${ROUNDS:-3}"); do
        while read -r m n k dtype f5 f6 f7 f8; do
            case "$m" in ''|'#'*) continue ;; esac
            if [ "$f5" = n ] || [ "$f5" = t ]; then
                layout=(--transa "$f5" --transb "$f6" --order col); tag="$f5$f6 "; config=$f7; compute=${f8:-f32}
            else
                layout=(); tag=""; compute=$f5; config=$f6
            fi
            for who in old new; do
                bin="$BUILD/jitgemm"; c="$config"
                [ "$who" = old ] && bin="$OLD/jitgemm"
                timeout 60 "$bin" bench --m "$m" --n "$n" --k "$k" --dtype "$dtype" --compute "$compute" \
                    "${layout[@]}" --config "$c" --iterations 50 2>&1 | grep -E "^ *[0-9]+x|error" | \
                    sed "s/^/$round $who $tag/" | tee -a "$log"
            done
        done < "${FIXED_ROWS:-bench/shapes/fixed_compare.txt}"
    done
    stamp "done"; exit 0
fi

if [ "$MODE" = roof ]; then
    # The read roof at the decode rows' weight sizes (bench/read_roof.cpp): 4096 x 4096 and 14336 x 4096 in 16 and
    # 32 bits, and a few sizes around them ($ROOF_SIZES).
    stamp "the read roof"
    "$BUILD/bench/read_roof" --csv "$RES/read_roof.csv" ${ROOF_SIZES:-8M 16M 32M 64M 112M 224M 1G} 2>&1 | tee -a "$log"
    cp "$RES/read_roof.csv" "$OUT/" 2>/dev/null
    stamp "done"; exit 0
fi

if [ "$MODE" = defaultcmp ]; then
    # An untuned default's change, side by side: each row "m n k dtype transa transb configuration-before"
    # (column-major) of $DEFAULT_ROWS (default bench/shapes/decode_default_cluster.txt) benched with --tune off (this
    # build's default) and with the configuration before, alternating in $ROUNDS rounds (default 3), each against
    # cuBLAS in the same run; then $DEFAULT_MANIFEST (default bench/shapes/decode_targets.csv) untuned
    # (bench_default.csv).
    rows_file=${DEFAULT_ROWS:-bench/shapes/decode_default_cluster.txt}
    manifest=${DEFAULT_MANIFEST:-bench/shapes/decode_targets.csv}
    stamp "the untuned default against the one before ($rows_file)"
    for round in $(seq "${ROUNDS:-3}"); do
        while read -r m n k dtype ta tb before; do
            case "$m" in ''|'#'*) continue ;; esac
            for who in new old; do
                choice=(--tune off); [ "$who" = old ] && choice=(--config "$before")
                JITGEMM_CACHE="/tmp/jitgemm-defaultcmp-$who" timeout 60 "$BUILD/jitgemm" bench --m "$m" --n "$n" \
                    --k "$k" --dtype "$dtype" --transa "$ta" --transb "$tb" --order col "${choice[@]}" --iterations 50 \
                    2>&1 | grep -E "^ *[0-9]+x|rror|^jitgemm:" | sed "s/^/$round $who $ta$tb /" | tee -a "$log"
            done
        done < "$rows_file"
    done
    stamp "$manifest untuned"
    JITGEMM_CACHE=/tmp/jitgemm-defaultcmp-all timeout 300 "$BUILD/jitgemm" bench --manifest "$manifest" --tune off \
        --csv "$RES/bench_default.csv" 2>&1 | tail -45 | tee -a "$log"
    stamp "done"; exit 0
fi

# Fixed configurations against cuBLAS in the same run: rows "m n k dtype transa transb config [batch [compute]]"
# (column-major), every row $ROUNDS times (default 1).
# A row's dtype field as the command's options: "f16" for A, B and C, or "f16:f32" for A and B fp16 and C fp32.
dtype_options() {  # dtype_options DTYPE
    case "$1" in *:*) echo "--dtype ${1%%:*} --out-dtype ${1#*:}" ;; *) echo "--dtype $1" ;; esac
}
bench_fixed_rows() {  # bench_fixed_rows ROWS_FILE
    for round in $(seq "${ROUNDS:-1}"); do
        while read -r m n k dtype ta tb config batch compute; do
            case "$m" in ''|'#'*) continue ;; esac
            # shellcheck disable=SC2046  # the dtype's options are words
            timeout 60 "$BUILD/jitgemm" bench --m "$m" --n "$n" --k "$k" $(dtype_options "$dtype") \
                --transa "$ta" --transb "$tb" \
                --batch "${batch:-1}" --compute "${compute:-f32}" --order col --config "$config" --iterations 20 \
                2>&1 | \
                grep -E "^ *[0-9]+x|rror" | \
                sed "s/^/$round $ta$tb $config x${batch:-1} /" | tee -a "$log"
        done < "$1"
    done
}
# Every GPU test but the long soak and budget ones ($EXCLUDE), $GPU_JOBS at once, with the failures' messages in the
# log (those of assertions and of exceptions thrown out of a test).
all_gpu_tests() {
    stamp "every GPU test"
    ctest --test-dir "$BUILD" -L gpu -E "${EXCLUDE:-SearchRespectsItsBudget|AMillionCallsKeep}" -j "${GPU_JOBS:-8}" \
        --output-on-failure --timeout 300 > "$RES/gpu-tests.log" 2>&1
    judge_ctest $? "$RES/gpu-tests.log"
    grep -E "tests passed|\*\*\*Failed|Failure|Expected|Which is|: .*wrong|unknown file|C\+\+ exception" \
        "$RES/gpu-tests.log" | head -80 | tee -a "$log"
}
# compute-sanitizer memcheck and racecheck on `jitgemm run` of each row "m n k dtype transa transb config [compute]"
# (column-major), unless SANITIZE is empty or the tool is missing.
sanitize_rows() {  # sanitize_rows ROW... (only those matching the regex $SANITIZE_MATCH, where it is set)
    [ -n "${SANITIZE-1}" ] && command -v compute-sanitizer > /dev/null || return 0
    local rows=("$@") tool row m n k dtype ta tb config compute batch
    for tool in memcheck racecheck; do
        for row in "${rows[@]}"; do
            [[ -z "${SANITIZE_MATCH:-}" || "$row" =~ $SANITIZE_MATCH ]] || continue
            # "m n k dtype transa transb config [compute]", or, as the fixed rows, "... config batch [compute]"
            read -r m n k dtype ta tb config compute batch <<< "$row"
            if [[ "$compute" =~ ^[0-9]+$ ]]; then read -r batch compute <<< "$compute $batch"; fi
            # shellcheck disable=SC2046
            timeout 300 compute-sanitizer --tool "$tool" "$BUILD/jitgemm" run --m "$m" --n "$n" --k "$k" \
                $(dtype_options "$dtype") --batch "${batch:-1}" \
                --compute "${compute:-f32}" --transa "$ta" --transb "$tb" --order col --config "$config" 2>&1 | \
                grep -E "ERROR SUMMARY|RACECHECK SUMMARY|rror" | head -3 | sed "s/^/$tool $row: /" | tee -a "$log"
        done
    done
}
# ncu's view of one kernel per row "m n k dtype transa transb config [compute]" of the file named (column-major, one
# call, the GEMM's kernel only): speed of light, memory, occupancy, the warps' stall reasons; ncu_<row>.txt, with
# the main figures in the log.
ncu_rows() {  # ncu_rows ROWS_FILE
    command -v ncu > /dev/null || { echo "ncu is not installed" | tee -a "$log"; return 0; }
    local i=0 m n k dtype ta tb config compute
    while read -r m n k dtype ta tb config compute; do
        case "$m" in ''|'#'*) continue ;; esac
        i=$((i + 1))
        # With $NCU_SOURCE set, also the source counters, and the report's per-instruction view of the SASS
        # (ncu_source_<row>.csv: where the warps stall, instruction by instruction).
        local report=()
        [ -n "${NCU_SOURCE:-}" ] && report=(--section SourceCounters -f -o "$RES/ncu_$i")
        local kernels=${NCU_KERNELS:-'^jg_(decode|wgmma|mma_sync|regblock|tiled|naive)$'}
        timeout 120 ncu --clock-control none --kernel-name "regex:$kernels" \
            --launch-count "${NCU_LAUNCHES:-1}" --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
            --section LaunchStats --section WarpStateStats --section SchedulerStats "${report[@]}" \
            --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" "$BUILD/jitgemm" run \
            --order col --m "$m" --n "$n" --k "$k" $(dtype_options "$dtype") --compute "${compute:-f32}" --transa "$ta" \
            --transb "$tb" --config "$config" --iterations 1 --no-verify > "$RES/ncu_$i.txt" 2>&1
        if [ -f "$RES/ncu_$i.ncu-rep" ]; then
            ncu --import "$RES/ncu_$i.ncu-rep" >> "$RES/ncu_$i.txt" 2>&1
            ncu --import "$RES/ncu_$i.ncu-rep" --page source --csv --print-source sass > "$RES/ncu_source_$i.csv" 2>&1
            rm -f "$RES/ncu_$i.ncu-rep"
            python3 bench/ncu_source_summary.py "$RES/ncu_source_$i.csv" 30 > "$RES/ncu_source_$i.txt" 2>&1
            head -20 "$RES/ncu_source_$i.txt" | tee -a "$log"
        fi
        echo "--- ncu $i: $m x $n x $k $dtype $ta$tb $config" | tee -a "$log"
        local figures="Duration|DRAM Throughput|Memory Throughput|Registers Per Thread|Waves Per SM|Achieved Occupancy"
        grep -E "^ +($figures|Issue Slots Busy|Warp Cycles Per Issued)|stalled_[a-z_]+_per_issue_active" \
            "$RES/ncu_$i.txt" | tr -s ' ' | tee -a "$log"
    done < "$1"
}
ncu_cublas() {  # ncu_cublas ROWS_FILE: the kernels cuBLAS runs for each row (name, grid, cluster, time), not ours
    command -v ncu > /dev/null || { echo "ncu is not installed" | tee -a "$log"; return 0; }
    local i=0 m n k dtype ta tb config compute
    while read -r m n k dtype ta tb config compute; do
        case "$m" in ''|'#'*) continue ;; esac
        i=$((i + 1))
        # jitgemm bench runs our kernel and cuBLAS's once each to check them, then warm-ups: the first ten launches
        # hold cuBLAS's kernels among ours and the checks' (told apart by name).
        timeout 150 ncu --clock-control none --launch-count 10 --section LaunchStats \
            --section SpeedOfLight --section Occupancy "$BUILD/jitgemm" bench --order col --m "$m" --n "$n" \
            --k "$k" $(dtype_options "$dtype") --compute "${compute:-f32}" --transa "$ta" --transb "$tb" --config "$config" \
            --iterations 1 > "$RES/ncu_cublas_$i.txt" 2>&1
        echo "--- ncu of cuBLAS $i: $m x $n x $k $dtype $ta$tb" | tee -a "$log"
        grep -E "^  [A-Za-z_].*\(|^ +(Duration|DRAM Throughput|Grid Size|Block Size|Cluster Size|Registers Per Thread|\
Dynamic Shared Memory Per Block|Achieved Occupancy) " "$RES/ncu_cublas_$i.txt" | tr -s ' ' | tee -a "$log"
    done < "$1"
}
ld_sweep() {  # ld_sweep CONFIG...: 4096^3 f16 with one operand's leading dimension past 4096, timed alone
    local config layout operand pad lda ldb
    for config in "$@"; do
        for layout in nn tt; do
            for operand in a b; do
                for pad in 0 8 16 64; do
                    lda=0 ldb=0  # 0: the minimum
                    [ "$operand" = a ] && lda=$((4096 + pad)) || ldb=$((4096 + pad))
                    printf '%s %s ld%s=4096+%s: ' "$config" "$layout" "$operand" "$pad" | tee -a "$log"
                    "$BUILD/jitgemm" run --order col --m 4096 --n 4096 --k 4096 --dtype f16 --transa "${layout:0:1}" \
                        --transb "${layout:1:1}" --lda "$lda" --ldb "$ldb" --config "$config" --iterations 20 \
                        --no-verify 2>&1 |
                        grep -E '^time|rror' | tee -a "$log"
                done
            done
        done
    done
}
# A manifest of bench/shapes/ by name, its untuned default against cuBLAS (a cache of its own; bench_<name>_default.csv).
bench_untuned() {  # bench_untuned NAME
    JITGEMM_CACHE=/tmp/jitgemm-default-cache timeout 500 "$BUILD/jitgemm" bench --manifest "bench/shapes/$1.csv" \
        --tune off --csv "$RES/bench_${1}_default.csv" 2>&1 | tail -40 | tee -a "$log"
}
# Manifests of bench/shapes/ by name: the untuned default, then tuned with $BUDGET s each, against cuBLAS
# (bench_<name>_default.csv, bench_<name>_tuned.csv).
bench_manifests() {  # bench_manifests NAME...
    for name in "$@"; do
        manifest="bench/shapes/$name.csv"
        stamp "$name: the untuned default, then tuned ($BUDGET s) against cuBLAS"
        bench_untuned "$name"
        timeout 900 "$BUILD/jitgemm" bench --manifest "$manifest" --tune now --budget "$BUDGET" \
            --csv "$RES/bench_${name}_tuned.csv" 2>&1 | tail -40 | tee -a "$log"
    done
}

if [ "$MODE" = rows ]; then
    # Fixed configurations against cuBLAS and nothing else: the rows of each file in $ROWS, $ROUNDS rounds (default 2),
    # then the manifests of bench/shapes/ named in $UNTUNED (e.g. "wgmma_layouts") untuned, those named in $TUNED
    # untuned and then tuned ($BUDGET s each), then ncu's view of the rows of $NCU_ROWS (a file of rows, where set).
    # First, where set, the GPU tests matching the ctest regex $ROW_TESTS and compute-sanitizer on the rows of the file
    # $SANITIZE_ROWS (a new kernel's correctness, before its speed).
    if [ -n "${ROW_TESTS:-}" ]; then
        stamp "GPU tests matching $ROW_TESTS"
        ctest --test-dir "$BUILD" -L gpu -R "$ROW_TESTS" -j "${GPU_JOBS:-8}" --output-on-failure --timeout 300 \
            > "$RES/gpu-tests.log" 2>&1
        judge_ctest $? "$RES/gpu-tests.log"
    fi
    if [ -n "${SANITIZE_ROWS:-}" ]; then
        stamp "compute-sanitizer on $SANITIZE_ROWS"
        mapfile -t sanitized < <(grep -v '^#' "$SANITIZE_ROWS" | grep .)
        sanitize_rows "${sanitized[@]}"
    fi
    [ -n "${ROWS:-}${UNTUNED:-}${TUNED:-}${NCU_ROWS:-}${NCU_CUBLAS_ROWS:-}" ] ||
        { echo "rows: name something to run (ROWS, UNTUNED, TUNED, NCU_ROWS or NCU_CUBLAS_ROWS)" >&2; exit 2; }
    for rows in ${ROWS:-}; do
        stamp "fixed rows of $rows"
        ROUNDS=${ROUNDS:-2} bench_fixed_rows "$rows"
    done
    for set in ${UNTUNED:-}; do stamp "$set untuned"; bench_untuned "$set"; done
    bench_manifests ${TUNED:-}
    [ -n "${NCU_ROWS:-}" ] && { stamp "ncu of the rows of $NCU_ROWS"; ncu_rows "$NCU_ROWS"; }
    [ -n "${NCU_CUBLAS_ROWS:-}" ] && { stamp "ncu of cuBLAS on $NCU_CUBLAS_ROWS"; ncu_cublas "$NCU_CUBLAS_ROWS"; }
    [ -n "${LD_SWEEP:-}" ] && { stamp "leading dimensions off 4096 (4096^3 f16)"; ld_sweep $LD_SWEEP; }
    stamp "done"; exit 0
fi

if [ "$MODE" = hopper ]; then
    # The wgmma family (issue 20): its SASS (HGMMA, no local memory), its GPU correctness tests, compute-sanitizer
    # memcheck and racecheck on a few of its kernels, and fixed configurations against cuBLAS in the same run on the
    # rows "m n k dtype transa transb config [batch [compute]]" of the files $HOPPER_ROWS names (default
    # bench/shapes/wgmma_fixed.txt), every row $ROUNDS times (default 1). Then, where $SETS_HOPPER names manifests of
    # bench/shapes/ (e.g. "wgmma_targets"), those
    # rows tuned with $BUDGET s each and benched against cuBLAS, with the untuned default before.
    stamp "SASS of the wgmma family"
    while read -r m n k dtype ta tb config batch compute; do
        "$BUILD/bench/dump_cubin" "$RES/w.cubin" sm_90a "$m" "$n" "$k" "$ta" "$tb" "$config" "$dtype" \
            "${compute:-f32}" > /dev/null 2>&1 &&
        { echo "--- $m x $n x $k $dtype $ta$tb $config"
          cuobjdump --dump-resource-usage "$RES/w.cubin" 2>&1 | grep -E "jg_wgmma|REG" | head -2
          cuobjdump --dump-sass --function jg_wgmma "$RES/w.cubin" | \
              grep -oE '\b(HGMMA|UTMALDG|LDL|STL|WARPGROUP\.DEPBAR|SYNCS)(\.[0-9A-Zx]+)*' | sort | uniq -c | tr '\n' ' '
          echo; } >> "$RES/sass.txt" 2>&1
    done < <(cat ${HOPPER_ROWS:-bench/shapes/wgmma_fixed.txt} | head -n "${SASS_ROWS:-6}")
    tee -a "$log" < "$RES/sass.txt"
    stamp "wgmma correctness (8 layouts x types, 50 shapes each) and the launch ABI"
    ctest --test-dir "$BUILD" -L gpu -R "${TESTS:-Wgmma|LaunchAbi}" -j "${GPU_JOBS:-4}" --output-on-failure --timeout 300 \
        > "$RES/gpu-tests.log" 2>&1
    judge_ctest $? "$RES/gpu-tests.log"
    grep -E "Test +#|tests passed|Failure|failed|cases" "$RES/gpu-tests.log" | head -60 | tee -a "$log"
    stamp "fixed wgmma configurations against cuBLAS"
    for rows in ${HOPPER_ROWS:-bench/shapes/wgmma_fixed.txt}; do bench_fixed_rows "$rows"; done
    [ -n "${NCU_ROWS:-}" ] && { stamp "ncu of the rows of $NCU_ROWS"; ncu_rows "$NCU_ROWS"; }
    stamp "compute-sanitizer memcheck and racecheck on wgmma kernels"
    # Column-major: the rows without _p3 have 16-byte aligned leading dimensions, which the TMA reads directly.
    # TF32 with an operand read through registers: op(A) (the rows along m) and op(B)^T, then op(A) packed beside.
    sanitize_rows "296 200 152 bf16 n n wgmma_128x128x64_c2_s4_g8_q3" "257 130 333 f16 t t wgmma_64x64x64_c1_s8_g8_q5_p3" \
        "513 255 129 bf16 t n wgmma_256x128x64_c2_s4_g8_p3" "704 392 200 f16 n t wgmma_128x128x64_c2_s6_g4_x2_q6" \
        "328 264 200 f32 n n wgmma_256x128x32_c2_s4_g8_x2_q4 tf32" \
        "300 200 136 f32 t t wgmma_128x256x32_c2_s4_g8_q5 tf32" "264 300 96 f32 n t wgmma_128x128x32_c2_s4_g8_p1 tf32" \
        "704 392 200 bf16 t n wgmma_128x128x64_c2_s4_g8_q7_sk" \
        "328 264 200 f32 n n wgmma_128x128x32_c2_s4_g8_q5_sk tf32" \
        "704 392 200 bf16 t n wgmma_128x64x64_c2_s6_g8_q5_pp" "704 392 200 f16 n t wgmma_64x128x64_c2_s6_g8_x2_q4_pp_ts" \
        "328 264 200 f32 n n wgmma_128x128x32_c2_s4_g8_q3_pp tf32" \
        "704 392 200 bf16 n n wgmma_192x128x64_c2_s4_g8_q3_tb" "704 392 200 f16 t n wgmma_256x64x64_c2_s4_g8_q5_pp_tb"
    bench_manifests ${SETS_HOPPER:-}
    stamp "done"; exit "$status"
fi

if [ "$MODE" = newpaths ]; then
    # The paths session 19 added without a GPU: C stored through shared memory and the TMA (wgmma _ts) and regblock
    # split-K (in the search). Their correctness tests (the family cases carry both), compute-sanitizer on them, fixed
    # configurations with and without each against cuBLAS ($ROUNDS rounds of bench/shapes/store_split_fixed.txt, the
    # pairs alternating), then the batched targets and bench/shapes/simt_split_targets.csv untuned and tuned.
    stamp "SASS of C through the TMA"
    "$BUILD/bench/dump_cubin" "$RES/ts.cubin" sm_90a 4096 4096 4096 t n wgmma_256x128x64_c2_s3_g8_q132_ts bf16 \
        > /dev/null 2>&1 && { cuobjdump --dump-resource-usage "$RES/ts.cubin" 2>&1 | grep -E "jg_wgmma|REG" | head -2
        cuobjdump --dump-sass --function jg_wgmma "$RES/ts.cubin" | \
            grep -oE '\b(HGMMA|UTMALDG|UTMASTG|UTMACMDFLUSH|LDL|STL|STS|BAR)(\.[0-9A-Zx]+)*' | sort | uniq -c | tr '\n' ' '
        echo; } 2>&1 | tee -a "$log"
    stamp "correctness of the families (wgmma _ts and regblock split-K among the cases)"
    ctest --test-dir "$BUILD" -L gpu -R "${TESTS:-FamilyCorrectness|Batched|LaunchAbi}" -j "${GPU_JOBS:-4}" \
        --output-on-failure --timeout 400 > "$RES/gpu-tests.log" 2>&1
    judge_ctest $? "$RES/gpu-tests.log"
    grep -E "Test +#|tests passed|Failure|failed|cases" "$RES/gpu-tests.log" | head -60 | tee -a "$log"
    stamp "compute-sanitizer memcheck and racecheck on C through the TMA and regblock split-K"
    sanitize_rows "296 200 152 bf16 n n wgmma_128x128x64_c2_s4_g8_q3_ts" "304 136 200 f16 t t wgmma_64x128x64_c1_s4_g8_q5_ts" \
        "704 392 200 bf16 n t wgmma_128x256x64_c2_s3_g4_x2_q6_ts" "520 264 96 f32 t n regblock_64x64x16_t4x4_v4_s2_g8_k3" \
        "200 136 1000 f32 n t regblock_128x64x8_t8x4_v2_s1_g1_k5"
    stamp "fixed configurations with and without each path against cuBLAS"
    bench_fixed_rows "${FIXED_ROWS:-bench/shapes/store_split_fixed.txt}"
    bench_manifests ${SETS_NEW-batched_targets batched_decode simt_split_targets}
    stamp "done"; exit "$status"
fi

if [ "$MODE" = decode ]; then
    # The decode family (issue 21): its kernels' resources, its GPU correctness tests, compute-sanitizer, fixed
    # configurations against cuBLAS (rows of $DECODE_ROWS, default bench/shapes/decode_fixed.txt), then the manifests
    # of $SETS_DECODE (default decode_targets) untuned and tuned ($BUDGET s).
    stamp "registers and local memory of decode kernels"
    while read -r m n k dtype ta tb config; do
        "$BUILD/bench/dump_cubin" "$RES/d.cubin" sm_90a "$m" "$n" "$k" "$ta" "$tb" "$config" "$dtype" > /dev/null 2>&1 &&
            echo "$m x $n x $k $dtype $ta$tb $config: $(cuobjdump --dump-resource-usage "$RES/d.cubin" 2>&1 | \
                grep -oE 'REG:[0-9]+|LOCAL:[0-9]+' | tr '\n' ' ')" >> "$RES/sass.txt"
    done < <(head -n "${SASS_ROWS:-12}" "${DECODE_ROWS:-bench/shapes/decode_fixed.txt}")
    tee -a "$log" < "$RES/sass.txt"
    stamp "decode correctness (4 types x 80 shapes, the default on decode rows)"
    ctest --test-dir "$BUILD" -L gpu -R "${TESTS:-DecodeCorrectness}" -j "${GPU_JOBS:-4}" --output-on-failure \
        --timeout 400 > "$RES/gpu-tests.log" 2>&1
    judge_ctest $? "$RES/gpu-tests.log"
    grep -E "Test +#|tests passed|Failure|failed|cases" "$RES/gpu-tests.log" | head -60 | tee -a "$log"
    stamp "compute-sanitizer memcheck and racecheck on decode kernels"
    sanitize_rows "777 5 1000 bf16 t n decode_mma_w4_r2_c8_k3_u4" "1000 13 333 f16 n n decode_mma_w2_r1_c16_k2_u2_x" \
        "3 999 517 f32 n t decode_simt_w4_r1_c3_k4_u4" "1001 7 129 f32 n n decode_simt_w8_r1_c7_k2_u8" \
        "1000 40 333 f32 t n decode_simt_w4_r1_c8_k3_u2" "1000 20 333 bf16 n n decode_mma_w4_r1_c8_k2_u2"
    stamp "fixed decode configurations against cuBLAS"
    bench_fixed_rows "${DECODE_ROWS:-bench/shapes/decode_fixed.txt}"
    [ -n "${NCU_ROWS:-}" ] && { stamp "ncu of the rows of $NCU_ROWS"; ncu_rows "$NCU_ROWS"; }
    bench_manifests ${SETS_DECODE-decode_targets}
    stamp "done"; exit "$status"
fi

if [ "$MODE" = batched ]; then
    # Strided batched GEMM (issue 21): every GPU test (the batched ones among them), compute-sanitizer on batched
    # calls of each family, then the manifests of $SETS_BATCHED (default batched_targets) untuned and tuned ($BUDGET s)
    # against cublasGemmStridedBatchedEx.
    all_gpu_tests
    if [ -n "${SANITIZE-1}" ] && command -v compute-sanitizer > /dev/null; then
        stamp "compute-sanitizer memcheck and racecheck on batched calls"
        for tool in memcheck racecheck; do
            for row in "--dtype f32 --config naive_16x16" "--dtype f32 --config regblock_64x64x16_t4x4_v4_s2_g8" \
                       "--dtype bf16 --config mma_sync_64x64x32_w2x2_s3_g8" "--dtype bf16 --config wgmma_128x128x64_c2_s4_g8_q7"; do
                JITGEMM_CACHE=/tmp/jitgemm-sanitize timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 9 \
                    "$BUILD/jitgemm" run --m 200 --n 136 --k 72 --batch 9 --iterations 1 $row > "$RES/san.log" 2>&1
                echo "$tool $row: exit $? $(grep -E 'ERROR SUMMARY|wrong' "$RES/san.log" | head -2 | tr '\n' ' ')" | tee -a "$log"
            done
        done
    fi
    "$BUILD/jitgemm" info > /dev/null 2>&1
    JITGEMM_CACHE=/tmp/jitgemm-default-cache "$BUILD/jitgemm" info > /dev/null 2>&1
    bench_manifests ${SETS_BATCHED:-batched_targets}
    stamp "done"; exit "$status"
fi

if [ "$MODE" = runtime ]; then
    # Run-time-shape variants (issue 21): $PARTS (default "tests sweep").
    #   tests: every GPU test, then compute-sanitizer memcheck on the variant sweeps of two types.
    #   sweep: the layer of bench/shapes/m_sweep*.csv (bf16, row-major X W^T, N = K = 4096): its six sizes of
    #          m_sweep_tuned.csv tuned ($BUDGET s) with their variants stored, then the 200 sizes of m_sweep.csv served
    #          under --tune never (no compile can happen: a size without a kernel would fail) against cuBLAS, then the
    #          sizes of m_sweep_sample.csv tuned exactly and benched again, for the ratio of variant to exact tuning.
    if [[ " ${PARTS:-tests sweep} " == *" tests "* ]]; then
        all_gpu_tests
        if [ -n "${SANITIZE-1}" ] && command -v compute-sanitizer > /dev/null; then
            stamp "compute-sanitizer memcheck on run-time-shape variant sweeps"
            for type in bf16 f32; do
                # Each type's log kept (san_<type>.log): its seed replays the sweep, its first report names the kernel.
                JITGEMM_CACHE=/tmp/jitgemm-sanitize timeout 400 compute-sanitizer --tool memcheck --error-exitcode 9 \
                    "$BUILD/tests/jitgemm_gpu_tests" --gtest_filter="Types/RuntimeShapeVariant.*/$type" \
                    > "$RES/san_$type.log" 2>&1
                echo "memcheck $type: exit $? $(grep -E '^seed|ERROR SUMMARY|\[  (PASSED|FAILED)|Invalid|Error|at .*jg_' \
                    "$RES/san_$type.log" | head -8 | tr '\n' ' ')" | tee -a "$log"
            done
        fi
    fi
    if [[ " ${PARTS:-tests sweep} " == *" sweep "* ]]; then
        export JITGEMM_CACHE=/tmp/jitgemm-sweep-cache JITGEMM_RUNTIME_SHAPES=on
        "$BUILD/jitgemm" info > /dev/null 2>&1
        stamp "the layer's six sizes tuned ($BUDGET s), their run-time variants stored"
        timeout 300 "$BUILD/jitgemm" tune --manifest bench/shapes/m_sweep_tuned.csv --budget "$BUDGET" --runtime-variants \
            2>&1 | tail -12 | tee -a "$log"
        stamp "200 sizes under --tune never against cuBLAS"
        timeout 500 "$BUILD/jitgemm" bench --manifest bench/shapes/m_sweep.csv --tune never --iterations "${ITERATIONS:-10}" \
            --csv "$RES/sweep_variants.csv" > "$RES/sweep_variants.log" 2>&1
        echo "bench exit $?" | tee -a "$log"
        tail -4 "$RES/sweep_variants.log" | tee -a "$log"
        stamp "the sample sizes tuned exactly ($BUDGET s), then benched"
        timeout 400 "$BUILD/jitgemm" tune --manifest bench/shapes/m_sweep_sample.csv --budget "$BUDGET" 2>&1 | tail -3 | \
            tee -a "$log"
        timeout 200 "$BUILD/jitgemm" bench --manifest bench/shapes/m_sweep_sample.csv --tune never \
            --iterations "${ITERATIONS:-10}" --csv "$RES/sweep_exact.csv" > "$RES/sweep_exact.log" 2>&1
        echo "bench exit $?" | tee -a "$log"
        python3 bench/m_sweep_summary.py "$RES/sweep_variants.csv" "$RES/sweep_exact.csv" 2>&1 | tee -a "$log"
        unset JITGEMM_CACHE JITGEMM_RUNTIME_SHAPES
    fi
    stamp "done"; exit "$status"
fi

if [ "$MODE" = searchcmp ]; then
    # Search time and quality (issues 20 and 21): the rows of bench/shapes/$SEARCH_SET.csv (default search_targets)
    # searched with the short budget of $SEARCH_BUDGETS (default "10 60") in a fresh cache; then (unless
    # $SEARCH_TWINS_TRIAL is empty) the same with JITGEMM_SEARCH_TWINS=all; then the long budget one row at a time, all
    # (each its own file, so that the call's time limit cuts off only whole rows: none is started past
    # $SEARCH_DEADLINE seconds of the batch, default 560 less the long budget); then bench/search_summary.py of each
    # short search against the long one: the median seconds, the winners against the long search's.
    "$BUILD/jitgemm" info > /dev/null 2>&1
    budgets=(${SEARCH_BUDGETS:-10 60})
    set_name=${SEARCH_SET:-search_targets}
    manifest="bench/shapes/$set_name.csv"
    short_search() {  # short_search FILE-STEM [ENV=VALUE...]
        local stem=$1; shift
        rm -rf "/tmp/jitgemm-search-$stem"
        env "$@" JITGEMM_CACHE="/tmp/jitgemm-search-$stem" timeout "${SEARCH_TIMEOUT:-400}" "$BUILD/jitgemm" tune \
            --manifest "$manifest" --budget "${budgets[0]}" --json --verbose > "$RES/search_$stem.json" \
            2> "$RES/search_$stem.log"
        echo "tune exit $?" | tee -a "$log"
        grep "^jitgemm tune:" "$RES/search_$stem.log" | tail -2 | tee -a "$log"
        # Every candidate's outcome and time, in the order measured (the cache's measurements), for the stopping
        # rule's and the order's post-mortem.
        python3 -c '
import csv, sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(
    "SELECT problem_key, config, outcome, time_ms, measured_at FROM measurements ORDER BY id").fetchall()
csv.writer(sys.stdout).writerows([("problem_key", "config", "outcome", "time_ms", "measured_at"), *rows])' \
            "/tmp/jitgemm-search-$stem/tuning.sqlite" > "$RES/measurements_$stem.csv" 2>> "$RES/search_$stem.log"
        # Where each search's best came among its candidates, and how many were clearly slower.
        python3 bench/search_order.py "$RES/search_$stem.log" 2>&1 | tee -a "$log"
    }
    stamp "$set_name searched with ${budgets[0]} s each"
    short_search "${budgets[0]}"
    if [ -n "${SEARCH_TWINS_TRIAL-1}" ]; then
        stamp "$set_name searched with ${budgets[0]} s each, every twin in the main pass (tuner/tune_options.h)"
        short_search twins JITGEMM_SEARCH_TWINS=all
    fi
    # $SEARCH_TRIAL: one or more sets of settings, separated by ';', each its own short search (trial1, trial2, ...).
    IFS=';' read -r -a trials <<< "${SEARCH_TRIAL:-}"
    for t in "${!trials[@]}"; do
        stamp "$set_name searched with ${budgets[0]} s each, with ${trials[$t]}"
        # shellcheck disable=SC2086  # the settings are words on purpose
        short_search "trial$((t + 1))" ${trials[$t]}
    done
    stamp "$set_name searched with ${budgets[1]} s each, row by row"
    rm -rf "/tmp/jitgemm-search-${budgets[1]}"
    header=$(grep -m1 '^name,' "$manifest")
    row=0
    while IFS= read -r line; do
        case "$line" in ''|'#'*|name,*) continue ;; esac
        row=$((row + 1))
        if [ "$SECONDS" -gt "${SEARCH_DEADLINE:-$((560 - budgets[1]))}" ]; then
            echo "row $row (${line%%,*}) not searched with ${budgets[1]} s: the call's time is spent" | tee -a "$log"
            continue
        fi
        printf '%s\n%s\n' "$header" "$line" > "$RES/row_$row.csv"
        JITGEMM_SEARCH_TWINS=all JITGEMM_CACHE="/tmp/jitgemm-search-${budgets[1]}" timeout $((budgets[1] + 60)) \
            "$BUILD/jitgemm" tune \
            --manifest "$RES/row_$row.csv" --budget "${budgets[1]}" --json > "$RES/search_${budgets[1]}_$row.json" \
            2>> "$RES/search_${budgets[1]}.log"
        echo "row $row (${line%%,*}) tune exit $?" | tee -a "$log"
    done < "$manifest"
    long_files=("$RES"/search_"${budgets[1]}"_*.json)
    # Each search records its winner's time in its own process; for kernels of a few microseconds those differ by up
    # to 5% for the same configuration (session 24). So where the short and long searches chose differently, both
    # winners are timed again here, alternated in $ROUNDS rounds (default 3), against cuBLAS in the same run.
    stamp "the winners that differ, side by side (rows of the long search)"
    for row_file in "$RES"/row_*.csv; do
        row=${row_file##*/row_}; row=${row%.csv}
        read -r short_config long_config < <(python3 -c '
import json, sys
def winner(path, name):
    try:
        problems = json.load(open(path))["problems"]
    except (OSError, ValueError, KeyError):
        return ""
    return next((p.get("config", "") for p in problems if p["name"] == name), "")
name = open(sys.argv[1]).read().splitlines()[1].split(",")[0]
print(winner(sys.argv[2], name) or "-", winner(sys.argv[3], name) or "-")' \
            "$row_file" "$RES/search_${budgets[0]}.json" "$RES/search_${budgets[1]}_$row.json")
        [ "$short_config" = "$long_config" ] || [ "$short_config" = - ] || [ "$long_config" = - ] && continue
        for round in $(seq "${ROUNDS:-3}"); do
            for config in "$short_config" "$long_config"; do
                JITGEMM_CACHE=/tmp/jitgemm-search-sidebyside timeout 60 "$BUILD/jitgemm" bench --manifest "$row_file" \
                    --config "$config" --iterations 50 2>&1 | grep -E "^ *[a-z0-9_]+ .*x$|[0-9]x +ok|rror" | \
                    sed "s/^/$round /" | tee -a "$log"
            done
        done
    done
    stamp "${budgets[0]} s against ${budgets[1]} s"
    python3 bench/search_summary.py "$RES/search_${budgets[0]}.json" "${long_files[@]}" 2>&1 | tee -a "$log"
    if [ -n "${SEARCH_TWINS_TRIAL-1}" ]; then
        stamp "${budgets[0]} s, every twin in the main pass, against ${budgets[1]} s"
        python3 bench/search_summary.py "$RES/search_twins.json" "${long_files[@]}" 2>&1 | tee -a "$log"
    fi
    for t in "${!trials[@]}"; do
        stamp "${budgets[0]} s with ${trials[$t]} against ${budgets[1]} s"
        python3 bench/search_summary.py "$RES/search_trial$((t + 1)).json" "${long_files[@]}" 2>&1 | tee -a "$log"
    done
    stamp "done"; exit "$status"
fi

if [ "$MODE" = report ]; then
    # The command's JSON on the GPU (its GPU tests), then a real report: the quick rows tuned ($BUDGET s each) and
    # benched against cuBLAS as JSON, and `jitgemm report` of that cache and file (report.html in results.tgz).
    ctest --test-dir "$BUILD" -L gpu -R "${TESTS:-CliWorkflow|ANewProcessServes|EightProcessesMeeting}" -j 3 \
        --output-on-failure --timeout 300 > "$RES/gpu-tests.log" 2>&1
    judge_ctest $? "$RES/gpu-tests.log"
    grep -E "Test +#|tests passed|FAILED" "$RES/gpu-tests.log" | tee -a "$log"
    export JITGEMM_CACHE=/tmp/jitgemm-report-cache
    rm -rf "$JITGEMM_CACHE"
    "$BUILD/jitgemm" info > /dev/null 2>&1  # the measured ceilings, into the cache
    for manifest in bench/shapes/quick.csv bench/shapes/quick_tensor.csv; do
        name=$(basename "$manifest" .csv)
        stamp "$name: tuned ($BUDGET s) and against cuBLAS, as JSON"
        "$BUILD/jitgemm" bench --manifest "$manifest" --tune now --budget "$BUDGET" --json "$RES/bench_$name.json" \
            2>&1 | tail -3 | tee -a "$log"
    done
    "$BUILD/jitgemm" report --bench "$RES/bench_quick.json" --bench "$RES/bench_quick_tensor.json" \
        --output "$RES/report.html" 2>&1 | tee -a "$log" || status=1
    stamp "done"; exit "$status"
fi

if [ "$MODE" = targets ]; then
    export JITGEMM_CACHE=/tmp/jitgemm-bench-cache
    rm -rf "$JITGEMM_CACHE"
    "$BUILD/jitgemm" info > /dev/null 2>&1
    stamp "target rows: tune ($BUDGET s budget per problem), then against cuBLAS"
    # Time limits, so that a kernel that never finishes (a deadlocked experiment) costs minutes of the batch, not
    # all of it.
    timeout 400 "$BUILD/jitgemm" tune --manifest bench/shapes/tensor_targets.csv --budget "$BUDGET" \
        --json > "$RES/tune_targets.json" 2> >(tee -a "$log" >&2)
    echo "tune exit $?" | tee -a "$log"
    # Three benches of the tuned kernels, each against cuBLAS in the same run: a target is met when all three say so.
    for round in 1 2 3; do
        timeout 120 "$BUILD/jitgemm" bench --manifest bench/shapes/tensor_targets.csv --tune off \
            --csv "$RES/bench_targets_tuned_$round.csv" 2>&1 | tee -a "$log"
    done
    "$BUILD/jitgemm" cache show _ --all > "$RES/searches_targets.txt" 2>&1  # every candidate measured
    stamp "split-K and Tensor Core correctness tests"
    ctest --test-dir "$BUILD" -L gpu -R "${TESTS:-SplitK|mma|StreamWorkspace|BulkCopy}" --output-on-failure --timeout 300 > "$RES/gpu-tests.log" 2>&1
    judge_ctest $? "$RES/gpu-tests.log"
    grep -E "Test +#|tests passed|FAILED" "$RES/gpu-tests.log" | tee -a "$log"
    stamp "compute-sanitizer memcheck on packed and split kernels"
    for config in mma_sync_32x32x16_w1x1_s2_g8_k3_p3 mma_sync_64x64x32_w2x2_s3_g8_p1 mma_sync_32x32x16_w1x1_s2_g8_p2 \
        mma_sync_32x32x16_w1x1_s2_g8 mma_sync_32x32x16_w1x1_s2_g8_sk7_p3 mma_sync_64x64x16_w2x2_s3_g8_sk13 \
        mma_sync_112x64x16_w1x2_s3_g8_k3_p3 mma_sync_112x64x32_w1x4_s2_g8 mma_sync_64x64x32_w2x2_s3_g8_k2_p3_bulk \
        mma_sync_112x64x16_w1x2_s3_g8_k3_p3_bulk mma_sync_64x64x64_w2x2_s2_g8_p3_bulk; do
        timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$BUILD/jitgemm" run --order col --m 131 --n 77 --k 45 \
            --transa t --transb t --beta 0.5 --ldc 141 --lda 47 --iterations 1 --config "$config" --dtype bf16 2>&1 | \
            grep -E "ERROR SUMMARY|check|wrong|error" | sed "s/^/$config: /" | tee -a "$log"
    done
    stamp "ncu: the tuned bf16 777x1111x3333, kernel by kernel, then the GEMM kernel in detail"
    ncu --clock-control none --metrics gpu__time_duration.sum "$BUILD/jitgemm" run --order row --m 777 --n 1111 \
        --k 3333 --dtype bf16 --tune off --iterations 2 --no-verify > "$RES/breakdown.txt" 2>&1
    # The same with the configuration the previous session's tuning chose, to compare kernels, not searches.
    ncu --clock-control none --metrics gpu__time_duration.sum "$BUILD/jitgemm" run --order row --m 777 --n 1111 \
        --k 3333 --dtype bf16 --config "${FIXED_CONFIG:-mma_sync_128x64x64_w2x2_s4_g8_k2_p3_bulk}" --iterations 2 --no-verify \
        >> "$RES/breakdown.txt" 2>&1
    grep -E "jg_|gpu__time_duration|kernel " "$RES/breakdown.txt" | tee -a "$log"
    ncu --clock-control none --kernel-name jg_pack --launch-count 1 --section SpeedOfLight --section Occupancy \
        --section LaunchStats --section MemoryWorkloadAnalysis "$BUILD/jitgemm" run --order row --m 777 --n 1111 \
        --k 3333 --dtype bf16 --tune off --iterations 1 --no-verify > "$RES/ncu_777_pack.txt" 2>&1
    grep -E "Duration|DRAM Throughput|Memory Throughput|Registers Per|Shared Memory Config|Waves Per SM|Achieved Occupancy|Theoretical Occ" \
        "$RES/ncu_777_pack.txt" | sed 's/^/pack: /' | tee -a "$log"
    # $SWEEP ("config ..."): 777x1111x3333 bf16 timed with each configuration against cuBLAS, beyond what a short
    # search reaches.
    for config in ${SWEEP:-}; do
        timeout 60 "$BUILD/jitgemm" bench --m 777 --n 1111 --k 3333 --dtype bf16 --config "$config" --iterations 30 2>&1 | \
            grep -E "^777|error" | tee -a "$log"
    done
    # $COMPARE ("binary:config ..."): 777x1111x3333 bf16 with each binary and configuration, against cuBLAS and
    # kernel by kernel, to set two builds or two paths side by side in one run.
    for pair in ${COMPARE:-}; do
        stamp "compare ${pair%%:*} ${pair#*:}"
        timeout 60 "${pair%%:*}" bench --m 777 --n 1111 --k 3333 --dtype bf16 --config "${pair#*:}" --iterations 50 2>&1 | \
            tee -a "$log"
        ncu --clock-control none --metrics gpu__time_duration.sum "${pair%%:*}" run --order row --m 777 --n 1111 \
            --k 3333 --dtype bf16 --config "${pair#*:}" --iterations 2 2>&1 | grep -E "jg_|gpu__time_duration|check|wrong" | \
            tee -a "$log"
    done
    ncu --clock-control none --kernel-name jg_mma_sync --launch-count 1 --section SpeedOfLight --section WarpStateStats \
        --section MemoryWorkloadAnalysis --section Occupancy --section InstructionStats --section SourceCounters \
        --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" "$BUILD/jitgemm" run --order row --m 777 --n 1111 \
        --k 3333 --dtype bf16 --tune off --iterations 1 --no-verify > "$RES/ncu_777_gemm.txt" 2>&1
    # The timeline of the timed calls (pack, GEMM, the flush between them and cuBLAS), where Nsight Systems is
    # installed: ncu times each kernel alone, and the call measures ~3 us more than the kernels add up to.
    nsys_bin=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
    if [ -n "$nsys_bin" ]; then
        stamp "nsys timeline of 777x1111x3333 bf16 ($nsys_bin)"
        timeout 120 "$nsys_bin" profile --trace cuda --force-overwrite true -o "$RES/timeline_777" "$BUILD/jitgemm" \
            bench --m 777 --n 1111 --k 3333 --dtype bf16 --config "${FIXED_CONFIG:-mma_sync_128x64x64_w2x2_s4_g8_k2_p3}" \
            --iterations 20 > /dev/null 2>&1
        timeout 120 "$nsys_bin" stats --report cuda_gpu_trace --format csv -o "$RES/timeline_777" \
            "$RES/timeline_777.nsys-rep" > /dev/null 2>&1
        rm -f "$RES/timeline_777.nsys-rep" "$RES/timeline_777.sqlite"
        ls "$RES"/timeline_777* 2>/dev/null | tee -a "$log"
    else
        echo "nsys: not installed on this machine" | tee -a "$log"
    fi
    stamp "done"
    exit "$status"
fi

stamp "SASS: cubins made by NVRTC (dump_cubin) for the main kernels, resource use and instruction counts"
sass_dir=$(mktemp -d)
while read -r name m n k ta tb config dtype compute; do
    "$BUILD/bench/dump_cubin" "$sass_dir/$name.cubin" sm_90a "$m" "$n" "$k" "$ta" "$tb" "$config" "$dtype" "$compute" \
        >> "$RES/sass.txt" 2>&1
done <<'EOF'
regblock_f32_4096 4096 4096 4096 n n regblock_128x128x8_t8x8_v4_s2_g8 f32 f32
mma_bf16_4096 4096 4096 4096 n n mma_sync_128x128x32_w2x4_s3_g8 bf16 f32
mma_bf16_4097_odd_ld 4097 4097 4097 n n mma_sync_128x128x32_w2x4_s3_g8 bf16 f32
mma_f16_4096_tt 4096 4096 4096 t t mma_sync_128x256x32_w2x4_s4_g8 f16 f32
mma_tf32_4096 4096 4096 4096 n n mma_sync_128x128x32_w2x4_s3_g8 f32 tf32
EOF
for f in "$sass_dir"/*.cubin; do
    [ -e "$f" ] || continue
    echo "--- $(basename "$f")" >> "$RES/sass.txt"
    cuobjdump --dump-resource-usage "$f" 2>&1 | grep -E "REG|STACK|SHARED|LOCAL" >> "$RES/sass.txt"
    echo "instruction counts:" >> "$RES/sass.txt"
    cuobjdump --dump-sass "$f" 2>&1 | \
        grep -oE '\b(FFMA|HMMA(\.[0-9A-Z]+)*|LDSM(\.[0-9A-Z]+)*|LDGSTS(\.[0-9A-Z]+)*|LDS(\.[0-9A-Z]+)*|STS(\.[0-9A-Z]+)*|LDG(\.[0-9A-Z]+)*|STG(\.[0-9A-Z]+)*|LDL(\.[0-9A-Z]+)*|STL(\.[0-9A-Z]+)*|BAR(\.[0-9A-Z]+)*)\b' | \
        sort | uniq -c >> "$RES/sass.txt"
done
grep -E "^---|REG|HMMA|LDL|STL|LDSM" "$RES/sass.txt" | tee -a "$log"

if [ "$MODE" != bench ]; then
stamp "GPU tests"
# $GPU_JOBS tests at a time (default 4): one at a time they outlast a device call; they share the GPU, and the
# tuning ones take turns on it (tuner/search_turns), so running them together changes their times, not their checks.
# Except the tests that measure what other processes change ($ALONE), which run afterwards, one at a time: the one
# that bounds a search's wall time (a search waits for the GPU turns of the other tests' searches, and that waiting
# counts against its budget), and the one that watches the device's free memory over a million calls.
ALONE='SearchRespectsItsBudget|AMillionCallsKeep'
ctest --test-dir "$BUILD" -L gpu -j "${GPU_JOBS:-4}" ${TESTS:+-R "$TESTS"} -E "$ALONE" --output-on-failure \
    --timeout 300 > "$RES/gpu-tests.log" 2>&1
judge_ctest $? "$RES/gpu-tests.log"
ctest --test-dir "$BUILD" -L gpu -R "$ALONE" --output-on-failure --timeout 300 > "$RES/gpu-tests-alone.log" 2>&1
judge_ctest $? "$RES/gpu-tests-alone.log"
cat "$RES/gpu-tests-alone.log" >> "$RES/gpu-tests.log"
grep -E "Test +#|tests passed|FAILED" "$RES/gpu-tests.log" | tee -a "$log"

python_tests

stamp "compute-sanitizer memcheck on tails, transposes and odd leading dimensions"
while read -r config dtype compute; do
    timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$BUILD/jitgemm" run --order col --m 131 --n 77 --k 45 \
        --transa t --transb t --beta 0.5 --ldc 141 --lda 47 --iterations 1 --config "$config" --dtype "$dtype" \
        --compute "$compute" 2>&1 | grep -E "ERROR SUMMARY|check|wrong|error" | sed "s/^/$config $dtype: /" | tee -a "$log"
done <<'EOF'
naive_16x16 f32 f32
tiled_t16 f32 f32
regblock_128x128x8_t8x8_v4_s2_g8 f32 f32
regblock_64x64x16_t4x4_v4_s1_g4 f32 f32
mma_sync_128x128x32_w2x4_s3_g8 bf16 f32
mma_sync_32x32x16_w1x1_s2_g8 f16 f32
mma_sync_64x128x64_w2x2_s4_g1 bf16 f32
mma_sync_128x64x32_w2x2_s5_g4 f32 tf32
mma_sync_32x32x16_w1x1_s2_g8_k3_p3 bf16 f32
mma_sync_32x32x16_w1x1_s2_g8_sk7_p3 bf16 f32
mma_sync_64x64x16_w2x2_s3_g8_k2 f32 tf32
EOF
fi
[ "$MODE" = tests ] && { stamp "done"; exit "$status"; }

# Fresh tuning caches for the benchmarks, so every search below starts from nothing.
export JITGEMM_CACHE=/tmp/jitgemm-bench-cache
rm -rf "$JITGEMM_CACHE" /tmp/jitgemm-default-cache
if [ "$MODE" = full ] || [ "$MODE" = bench ]; then
    sets=""
    for s in $SETS; do
        if [ "$s" = f32 ]; then sets="$sets f32:bench/shapes/public.csv"; else sets="$sets $s:bench/shapes/public_$s.csv"; fi
    done
else
    sets="f32:bench/shapes/quick.csv tensor:bench/shapes/quick_tensor.csv"
fi

stamp "jitgemm info (measures the ceilings once, keeps them in the cache)"
"$BUILD/jitgemm" info 2>&1 | tee -a "$log"

for set in $sets; do
    name=${set%%:*}
    manifest=${set#*:}
    if [ "$MODE" = quick ]; then
        stamp "$name: heuristic default (untuned) against cuBLAS, $manifest"
        JITGEMM_CACHE=/tmp/jitgemm-default-cache "$BUILD/jitgemm" bench --manifest "$manifest" --tune off \
            --csv "$RES/bench_${name}_default.csv" 2>&1 | tee -a "$log"
    fi
    stamp "$name: jitgemm tune of $manifest ($BUDGET s budget per problem)"
    "$BUILD/jitgemm" tune --manifest "$manifest" --budget "$BUDGET" --json > "$RES/tune_${name}.json" \
        2> >(tee -a "$log" >&2)
    echo "tune exit $?" | tee -a "$log"
    "$BUILD/jitgemm" cache show _ --all > "$RES/searches_${name}.txt" 2>&1  # every search, every candidate measured
    stamp "$name: tuned kernels against cuBLAS, served from the cache"
    "$BUILD/jitgemm" bench --manifest "$manifest" --tune off --csv "$RES/bench_${name}_tuned.csv" \
        --json "$RES/bench_${name}_tuned.json" 2>&1 | tee -a "$log"
done

[ "$MODE" = quick ] || {
    # Where the time of the tuned misaligned rows goes, kernel by kernel (pack, GEMM), from the cache just filled.
    stamp "ncu: kernel durations of the tuned bf16 777x1111x3333 and 4097^3"
    for dims in "777 1111 3333" "4097 4097 4097"; do
        set -- $dims
        echo "--- bf16 row-major $1 x $2 x $3" >> "$RES/breakdown.txt"
        ncu --clock-control none --metrics gpu__time_duration.sum "$BUILD/jitgemm" run --order row --m "$1" --n "$2" \
            --k "$3" --dtype bf16 --tune off --iterations 3 --no-verify >> "$RES/breakdown.txt" 2>&1
    done
    grep -E "^---|jg_|gpu__time_duration|config|ms" "$RES/breakdown.txt" | tee -a "$log"
    stamp "done"; exit "$status";
}
stamp "cold start from the cache in a new process"
dims=$(grep -vE '^(#|name,)' bench/shapes/quick.csv | cut -d, -f2-4 | tr , x | tr '\n' ' ')
# shellcheck disable=SC2086
"$BUILD/bench/cold_start" --csv "$RES/cold_start.csv" $dims 2>&1 | tee -a "$log"

stamp "hot-path overhead"
"$BUILD/bench/hot_path_overhead" --csv "$RES/hot_path.csv" 2>&1 | tee -a "$log"
stamp "done"
exit "$status"
