#!/usr/bin/env bash
# The main job on a bundled example: installs, builds, compiles
# examples/hpc/jacobi-2d.c with weft for a sequential and for an MPI target,
# then builds and runs the original and both generated programs (the MPI one
# on 3 ranks) and shows that they print the same thing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${WEFT_BUILD_DIR:-$root/build}
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh" >/dev/null
out=$(mktemp -d)
src=$root/examples/hpc/jacobi-2d.c
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none

echo "== weft compile --target=seq $src -o $out/jacobi-2d.seq.c"
time "$build/bin/weft" compile --target=seq "$src" -o "$out/jacobi-2d.seq.c"
echo "== weft compile $src -o $out/jacobi-2d.mpi.c   (--target=mpi)"
"$build/bin/weft" compile "$src" -o "$out/jacobi-2d.mpi.c"

gcc -O2 "$src" -o "$out/original" -lm
gcc -O2 -Wall "$out/jacobi-2d.seq.c" -o "$out/seq" -lm
mpicc -O2 -Wall "$out/jacobi-2d.mpi.c" -o "$out/mpi" -lm
expected=$("$out/original")
echo "== original:            $expected"
echo "== weft, sequential:    $("$out/seq")"
echo "== weft, MPI (3 ranks): $(mpirun --oversubscribe -np 3 "$out/mpi")"
[ "$expected" = "$("$out/seq")" ] &&
  [ "$expected" = "$(mpirun --oversubscribe -np 3 "$out/mpi")" ] &&
  echo "== all outputs are identical"
echo "(generated C kept in $out)"
