#!/usr/bin/env bash
# Generated serving programs of a random LLaMA against the independent fp32
# reference, on 1 to 4 stages with odd micro-batch sizes.
#
#   bash serve-random.sh TMPDIR SHAPE tied|untied SEED
source "$(dirname "$0")/serve-lib.sh"
t=$1 shape=$2 tie=$3 seed=$4
IFS=, read -r dim hidden layers heads kv vocab seq <<<"$shape"
weft-llama-ref random "$t/m.bin" "$shape" "$tie" "$seed"

# Three sequences of different lengths: spans of unequal size in a prefill
# micro-batch.
prompts=("1 5 9 13 2" "7 3" "4 8 15 16 23 42 11")
args=(--max-new-tokens 10)
: >"$t/expected"
for p in "${prompts[@]}"; do
  args+=(--prompt "$p")
  weft-llama-ref generate "$t/m.bin" "$p" 10 >>"$t/expected"
done

# fp16 weights: every split generates the reference's greedy tokens.
check_fp16_splits "$t" "$t/m.bin" m "$layers" 4 "$t/expected" "${args[@]}"
# Mixed bits: the same per-layer widths over 1 or 3 stages agree bit for bit.
check_mixed_bits "$t" "$t/m.bin" m "$layers" "${args[@]}"
