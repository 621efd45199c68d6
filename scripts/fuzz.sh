#!/usr/bin/env bash
# Runs weft's libFuzzer targets (build them first: scripts/build-sanitized.sh).
#
#   scripts/fuzz.sh SECONDS [TARGET...]     (default: every target)
#
# Each target runs SECONDS of wall time on one core, WEFT_FUZZ_JOBS targets
# at a time (default: the number of cores). New coverage goes to a work
# corpus under build-san/fuzz/work/TARGET (seeded as fuzz/seed-dirs.sh says), crashes
# and timeouts to build-san/fuzz/artifacts/TARGET; copy a finding into
# fuzz/regressions/TARGET once it is fixed. Prints one line per target:
# executions, CPU-seconds, corpus size and findings.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${WEFT_SAN_BUILD_DIR:-$root/build-san}
seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(c-seq c-mpi c-cuda c-mpi-cuda cluster model-config plan
  profile llama2c safetensors stage-file serve-args)
jobs=${WEFT_FUZZ_JOBS:-$(nproc)}
# Targets write each input to a scratch file: keep it in memory.
[ -d /dev/shm ] && [ -w /dev/shm ] && export TMPDIR=${TMPDIR:-/dev/shm}

source "$root/fuzz/seed-dirs.sh"

run_one() {
  local t=$1 exe=$build/bin/weft-fuzz-$1
  local work=$build/fuzz/work/$t art=$build/fuzz/artifacts/$t log=$build/fuzz/$t.log
  [ -x "$exe" ] || { echo "$t: $exe not built (scripts/build-sanitized.sh)"; return 1; }
  mkdir -p "$work" "$art"
  local seeds
  read -ra seeds <<<"$(seed_dirs "$root" "$t" | tr '\n' ' ')"
  local dict=() extra=()
  case $t in
    c-*) dict=(-dict="$root/fuzz/dict/c.dict") ;;
    cluster|model-config|plan|profile|safetensors) dict=(-dict="$root/fuzz/dict/json.dict") ;;
  esac
  # The C targets reach Clang and ISL per input: slower, larger inputs.
  case $t in c-*) extra=(-max_len=8192) ;; esac
  local start=$(date +%s)
  # Keep going after a finding (-fork with -ignore_crashes would too, but
  # one process is what CPU-minutes count): libFuzzer stops at the first
  # crash, so rerun until the time is spent.
  : >"$log"
  while :; do
    local left=$(( seconds - ($(date +%s) - start) ))
    [ "$left" -gt 0 ] || break
    /usr/bin/time -f "cpu %U %S" -a -o "$log.time" \
      "$exe" "$work" "${seeds[@]}" "${dict[@]}" "${extra[@]}" \
      -max_total_time="$left" -timeout=60 -rss_limit_mb=4096 \
      -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$art/" \
      >>"$log" 2>&1 || true
  done
  local execs cpu findings
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{s+=$1} END {print s+0}')
  cpu=$(awk '/^cpu/ {s+=$2+$3} END {printf "%.0f", s}' "$log.time")
  # Findings: crashes, sanitizer reports, leaks, timeouts, out-of-memory;
  # slow units (over 10 s) are only counted.
  findings=$(find "$art" -type f ! -name 'slow-unit-*' | wc -l)
  slow=$(find "$art" -type f -name 'slow-unit-*' | wc -l)
  rm -f "$log.time"
  echo "$t: $execs executions, $cpu CPU-s, corpus $(find "$work" -type f | wc -l) inputs, $findings findings, $slow slow units ($art)"
}

running=0
for t in "${targets[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait
