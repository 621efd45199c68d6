#!/usr/bin/env bash
# Planner benchmark: `weft plan` on heterogeneous clusters (2-16 GPUs mixing
# T4, P100, V100, A10, L4, A100, H100) for models of 13B-176B parameters.
#
#   bash bench/planner.sh [BUILD_DIR]
#
# Table 1: planning time, predicted throughput of weft's plan and of the two
# built-in baselines (uniform: even split, one bit-width; PipeEdge-like:
# min-max split, one bit-width, one micro-batch size), and the quality loss
# of each. weft's quality target is the PipeEdge-like plan's loss, so every
# speed-up is at equal or better predicted quality. Geometric means at the
# end. Table 2: gap of the fast planner to the exhaustive reference
# (`--planner exact`) on small instances where exhaustive search is
# tractable. Workload: batch 32, prompt 512, 128 generated tokens (table 1);
# batch 4, prompt 128, 32 tokens (table 2).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
weft=${WEFT:-$build/bin/weft}
[ -x "$weft" ] || { echo "planner.sh: no weft at $weft" >&2; exit 2; }
models=$root/examples/llm/models
clusters=$here/planner/clusters
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cases=(
  "llama-2-13b v100-t4"
  "llama-2-13b t4x2-p100-a10"
  "llama-30b t4x3-v100"
  "llama-30b p100x3-v100"
  "opt-30b t4x4-l4x2"
  "opt-66b t4x4-v100x2"
  "opt-66b v100x2-a100x2"
  "llama-2-70b a100x2-t4x4"
  "llama-2-70b l4x4-a10x2-v100x2"
  "llama-2-70b h100x2-a100x6-l4x4-t4x4"
  "opt-66b t4x8-l4x4-a10x4"
  "bloom-176b v100x4-a100x4"
  "bloom-176b v100x4-a100-80x2"
)

summarise() { # plan.json -> one table row (python3 reads the JSON)
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
gpus = sum(g.get("count", 1) for n in json.load(open(sys.argv[3]))["nodes"]
           for g in n["gpus"])
b = {x["name"]: x for x in p["baselines"]}
t = p["predicted"]["throughput_tokens_per_s"]
q = p["predicted"]["quality_loss"]
def cell(name):
    x = b[name]
    if "throughput_tokens_per_s" not in x:
        return "infeasible", "", ""
    return (f"{x['throughput_tokens_per_s']:.1f}", f"{x['quality_loss']:.2e}",
            f"{t / x['throughput_tokens_per_s']:.2f}")
u, e = cell("uniform"), cell("pipeedge")
bits = sorted({bit for s in p["stages"] for bit in s["bits"]}, reverse=True)
print(f"| {sys.argv[2]} | {gpus} | {p['planner']['planning_s']*1e3:.0f} | {t:.1f} | {q:.2e} | "
      f"{'/'.join(map(str, bits))} | {len(p['stages'])} | {e[0]} | {e[1]} | {e[2]} | {u[0]} | {u[1]} | {u[2]} |")
PY
}

echo "Table 1: weft plan vs baselines (batch 32, prompt 512, generate 128)"
echo
echo "| model / cluster | GPUs | plan ms | weft tok/s | weft loss | bits used | stages | PipeEdge tok/s | PipeEdge loss | x PipeEdge | uniform tok/s | uniform loss | x uniform |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
rows=()
for c in "${cases[@]}"; do
  set -- $c
  out=$tmp/$1-$2.json
  if "$weft" plan --model "$models/$1.json" --cluster "$clusters/$2.json" \
       --batch 32 --prompt-len 512 --gen-len 128 -o "$out" 2>"$tmp/err"; then
    row=$(summarise "$out" "$1 / $2" "$clusters/$2.json")
    echo "$row"
    rows+=("$row")
  else
    echo "| $1 / $2 | FAIL: $(head -1 "$tmp/err") |"
  fi
done
echo
printf '%s\n' "${rows[@]}" | python3 -c '
import sys, math
rows = [r.split("|") for r in sys.stdin.read().splitlines()]
def geomean(col):
    xs = [float(r[col]) for r in rows if r[col].strip()]
    return math.exp(sum(map(math.log, xs)) / len(xs)), len(xs)
t = [float(r[3]) for r in rows]
e, ne = geomean(10)
u, nu = geomean(13)
print(f"Geometric mean speed-up: {e:.2f}x over PipeEdge-like ({ne} cases), {u:.2f}x over uniform ({nu} cases).")
print(f"Planning time: max {max(t):.0f} ms, mean {sum(t)/len(t):.0f} ms.")
'

echo
echo "Table 2: fast planner vs exhaustive reference (6-layer model, 1-1.4 GB GPUs, batch 4, prompt 128, generate 32)"
echo
echo "| cluster | quality target | fast tok/s | exact tok/s | gap | fast ms | exact ms |"
echo "|---|---|---|---|---|---|---|"
small=$here/planner/small
for c in c1 c2 c3 c4; do
  for floor in none 8 4; do
    q=()
    [ "$floor" = none ] || q=(--quality-floor-bits "$floor")
    for planner in fast exact; do
      "$weft" plan --model "$small/model6.json" --cluster "$small/$c.json" \
        --batch 4 --prompt-len 128 --gen-len 32 "${q[@]}" --planner "$planner" \
        -o "$tmp/$c-$floor-$planner.json" 2>"$tmp/err" || true
    done
    python3 - "$tmp/$c-$floor-fast.json" "$tmp/$c-$floor-exact.json" "$c" "$floor" <<'PY'
import json, os, sys
f, x, c, floor = sys.argv[1:]
if not (os.path.exists(f) and os.path.exists(x)):
    print(f"| {c} | {floor} | infeasible | infeasible | | | |"); sys.exit()
f, x = json.load(open(f)), json.load(open(x))
tf, tx = f["predicted"]["throughput_tokens_per_s"], x["predicted"]["throughput_tokens_per_s"]
print(f"| {c} | {'default (PipeEdge-like loss)' if floor == 'none' else 'loss of all-' + floor + '-bit'} | {tf:.1f} | {tx:.1f} | "
      f"{100 * (1 - tf / tx):.2f}% | {f['planner']['planning_s']*1e3:.0f} | {x['planner']['planning_s']*1e3:.0f} |")
PY
  done
done
