#!/usr/bin/env bash
# End-to-end check for `weft compile --target=mpi`.
#
#   bash run-mpi.sh KERNEL.c TMPPREFIX [RANKS...]   (default ranks: 1 2 3 4 6)
#
# With $WEFT_E2E_LARGEST_RANKS_ONLY=1 (the sanitized tree) only the largest
# rank count runs: weft's output does not depend on it.
#
# $WEFT_FLAGS are passed to weft compile. With $WEFT_RTOL, numbers in stdout
# may differ by that relative tolerance (floating-point reductions split
# across ranks round differently); stderr must still match exactly.
#
# Builds KERNEL.c with gcc and runs it (the expected output), compiles it
# with weft for MPI, builds that with `mpicc -Wall -Werror`, runs it under
# mpirun on each rank count and compares stdout and stderr with the
# sequential run.
#
# With WEFT_TARGET=mpi-cuda the output is `--target=mpi-cuda` CUDA C++, built
# with mpicxx against the test-only CPU emulation of CUDA (runtime/cuda/hpc:
# -x c++ -fopenmp -DWEFT_CUDA_EMULATE). $WEFT_DEFINES (e.g. "-DN=23") go to gcc,
# weft and the output's build alike. As in run-seq.sh, every nest that may
# run on the device does (--gpu-choice=always) unless $WEFT_GPU_CHOICE says
# otherwise.
set -euo pipefail
src=$1
tmp=$2
shift 2
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(1 2 3 4 6)
if [ "${WEFT_E2E_LARGEST_RANKS_ONLY:-0}" = 1 ]; then
  ranks=("$(printf '%s\n' "${ranks[@]}" | sort -n | tail -1)")
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# No network interfaces are needed on one machine.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
fail() { echo "run-mpi: FAIL [$src]: $*" >&2; exit 1; }

defines=(${WEFT_DEFINES:-})
target_flags=()
gcc -O2 -std=gnu99 ${defines[@]+"${defines[@]}"} "$src" -o "$tmp.ref" -lm 2>"$tmp.ref.log" || fail "gcc failed on the original"
"$tmp.ref" >"$tmp.ref.out" 2>"$tmp.ref.err" || fail "the original program failed"
if [ "${WEFT_TARGET:-mpi}" = mpi-cuda ]; then
  out=$tmp.mpi.cu
  build=(mpicxx -x c++ -std=gnu++17 -O2 -Wall -Werror -fopenmp -DWEFT_CUDA_EMULATE)
  target_flags=(--gpu-choice="${WEFT_GPU_CHOICE:-always}")
else
  out=$tmp.mpi.c
  build=(mpicc -O2 -std=gnu99 -Wall -Werror)
fi
weft compile --target=${WEFT_TARGET:-mpi} ${target_flags[@]+"${target_flags[@]}"} ${WEFT_FLAGS:-} ${defines[@]+"${defines[@]}"} "$src" -o "$out" 2>"$tmp.weft.log" ||
  { cat "$tmp.weft.log" >&2; fail "weft failed"; }
"${build[@]}" ${defines[@]+"${defines[@]}"} "$out" -o "$tmp.mpi" -lm 2>"$tmp.mpicc.log" ||
  { cat "$tmp.mpicc.log" >&2; fail "${build[0]} failed on weft's output"; }
for p in "${ranks[@]}"; do
  timeout 120 mpirun --oversubscribe -np "$p" "$tmp.mpi" >"$tmp.$p.out" 2>"$tmp.$p.err" ||
    { cat "$tmp.$p.err" >&2; fail "mpirun -np $p failed"; }
  if [ -n "${WEFT_RTOL:-}" ]; then
    python3 "$(dirname "$0")/compare-numbers.py" "$tmp.ref.out" "$tmp.$p.out" "$WEFT_RTOL" ||
      fail "stdout differs on $p ranks beyond rtol $WEFT_RTOL"
  else
    cmp -s "$tmp.ref.out" "$tmp.$p.out" || { diff "$tmp.ref.out" "$tmp.$p.out" | head -5 >&2; fail "stdout differs on $p ranks"; }
  fi
  cmp -s "$tmp.ref.err" "$tmp.$p.err" || { diff "$tmp.ref.err" "$tmp.$p.err" | head -5 >&2; fail "stderr differs on $p ranks"; }
done
echo "run-mpi: PASS [$src] (${WEFT_TARGET:-mpi}) on ${ranks[*]} ranks"
