#!/usr/bin/env bash
# How good is the C that weft writes? Size, vectorisation, instructions and
# time of the generated programs against the program they came from.
#
#   bash bench/generated-c.sh [BUILD_DIR] [KERNEL ...]
#
# For each kernel of the table below (or only the named ones):
#   1. gcc builds the original (ref); weft compile --target=seq and
#      --target=mpi write seq.c and mpi.c, which gcc and mpicc build with the
#      same $CFLAGS (default -O2);
#   2. the outputs of ref, seq, `mpirun -np 1 mpi` and `mpirun -np 2 mpi`
#      are compared once (a kernel whose outputs differ is reported DIFF);
#   3. size: lines of the region in the source (between #pragma scop and
#      #pragma endscop) and lines of weft's region functions (their
#      definitions, runtime header excluded), per region line, for seq.c and
#      mpi.c;
#   4. vectorised loops: `-fopt-info-vec-optimized` messages of gcc $CFLAGS
#      on the original, on seq.c, and on mpi.c outside the distributed
#      forms of the regions (what runs at P = 1), plus those inside them;
#   5. instructions (INSTR=1, the default; valgrind cachegrind without cache
#      simulation): ref, seq and the MPI program run as a singleton, minus
#      the instructions of an empty MPI program (MPI_Init and MPI_Finalize);
#   6. time: best of $REPEAT runs, each timed inside `flock
#      /tmp/weft-timing.lock`: wall time of ref and seq, and of `mpirun -np
#      1` and `-np 2` minus the wall time of the empty MPI program under the
#      same mpirun (MPI start-up and shutdown). Wall time, since MPI ranks
#      spin while they wait (their CPU time is not their work); on a loaded
#      machine it includes waiting for a core.
# Ratios: mpi1/ref and ref/mpi2 (the 2-rank speed-up over the sequential
# program). Times on a shared 2-core machine are noisy; the instruction
# counts are not.
#
# Environment: CC (gcc), MPICC (mpicc), CFLAGS (-O2), REPEAT (5), INSTR (1),
# KEEP=1 keeps the work directory.
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
CC=${CC:-gcc}
MPICC=${MPICC:-mpicc}
CFLAGS=${CFLAGS:--O2}
REPEAT=${REPEAT:-5}
INSTR=${INSTR:-1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none

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

# Lines of the scop regions of a C file.
region_lines() {
  awk '/^[ \t]*#pragma[ \t]+scop/{r=1; next} /^[ \t]*#pragma[ \t]+endscop/{r=0} r{n++} END{print n+0}' "$1"
}
# Lines of weft's region function definitions (weft_<function>_scop<N>...).
function_lines() {
  awk '/^static .*weft_[A-Za-z0-9_]*_scop[0-9]+[A-Za-z_]*\(/{f=1} f{n++} f&&/^}/{f=0} END{print n+0}' "$1"
}
# The line ranges "first last" of the distributed forms in a C file.
distributed_ranges() {
  awk '/^static .*weft_[A-Za-z0-9_]*_scop[0-9]+_distributed\(/{f=1; s=NR} f&&/^}/{print s, NR; f=0}' "$1"
}
# Vectorised loops gcc reports for a file: all, or (with a ranges file)
# "outside inside" the given line ranges.
vectorised() {
  local log=$1 ranges=${2:-}
  if [ -z "$ranges" ]; then
    grep -c 'optimized: loop vectorized' "$log" || true
    return
  fi
  grep 'optimized: loop vectorized' "$log" | sed 's/^[^:]*:\([0-9]*\):.*/\1/' |
    awk -v rf="$ranges" 'BEGIN{while((getline l < rf) > 0){split(l,a," "); lo[++k]=a[1]; hi[k]=a[2]}}
      {in_=0; for(i=1;i<=k;i++) if($1>=lo[i] && $1<=hi[i]) in_=1; if(in_) d++; else o++}
      END{print o+0, d+0}'
}
instructions() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/I[ ]+refs:/{gsub(",","",$NF); print $NF}'
}
# Best seconds of REPEAT runs of "$@" (stdout and stderr dropped), by bash's
# `time`: $1 = cpu (user + sys, the program and its children) or wall.
best_time() {
  local kind=$1 best= t
  shift
  for _ in $(seq "$REPEAT"); do
    # Timed inside the lock, so that waiting for it does not count.
    t=$(flock /tmp/weft-timing.lock bash -c 'TIMEFORMAT="%R %U %S"; { time "$@" >/dev/null 2>&1; } 2>&1' _ "$@" |
        tail -1 | awk -v k="$kind" '{print k == "cpu" ? $2 + $3 : $1}')
    best=$(awk -v a="$best" -v b="$t" 'BEGIN{print (a == "" || b < a) ? b : a}')
  done
  echo "$best"
}
wall_time() { best_time wall "$@"; }

cat > "$work/empty.c" <<'EOF'
#include <mpi.h>
int main(int argc, char **argv) { MPI_Init(&argc, &argv); MPI_Finalize(); return 0; }
EOF
$MPICC $CFLAGS "$work/empty.c" -o "$work/empty"
empty_ir=0
[ "$INSTR" = 1 ] && empty_ir=$(instructions "$work/empty")
empty1=$(wall_time mpirun --oversubscribe -np 1 "$work/empty")
empty2=$(wall_time mpirun --oversubscribe -np 2 "$work/empty")

