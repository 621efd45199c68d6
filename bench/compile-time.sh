#!/usr/bin/env bash
# Compile-time benchmark for `weft compile --target=seq`.
#
#   bash bench/compile-time.sh [BUILD_DIR] [KERNEL.c ...]
#
# BUILD_DIR defaults to <repo>/build (weft is BUILD_DIR/bin/weft; $WEFT
# overrides it); the kernels default to test/E2E/seq/*.c.  Each kernel is
# compiled $REPEAT times (default 3) and the best wall time is reported in
# milliseconds, then the mean over the kernels that compiled.  A kernel weft
# fails on is listed as FAIL with weft's first error line and left out of the
# mean.  Exit status: 0 if every kernel compiled, 1 otherwise.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

build=$root/build
if [ $# -gt 0 ] && [ -d "$1" ]; then
  build=$1
  shift
fi
weft=${WEFT:-$build/bin/weft}
if [ ! -x "$weft" ]; then
  echo "compile-time: no weft executable at $weft (pass BUILD_DIR or set WEFT)" >&2
  exit 2
fi

if [ $# -gt 0 ]; then
  kernels=("$@")
else
  kernels=("$root"/test/E2E/seq/*.c)
fi
REPEAT=${REPEAT:-3}

work=$(mktemp -d "${TMPDIR:-/tmp}/weft-ctime.XXXXXX")
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }

printf '%-24s %10s\n' kernel ms
total=0
ok=0
failed=0
for k in "${kernels[@]}"; do
  name=$(basename "$k" .c)
  best=
  err=
  for _ in $(seq "$REPEAT"); do
    t0=$(now)
    if ! "$weft" compile --target=seq "$k" -o "$work/out.c" >"$work/log" 2>&1; then
      err=$(grep -m1 -i 'error' "$work/log" || head -n1 "$work/log")
      break
    fi
    t1=$(now)
    ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) * 1000 }')
    if [ -z "$best" ] || awk -v x="$ms" -v y="$best" 'BEGIN { exit !(x < y) }'; then
      best=$ms
    fi
  done
  if [ -n "$err" ] || [ -z "$best" ]; then
    printf '%-24s %10s  %s\n' "$name" FAIL "${err:-no timing}"
    failed=$((failed + 1))
  else
    printf '%-24s %10s\n' "$name" "$best"
    total=$(awk -v t="$total" -v x="$best" 'BEGIN { printf "%.3f", t + x }')
    ok=$((ok + 1))
  fi
done

if [ $ok -gt 0 ]; then
  printf '%-24s %10s\n' "mean($ok)" "$(awk -v t="$total" -v n="$ok" 'BEGIN { printf "%.1f", t / n }')"
fi
[ $failed -eq 0 ] || echo "($failed kernel(s) failed to compile)"
[ $failed -eq 0 ]
