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
fail() { echo "serve-opt: FAIL: $*" >&2; exit 1; }

prompts=("1 5 9 13 2" "7 3" "4 8 15 16 23 42 11")
args=(--max-new-tokens 10)
: >"$t/expected"
for p in "${prompts[@]}"; do
  args+=(--prompt "$p")
  weft-llama-ref generate-opt "$t/hf" "$p" 10 >>"$t/expected"
done

# fp16 weights: every split generates the reference's greedy tokens.
splits=("0-$layers:16" "0-2:16 2-$layers:16" "0-1:16 1-3:16 3-$layers:16")
mbs=("1 1" "2 3" "3 2")
for i in "${!splits[@]}"; do
  read -r -a stages <<<"${splits[$i]}"
  read -r pmb dmb <<<"${mbs[$i]}"
  n=${#stages[@]}
  plan "$t/p$n.json" --model opt_test --prefill-mb "$pmb" --decode-mb "$dmb" "${stages[@]}"
  build "$t/p$n.json" "$t/hf" "$t/s$n"
  serve "$n" "$t/s$n" "${args[@]}" >"$t/out$n" || fail "$n stages: serve failed"
  cmp -s "$t/expected" "$t/out$n" ||
    { diff "$t/expected" "$t/out$n" >&2; fail "$n stages (fp16) differ from the reference"; }
  echo "fp16 on $n stages (micro-batches $pmb/$dmb): reference tokens"
done

# Mixed bits: the same per-layer widths over 1 or 3 stages give the same
# tokens and logits to the last bit.
bits=(8 4 3 16 8 4 3 16)
mixed=$(IFS=,; echo "${bits[*]:0:$layers}")
plan "$t/q1.json" --model opt_test --prefill-mb 2 --decode-mb 2 "0-$layers:$mixed"
plan "$t/q3.json" --model opt_test --prefill-mb 1 --decode-mb 3 \
  "0-1:${bits[0]}" "1-3:${bits[1]},${bits[2]}" \
  "3-$layers:$(IFS=,; echo "${bits[*]:3:$((layers - 3))}")"
for n in 1 3; do
  build "$t/q$n.json" "$t/hf" "$t/q$n"
  serve "$n" "$t/q$n" "${args[@]}" --logits-out "$t/q$n.f32" >"$t/qout$n" ||
    fail "mixed bits on $n stages: serve failed"
done
cmp -s "$t/qout1" "$t/qout3" || fail "mixed bits: 3 stages generate other tokens than 1"
cmp -s "$t/q1.f32" "$t/q3.f32" || fail "mixed bits: 3 stages give other logits than 1"
echo "mixed bits $mixed: 1 and 3 stages agree bit for bit"
