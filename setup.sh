#!/usr/bin/env bash
# Quick start, step 1: install what the build needs, build jitgemm, and run its main job on the GPU —
# `jitgemm info` and a verified, timed 4096^3 GEMM. Without a GPU it builds, then says so and skips the GPU job.
#   ./setup.sh [--no-run]        (BUILD_DIR=... to build elsewhere than ./build)
set -euo pipefail
cd "$(dirname "$0")"
BUILD_DIR=${BUILD_DIR:-build}
run_job=1
[ "${1:-}" = "--no-run" ] && run_job=0

packages=(cmake ninja-build g++ pkg-config libsqlite3-dev libboost-program-options-dev libgtest-dev libgmock-dev
          libxxhash-dev nlohmann-json3-dev)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi

if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null 2>&1; then
    echo "setup: the CUDA toolkit is not installed (expected /usr/local/cuda); install it first" >&2
    exit 1
fi
export PATH="/usr/local/cuda/bin:$PATH"

cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" --parallel

[ "$run_job" -eq 1 ] || exit 0
echo
set +e
"$BUILD_DIR/jitgemm" info
status=$?
set -e
if [ "$status" -eq 3 ]; then
    echo
    echo "setup: built, but this machine has no GPU (no CUDA driver or device), so the GPU job was skipped."
    echo "setup: the CPU tests run here: ctest --test-dir $BUILD_DIR --output-on-failure"
    exit 0
fi
[ "$status" -eq 0 ] || exit "$status"
echo
"$BUILD_DIR/jitgemm" run --m 4096 --n 4096 --k 4096
