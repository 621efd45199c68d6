#!/usr/bin/env bash
# The main job on a bundled example: installs, builds, compiles
# examples/hpc/jacobi-2d.c with weft, then builds and runs both the original
# and the generated program and shows that they print the same thing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${WEFT_BUILD_DIR:-$root/build}
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh" >/dev/null
out=$(mktemp -d)
src=$root/examples/hpc/jacobi-2d.c
echo "== weft compile --target=seq $src -o $out/jacobi-2d.weft.c"
time "$build/bin/weft" compile --target=seq "$src" -o "$out/jacobi-2d.weft.c"
gcc -O2 "$src" -o "$out/original" -lm
gcc -O2 "$out/jacobi-2d.weft.c" -o "$out/weft" -lm
echo "== original:  $("$out/original")"
echo "== generated: $("$out/weft")"
cmp <("$out/original") <("$out/weft") && echo "== outputs are identical"
echo "(generated C kept in $out)"
