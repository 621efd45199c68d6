#!/usr/bin/env bash
# Tokens/s of weft's CPU runtime LLaMA forward (fp32, fp16, int8, int4, int3
# decoder weights) against the independent fp32 reference of the unit tests.
#
#   bash bench/runtime-cpu.sh [DECODE_TOKENS [PREFILL_TOKENS]]
#
# Models: stories260K.bin from ../shared/data/models (or $WEFT_SHARED_DATA/
# models; skipped with a message when absent) and a generated model of dim
# 512, 8 layers, GQA 8/4 heads, hidden 1376, vocab 4096. Builds its own
# binary with $CXX (default g++) -O3 -march=native (set $BENCH_ARCH_FLAGS to
# change) and std::thread; $WEFT_NUM_THREADS picks the thread count.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
decode=${1:-128}
prefill=${2:-64}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

${CXX:-g++} -std=c++17 -O3 ${BENCH_ARCH_FLAGS--march=native} -pthread \
  -I"$root/runtime/cpu" -I"$root/runtime/format" -I"$root/test/unittests/Runtime" \
  "$root/test/Runtime/Inputs/forward_bench.cpp" \
  "$root/test/unittests/Runtime/ReferenceLlama.cpp" \
  "$root"/runtime/cpu/*.cpp "$root"/runtime/format/*.cpp -o "$work/forward_bench"

data=${WEFT_SHARED_DATA:-$root/../shared/data}
stories=$data/models/stories260K.bin
echo "== stories260K"
if [ -f "$stories" ]; then
  "$work/forward_bench" "$stories" "$decode" "$prefill"
else
  echo "skipped: $stories not found"
fi
echo "== generated dim 512, 8 layers"
"$work/forward_bench" --random 512,1376,8,8,4,4096,512 "$decode" "$prefill"
