#!/usr/bin/env bash
# How close is weft's one-core time (the CPU side of the cost model: the
# MPI partitioner's work term and the CUDA targets' host side) to what one
# core really takes on PolyBench/C 4.2.1?
#
#   bash bench/cpu-predict.sh POLYBENCH_DIR [BUILD_DIR] [KERNEL ...]
#
# With RANKS=P (default 1) the prediction is for P ranks (`--ranks P`, the
# report's "predicted region time at P ranks") and weft's output runs under
# `mpirun -np P` (with --oversubscribe): the partitioner's whole model,
# work divided over the ranks and messages, against a run. With CPU=FILE
# the predictions are on that CPU description (`weft compile --cpu=FILE`,
# as `bench/cpu-core.c --json` prints one for this machine) instead of the
# built-in `cpu` device.
#
# For each kernel (or only the named ones), at $PB_DATASET (default LARGE):
#   1. weft compile --target=mpi --ranks $RANKS --report with the dataset's sizes
#      (--size=n=1300,...: the header's N by its name in the source; a name
#      no region uses is dropped); the prediction is the sum over the
#      regions of "predicted region time at $RANKS ranks" (none where the
#      estimate fails: "-");
#   2. $CC -O3 -march=native builds the original with PolyBench's timer
#      (-DPOLYBENCH_TIME: the kernel alone, after a cache flush), and
#      $MPICC the same way builds weft's output of step 1, which is what the
#      prediction is of; each runs $REPEAT (3) times, interleaved (weft's
#      under `mpirun -np $RANKS`), each run inside `flock /tmp/weft-timing.lock`,
#      and the best counts;
#   3. prints kernel, sizes, the input's and weft's measured s, predicted s,
#      predicted / weft's measured, then the geometric mean of the ratio and
#      how many kernels lie within a factor of 2.
# Environment: RANKS, CPU, PB_DATASET, REPEAT, CC (gcc), MPICC (mpicc), KEEP=1 keeps the
# work directory, TIMES=FILE takes the measured times from FILE's
# "KERNEL INPUT_SECONDS WEFT_SECONDS" lines (an earlier run's) instead of
# running the kernels.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: bash cpu-predict.sh POLYBENCH_DIR [BUILD_DIR] [KERNEL ...]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
source "$here/genc-lib.sh"
pb=$(cd "$1" && pwd)
shift
build=$root/build
if [ $# -gt 0 ] && [ -d "$1" ]; then
  build=$(cd "$1" && pwd)
  shift
fi
weft=${WEFT:-$build/bin/weft}
CC=${CC:-gcc}
MPICC=${MPICC:-mpicc}
REPEAT=${REPEAT:-3}
RANKS=${RANKS:-1}
cpu_flags=()
if [ -n "${CPU:-}" ]; then
  [ -r "$CPU" ] || { echo "CPU=$CPU: no such file" >&2; exit 2; }
  cpu_flags=(--cpu="$(cd "$(dirname "$CPU")" && pwd)/$(basename "$CPU")")
fi
case $RANKS in
  '' | *[!0-9]* | 0) echo "RANKS must be a positive number, not '$RANKS'" >&2; exit 2 ;;
esac
dataset=${PB_DATASET:-LARGE}_DATASET
work=$(mktemp -d)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

kernels=("$@")
if [ ${#kernels[@]} -eq 0 ]; then
  while read -r src; do
    kernels+=("$(basename "$src" .c)")
  done < <(find "$pb" -name '*.c' ! -path '*/utilities/*' | sort)
fi

ratios=()
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
printf '%-16s %-34s %10s %10s %10s %8s\n' kernel sizes input_s "weft_s@$RANKS" predicted_s pred/weft
for k in "${kernels[@]}"; do
  src=$(find "$pb" -path "*/$k/$k.c" | head -1)
  [ -n "$src" ] || { echo "no kernel $k under $pb" >&2; exit 1; }
  dir=$(dirname "$src")
  report=$work/$k.report
  if ! sizes=$(compile_sized "$weft" "$(polybench_sizes "$root" "${src%.c}.h" "$dataset")" \
    "$work/$k.mpi.c" "$report" --ranks "$RANKS" ${cpu_flags[@]+"${cpu_flags[@]}"} --report -I "$pb/utilities" -I "$dir" \
    "-D$dataset" "$src"); then
    echo "$k: weft failed" >&2
    exit 1
  fi
  predicted=$(sed -n 's/.*\(partition chosen\|no unit can be distributed\).*predicted region time at '"$RANKS"' ranks \([0-9.e+-]*\) s.*/\2/p' "$report" |
    awk 'BEGIN { s = 0; n = 0 } { s += $1; n++ } END { if (n) printf "%.4g", s; else print "-" }')
  if [ -n "${TIMES:-}" ]; then
    read -r input best < <(awk -v k="$k" '$1 == k { print $2, $3 }' "$TIMES")
    [ -n "$best" ] || { echo "no times of $k in $TIMES" >&2; exit 1; }
  else
    "$CC" -O3 -march=native "-D$dataset" -DPOLYBENCH_TIME -I "$pb/utilities" -I "$dir" \
      "$src" "$pb/utilities/polybench.c" -lm -o "$work/$k"
    "$MPICC" -O3 -march=native "-D$dataset" -DPOLYBENCH_TIME -I "$pb/utilities" -I "$dir" \
      "$work/$k.mpi.c" "$pb/utilities/polybench.c" -lm -o "$work/$k.mpi"
    input="" best=""
    for _ in $(seq "$REPEAT"); do
      input=$(min_of "$input" "$(flock /tmp/weft-timing.lock "$work/$k")")
      best=$(min_of "$best" "$(flock /tmp/weft-timing.lock mpirun --oversubscribe -np "$RANKS" "$work/$k.mpi")")
    done
  fi
  ratio=-
  if [ "$predicted" != - ]; then
    ratio=$(awk -v p="$predicted" -v m="$best" 'BEGIN { printf "%.2f", p / m }')
    ratios+=("$ratio")
  fi
  printf '%-16s %-34s %10s %10s %10s %8s\n' "$k" "${sizes:--}" "$input" "$best" "$predicted" "$ratio"
done
if [ ${#ratios[@]} -gt 0 ]; then
  printf '%s\n' "${ratios[@]}" | awk '
    { l += log($1); n++; if ($1 >= 0.5 && $1 <= 2) w++ }
    END { printf "geomean predicted/measured (weft) %.2f over %d kernels; %d within a factor of 2\n", exp(l / n), n, w }'
fi
