#!/usr/bin/env bash
# How fast and how large is weft's C on PolyBench/C 4.2.1, against the
# kernels themselves? The PolyBench half of bench/generated-c.sh.
#
#   bash bench/polybench-perf.sh POLYBENCH_DIR [BUILD_DIR] [KERNEL ...]
#
# For each kernel (or only the named ones), at the dataset of the table
# below:
#   1. weft compile --target=seq and --target=mpi; gcc -O2 builds the
#      original (ref), seq.c and mpi.c with PolyBench's timer
#      (-DPOLYBENCH_TIME: the kernel call alone, after a cache flush);
#   2. size: lines of the kernel's scop region and of weft's region
#      functions per region line (seq.c, mpi.c; runtime header excluded);
#   3. loops gcc -O2 vectorises in the original (vIn), seq.c (vSeq), mpi.c
#      outside the distributed forms (vMpi1: what runs at P = 1) and inside
#      them (vDist), as in bench/generated-c.sh;
#   4. with INSTR=1 (the default), at $PB_INSTR_DATASET (default MEDIUM,
#      and the timing dataset for kernels of quadratic work), the
#      instructions valgrind callgrind counts inside the kernel function
#      (kernel_*: PolyBench's region and what it calls, in a copy of the
#      source that marks it noipa, so that it stays a function): Ir-seq and
#      Ir-mpi1 (the MPI program as a singleton) relative to the original's
#      (1.000 is the same work), and Ir-2, the original's count over the
#      busier rank's at `mpirun -np 2`, without the instructions inside MPI
#      calls (a rank waiting for a message spins there, as long as the load
#      makes it): the 2-rank speed-up the computation allows, communication
#      left out;
#   5. with TIME=1 (the default), the best of $REPEAT (3) kernel times of
#      ref, seq, `mpirun -np 1 mpi` and `mpirun -np 2 mpi` (the slower
#      rank's; `--bind-to none`, so that the ranks, like ref, run on
#      whichever core is free), each run inside `flock
#      /tmp/weft-timing.lock`: seq/ref, mpi1/ref and ref/mpi2 (the 2-rank
#      speed-up over the input);
#   6. with CHECK=1 (the default), the arrays the original dumps
#      (-DPOLYBENCH_DUMP_ARRAYS, "%0.2lf") against those of the MPI program
#      on 2 ranks at the same size: "same", "close" (every number within a
#      relative 1e-4: the rounding of floating-point sums split across
#      ranks, weft's default --fp-reductions=split) or DIFF.
# Environment: REPEAT, INSTR, TIME, CHECK, PB_DATASET (one dataset for every
# kernel instead of the table), KEEP=1 keeps the work directory. Prints one
# line per kernel; exits 1 if a kernel fails to build, run or match.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: bash polybench-perf.sh POLYBENCH_DIR [BUILD_DIR] [KERNEL ...]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
pb=$(cd "$1" && pwd)
shift
build=$root/build
if [ $# -gt 0 ] && [ -d "$1" ]; then
  build=$(cd "$1" && pwd)
  shift
fi
only=("$@")
weft=${WEFT:-$build/bin/weft}
MPICC=${MPICC:-mpicc}
REPEAT=${REPEAT:-3}
TIME=${TIME:-1}
CHECK=${CHECK:-1}
INSTR=${INSTR:-1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
source "$here/genc-lib.sh"

[ -f "$pb/utilities/polybench.c" ] || { echo "polybench-perf: $pb/utilities/polybench.c not found" >&2; exit 2; }
[ -x "$weft" ] || { echo "polybench-perf: no weft executable at $weft" >&2; exit 2; }

# Dataset per kernel: LARGE (0.3-2.8 s for ref here), EXTRALARGE for the
# kernels of quadratic work (still 2-30 ms), MEDIUM for three that run for
# 10-17 s at LARGE (0.07-0.12 s at MEDIUM).
dataset_of() {
  [ -n "${PB_DATASET:-}" ] && { echo "$PB_DATASET"; return; }
  case $1 in
    floyd-warshall | adi | seidel-2d) echo MEDIUM_DATASET ;;
    atax | bicg | durbin | gemver | gesummv | jacobi-1d | mvt | trisolv) echo EXTRALARGE_DATASET ;;
    *) echo LARGE_DATASET ;;
  esac
}

# Dataset of the instruction counts: MEDIUM, or the timing dataset for the
# kernels of quadratic work (a few million instructions at MEDIUM).
instr_dataset_of() {
  [ -n "${PB_INSTR_DATASET:-}" ] && { echo "$PB_INSTR_DATASET"; return; }
  case $(dataset_of "$1") in
    EXTRALARGE_DATASET) echo EXTRALARGE_DATASET ;;
    *) echo MEDIUM_DATASET ;;
  esac
}

