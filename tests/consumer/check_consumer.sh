#!/usr/bin/env bash
# Installs a jitgemm build into a scratch prefix and builds tests/consumer against it twice: with find_package(jitgemm)
# and with the README's pkg-config line (g++ ... $(pkg-config --cflags --libs --static jitgemm)); runs both. For a
# shared build it also checks that libjitgemm.so exports jitgemm's public API and none of its internals.
# usage: check_consumer.sh BUILD_DIR SOURCE_DIR [WORK_DIR]   (without WORK_DIR: a temporary one, removed after)
set -euo pipefail
build=$1 source=$2 work=${3:-}
if [ -z "$work" ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)  # absolute: CMAKE_PREFIX_PATH and -rpath must not depend on where they are read
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"

echo "== find_package(jitgemm) from $prefix"
cmake -S "$source/tests/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
    > "$work/configure.log"
cmake --build "$work/cmake" > "$work/build.log"
"$work/cmake/consumer"

echo "== pkg-config (the README's line)"
libdir=$(dirname "$(find "$prefix" -name jitgemm.pc)")/..
export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2046  # the flags are meant to split
g++ -std=c++17 "$source/tests/consumer/consumer.cpp" -o "$work/pkg-consumer" \
    $(pkg-config --cflags --libs --static jitgemm) -Wl,-rpath,"$(cd "$libdir" && pwd)"
"$work/pkg-consumer"

shared=$(find "$prefix" -name 'libjitgemm.so*' -type f | head -1)
if [ -n "$shared" ]; then
    echo "== symbols exported by $(basename "$shared")"
    # Allowed: the public API of include/jitgemm (jitgemm/export.h marks it) and jitgemm::Error's type information.
    public='jitgemm::(gemm|version|statistics|wait_for_background_tuning|release_workspaces|to_string|parse_[a-z_]+|size_of|set_log_level|log_level|set_log_callback|Error::)'
    # Symbols of jitgemm's own namespace (the std:: template instances over jitgemm types that libstdc++'s default
    # visibility exports are not jitgemm's interface and are left out).
    own=$(nm -DC --defined-only "$shared" | sed -E 's/^[0-9a-f]+ [A-Za-z] //' \
        | grep -E '^((typeinfo|typeinfo name|vtable) for )?jitgemm::' || true)
    leaked=$(echo "$own" | grep -Ev "^$public" | grep -Ev '^(typeinfo|typeinfo name|vtable) for jitgemm::Error$' \
        | grep -v '^$' || true)
    if [ -n "$leaked" ]; then
        echo "internal symbols exported:"
        echo "$leaked" | head -20
        exit 1
    fi
    echo "only the public API ($(echo "$own" | wc -l) symbols of namespace jitgemm)"
fi
echo "consumer checks passed"
