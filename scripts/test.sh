#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test suite (lit: dialects,
# front end, conversions, driver errors, end-to-end kernels; GoogleTest unit
# tests). Ends with one line: "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${WEFT_BUILD_DIR:-$root/build}
bash "$root/scripts/install-deps.sh" || { echo "0 passed, 1 failed"; exit 1; }
if ! bash "$root/scripts/build.sh"; then
  echo "build failed"
  echo "0 passed, 1 failed"
  exit 1
fi
lit=/usr/lib/llvm-19/build/utils/lit/lit.py
log=$(mktemp)
python3 "$lit" -sv --order=lexical "$build/test" "$build/test/unittests" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# The sanitized tree (Clang 19, ASan + UBSan, docs/reliability.md): every
# suite again under the sanitizers, the replay of the fuzz corpora through
# every fuzz target included. WEFT_SKIP_SANITIZED=1 skips it.
if [ "${WEFT_SKIP_SANITIZED:-0}" != 1 ]; then
  san=${WEFT_SAN_BUILD_DIR:-$root/build-san}
  if bash "$root/scripts/build-sanitized.sh" >"$log.san" 2>&1; then
    python3 "$lit" -sv --order=lexical "$san/test" "$san/test/unittests" 2>&1 |
      tee -a "$log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  else
    tail -20 "$log.san"
    echo "sanitized build failed"
    status=1
    echo "  Failed: 1" >>"$log"
  fi
  rm -f "$log.san"
fi
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | awk '{s+=$1} END {print s+0}'; }
passed=$(( $(count Passed) + $(count 'Expectedly Failed') ))
failed=$(( $(count Failed) + $(count 'Unexpectedly Passed') + $(count Unresolved) + $(count 'Timed Out') ))
rm -f "$log"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
if [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
