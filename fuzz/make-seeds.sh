#!/usr/bin/env bash
# Writes the seed corpora of fuzz/corpus/ (committed; rerun after a format
# changes): plans for FuzzPlan.cpp's fixed problem, and binary seeds made
# by weft's own tools from tiny random models. The other targets' seeds are
# examples and test inputs (fuzz/seed-dirs.sh).
#   bash fuzz/make-seeds.sh [BUILD_DIR]   (default build/: weft, weft-llama-ref)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build}/bin
corpus=$root/fuzz/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$corpus"
mkdir -p "$corpus"/{plan,llama2c,safetensors,stage-file,serve-args,kernel-samples}

# C, cluster and model seeds are the examples and test inputs, read where
# they are (fuzz/seed-dirs.sh).
# Plans for fuzz/FuzzPlan.cpp's fixed model (8 layers) and cluster
# (n0/0 A100-40GB, n0/1 T4, n1/0 cpu).
cat >"$corpus/plan/two-stages.json" <<'JSON'
{ "model": "fuzz-llama", "prefill_microbatch": 2, "decode_microbatch": 4,
  "stages": [ { "device": "n0/0", "type": "A100-40GB", "layers": [0, 5], "bits": [16, 8, 8, 4, 4] },
              { "device": "n0/1", "type": "T4", "layers": [5, 8], "bits": [4, 3, 2] } ],
  "workload": { "batch": 4, "prompt_len": 32, "gen_len": 16 } }
JSON
cat >"$corpus/plan/three-stages.yaml" <<'YAML'
model: fuzz-llama
prefill_microbatch: 1
decode_microbatch: 1
stages:
  - device: n1/0
    type: cpu
    layers: [0, 2]
    bits: [16, 16]
  - device: n0/1
    layers: [2, 3]
    bits: [8]
  - device: n0/0
    layers: [3, 8]
    bits: [4, 4, 4, 4, 4]
YAML

# llama2.c checkpoints (dim,hidden,layers,heads,kv,vocab,seq).
"$bin/weft-llama-ref" random "$corpus/llama2c/tied.bin" 8,16,2,2,1,16,8 tied 1
"$bin/weft-llama-ref" random "$corpus/llama2c/untied.bin" 8,12,1,2,2,8,4 untied 2

# Stage files of the tied model, with and without quantized layers; the
# harness appends the checksum, so the seeds end before it.
python3 "$root/test/Serve/Inputs/make-plan.py" "$tmp/plan.json" --model tied 0-1:16 1-2:4
"$bin/weft" build-model --plan "$tmp/plan.json" --weights "$corpus/llama2c/tied.bin" -o "$tmp/model" >/dev/null
for s in 0 1; do
  head -c -8 "$tmp/model/weights/stage$s.weft" >"$corpus/stage-file/stage$s"
done

# safetensors: the one-layer LLaMA of FuzzSafetensors.cpp, in F32, F16, BF16.
python3 - "$corpus/safetensors/tiny-llama.safetensors" <<'PY'
import json, struct, sys
shapes = {"model.embed_tokens.weight": [16, 8], "model.norm.weight": [8],
          "lm_head.weight": [16, 8]}
p = "model.layers.0."
shapes.update({p + "input_layernorm.weight": [8],
               p + "post_attention_layernorm.weight": [8],
               p + "self_attn.q_proj.weight": [8, 8], p + "self_attn.k_proj.weight": [4, 8],
               p + "self_attn.v_proj.weight": [4, 8], p + "self_attn.o_proj.weight": [8, 8],
               p + "mlp.gate_proj.weight": [16, 8], p + "mlp.up_proj.weight": [16, 8],
               p + "mlp.down_proj.weight": [8, 16]})
header, data = {"__metadata__": {"format": "pt"}}, b""
for i, (name, shape) in enumerate(sorted(shapes.items())):
    n = 1
    for d in shape:
        n *= d
    dtype = ["F32", "F16", "BF16"][i % 3]
    if dtype == "F32":
        blob = struct.pack("<%df" % n, *[((j * 7) % 11 - 5) / 8 for j in range(n)])
    elif dtype == "F16":
        blob = struct.pack("<%de" % n, *[((j * 5) % 9 - 4) / 4 for j in range(n)])
    else:  # bfloat16: the high half of a float32
        blob = b"".join(struct.pack("<f", ((j * 3) % 7 - 3) / 2)[2:] for j in range(n))
    header[name] = {"dtype": dtype, "shape": shape,
                    "data_offsets": [len(data), len(data) + len(blob)]}
    data += blob
text = json.dumps(header).encode()
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<Q", len(text)) + text + data)
PY

# weft-kernel-bench samples: exact curves, noisy ones, and one part missing.
gen=$root/test/Planner/Inputs/make-kernel-samples.py
python3 "$gen" "$corpus/kernel-samples/exact.json"
python3 "$gen" "$corpus/kernel-samples/noisy.json" --noise 0.2
python3 "$gen" "$corpus/kernel-samples/no-transfer.json" --drop transfer

# serve's command line, NUL-separated.
python3 - "$corpus/serve-args" <<'PY'
import sys
seeds = {"basic": ["--prompt", "1 5 9", "--max-new-tokens", "4", "--stats"],
         "every-flag": ["--prompt=7 3", "--prompt=4 8 15", "--batch=6",
                        "--prefill-microbatch=2", "--decode-microbatch=3",
                        "--temperature=0.8", "--seed=42", "--logits-out=l.bin",
                        "--weights=w"],
         "bad-values": ["--prompt", "999999999999", "--temperature", "-1"]}
for name, args in seeds.items():
    with open(sys.argv[1] + "/" + name, "wb") as f:
        f.write(b"\0".join(a.encode() for a in args))
PY
echo "seeds: $(find "$corpus" -type f | wc -l) files in $corpus"
