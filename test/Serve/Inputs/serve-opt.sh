#!/usr/bin/env bash
# Generated serving programs of a random HuggingFace OPT against the
# independent fp32 reference (ReferenceOpt), on 1 to 3 stages with odd
# micro-batch sizes, and a mixed-bit plan on 1 and 3 stages.
#
#   bash serve-opt.sh TMPDIR SHAPE SEED relu|gelu
source "$(dirname "$0")/serve-lib.sh"
t=$1 shape=$2 seed=$3 act=$4
IFS=, read -r dim ffn layers heads vocab maxpos <<<"$shape"
weft-llama-ref random-opt "$t/hf" "$shape" "$seed" "$act"

prompts=("1 5 9 13 2" "7 3" "4 8 15 16 23 42 11")
args=(--max-new-tokens 10)
: >"$t/expected"
for p in "${prompts[@]}"; do
  args+=(--prompt "$p")
  weft-llama-ref generate-opt "$t/hf" "$p" 10 >>"$t/expected"
done

# fp16 weights: every split generates the reference's greedy tokens.
check_fp16_splits "$t" "$t/hf" opt_test "$layers" 3 "$t/expected" "${args[@]}"
# Mixed bits: the same per-layer widths over 1 or 3 stages agree bit for bit.
check_mixed_bits "$t" "$t/hf" opt_test "$layers" "${args[@]}"
