#!/usr/bin/env bash
# Configures (once) and builds the sanitized tree build-san/ with Clang 19:
# weft, its libraries, the runtime and the tests with AddressSanitizer and
# UBSan, plus the libFuzzer targets of fuzz/ (docs/reliability.md).
#   WEFT_SAN_BUILD_DIR  the build directory (default build-san)
#   extra arguments     ninja targets (default: everything)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${WEFT_SAN_BUILD_DIR:-$root/build-san}
export CCACHE_BASEDIR=$root
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 -DWEFT_FUZZ=ON
fi
ninja -C "$build" "$@"
