#!/usr/bin/env bash
# Run-time benchmark for `weft compile --target=seq`: how much slower (or
# faster) is the program weft writes than the program it was given?
#
#   bash bench/seq-runtime.sh [BUILD_DIR] [KERNEL ...]
#
# For every kernel of test/E2E/seq in the size table below (or only the named
# ones), at a size where one run takes roughly 0.1-0.6 s:
#   1. weft compile --target=seq -D<sizes> KERNEL.c -o weft.c
#   2. $CC $CFLAGS -D<sizes> builds the original, weft.c, and a "skeleton"
#      (the original with every #pragma scop ... #pragma endscop region
#      deleted: initialisation and output only);
#   3. the original's and weft's outputs are compared once (same/DIFF);
#   4. the three programs run $REPEAT times each, interleaved, stdout to
#      /dev/null; the best (minimum) time of each is kept. The time is CPU
#      time (user + sys) by default, which a busy machine disturbs less than
#      wall time; CLOCK=wall measures elapsed time instead.
# Columns: orig and weft are best-of-$REPEAT seconds, ratio = weft / orig
# (whole program); skel is the skeleton's time and region = (weft - skel) /
# (orig - skel), an estimate of the ratio for the scop regions alone (shown
# as "-" when the regions take under 20% of orig, where it is mostly noise).
# INSTR=1 adds two columns measured with valgrind (cachegrind, no cache
# simulation): Ir = instructions executed by weft's program / by the
# original's, and Ir-reg = the same for the regions alone, (weft - skel) /
# (orig - skel). Instruction counts do not depend on what else the machine
# runs, so they show code-quality differences that the noise of a shared
# machine hides (but not cache or layout effects). Slow: about
# 30x a normal run.
# The last lines give the geometric means of the ratio columns (region
# columns over the kernels that have a value) and the worst kernel.
#
# BUILD_DIR defaults to <repo>/build ($WEFT overrides the weft path).
# Environment: CC (gcc), CFLAGS (-O2; e.g. CFLAGS="-O3 -march=native"),
# REPEAT (5), CLOCK (cpu or wall), INSTR (0 or 1), SKELETON=0 skips the
# skeleton, KEEP=1 keeps the work directory. weft is copied into the work directory first, so
# a rebuild during the run does not disturb it.
# Stack arrays of the larger sizes need a big stack: the script raises
# `ulimit -s` for the programs it runs.
# Exit status: 0 if every kernel built, ran and printed the same output as
# the original; 1 otherwise.
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
CFLAGS=${CFLAGS:--O2}
REPEAT=${REPEAT:-5}
CLOCK=${CLOCK:-cpu}
INSTR=${INSTR:-0}
SKELETON=${SKELETON:-1}
RUN_TIMEOUT=${RUN_TIMEOUT:-60}
kdir=$root/test/E2E/seq

command -v "$CC" >/dev/null || { echo "seq-runtime: no C compiler '$CC'" >&2; exit 2; }
if [ "$INSTR" = 1 ] && ! command -v valgrind >/dev/null; then
  echo "seq-runtime: INSTR=1 needs valgrind" >&2; exit 2
fi

# kernel | size overrides (each kernel's #ifndef macros). O(n^2) kernels
# (atax, bicg, gemver, gesummv, mvt, trisolv) initialise as much as they
# compute, so their region share stays small at any size.
sizes=(
  "gemm|-DNI=400 -DNJ=400 -DNK=1500"
  "2mm|-DNI=300 -DNJ=1000 -DNK=1000 -DNL=300"
  "3mm|-DNI=300 -DNJ=600 -DNK=600 -DNL=300 -DNM=600"
  "syrk|-DN=600 -DM=1500"
  "syr2k|-DN=400 -DM=1000"
  "symm|-DM=1000 -DN=300"
  "trmm|-DM=1000 -DN=300"
  "doitgen|-DNR=20 -DNQ=20 -DNP=1000"
  "lu|-DN=800"
  "ludcmp|-DN=1000"
  "cholesky|-DN=1000"
  "gramschmidt|-DM=800 -DN=500"
  "durbin|-DN=12000"
  "correlation|-DM=250 -DN=3000"
  "floyd-warshall|-DN=600"
  "nussinov|-DN=900"
  "jacobi-1d|-DN=20000 -DTSTEPS=15000"
  "jacobi-2d|-DN=400 -DTSTEPS=1000"
  "seidel-2d|-DN=400 -DTSTEPS=200"
  "heat-3d|-DN=50 -DTSTEPS=800"
  "fdtd-2d|-DNX=300 -DNY=300 -DTMAX=1000"
  "adi|-DN=400 -DTSTEPS=60"
  "atax|-DM=4000 -DN=4000"
  "bicg|-DN=5000 -DM=5000"
  "gemver|-DN=4000"
  "gesummv|-DN=4000"
  "mvt|-DN=4000"
  "trisolv|-DN=6000"
)

