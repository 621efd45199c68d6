#!/usr/bin/env bash
# Runs every input of a target's seeds (fuzz/seed-dirs.sh) and regression
# inputs (fuzz/regressions/TARGET) once.
#   replay.sh TARGET
set -euo pipefail
target=$1
src=$(cd "$(dirname "$0")/../../.." && pwd)
source "$src/fuzz/seed-dirs.sh"
read -ra dirs <<<"$(seed_dirs "$src" "$target" | tr '\n' ' ')"
count=$(find "${dirs[@]}" -type f | wc -l)
# -runs=0: execute the given inputs, mutate nothing; target noise hidden,
# sanitizer reports kept (libFuzzer writes them to its own copy of stderr).
# A failing input is written under $TMPDIR, not into the working directory.
"weft-fuzz-$target" -runs=0 -close_fd_mask=3 -timeout=60 -rss_limit_mb=4096 \
  -artifact_prefix="${TMPDIR:-/tmp}/weft-replay-$target-" "${dirs[@]}"
echo "replayed $count inputs through weft-fuzz-$target"