echo "CFLAGS=$CFLAGS REPEAT=$REPEAT; empty MPI program: $empty_ir instructions, wall $empty1 s (np 1), $empty2 s (np 2)"
printf '%-18s %5s %8s %8s %5s %5s %5s %7s %7s %7s %7s %7s %7s %7s %7s %6s %6s\n' \
  kernel reg seq/reg mpi/reg vIn vSeq vMpi1/D Ir-seq Ir-mpi1 ref-s seq-s mpi1-s mpi2-s mpi1/ref ref/mpi2 ok
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
    $CC $CFLAGS -std=gnu99 $defs "$src" -o "$d/ref" -lm &&
    "$work/weft" compile --target=seq $defs "$src" -o "$d/seq.c" &&
    "$work/weft" compile $defs "$src" -o "$d/mpi.c" &&
    $CC $CFLAGS -std=gnu99 $defs "$inc" "$d/seq.c" -o "$d/seq" -lm &&
    $MPICC $CFLAGS -std=gnu99 $defs "$inc" "$d/mpi.c" -o "$d/mpi" -lm
  } >"$d/build.log" 2>&1 || { echo "$name: build failed (see $d/build.log)"; status=1; continue; }
  ok=same
  "$d/ref" > "$d/ref.out"
  "$d/seq" > "$d/seq.out"
  mpirun --oversubscribe -np 1 "$d/mpi" > "$d/mpi1.out"
  mpirun --oversubscribe -np 2 "$d/mpi" > "$d/mpi2.out"
  for o in seq mpi1 mpi2; do cmp -s "$d/ref.out" "$d/$o.out" || ok=DIFF; done
  [ "$ok" = same ] || status=1

  reg=$(region_lines "$src")
  perline() { awk -v a="$1" -v b="$reg" 'BEGIN{printf "%.1f", b ? a / b : 0}'; }
  seqpl=$(perline "$(function_lines "$d/seq.c")")
  mpipl=$(perline "$(function_lines "$d/mpi.c")")

  # The outputs without their #line directives, so that gcc names the
  # lines of the file itself: loops of the runtime header (the first lines)
  # count for neither side, loops of the distributed forms separately.
  sed '/^#line /d' "$d/seq.c" > "$d/seq.nl.c"
  sed '/^#line /d' "$d/mpi.c" > "$d/mpi.nl.c"
  # shellcheck disable=SC2086
  $CC $CFLAGS -std=gnu99 $defs -fopt-info-vec-optimized -c "$src" -o /dev/null 2>"$d/vin.log"
  # shellcheck disable=SC2086
  $CC $CFLAGS -std=gnu99 $defs "$inc" -fopt-info-vec-optimized -c "$d/seq.nl.c" -o /dev/null 2>"$d/vseq.log"
  # shellcheck disable=SC2086
  $MPICC $CFLAGS -std=gnu99 $defs "$inc" -fopt-info-vec-optimized -c "$d/mpi.nl.c" -o /dev/null 2>"$d/vmpi.log"
  distributed_ranges "$d/mpi.nl.c" > "$d/dist.ranges"
  hdr=$(grep -n '^static WEFT_RT_UNUSED int weft_rt_ranges_overlap' "$d/mpi.nl.c" | head -1 | cut -d: -f1)
  hdr_end=$(awk -v h="${hdr:-0}" 'NR > h && /^}/{print NR; exit}' "$d/mpi.nl.c")
  grep "^$d/mpi.nl.c:.*optimized: loop vectorized" "$d/vmpi.log" |
    awk -F: -v h="${hdr_end:-0}" '$2 > h' > "$d/vmpi.body.log" || true
  vin=$(vectorised "$d/vin.log")
  vseq=$(vectorised "$d/vseq.log")
  read -r vmpi1 vmpid <<< "$(vectorised "$d/vmpi.body.log" "$d/dist.ranges")"

  irseq=-; irmpi=-
  if [ "$INSTR" = 1 ]; then
    irref=$(instructions "$d/ref")
    irs=$(instructions "$d/seq")
    irm=$(instructions "$d/mpi")
    irseq=$(awk -v a="$irs" -v b="$irref" 'BEGIN{printf "%.3f", a / b}')
    irmpi=$(awk -v a="$irm" -v e="$empty_ir" -v b="$irref" 'BEGIN{printf "%.3f", (a - e) / b}')
  fi

  tref=$(wall_time "$d/ref")
  tseq=$(wall_time "$d/seq")
  t1=$(wall_time mpirun --oversubscribe -np 1 "$d/mpi")
  t2=$(wall_time mpirun --oversubscribe -np 2 "$d/mpi")
  t1=$(awk -v a="$t1" -v e="$empty1" 'BEGIN{printf "%.3f", a - e}')
  t2=$(awk -v a="$t2" -v e="$empty2" 'BEGIN{printf "%.3f", a - e}')
  r1=$(awk -v a="$t1" -v b="$tref" 'BEGIN{printf "%.2f", (b > 0 ? a / b : 0)}')
  r2=$(awk -v a="$t2" -v b="$tref" 'BEGIN{printf "%.2f", (a > 0 ? b / a : 0)}')
  printf '%-18s %5s %8s %8s %5s %5s %5s/%-2s %7s %7s %7s %7s %7s %7s %7s %6s %6s\n' \
    "$name" "$reg" "$seqpl" "$mpipl" "$vin" "$vseq" "$vmpi1" "$vmpid" "$irseq" "$irmpi" \
    "$tref" "$tseq" "$t1" "$t2" "$r1" "$r2" "$ok"
done
exit $status
