#!/usr/bin/env bash
# Run every PolyBench/C 4.2.1 kernel through `weft compile --target=seq` (or
# $PB_TARGET) and compare the array dumps of the original and the recompiled
# program.
#
#   bash bench/polybench-check.sh POLYBENCH_DIR [BUILD_DIR] [KERNEL_NAME ...]
#
# POLYBENCH_DIR holds utilities/{polybench.c,polybench.h} and the kernel
# directories under linear-algebra/, datamining/, medley/ and stencils/, each
# with KERNEL.c and KERNEL.h.  BUILD_DIR defaults to <repo>/build ($WEFT
# overrides the weft path).  Optional kernel names restrict the run.
# $PB_DATASET (default MINI_DATASET) picks the size, $CC the C compiler,
# $PB_KEEP=1 keeps the work directory.  PolyBench dumps floating-point values
# with "%0.2lf", which hides most rounding differences; $PB_EXACT=1 runs on a
# copy of each kernel whose header prints "%.17g" instead (same code
# otherwise).  $PB_TARGET=mpi compiles with --target=mpi, builds with
# mpicc (weft's output may add no -Wall warning to the kernel's own) and
# runs under mpirun on each of $PB_RANKS
# (default "1 2 3 4 6"); WEFT_STATS=1 in the environment adds the bytes
# sent to the log.  $PB_TARGET=cuda compiles with --target=cuda and builds
# the CUDA C++ output (and polybench.c: polybench.h has no extern "C") with
# $CXX (default g++) -x c++ -fopenmp -DWEFT_CUDA_EMULATE, the test-only CPU
# emulation of CUDA (runtime/cuda/hpc); $PB_TARGET=mpi-cuda does the same
# with mpicxx and runs under mpirun on each of $PB_RANKS.  $PB_NVCC=1 also
# compiles each CUDA output with nvcc for sm_80 (mpi-cuda: against Open
# MPI's headers), which may give it no warning that the kernel's own source
# compiled as CUDA does not get.  $PB_WEFT_FLAGS are extra weft options (e.g.
# --fp-reductions=ordered); with $PB_RTOL, dumped numbers may differ by that
# fraction of the larger of their magnitudes and the dump's largest one
# (test/E2E/compare-numbers.py: split floating-point reductions round
# differently, and a sum that cancels keeps its terms' rounding error).
# Prints PASS/FAIL per kernel and a final "N passed,
# N failed" line; exits 1 if any kernel failed.
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: bash polybench-check.sh POLYBENCH_DIR [BUILD_DIR] [KERNEL_NAME ...]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
pb=$(cd "$1" && pwd)
shift
build=$root/build
if [ $# -gt 0 ] && [ -d "$1" ]; then
  build=$1
  shift
fi
only=("$@")
weft=${WEFT:-$build/bin/weft}
CC=${CC:-gcc}
DATASET=${PB_DATASET:-MINI_DATASET}
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
TARGET=${PB_TARGET:-seq}
read -r -a RANKS <<< "${PB_RANKS:-1 2 3 4 6}"
case $TARGET in
  seq | mpi) out_ext=c ;;
  cuda | mpi-cuda) out_ext=cu ;;
  *) echo "polybench-check: unknown PB_TARGET '$TARGET' (seq, mpi, cuda, mpi-cuda)" >&2; exit 2 ;;
