#!/usr/bin/env bash
# How good is the C that weft writes? Size, vectorisation and instructions
# of the generated programs against the program they came from (and, with
# TIME=1, their times).
#
#   bash bench/generated-c.sh [BUILD_DIR] [KERNEL ...]
#
# For each kernel of the table below (or only the named ones):
#   1. weft compile --target=seq and --target=mpi write seq.c and mpi.c;
#      gcc -O2 builds the original (ref), seq.c and mpi.c, and the outputs
#      of ref, seq, `mpirun -np 1 mpi` and `mpirun -np 2 mpi` are compared
#      (a kernel whose outputs differ is reported DIFF, one whose run fails
#      FAILED);
#   2. size: lines of the region in the source (between #pragma scop and
#      #pragma endscop) and lines of weft's region functions (their
#      definitions, runtime header excluded), per region line, for seq.c and
#      mpi.c;
#   3. for each compiler configuration below, loops vectorised in the
#      original (vIn), in seq.c (vSeq), in mpi.c outside the distributed
#      forms of the regions (vMpi1: what runs at P = 1) and inside them
#      (vDist): gcc's `-fopt-info-vec-optimized` "loop vectorized" and
#      clang's `-Rpass=loop-vectorize` "vectorized loop" remarks;
#   4. for the configurations marked `ir` (INSTR=1, the default), the
#      instructions valgrind cachegrind counts for seq and for the MPI
#      program run as a singleton (minus an empty MPI program built the same
#      way), relative to the original's: 1.000 is the same work;
#   5. with TIME=1, the best of $REPEAT wall times of ref, seq, and of
#      `mpirun -np 1` and `-np 2` minus the empty MPI program's, each timed
#      inside `flock /tmp/weft-timing.lock` (meaningful on an idle machine
#      only: MPI ranks spin while they wait, and a loaded machine makes
#      them wait for a core). The kernels of bench/kernels also print the
#      time of their region alone (region-time.h), without the program's
#      start, initialisation and output, which stay sequential on every
#      rank: a second line gives the best of those.
#
# Configurations: gcc -O2; gcc -O3 -march=native; clang-19 -O3; and, compiled
# only (the machine may not run them), gcc -O3 -march=skylake-avx512
# (AVX-512) and gcc -O3 -march=haswell (AVX2, whose instructions valgrind
# counts). CONFIGS="name ..." picks some of them.
#
# Environment: MPICC (mpicc; the clang configuration sets OMPI_CC and
# MPICH_CC), INSTR (1), TIME (0), REPEAT (5), SIZES (large: the kernels at
# about a second each), KEEP=1 keeps the work directory.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
build=$root/build
if [ $# -gt 0 ] && [ -d "$1" ]; then
  build=$(cd "$1" && pwd)
  shift
fi
only=("$@")
weft=${WEFT:-$build/bin/weft}
MPICC=${MPICC:-mpicc}
REPEAT=${REPEAT:-5}
INSTR=${INSTR:-1}
TIME=${TIME:-0}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none

# name | compiler | flags | what: vec (vectorisation), ir (instructions)
all_configs=(
  "gcc-O2|gcc|-O2|vec ir"
  "gcc-O3-native|gcc|-O3 -march=native|vec"
  "clang19-O3|clang-19|-O3|vec ir"
  "gcc-O3-avx512|gcc|-O3 -march=skylake-avx512|vec"
  "gcc-O3-avx2|gcc|-O3 -march=haswell|vec ir"
)
configs=()
for c in "${all_configs[@]}"; do
  name=${c%%|*}
  if [ -z "${CONFIGS:-}" ] || printf '%s\n' $CONFIGS | grep -qx "$name"; then
    configs+=("$c")
  fi
done

# kernel | source | size overrides
seqdir=$root/test/E2E/seq
kernels=(
  "jacobi-2d-example|$root/examples/hpc/jacobi-2d.c|"
  "jacobi-2d|$seqdir/jacobi-2d.c|-DN=600 -DTSTEPS=300"
  "jacobi-1d|$seqdir/jacobi-1d.c|-DN=40000 -DTSTEPS=8000"
  "heat-3d|$seqdir/heat-3d.c|-DN=80 -DTSTEPS=100"
  "fdtd-2d|$seqdir/fdtd-2d.c|-DNX=600 -DNY=600 -DTMAX=200"
  "gemm|$seqdir/gemm.c|-DNI=400 -DNJ=400 -DNK=600"
  "seidel-2d|$seqdir/seidel-2d.c|-DN=400 -DTSTEPS=60"
)
# SIZES=large: sizes at which each kernel runs for about a second, as in
# issue 17's measurements, for TIME=1: the kernels of bench/kernels, which
# print a checksum (the test kernels print their arrays, and mpirun's
# forwarding of that text would be most of the MPI programs' time).
if [ "${SIZES:-}" = large ]; then
  benchdir=$here/kernels
  kernels=(
    "jacobi-2d|$benchdir/jacobi-2d.c|-DN=2000 -DTSTEPS=150"
    "jacobi-1d|$benchdir/jacobi-1d.c|-DN=400000 -DTSTEPS=4000"
    "heat-3d|$benchdir/heat-3d.c|-DN=160 -DTSTEPS=40"
    "fdtd-2d|$benchdir/fdtd-2d.c|-DNX=1500 -DNY=1500 -DTMAX=100"
    "gemm|$benchdir/gemm.c|-DNI=900 -DNJ=900 -DNK=900"
  )
fi

[ -x "$weft" ] || { echo "generated-c: no weft executable at $weft" >&2; exit 2; }
if [ "$INSTR" = 1 ] && ! command -v valgrind >/dev/null; then
  echo "generated-c: INSTR=1 needs valgrind" >&2; exit 2
fi
ulimit -s unlimited 2>/dev/null || true

work=$(mktemp -d "${TMPDIR:-/tmp}/weft-genc.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
  echo "work directory: $work"
else
  trap 'rm -rf "$work"' EXIT
fi
cp "$weft" "$work/weft"

source "$here/genc-lib.sh"
# Best seconds of REPEAT wall-clock runs of "$@" (stdout dropped), and the
# best of the region times the program prints on stderr ("region seconds S",
# the kernels of bench/kernels; "-" for a program that prints none).
run_times() {
  local best= region= t r
  for _ in $(seq "$REPEAT"); do
    # Timed inside the lock, so that waiting for it does not count.
    t=$(flock /tmp/weft-timing.lock bash -c 'TIMEFORMAT="%R"; { time "${@:2}" >/dev/null 2>"$1"; } 2>&1' _ "$work/stderr" "$@" | tail -1)
    r=$(awk '$1 == "region" && $2 == "seconds" {print $3}' "$work/stderr" | tail -1)
    best=$(min_of "$best" "$t")
    [ -n "$r" ] && region=$(min_of "$region" "$r")
  done
  echo "$best ${region:--}"
}
wall_time() { run_times "$@" | cut -d' ' -f1; }

cat > "$work/empty.c" <<'EOF'
#include <mpi.h>
int main(int argc, char **argv) { MPI_Init(&argc, &argv); MPI_Finalize(); return 0; }
EOF
declare -A empty_ir
for c in "${configs[@]}"; do
  IFS='|' read -r cname cc cflags what <<< "$c"
  if [ "$INSTR" = 1 ] && [[ " $what " == *" ir "* ]]; then
    # shellcheck disable=SC2086
    mpicc_for "$cc" $cflags "$work/empty.c" -o "$work/empty.$cname"
    empty_ir[$cname]=$(instructions "$work/empty.$cname")
  fi
done
mpicc_for gcc -O2 "$work/empty.c" -o "$work/empty"
if [ "$TIME" = 1 ]; then
  empty1=$(wall_time mpirun --oversubscribe -np 1 "$work/empty")
  empty2=$(wall_time mpirun --oversubscribe -np 2 "$work/empty")
fi

echo "weft: $weft; MPICC=$MPICC; INSTR=$INSTR TIME=$TIME"
for c in "${configs[@]}"; do
  IFS='|' read -r cname cc cflags what <<< "$c"
  echo "  $cname: $cc $cflags ($what)${empty_ir[$cname]:+; empty MPI program ${empty_ir[$cname]} instructions}"
done
printf '%-18s %4s %7s %7s %-14s %4s %4s %5s %5s %8s %8s %5s\n' \
  kernel reg seq/reg mpi/reg config vIn vSeq vMpi1 vDist Ir-seq Ir-mpi1 ok
status=0
for entry in "${kernels[@]}"; do
  IFS='|' read -r name src defs <<< "$entry"
  if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$name"; then
    continue
  fi
  d=$work/$name
  mkdir -p "$d"
  inc=-I$(dirname "$src")
  # shellcheck disable=SC2086
  {
    "$work/weft" compile --target=seq $defs "$src" -o "$d/seq.c" &&
    "$work/weft" compile $defs "$src" -o "$d/mpi.c" &&
    gcc -O2 -std=gnu99 $defs "$src" -o "$d/ref" -lm &&
    gcc -O2 -std=gnu99 $defs "$inc" "$d/seq.c" -o "$d/seq" -lm &&
    mpicc_for gcc -O2 -std=gnu99 $defs "$inc" "$d/mpi.c" -o "$d/mpi" -lm
  } >"$d/build.log" 2>&1 || { echo "$name: build failed (see $d/build.log)"; status=1; continue; }
  ok=same
  # A program that fails is reported, not compared (two crashes print the
  # same nothing).
  "$d/ref" > "$d/ref.out" 2>>"$d/run.err" || ok=FAILED
  "$d/seq" > "$d/seq.out" 2>>"$d/run.err" || ok=FAILED
  mpirun --oversubscribe -np 1 "$d/mpi" > "$d/mpi1.out" 2>>"$d/run.err" || ok=FAILED
  mpirun --oversubscribe -np 2 "$d/mpi" > "$d/mpi2.out" 2>>"$d/run.err" || ok=FAILED
  if [ "$ok" = same ]; then
    for o in seq mpi1 mpi2; do cmp -s "$d/ref.out" "$d/$o.out" || ok=DIFF; done
  fi
  [ "$ok" = same ] || status=1

  reg=$(region_lines "$src")
  perline() { awk -v a="$1" -v b="$reg" 'BEGIN{printf "%.1f", b ? a / b : 0}'; }
  seqpl=$(perline "$(function_lines "$d/seq.c")")
  mpipl=$(perline "$(function_lines "$d/mpi.c")")

  hdr_end=$(prepare_vectorised "$d")

  for c in "${configs[@]}"; do
    IFS='|' read -r cname cc cflags what <<< "$c"
    # shellcheck disable=SC2086
    counts=$(vectorised_loops "$d" "$cname" "$hdr_end" "$cc" "$src" $cflags -std=gnu99 $defs "$inc") ||
      { echo "$name: $cname compile failed (see $d/v*.$cname.log)"; status=1; continue; }
    read -r vin vseq vmpi1 vdist <<< "$counts"

    irseq=-; irmpi=-
    if [ "$INSTR" = 1 ] && [[ " $what " == *" ir "* ]]; then
      # shellcheck disable=SC2086
      $cc $cflags -std=gnu99 $defs "$src" -o "$d/ref.$cname" -lm
      # shellcheck disable=SC2086
      $cc $cflags -std=gnu99 $defs "$inc" "$d/seq.c" -o "$d/seq.$cname" -lm
      # shellcheck disable=SC2086
      mpicc_for "$cc" $cflags -std=gnu99 $defs "$inc" "$d/mpi.c" -o "$d/mpi.$cname" -lm
      irref=$(instructions "$d/ref.$cname")
      irseq=$(ratio "$(instructions "$d/seq.$cname")" "$irref")
      irm=$(instructions "$d/mpi.$cname")
      irmpi=$(ratio "$((irm - ${empty_ir[$cname]}))" "$irref")
    fi
    printf '%-18s %4s %7s %7s %-14s %4s %4s %5s %5s %8s %8s %5s\n' \
      "$name" "$reg" "$seqpl" "$mpipl" "$cname" "$vin" "$vseq" "$vmpi1" "$vdist" \
      "$irseq" "$irmpi" "$ok"
  done

  if [ "$TIME" = 1 ]; then
    read -r tref rref <<< "$(run_times "$d/ref")"
    read -r tseq rseq <<< "$(run_times "$d/seq")"
    read -r t1 r1 <<< "$(run_times mpirun --oversubscribe -np 1 "$d/mpi")"
    read -r t2 r2 <<< "$(run_times mpirun --oversubscribe -np 2 "$d/mpi")"
    t1=$(awk -v a="$t1" -v e="$empty1" 'BEGIN{printf "%.3f", a - e}')
    t2=$(awk -v a="$t2" -v e="$empty2" 'BEGIN{printf "%.3f", a - e}')
    echo "$name: gcc -O2 wall s: ref $tref seq $tseq mpi1 $t1 mpi2 $t2;" \
      "mpi1/ref $(ratio "$t1" "$tref") ref/mpi2 $(ratio "$tref" "$t2")"
    if [ "$rref" != - ] && [ "$r1" != - ] && [ "$r2" != - ]; then
      echo "$name: gcc -O2 region s: ref $rref seq $rseq mpi1 $r1 mpi2 $r2;" \
        "mpi1/ref $(ratio "$r1" "$rref") ref/mpi2 $(ratio "$rref" "$r2")"
    fi
  fi
done
exit $status