for o in ${only[@]+"${only[@]}"}; do
  printf '%s\n' "${sizes[@]}" | grep -q "^$o|" ||
    { echo "seq-runtime: no size entry for kernel '$o'" >&2; exit 2; }
done

# Big stack arrays (gemm, bicg, doitgen, jacobi-2d at these sizes).
ulimit -s unlimited 2>/dev/null || ulimit -s "$(ulimit -H -s)" 2>/dev/null || true

work=$(mktemp -d "${TMPDIR:-/tmp}/weft-seqrt.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
  echo "work directory: $work"
else
  trap 'rm -rf "$work"' EXIT
fi

run_timeout=()
command -v timeout >/dev/null 2>&1 && run_timeout=(timeout "$RUN_TIMEOUT")

# A private copy of weft (the build directory may be rebuilt meanwhile).
mkdir -p "$work/bin"
for _ in 1 2 3 4 5 6; do
  cp "$weft" "$work/bin/weft" 2>/dev/null && "$work/bin/weft" --help >/dev/null 2>&1 && break
  sleep 10
done
"$work/bin/weft" --help >/dev/null 2>&1 ||
  { echo "seq-runtime: no working weft executable at $weft (pass BUILD_DIR or set WEFT)" >&2; exit 2; }
weft=$work/bin/weft

# Seconds of one run of $1 (stdout and stderr to /dev/null): user + sys, or
# elapsed with CLOCK=wall. Fails if the program fails.
timed_run() {
  local TIMEFORMAT='%3U %3S %3R' t
  t=$( { time ${run_timeout[@]+"${run_timeout[@]}"} "$1" >/dev/null 2>&1; } 2>&1 ) || return 1
  set -- $t
  if [ "$CLOCK" = wall ]; then
    echo "$3"
  else
    awk -v u="$1" -v s="$2" 'BEGIN { printf "%.3f", u + s }'
  fi
}
# Instructions executed by one run of $1 (valgrind's "I refs").
instr_count() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    --main-stacksize=1073741824 "$1" 2>&1 >/dev/null |
    sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
min() { awk -v x="$1" -v y="$2" 'BEGIN { print (y == "" || x + 0 < y + 0) ? x : y }'; }

echo "# $CC $CFLAGS -std=gnu99, best of $REPEAT, $CLOCK time, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
row() { # kernel sizes orig weft ratio skel region Ir Ir-reg output
  if [ "$INSTR" = 1 ]; then
    printf '%-15s %-40s %7s %7s %6s %7s %6s %7s %7s  %s\n' "$@"
  else
    printf '%-15s %-40s %7s %7s %6s %7s %6s  %s\n' "${@:1:7}" "${10}"
  fi
}
row kernel sizes orig weft ratio skel region Ir Ir-reg output
failed=0
ratios=()
regions=()
iratios=()
iregions=()
worst=
worst_ratio=0
for entry in "${sizes[@]}"; do
  name=${entry%%|*}
  read -r -a defs <<<"${entry#*|}"
  if [ ${#only[@]} -gt 0 ]; then
    hit=0
    for o in "${only[@]}"; do [ "$o" = "$name" ] && hit=1; done
    [ $hit = 1 ] || continue
  fi
  src=$kdir/$name.c
  w=$work/$name
  mkdir -p "$w"
  fail() {
    printf '%-15s %-40s FAIL: %s\n' "$name" "${defs[*]}" "$1"
    failed=$((failed + 1))
  }
  if ! "$weft" compile --target=seq "${defs[@]}" "$src" -o "$w/weft.c" >"$w/weft.log" 2>&1; then
    fail "weft: $(grep -m1 error "$w/weft.log" || head -n1 "$w/weft.log")"; continue
  fi
  # shellcheck disable=SC2086
  if ! $CC $CFLAGS -std=gnu99 "${defs[@]}" "$src" -o "$w/orig.exe" -lm >"$w/cc.log" 2>&1; then
    fail "the original does not build"; continue
  fi
  # shellcheck disable=SC2086
  if ! $CC $CFLAGS -std=gnu99 -I "$kdir" "${defs[@]}" "$w/weft.c" -o "$w/weft.exe" -lm >>"$w/cc.log" 2>&1; then
    fail "weft's output does not build"; continue
  fi
  skel=
  if [ "$SKELETON" = 1 ]; then
    awk '/^[ \t]*#[ \t]*pragma[ \t]+scop([ \t]|$)/ { drop = 1 }
         !drop { print }
         /^[ \t]*#[ \t]*pragma[ \t]+endscop([ \t]|$)/ { drop = 0 }' "$src" >"$w/skel.c"
    # shellcheck disable=SC2086
    $CC $CFLAGS -std=gnu99 -w "${defs[@]}" "$w/skel.c" -o "$w/skel.exe" -lm >>"$w/cc.log" 2>&1 &&
      skel=$w/skel.exe
  fi
  # Same output as the original at this size?
  same=same
  if ! ${run_timeout[@]+"${run_timeout[@]}"} "$w/orig.exe" >"$w/orig.out" 2>&1; then
    fail "the original does not run"; continue
  fi
  if ! ${run_timeout[@]+"${run_timeout[@]}"} "$w/weft.exe" >"$w/weft.out" 2>&1; then
    fail "weft's output does not run"; continue
  fi
  cmp -s "$w/orig.out" "$w/weft.out" || { same=DIFF; failed=$((failed + 1)); }

  to= tw= ts=
  ok=1
  for _ in $(seq "$REPEAT"); do
    t=$(timed_run "$w/orig.exe") || { ok=0; break; }; to=$(min "$t" "$to")
    t=$(timed_run "$w/weft.exe") || { ok=0; break; }; tw=$(min "$t" "$tw")
    if [ -n "$skel" ]; then
      t=$(timed_run "$skel") || { skel=; ts=; continue; }; ts=$(min "$t" "$ts")
    fi
  done
  [ $ok = 1 ] || { fail "a timed run failed"; continue; }
  ratio=$(awk -v a="$tw" -v b="$to" 'BEGIN { printf "%.3f", a / b }')
  ratios+=("$ratio")
  region=-
  if [ -n "$ts" ]; then
    region=$(awk -v o="$to" -v w="$tw" -v s="$ts" \
      'BEGIN { if (o - s < 0.2 * o || w - s <= 0) print "-"; else printf "%.3f", (w - s) / (o - s) }')
    [ "$region" = - ] || regions+=("$region")
  fi
  iratio=- iregion=-
  if [ "$INSTR" = 1 ]; then
    io=$(instr_count "$w/orig.exe") iw=$(instr_count "$w/weft.exe") is=
    [ -z "$skel" ] || is=$(instr_count "$skel")
    if [ -n "$io" ] && [ -n "$iw" ]; then
      iratio=$(awk -v a="$iw" -v b="$io" 'BEGIN { printf "%.4f", a / b }')
      iratios+=("$iratio")
      if [ -n "$is" ]; then
        iregion=$(awk -v o="$io" -v w="$iw" -v s="$is" \
          'BEGIN { if (o - s < 0.05 * o || w - s <= 0) print "-"; else printf "%.4f", (w - s) / (o - s) }')
        [ "$iregion" = - ] || iregions+=("$iregion")
      fi
    fi
  fi
  if awk -v r="$ratio" -v m="$worst_ratio" 'BEGIN { exit !(r > m) }'; then
    worst=$name worst_ratio=$ratio
  fi
  row "$name" "${defs[*]}" "$to" "$tw" "$ratio" "${ts:--}" "$region" "$iratio" "$iregion" "$same"
done

geomean() { printf '%s\n' "$@" | awk '{ s += log($1); n++ } END { if (n) printf "%.3f (%d kernels)", exp(s / n), n }'; }
if [ ${#ratios[@]} -gt 0 ]; then
  echo "geomean ratio (whole program): $(geomean "${ratios[@]}")"
  [ ${#regions[@]} -eq 0 ] || echo "geomean region ratio (estimate): $(geomean "${regions[@]}")"
  [ ${#iratios[@]} -eq 0 ] || echo "geomean Ir ratio (whole program): $(geomean "${iratios[@]}")"
  [ ${#iregions[@]} -eq 0 ] || echo "geomean Ir ratio (regions): $(geomean "${iregions[@]}")"
  echo "worst ratio: $worst ($worst_ratio)"
fi
[ $failed -eq 0 ] || echo "($failed kernel(s) failed or printed different output)"
[ $failed -eq 0 ]