esac
distributed=0
case $TARGET in mpi | mpi-cuda) distributed=1 ;; esac
if [ $distributed = 1 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
fi

[ -f "$pb/utilities/polybench.c" ] || { echo "polybench-check: $pb/utilities/polybench.c not found" >&2; exit 2; }
[ -x "$weft" ] || { echo "polybench-check: no weft executable at $weft" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/weft-pb.XXXXXX")
if [ "${PB_KEEP:-0}" = 1 ]; then
  echo "work directory: $work"
else
  trap 'rm -rf "$work"' EXIT
fi

run_timeout=()
if command -v timeout >/dev/null 2>&1; then
  run_timeout=(timeout "$RUN_TIMEOUT")
fi

# The kernel sources: DIR/NAME/NAME.c under the four category trees.
mapfile -t srcs < <(
  for cat in linear-algebra datamining medley stencils; do
    [ -d "$pb/$cat" ] || continue
    find "$pb/$cat" -name '*.c' | while read -r f; do
      d=$(dirname "$f")
      [ "$(basename "$f" .c)" = "$(basename "$d")" ] && echo "$f"
    done
  done | sort)

# nvcc's numbered warnings in a build log, sorted (to compare two logs).
nvcc_warnings() { grep -o 'warning #[0-9]*-D: .*' "$1" | sort || true; }

passed=0
failed=0
report() { # report NAME STATUS MESSAGE [LOGFILE]
  if [ "$2" = PASS ]; then
    printf 'PASS %s\n' "$1"
    passed=$((passed + 1))
  else
    printf 'FAIL %s: %s\n' "$1" "$3"
    if [ -n "${4:-}" ] && [ -s "$4" ]; then
      grep -m3 -iE 'error|fail|assert' "$4" | cut -c1-200 | sed 's/^/     | /' || true
      grep -qiE 'error|fail|assert' "$4" || sed -n '1,3p' "$4" | cut -c1-200 | sed 's/^/     | /'
    fi
    failed=$((failed + 1))
  fi
}

for src in "${srcs[@]}"; do
  name=$(basename "$src" .c)
  if [ ${#only[@]} -gt 0 ]; then
    hit=0
    for o in "${only[@]}"; do [ "$o" = "$name" ] && hit=1; done
    [ $hit = 1 ] || continue
  fi
  kdir=$(dirname "$src")
  w=$work/$name
  mkdir -p "$w"
  if [ "${PB_EXACT:-0}" = 1 ]; then
    # Private copy with full-precision dumps; KERNEL.c must sit next to its
    # header because it includes it with quotes.
    mkdir -p "$w/src"
    cp "$src" "$w/src/"
    sed 's/"%0\.2l\?f "/"%.17g "/' "$kdir/$name.h" >"$w/src/$name.h"
    kdir=$w/src
    src=$w/src/$name.c
  fi
  flags=(-I "$pb/utilities" -I "$kdir" -DPOLYBENCH_DUMP_ARRAYS "-D$DATASET")
  # PB_FLAGS: extra -D options for both builds and weft (e.g. C99 VLA prototypes).
  read -r -a user_flags <<< "${PB_FLAGS:-}"
  flags+=("${user_flags[@]}")

  if ! "$CC" -O2 "${flags[@]}" "$pb/utilities/polybench.c" "$src" -o "$w/ref.exe" -lm \
       >"$w/ref.cc.log" 2>&1; then
    report "$name" FAIL "original does not build" "$w/ref.cc.log"; continue
  fi
  if ! ${run_timeout[@]+"${run_timeout[@]}"} "$w/ref.exe" >"$w/ref.stdout" 2>"$w/ref.stderr"; then
    report "$name" FAIL "original does not run"; continue
  fi
  read -r -a weft_flags <<< "${PB_WEFT_FLAGS:-}"
  out=$w/out.$out_ext
  if ! "$weft" compile --target="$TARGET" ${weft_flags[@]+"${weft_flags[@]}"} "${flags[@]}" "$src" -o "$out" >"$w/weft.log" 2>&1; then
    report "$name" FAIL "weft failed" "$w/weft.log"; continue
  fi
  # weft's output must add no warning to the kernel's own (polybench.c
  # and some kernels warn under -Wall by themselves).
  cc=("$CC")
  case $TARGET in
    mpi) cc=(mpicc) ;;
    cuda) cc=("${CXX:-g++}" -fopenmp) ;;
    mpi-cuda) cc=(mpicxx -fopenmp) ;;
  esac
  as_src=()
  [ "$out_ext" = cu ] && as_src=(-x c++ -DWEFT_CUDA_EMULATE)
  if [ "${PB_NVCC:-0}" = 1 ] && [ "$out_ext" = cu ]; then
    nvcc_flags=()
    if [ "$TARGET" = mpi-cuda ]; then
      read -r -a nvcc_flags <<< "$(mpicxx --showme:compile)"
    fi
    if ! "${NVCC:-nvcc}" -O3 -arch=sm_80 "${flags[@]}" \
         ${nvcc_flags[@]+"${nvcc_flags[@]}"} -c "$out" -o "$w/nvcc.o" >"$w/nvcc.log" 2>&1; then
      report "$name" FAIL "nvcc rejects weft's output" "$w/nvcc.log"; continue
    fi
    # Every warning nvcc gives weft's output, it gives the kernel's own
    # source compiled as CUDA (durbin's init_array declares a `j` it never
    # uses): weft adds none.
    "${NVCC:-nvcc}" -O3 -arch=sm_80 -x cu "${flags[@]}" -c "$src" \
      -o "$w/nvcc.ref.o" >"$w/nvcc.ref.log" 2>&1 || true
    added=$(comm -23 <(nvcc_warnings "$w/nvcc.log") <(nvcc_warnings "$w/nvcc.ref.log"))
    if [ -n "$added" ]; then
      echo "$added" >>"$w/nvcc.log"
      report "$name" FAIL "nvcc warns about weft's output: $added" "$w/nvcc.log"; continue
    fi
  fi
  if ! { "${cc[@]}" ${as_src[@]+"${as_src[@]}"} -O2 "${flags[@]}" -c "$pb/utilities/polybench.c" -o "$w/polybench.o" &&
         "${cc[@]}" ${as_src[@]+"${as_src[@]}"} -O2 -Wall "${flags[@]}" -c "$out" -o "$w/out.o" 2>"$w/weft.warn" &&
         "${cc[@]}" "$w/polybench.o" "$w/out.o" -o "$w/weft.exe" -lm; } >"$w/weft.cc.log" 2>&1; then
    cat "$w/weft.warn" >>"$w/weft.cc.log"
    report "$name" FAIL "weft output does not build" "$w/weft.cc.log"; continue
  fi
  "$CC" -O2 -Wall "${flags[@]}" -c "$src" -o "$w/ref.o" 2>"$w/ref.warn" || true
  if [ "$(grep -c 'warning:' "$w/weft.warn")" -gt "$(grep -c 'warning:' "$w/ref.warn")" ]; then
    report "$name" FAIL "weft output adds -Wall warnings" "$w/weft.warn"; continue
  fi
  launches=("")
  [ $distributed = 1 ] && launches=("${RANKS[@]}")
  bad=""
  for p in "${launches[@]}"; do
    launcher=()
    [ -n "$p" ] && launcher=(mpirun --oversubscribe -np "$p")
    set +e
    ${run_timeout[@]+"${run_timeout[@]}"} ${launcher[@]+"${launcher[@]}"} "$w/weft.exe" \
      >"$w/weft.stdout" 2>"$w/weft.stderr"
    rc=$?
    set -e
    where=${p:+" on $p ranks"}
    if [ $rc -ne 0 ]; then
      bad="weft output exited with status $rc$where"; break
    fi
    if [ -n "${WEFT_STATS:-}" ]; then
      grep '^weft: ' "$w/weft.stderr" >>"$w/stats.log" || true
      grep -v '^weft: ' "$w/weft.stderr" >"$w/weft.stderr.clean" || true
      mv "$w/weft.stderr.clean" "$w/weft.stderr"
    fi
    if ! cmp -s "$w/ref.stderr" "$w/weft.stderr" &&
       ! { [ -n "${PB_RTOL:-}" ] && python3 "$root/test/E2E/compare-numbers.py" \
             "$w/ref.stderr" "$w/weft.stderr" "$PB_RTOL" >/dev/null 2>&1; }; then
      n=$(diff "$w/ref.stderr" "$w/weft.stderr" | grep -c '^<' || true)
      e=$(diff "$w/ref.stderr" "$w/weft.stderr" | grep -m1 '^<' | cut -c3-80 || true)
      g=$(diff "$w/ref.stderr" "$w/weft.stderr" | grep -m1 '^>' | cut -c3-80 || true)
      bad="array dump differs$where ($n lines; first expected: $e | got: $g)"; break
    fi
    if ! cmp -s "$w/ref.stdout" "$w/weft.stdout"; then
      bad="stdout differs$where"; break
    fi
  done
  if [ -n "$bad" ]; then
    report "$name" FAIL "$bad"; continue
  fi
  report "$name" PASS ""
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