work=$(mktemp -d "${TMPDIR:-/tmp}/weft-pbperf.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
  echo "work directory: $work"
else
  trap 'rm -rf "$work"' EXIT
fi
# A copy: a rebuild during the run must not change the compiler measured.
cp "$weft" "$work/weft"
weft=$work/weft

# Instructions inside kernel_*, less those inside MPI calls, of a program
# ("$@") run as it is or, with LAUNCH="mpirun ...", of the busiest rank.
kernel_instructions() {
  local dir f
  dir=$(mktemp -d "$work/callgrind.XXXXXX")
  ${LAUNCH:-} valgrind --tool=callgrind --toggle-collect='kernel_*' \
    --callgrind-out-file="$dir/out.%p" "$@" >/dev/null 2>&1
  for f in "$dir"/out.*; do
    callgrind_annotate --inclusive=yes --threshold=100 "$f" |
      awk '/PROGRAM TOTALS/ {gsub(",", "", $1); t = $1}
           /=>|<=/ {next}
           /:P?MPI_[A-Za-z_]+ / {gsub(",", "", $1); m += $1}
           END {print t - m}'
  done | sort -n | tail -1
  rm -rf "$dir"
}

# Best of REPEAT runs of "$@": the largest time any process of one run
# prints (PolyBench prints its kernel time on stdout, every rank its own).
kernel_time() {
  local best= t
  for _ in $(seq "$REPEAT"); do
    t=$(flock /tmp/weft-timing.lock "$@" 2>/dev/null | awk '$1+0 > m {m = $1+0} END {print m+0}')
    best=$(min_of "$best" "$t")
  done
  echo "$best"
}

if [ "$INSTR" = 1 ] && ! command -v valgrind >/dev/null; then
  echo "polybench-perf: INSTR=1 needs valgrind" >&2; exit 2
fi

mapfile -t srcs < <(
  for cat in linear-algebra datamining medley stencils; do
    find "$pb/$cat" -name '*.c' | while read -r f; do
      [ "$(basename "$f" .c)" = "$(basename "$(dirname "$f")")" ] && echo "$f"
    done
  done | sort)

echo "weft: $weft; gcc -O2; REPEAT=$REPEAT INSTR=$INSTR TIME=$TIME CHECK=$CHECK; load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-15s %-6s %4s %7s %7s %3s %4s %5s %5s %7s %7s %7s %8s %7s %7s %7s %5s\n' \
  kernel size reg seq/reg mpi/reg vIn vSeq vMpi1 vDist Ir-seq Ir-mpi1 Ir-2 ref-s seq/ref mpi1/ref ref/mpi2 ok
status=0
for src in "${srcs[@]}"; do
  name=$(basename "$src" .c)
  if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$name"; then
    continue
  fi
  ds=$(dataset_of "$name")
  d=$work/$name
  mkdir -p "$d"
  flags=(-O2 -I "$pb/utilities" -I "$(dirname "$src")" "-D$ds")
  wflags=("${flags[@]:1}")
  {
    "$weft" compile --target=seq "${wflags[@]}" -DPOLYBENCH_TIME "$src" -o "$d/seq.c" &&
      "$weft" compile --target=mpi "${wflags[@]}" -DPOLYBENCH_TIME "$src" -o "$d/mpi.c" &&
      gcc "${flags[@]}" -DPOLYBENCH_TIME -c "$pb/utilities/polybench.c" -o "$d/polybench.o" &&
      gcc "${flags[@]}" -DPOLYBENCH_TIME "$src" "$d/polybench.o" -o "$d/ref" -lm &&
      gcc "${flags[@]}" -DPOLYBENCH_TIME "$d/seq.c" "$d/polybench.o" -o "$d/seq" -lm &&
      mpicc_for gcc "${flags[@]}" -DPOLYBENCH_TIME "$d/mpi.c" "$d/polybench.o" -o "$d/mpi" -lm
  } >"$d/build.log" 2>&1 || { echo "$name: build failed (see $d/build.log)"; status=1; continue; }

  reg=$(region_lines "$src")
  perline() { awk -v a="$1" -v b="$reg" 'BEGIN{printf "%.1f", b ? a / b : 0}'; }
  seqpl=$(perline "$(function_lines "$d/seq.c")")
  mpipl=$(perline "$(function_lines "$d/mpi.c")")

  counts=$(vectorised_loops "$d" gcc-O2 "$(prepare_vectorised "$d")" gcc "$src" "${flags[@]}") ||
    { echo "$name: compile for the vectorisation report failed (see $d/v*.log)"; status=1; continue; }
  read -r vin vseq vmpi1 vdist <<<"$counts"

  ok=-
  if [ "$CHECK" = 1 ]; then
    ok=same
    {
      gcc "${flags[@]}" -DPOLYBENCH_DUMP_ARRAYS "$src" "$d/polybench.o" -o "$d/ref.dump" -lm &&
        "$weft" compile --target=mpi "${wflags[@]}" -DPOLYBENCH_DUMP_ARRAYS "$src" -o "$d/mpi.dump.c" &&
        mpicc_for gcc "${flags[@]}" -DPOLYBENCH_DUMP_ARRAYS "$d/mpi.dump.c" "$d/polybench.o" -o "$d/mpi.dump" -lm
    } >>"$d/build.log" 2>&1 || ok=FAILED
    if [ "$ok" = same ]; then
      "$d/ref.dump" 2>"$d/ref.dump.err" >/dev/null || ok=FAILED
      mpirun --oversubscribe -np 2 "$d/mpi.dump" 2>"$d/mpi.dump.err" >/dev/null || ok=FAILED
    fi
    if [ "$ok" = same ] && ! cmp -s "$d/ref.dump.err" "$d/mpi.dump.err"; then
      ok=DIFF
      python3 "$root/test/E2E/compare-numbers.py" "$d/ref.dump.err" "$d/mpi.dump.err" 1e-4 \
        >/dev/null 2>&1 && ok=close
    fi
    rm -f "$d"/*.dump.err
    [ "$ok" = same ] || [ "$ok" = close ] || status=1
  fi

  irseq=- irmpi=- irmpi2=-
  if [ "$INSTR" = 1 ]; then
    isrc=$d/$name.c
    sed 's/^void kernel_/__attribute__((noipa)) void kernel_/' "$src" >"$isrc"
    ids=$(instr_dataset_of "$name")
    iflags=("${flags[@]/-D$ds/-D$ids}")
    iw=("${iflags[@]:1}")
    if {
      "$weft" compile --target=seq "${iw[@]}" "$isrc" -o "$d/seq.i.c" &&
        "$weft" compile --target=mpi "${iw[@]}" "$isrc" -o "$d/mpi.i.c" &&
        gcc "${iflags[@]}" -c "$pb/utilities/polybench.c" -o "$d/polybench.i.o" &&
        gcc "${iflags[@]}" "$isrc" "$d/polybench.i.o" -o "$d/ref.i" -lm &&
        gcc "${iflags[@]}" "$d/seq.i.c" "$d/polybench.i.o" -o "$d/seq.i" -lm &&
        mpicc_for gcc "${iflags[@]}" "$d/mpi.i.c" "$d/polybench.i.o" -o "$d/mpi.i" -lm
    } >>"$d/build.log" 2>&1; then
      irref=$(kernel_instructions "$d/ref.i")
      irseq=$(ratio "$(kernel_instructions "$d/seq.i")" "$irref")
      irmpi=$(ratio "$(kernel_instructions "$d/mpi.i")" "$irref")
      irmpi2=$(ratio "$irref" "$(LAUNCH="mpirun --oversubscribe --bind-to none -np 2" kernel_instructions "$d/mpi.i")")
    else
      echo "$name: instruction build failed (see $d/build.log)"; status=1
    fi
  fi

  tref=- seqr=- mpi1r=- mpi2r=-
  if [ "$TIME" = 1 ]; then
    tref=$(kernel_time "$d/ref")
    seqr=$(ratio "$(kernel_time "$d/seq")" "$tref")
    mpi1r=$(ratio "$(kernel_time mpirun --oversubscribe --bind-to none -np 1 "$d/mpi")" "$tref")
    mpi2r=$(ratio "$tref" "$(kernel_time mpirun --oversubscribe --bind-to none -np 2 "$d/mpi")")
  fi
  printf '%-15s %-6s %4s %7s %7s %3s %4s %5s %5s %7s %7s %7s %8s %7s %7s %7s %5s\n' \
    "$name" "$(echo "${ds%_DATASET}" | sed s/EXTRALARGE/XLARGE/)" "$reg" "$seqpl" "$mpipl" "$vin" "$vseq" "$vmpi1" "$vdist" \
    "$irseq" "$irmpi" "$irmpi2" "$tref" "$seqr" "$mpi1r" "$mpi2r" "$ok"
done
exit $status
