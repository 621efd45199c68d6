#!/usr/bin/env bash
# Two builds of weft against each other and against the input, on PolyBench
# kernels at one and two ranks: what a change to the generated C gains.
#
#   bash bench/compare-weft.sh POLYBENCH_DIR OLD_WEFT NEW_WEFT KERNEL...
#
# For each kernel, at $PB_DATASET (default LARGE): the input built with
# $CC -O3 -march=native and PolyBench's timer (-DPOLYBENCH_TIME: the kernel
# alone); each weft's `compile --target=mpi` of it, with the dataset's
# sizes (--size, as bench/cpu-predict.sh), built with $MPICC -O3
# -march=native. $REPEAT (3) rounds, interleaved: the input, then each
# output under `mpirun -np 1` and `-np 2`, every run inside
# `flock /tmp/weft-timing.lock`. Prints the best time of each, in seconds.
# Results are not compared here (bench/polybench-check.sh does that).
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: bash compare-weft.sh POLYBENCH_DIR OLD_WEFT NEW_WEFT KERNEL..." >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
source "$here/genc-lib.sh"
pb=$(cd "$1" && pwd)
old=$2 new=$3
shift 3
CC=${CC:-gcc}
MPICC=${MPICC:-mpicc}
REPEAT=${REPEAT:-3}
dataset=${PB_DATASET:-LARGE}_DATASET
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
flags=(-O3 -march=native "-D$dataset" -DPOLYBENCH_TIME -I "$pb/utilities")
printf '%-16s %10s %10s %10s %10s %10s\n' kernel input old_1 old_2 new_1 new_2
for k in "$@"; do
  src=$(find "$pb" -path "*/$k/$k.c" | head -1)
  [ -n "$src" ] || { echo "no kernel $k under $pb" >&2; exit 1; }
  dir=$(dirname "$src")
  sizes=$(polybench_sizes "$root" "${src%.c}.h" "$dataset")
  "$CC" "${flags[@]}" -I "$dir" "$src" "$pb/utilities/polybench.c" -lm -o "$work/$k"
  for v in old new; do
    compile_sized "${!v}" "$sizes" "$work/$k.$v.c" "$work/$k.$v.report" \
      -I "$pb/utilities" -I "$dir" "-D$dataset" "$src" >/dev/null
    "$MPICC" "${flags[@]}" -I "$dir" "$work/$k.$v.c" "$pb/utilities/polybench.c" -lm \
      -o "$work/$k.$v"
  done
  declare -A best=()
  for _ in $(seq "$REPEAT"); do
    best[input]=$(min_of "${best[input]:-}" "$(flock /tmp/weft-timing.lock "$work/$k")")
    for v in old new; do
      for np in 1 2; do
        t=$(flock /tmp/weft-timing.lock mpirun --oversubscribe -np "$np" "$work/$k.$v")
        best[$v$np]=$(min_of "${best[$v$np]:-}" "$t")
      done
    done
  done
  printf '%-16s %10s %10s %10s %10s %10s\n' "$k" "${best[input]}" "${best[old1]}" \
    "${best[old2]}" "${best[new1]}" "${best[new2]}"
  unset best
done
