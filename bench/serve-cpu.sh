#!/usr/bin/env bash
# Generated serving programs on the CPU: tokens/s and per-rank memory
# against the plan's prediction, and tokens/s of the independent fp32
# reference (weft-llama-ref: plain loops, one token at a time).
#
#   bash bench/serve-cpu.sh [BATCH [PROMPT_LEN [GEN_LEN]]]
#
# Models: a generated LLaMA (dim 512, 8 layers, GQA 8/4 heads, hidden 1376,
# vocab 4096; ~34 MB of fp16 decoder weights) and stories260K from
# ../shared/data (skipped when absent). Plans: 16, 8 and 4 bits and a mixed
# plan, on 1 and 2 stages. Needs build/bin (scripts/build.sh).
# WEFT_NUM_THREADS is set to cores / stages for each run.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
export PATH=$root/build/bin:$PATH
source "$root/test/Serve/Inputs/serve-lib.sh"
batch=${1:-4} prompt_len=${2:-64} gen_len=${3:-32}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cores=$(nproc)
prompt=$(seq -s' ' 1 "$prompt_len")

weft-llama-ref random "$work/gen.bin" 512,1376,8,8,4,4096,512 untied 1
models=("$work/gen.bin")
data=${WEFT_SHARED_DATA:-$root/../shared/data}
[ -f "$data/models/stories260K.bin" ] && models+=("$data/models/stories260K.bin") ||
  echo "(stories260K.bin not found under $data: skipped)"

echo "workload: batch $batch, prompt $prompt_len, generate $gen_len; $cores cores"
for model in "${models[@]}"; do
  layers=$(python3 -c "import struct,sys; print(struct.unpack('7i', open(sys.argv[1],'rb').read(28))[2])" "$model")
  half=$((layers / 2))
  name=$(basename "$model" .bin)
  start=$(date +%s.%N)
  weft-llama-ref generate "$model" "$prompt" "$gen_len" >/dev/null
  ref_s=$(echo "$(date +%s.%N) - $start" | bc)
  printf '\n== %s: fp32 reference, one sequence: %.1f tokens/s (prompt + generated)\n' \
    "$name" "$(echo "($prompt_len + $gen_len) / $ref_s" | bc -l)"
  printf '%-16s %6s %9s %11s %12s %12s %9s %12s\n' plan stages "prefill" "decode tok/s" \
    "allocated" "predicted" "alloc/pred" "peak RSS"
  for spec in "16" "8" "4" "mixed"; do
    for stages in 1 2; do
      if [ "$spec" = mixed ]; then
        bits=$(python3 -c "print(','.join(['8','4'][i % 2] for i in range($layers)))")
      else
        bits=$spec
      fi
      if [ "$stages" = 1 ]; then
        split=("0-$layers:$bits")
      elif [ "$spec" = mixed ]; then
        b=(${bits//,/ })
        split=("0-$half:$(IFS=,; echo "${b[*]:0:$half}")" "$half-$layers:$(IFS=,; echo "${b[*]:$half}")")
      else
        split=("0-$half:$bits" "$half-$layers:$bits")
      fi
      plan "$work/p.json" --model "$name" --prefill-mb "$batch" --decode-mb "$batch" \
        --batch "$batch" --prompt-len "$prompt_len" --gen-len "$gen_len" "${split[@]}"
      build "$work/p.json" "$model" "$work/s" >/dev/null
      WEFT_NUM_THREADS=$((cores / stages > 0 ? cores / stages : 1)) \
        serve "$stages" "$work/s" --prompt "$prompt" --batch "$batch" \
        --max-new-tokens "$gen_len" --stats >/dev/null 2>"$work/stats"
      prefill=$(sed -n 's/.*prefill \([0-9.]*\) ms.*/\1/p' "$work/stats")
      tps=$(sed -n 's/.*: \([0-9.]*\) tokens\/s.*/\1/p' "$work/stats")
      while read -r alloc pred rss; do
        printf '%-16s %6s %7sms %11s %12s %12s %9.3f %12s\n' "$spec-bit" "$stages" \
          "$prefill" "$tps" "$alloc" "$pred" "$(echo "$alloc / $pred" | bc -l)" "$rss"
        prefill="" tps=""
      done < <(sed -n 's/.*total \([0-9]*\) B, predicted \([0-9]*\) B, peak RSS \([0-9]*\) B.*/\1 \2 \3/p' "$work/stats")
    done
  done
done
