#!/usr/bin/env bash
# Generated serving programs of a random LLaMA against the independent fp32
# reference, on 1 to 4 stages with odd micro-batch sizes.
#
#   bash serve-random.sh TMPDIR SHAPE tied|untied SEED
source "$(dirname "$0")/serve-lib.sh"
t=$1 shape=$2 tie=$3 seed=$4
IFS=, read -r dim hidden layers heads kv vocab seq <<<"$shape"
weft-llama-ref random "$t/m.bin" "$shape" "$tie" "$seed"
fail() { echo "serve-random: FAIL: $*" >&2; exit 1; }

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
last=$((layers - 1))
splits=("0-$layers:16" "0-2:16 2-$layers:16" "0-1:16 1-3:16 3-$layers:16"
        "0-1:16 1-2:16 2-$last:16 $last-$layers:16")
mbs=("1 1" "2 3" "3 2" "1 2")
for i in "${!splits[@]}"; do
  read -r -a stages <<<"${splits[$i]}"
  read -r pmb dmb <<<"${mbs[$i]}"
  n=${#stages[@]}
  plan "$t/p$n.json" --model m --prefill-mb "$pmb" --decode-mb "$dmb" "${stages[@]}"
  build "$t/p$n.json" "$t/m.bin" "$t/s$n"
  serve "$n" "$t/s$n" "${args[@]}" >"$t/out$n" || fail "$n stages: serve failed"
  cmp -s "$t/expected" "$t/out$n" ||
    { diff "$t/expected" "$t/out$n" >&2; fail "$n stages (fp16) differ from the reference"; }
  echo "fp16 on $n stages (micro-batches $pmb/$dmb): reference tokens"
done

# Mixed bits: splitting the same per-layer widths over more stages changes
# nothing, to the last bit of the logits.
bits=(8 4 3 16 8 4 3 16)
mixed=$(IFS=,; echo "${bits[*]:0:$layers}")
plan "$t/q1.json" --model m --prefill-mb 2 --decode-mb 2 "0-$layers:$mixed"
plan "$t/q3.json" --model m --prefill-mb 1 --decode-mb 3 \
  "0-1:${bits[0]}" "1-3:${bits[1]},${bits[2]}" \
  "3-$layers:$(IFS=,; echo "${bits[*]:3:$((layers - 3))}")"
for n in 1 3; do
  build "$t/q$n.json" "$t/m.bin" "$t/q$n"
  serve "$n" "$t/q$n" "${args[@]}" --logits-out "$t/q$n.f32" >"$t/qout$n" ||
    fail "mixed bits on $n stages: serve failed"
done
cmp -s "$t/qout1" "$t/qout3" || fail "mixed bits: 3 stages generate other tokens than 1"
cmp -s "$t/q1.f32" "$t/q3.f32" || fail "mixed bits: 3 stages give other logits than 1"
echo "mixed bits $mixed: 1 and 3 stages agree bit for bit"
