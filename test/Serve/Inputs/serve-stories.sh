#!/usr/bin/env bash
# The real tiny LLaMA (stories260K: 5 layers, GQA 8/4, vocab 512) served by
# generated programs:
#  1. fp16 plans on 1, 2 and 3 stages generate the independent fp32
#     reference's first 16 greedy tokens, with near-identical logits;
#  2. quantized and mixed plans: measured KL divergence from the reference
#     (mean over 32 prompt positions) against the planner's predicted
#     quality loss (weft plan --evaluate).
#
#   bash serve-stories.sh TMPDIR MODEL.bin
source "$(dirname "$0")/serve-lib.sh"
t=$1 model=$2
vocab=512

prompt="1 403 407 261"
weft-llama-ref generate "$model" "$prompt" 16 >"$t/expected"
# A natural 32-token prompt for the logit comparisons: the reference's own
# continuation of "1".
long="1 $(weft-llama-ref generate "$model" 1 31)"
weft-llama-ref logits "$model" "$long" "$t/ref.f32"

splits=("0-5:16" "0-3:16 3-5:16" "0-2:16 2-4:16 4-5:16")
for s in "${splits[@]}"; do
  read -r -a stages <<<"$s"
  n=${#stages[@]}
  plan "$t/p$n.json" --model stories260K --prefill-mb 1 --decode-mb 1 "${stages[@]}"
  build "$t/p$n.json" "$model" "$t/s$n"
  serve "$n" "$t/s$n" --prompt "$prompt" --max-new-tokens 16 >"$t/out$n" ||
    fail "$n stages: serve failed"
  cmp -s "$t/expected" "$t/out$n" ||
    { diff "$t/expected" "$t/out$n" >&2; fail "fp16 on $n stages differs from the reference"; }
  serve "$n" "$t/s$n" --prompt "$long" --max-new-tokens 1 --logits-out "$t/l$n.f32" >/dev/null
  close=$(python3 "$inputs/logits.py" "$t/ref.f32" "$t/l$n.f32" $vocab 0.01) ||
    fail "fp16 on $n stages: logits far from the reference"
  echo "fp16 on $n stages: reference tokens; $close"
done

# Quantized plans on two stages; the cluster only names the devices.
echo '{"nodes": [{"name": "host", "gpus": [{"type": "cpu", "count": 2}]}]}' >"$t/cluster.json"
: >"$t/quality"
for bits in 8,8,8,8,8 4,4,4,4,4 3,3,3,3,3 16,16,8,8,8 8,8,4,4,4 4,4,4,3,3 8,4,4,4,8 16,4,4,4,16 4,3,3,3,4; do
  IFS=, read -r -a b <<<"$bits"
  plan "$t/q.json" --model stories260K "0-2:${b[0]},${b[1]}" "2-5:${b[2]},${b[3]},${b[4]}"
  build "$t/q.json" "$model" "$t/q"
  serve 2 "$t/q" --prompt "$long" --max-new-tokens 1 --logits-out "$t/q.f32" >/dev/null ||
    fail "bits $bits: serve failed"
  kl=$(python3 "$inputs/logits.py" "$t/ref.f32" "$t/q.f32" $vocab)
  kl=${kl##*kl=}
  predicted=$(weft plan --evaluate "$t/q.json" --model "$model" --cluster "$t/cluster.json" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["quality_loss"])')
  echo "$bits $predicted $kl" >>"$t/quality"
done
python3 "$inputs/spearman.py" 0.8 <"$t/quality" || fail "predicted quality loss ranks plans unlike their KL"
# Uniform widths lose quality in the order 8 < 4 < 3 bits.
python3 - "$t/quality" <<'PY' || fail "KL is not ordered 8 < 4 < 3 bits"
import sys
kl = {l.split()[0]: float(l.split()[2]) for l in open(sys.argv[1])}
assert kl["8,8,8,8,8"] < kl["4,4,4,4,4"] < kl["3,3,3,3,3"], kl
print("uniform KL: 8 bits %.4g < 4 bits %.4g < 3 bits %.4g" %
      (kl["8,8,8,8,8"], kl["4,4,4,4,4"], kl["3,3,3,3,3"]))
PY
