#!/usr/bin/env bash
# Predicted against measured throughput of generated CPU serving programs.
#
#   bash bench/serve-predict.sh [PROFILE.json] [RUNS]
#
# Measures weft's CPU runtime with `weft cost profile --target=cpu --threads
# 1` (or uses PROFILE.json), then for each plan below predicts prefill,
# decode and throughput with `weft plan --evaluate --profile`, builds the
# plan (`weft build-model`, make) and runs it RUNS times (default 3) under
# mpirun with WEFT_NUM_THREADS=1 per rank, interleaving the plans between
# rounds and keeping each plan's fastest run. Prints a table, the mean
# absolute percentage error of throughput, prefill and decode, and how
# often the predicted order of two plans matches the measured order. The
# workload is the issue's: a random 27 MB LLaMA (dim 256, 8 layers, 8/4
# heads, FFN 688, vocab 2048), batch 4, prompt 32, 64 new tokens.
#
# Timing runs use `nice -n -10` when allowed, so that other work on a
# shared machine disturbs them less; the load is printed with the results.
# Needs build/bin (scripts/build.sh), mpirun and a C++ compiler.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
export PATH=$root/build/bin:$PATH
source "$root/test/Serve/Inputs/serve-lib.sh"
profile=${1:-}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
batch=4 prompt_len=32 gen_len=64
prompt=$(seq -s' ' 1 "$prompt_len")
nice=()
nice -n -10 true 2>/dev/null && nice=(nice -n -10)
if command -v ccache >/dev/null; then export CXX="ccache g++"; fi

weft-llama-ref random "$work/m.bin" 256,688,8,8,4,2048,256 untied 1
echo '{"nodes": [{"name": "host", "gpus": [{"type": "cpu", "count": 2}]}]}' \
  >"$work/cluster.json"
if [ -z "$profile" ]; then
  profile=$work/cpu.json
  "${nice[@]}" weft cost profile --target=cpu --threads 1 -o "$profile"
fi

# name|prefill-mb|decode-mb|stage...
plans=(
  "16/1st|4|4|0-8:16"
  "8/1st|4|2|0-8:8"
  "4/1st|2|4|0-8:4"
  "mixed/1st|1|1|0-8:16,8,4,3,16,8,4,3"
  "16/2st|4|4|0-4:16 4-8:16"
  "8+4/2st|2|2|0-4:8 4-8:4"
  "4/2st|1|2|0-4:4 4-8:4"
  "3+16/2st|4|1|0-5:3 5-8:16"
)
results=$work/results.txt
: >"$results"
for spec in "${plans[@]}"; do
  IFS='|' read -r name pmb dmb stages <<<"$spec"
  dir=$work/$(echo "$name" | tr '/+' '__')
  read -r -a split <<<"$stages"
  plan "$dir.json" --model m --prefill-mb "$pmb" --decode-mb "$dmb" \
    --batch "$batch" --prompt-len "$prompt_len" --gen-len "$gen_len" "${split[@]}"
  weft plan --evaluate "$dir.json" --model "$work/m.bin" --cluster "$work/cluster.json" \
    --profile "$profile" --batch "$batch" --prompt-len "$prompt_len" \
    --gen-len "$gen_len" >"$dir.predicted.json"
  build "$dir.json" "$work/m.bin" "$dir" >/dev/null
done
for ((round = 0; round < runs; round++)); do
  for spec in "${plans[@]}"; do
    IFS='|' read -r name pmb dmb stages <<<"$spec"
    dir=$work/$(echo "$name" | tr '/+' '__')
    read -r -a split <<<"$stages"
    WEFT_NUM_THREADS=1 "${nice[@]}" timeout 300 mpirun --oversubscribe \
      -np "${#split[@]}" "$dir/serve" --prompt "$prompt" --batch "$batch" \
      --max-new-tokens "$gen_len" --stats >/dev/null 2>"$dir.stats"
    prefill=$(sed -n 's/.*prefill \([0-9.]*\) ms.*/\1/p' "$dir.stats")
    decode=$(sed -n 's/.*decode [0-9]* tokens in \([0-9.]*\) ms.*/\1/p' "$dir.stats")
    echo "$name $dir.predicted.json $prefill $decode" >>"$results"
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
python3 - "$results" "$batch" "$gen_len" <<'EOF'
import itertools, json, sys
rows, batch, gen = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
best = {}
for line in open(rows):
    name, pred, pre, dec = line.split()
    pre, dec = float(pre) / 1e3, float(dec) / 1e3
    if name not in best or pre + dec < sum(best[name][1:]):
        best[name] = (pred, pre, dec)
print(f"{'plan':<12} {'pred tok/s':>10} {'meas tok/s':>10} {'err':>7}"
      f" {'pred pre':>9} {'meas pre':>9} {'pred dec':>9} {'meas dec':>9}")
errs = {"throughput": [], "prefill": [], "decode": []}
pairs = []
for name, (pred, pre, dec) in best.items():
    p = json.load(open(pred))["predicted"]
    meas = batch * gen / (pre + dec)
    e = p["throughput_tokens_per_s"] / meas - 1
    errs["throughput"].append(abs(e))
    errs["prefill"].append(abs(p["prefill_s"] / pre - 1))
    errs["decode"].append(abs(p["decode_s"] / dec - 1))
    pairs.append((name, p["throughput_tokens_per_s"], meas))
    print(f"{name:<12} {p['throughput_tokens_per_s']:>10.1f} {meas:>10.1f} {100*e:>+6.1f}%"
          f" {1e3*p['prefill_s']:>7.1f}ms {1e3*pre:>7.1f}ms"
          f" {1e3*p['decode_s']:>7.1f}ms {1e3*dec:>7.1f}ms")
for k, v in errs.items():
    print(f"MAPE {k}: {100*sum(v)/len(v):.1f}% over {len(v)} plans")
agree = total = 0
for (_, pa, ma), (_, pb, mb) in itertools.combinations(pairs, 2):
    total += 1
    agree += (pa > pb) == (ma > mb)
print(f"plan order: {agree}/{total} pairs ({100*agree/total:.0f}%) as measured")
EOF
