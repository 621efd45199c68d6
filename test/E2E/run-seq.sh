#!/usr/bin/env bash
# End-to-end check for `weft compile --target=seq` (or, with
# WEFT_TARGET=cuda, `--target=cuda` run through the CUDA emulation).
#
#   bash run-seq.sh KERNEL.c TMPPREFIX [extra flags, e.g. -DN=61 -I dir]
#
# 1. builds KERNEL.c with gcc and runs it (the expected output);
# 2. runs `weft compile --target=seq KERNEL.c -o TMPPREFIX.out.c`;
# 3. builds TMPPREFIX.out.c the same way (plus -Wall
#    -Werror=implicit-function-declaration) and runs it;
# 4. compares stdout, stderr and exit status of the two runs.
# Exits non-zero with a message naming the failing step on any failure.
#
# weft is looked up on PATH first, then in $WEFT.  Extra flags go to both gcc
# builds; the -D/-U/-I ones also go to weft.  $CC overrides gcc, $RUN_TIMEOUT
# (seconds, default 60) bounds each program run.  With WEFT_TARGET=cuda the
# output is TMPPREFIX.out.cu, built as C++ against the test-only CPU emulation
# of CUDA (runtime/cuda/hpc): $CXX (default g++) -x c++ -fopenmp
# -DWEFT_CUDA_EMULATE. The CUDA output puts every nest that may run on the
# device there (--gpu-choice=always), so that the emulation runs the kernels
# the cost model would keep on the host at test sizes; $WEFT_GPU_CHOICE=cost
# tests the cost model's choice instead. $WEFT_FLAGS are passed to weft
# compile. With $WEFT_RTOL, numbers in stdout may differ by that relative
# tolerance (the CUDA output's threads combine floating-point reductions in
# an order of their own); everything else must match exactly.
set -euo pipefail

