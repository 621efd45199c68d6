#!/usr/bin/env bash
# Configures (once) and builds weft into build/ with Ninja and ccache.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${WEFT_BUILD_DIR:-$root/build}
export CCACHE_BASEDIR=$root
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
ninja -C "$build" weft weft-opt weft-translate WeftUnitTests weft-llama-ref