me=run-seq
if [ $# -lt 2 ]; then
  echo "usage: bash run-seq.sh KERNEL.c TMPPREFIX [extra weft/gcc flags]" >&2
  exit 2
fi
src=$1
tmp=$2
shift 2
extra=("$@")

# lit may hand us a PATH without the system directories; keep them reachable.
PATH=$PATH:/usr/local/bin:/usr/bin:/bin
CC=${CC:-gcc}
target=${WEFT_TARGET:-seq}
weft_target_flags=()
out=$tmp.out.c
if [ "$target" = cuda ]; then
  out=$tmp.out.cu
  me=run-seq[cuda]
  weft_target_flags=(--gpu-choice="${WEFT_GPU_CHOICE:-always}")
fi
RUN_TIMEOUT=${RUN_TIMEOUT:-60}

fail() {
  echo "$me: FAIL [$src]: $*" >&2
  exit 1
}

[ -f "$src" ] || fail "no such kernel file"

if command -v weft >/dev/null 2>&1; then
  weft=$(command -v weft)
elif [ -n "${WEFT:-}" ] && [ -x "$WEFT" ]; then
  weft=$WEFT
else
  fail "weft not found (not on PATH and \$WEFT unset or not executable)"
fi

# Flags weft understands: -D/-U/-I, joined (-DN=3) or separate (-D N=3).
weft_flags=()
i=0
while [ $i -lt ${#extra[@]} ]; do
  a=${extra[$i]}
  case $a in
    -D|-U|-I)
      i=$((i + 1))
      [ $i -lt ${#extra[@]} ] || fail "flag $a needs an argument"
      weft_flags+=("$a" "${extra[$i]}") ;;
    -D*|-U*|-I*)
      weft_flags+=("$a") ;;
  esac
  i=$((i + 1))
done

srcdir=$(cd "$(dirname "$src")" && pwd)
mkdir -p "$(dirname "$tmp")"
rm -f "$tmp".ref.exe "$out" "$tmp".weft.exe

run_timeout=()
if command -v timeout >/dev/null 2>&1; then
  run_timeout=(timeout "$RUN_TIMEOUT")
fi

show() { # show FILE [N]: print the first N lines of FILE, indented
  sed -n "1,${2:-40}p" "$1" | sed 's/^/  | /' >&2
}

first_diffs() { # first_diffs EXPECTED GOT: the first differing lines, paired
  awk -v max=5 '
    function cut(s) { return length(s) > 150 ? substr(s, 1, 150) "..." : s }
    NR == FNR { e[FNR] = $0; ne = FNR; next }
    {
      ng = FNR
      if (FNR > ne || e[FNR] != $0) {
        if (FNR > ne) { print "  line " FNR ": extra line in weft output: " cut($0) }
        else {
          n1 = split(e[FNR], a); n2 = split($0, b)
          for (k = 1; k <= n1 || k <= n2; k++) if (a[k] != b[k]) break
          print "  line " FNR ", field " k ": expected \"" a[k] "\", got \"" b[k] "\""
          print "    expected: " cut(e[FNR])
          print "    got:      " cut($0)
        }
        if (++c >= max) { print "  ..."; exit }
      }
    }
    END { if (c < max && ng < ne) print "  weft output ends after " ng+0 " lines, expected " ne }
  ' "$1" "$2"
}

# 1. Reference build and run.
if ! "$CC" -O2 -std=gnu99 ${extra[@]+"${extra[@]}"} "$src" -o "$tmp".ref.exe -lm \
     >"$tmp".ref.cc.log 2>&1; then
  show "$tmp".ref.cc.log
  fail "the ORIGINAL kernel does not build with $CC (harness or kernel problem)"
fi
set +e
${run_timeout[@]+"${run_timeout[@]}"} "$tmp".ref.exe >"$tmp".ref.stdout 2>"$tmp".ref.stderr
ref_rc=$?
set -e
if [ $ref_rc -ne 0 ]; then
  show "$tmp".ref.stderr
  fail "the ORIGINAL kernel exited with status $ref_rc"
fi

# 2. weft.
set +e
"$weft" compile --target=$target ${weft_target_flags[@]+"${weft_target_flags[@]}"} \
  ${WEFT_FLAGS:-} ${weft_flags[@]+"${weft_flags[@]}"} "$src" -o "$out" \
  >"$tmp".weft.log 2>&1
weft_rc=$?
set -e
if [ $weft_rc -ne 0 ]; then
  show "$tmp".weft.log
  fail "weft compile --target=$target exited with status $weft_rc"
fi
[ -s "$out" ] || fail "weft succeeded but wrote no (or an empty) $out"

# 3. Build and run weft's output.
if [ "$target" = cuda ]; then
  build=("${CXX:-g++}" -x c++ -std=gnu++17 -O2 -Wall -fopenmp -DWEFT_CUDA_EMULATE)
else
  build=("$CC" -O2 -std=gnu99 -Wall -Werror=implicit-function-declaration)
fi
if ! "${build[@]}" -I "$srcdir" ${extra[@]+"${extra[@]}"} "$out" -o "$tmp".weft.exe -lm \
     >"$tmp".weft.cc.log 2>&1; then
  show "$tmp".weft.cc.log
  fail "weft's output $out does not build with ${build[0]}"
fi
set +e
${run_timeout[@]+"${run_timeout[@]}"} "$tmp".weft.exe >"$tmp".weft.stdout 2>"$tmp".weft.stderr
weft_run_rc=$?
set -e

# 4. Compare.
status=0
if [ $weft_run_rc -ne $ref_rc ]; then
  echo "$me: exit status differs: original $ref_rc, weft output $weft_run_rc" >&2
  [ $weft_run_rc -ne 124 ] || echo "$me: (timed out after ${RUN_TIMEOUT}s)" >&2
  status=1
fi
for stream in stdout stderr; do
  if [ $stream = stdout ] && [ -n "${WEFT_RTOL:-}" ]; then
    if ! python3 "$(dirname "$0")/compare-numbers.py" "$tmp".ref.stdout \
         "$tmp".weft.stdout "$WEFT_RTOL" >&2; then
      echo "$me: stdout differs beyond rtol $WEFT_RTOL (original vs weft output)" >&2
      status=1
    fi
    continue
  fi
  if ! cmp -s "$tmp".ref.$stream "$tmp".weft.$stream; then
    echo "$me: $stream differs (original vs weft output), first differing lines:" >&2
    first_diffs "$tmp".ref.$stream "$tmp".weft.$stream >&2 || true
    status=1
  fi
done
if [ $status -ne 0 ]; then
  fail "output mismatch (expected: $tmp.ref.stdout/.stderr, got: $tmp.weft.stdout/.stderr, weft output: $out)"
fi
echo "$me: PASS [$src] ($(wc -l <"$tmp".ref.stdout) lines match)"
