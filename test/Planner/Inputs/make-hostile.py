#!/usr/bin/env python3
"""Writes hostile inputs for the plan readers into DIR (never committed:
the tests generate them). Usage: make-hostile.py DIR"""
import json
import os
import struct
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def write(name, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(os.path.join(out, name), mode) as f:
        f.write(data)


deep = 50000
# JSON nested 50,000 deep: as a cluster, a model config and a plan.
write("deep-cluster.json", '{"nodes": ' + "[" * deep + "]" * deep + "}\n")
write("deep-model.json", '{"model_type": "llama", "x": ' + "{\"a\": " * deep +
      "1" + "}" * deep + "}\n")
write("deep-plan.json", '{"stages": ' + "[" * deep + "]" * deep + "}\n")
# 256 levels are fine (the cluster is then wrong, not too deep); brackets
# inside strings do not count.
write("depth-256.json", "[" * 256 + "]" * 256 + "\n")
write("depth-257.json", "[" * 257 + "]" * 257 + "\n")
write("brackets-in-strings.json", json.dumps(
    {"nodes": [{"name": "[{" * 1000 + "\\\"[", "gpus": [{"type": "A100-80GB"}]}]}))

# 4096 devices per entry is allowed, but not 8192 in all.
write("too-many-devices.json", json.dumps(
    {"nodes": [{"name": "n0", "gpus": [{"type": "T4", "count": 4096},
                                       {"type": "T4", "count": 4096}]}]}))
# 200,000 nodes (checking names for duplicates must not be quadratic).
write("many-nodes.json", json.dumps(
    {"nodes": [{"name": f"n{i}", "gpus": []} for i in range(200000)] +
     [{"name": "n7", "gpus": []}]}))

# YAML nested 50,000 deep: flow sequences, flow mappings, block sequences.
write("deep-flow.yaml", "nodes: " + "[" * deep + "]" * deep + "\n")
write("deep-map.yaml", "nodes: " + "{a: " * deep + "1" + "}" * deep + "\n")
write("deep-block.yaml", "nodes:\n" + "- " * deep + "x\n")

# A valid YAML cluster over 16 KB (read through mmap), keys of every kind:
# plain, quoted, and escaped (which the YAML library unescapes into
# temporary storage).
spare = []
for i in range(300):
    spare.append(f"  - name: spare{i:04d}\n    gpus:\n      - type: T4\n"
                 f"        count: 0\n    \"intra_link_GBps\": 16\n")
write("big.yaml", "nodes:\n  - name: n0\n    gpus:\n      - type: A100-40GB\n"
      "        count: 2\n    intra_link_GBps: 300\n"
      "  - name: n1\n    gpus:\n      - { type: T4, \"co\\x75nt\": 4 }\n"
      "    intra_link_GBps: 16\n" + "".join(spare) +
      "inter_node_GBps: 12.5\n")
# The same cluster in JSON, to compare the plans.
write("big.json", json.dumps({
    "nodes": [{"name": "n0", "gpus": [{"type": "A100-40GB", "count": 2}],
               "intra_link_GBps": 300},
              {"name": "n1", "gpus": [{"type": "T4", "count": 4}],
               "intra_link_GBps": 16}] +
             [{"name": f"spare{i:04d}", "gpus": [{"type": "T4", "count": 0}],
               "intra_link_GBps": 16} for i in range(300)],
    "inter_node_GBps": 12.5}))

# llama2.c checkpoints (dim 64, hidden 172, 5 layers, 8 heads, 4 KV heads,
# vocab 512, seq 512) cut short: after the header, in the middle of wq, and
# one float before the end of w3.
dim, hidden, layers, heads, kv, vocab, seq = 64, 172, 5, 8, 4, 512, 512
header = struct.pack("<7i", dim, hidden, layers, heads, kv, vocab, seq)
kvdim = dim // heads * kv
sizes = [vocab * dim, layers * dim, layers * dim * dim, layers * kvdim * dim,
         layers * kvdim * dim, layers * dim * dim, layers * dim,
         layers * hidden * dim, layers * dim * hidden, layers * hidden * dim]
full = sum(sizes)
weights = struct.pack("<f", 0.01) * full
write("header-only.bin", header)
cut = sizes[0] + sizes[1] + sizes[2] // 2
write("cut-in-wq.bin", header + weights[:4 * cut])
write("cut-in-w3.bin", header + weights[:4 * (full - 1)])
# A wide model with a one-unit FFN, cut inside wo: the FFN tensors after wo
# still fit in what is left (a reader that skipped wo without failing would
# read them from the wrong place, and wo out of range).
dim, hidden, layers, heads, kv, vocab = 256, 1, 1, 2, 2, 4
write("cut-in-wo.bin", struct.pack("<7i", dim, hidden, layers, heads, kv,
                                   vocab, seq) +
      struct.pack("<f", 0.01) * (vocab * dim + dim + 3 * dim * dim + 2000))
# A header whose sizes overflow: every field at the importer's limits.
write("huge-header.bin", struct.pack("<7i", 1 << 22, 1 << 22, 1 << 14,
                                     1 << 11, 1 << 11, 1 << 22, 1 << 20))


# safetensors directories (config.json + model.safetensors) of a one-layer
# LLaMA: dim 8, hidden 16, vocab 32.
def safetensors_dir(name, tensors, raw=None, header_len=None):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump({"model_type": "llama", "hidden_size": 8,
                   "intermediate_size": 16, "num_hidden_layers": 1,
                   "num_attention_heads": 2, "vocab_size": 32}, f)
    text = json.dumps(tensors).encode() if raw is None else raw
    data = b"\0" * 4096
    length = len(text) if header_len is None else header_len
    with open(os.path.join(d, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", length) + text + data)


def layer(q):
    p = "model.layers.0."
    t = {p + "input_layernorm.weight":
         {"dtype": "F32", "shape": [8], "data_offsets": [0, 32]}}
    t[p + "self_attn.q_proj.weight"] = q
    return t


# 2^32 x 2^32 F16: the element count wraps to 0 in 64 bits.
safetensors_dir("wrap", layer({"dtype": "F16", "shape": [1 << 32, 1 << 32],
                               "data_offsets": [32, 32]}))
safetensors_dir("past-end", layer({"dtype": "F16", "shape": [8, 8],
                                   "data_offsets": [32, 32 + 8192]}))
safetensors_dir("overlap", layer({"dtype": "F16", "shape": [8, 8],
                                  "data_offsets": [16, 144]}))
safetensors_dir("backwards", layer({"dtype": "F16", "shape": [8, 8],
                                    "data_offsets": [160, 32]}))
safetensors_dir("dtype", layer({"dtype": "F12", "shape": [8, 8],
                                "data_offsets": [32, 160]}))
safetensors_dir("empty", layer({"dtype": "F16", "shape": [0, 8],
                                "data_offsets": [32, 32]}))
safetensors_dir("long-header", {}, raw=b"{}", header_len=1 << 40)
safetensors_dir("deep-header", {},
                raw=b'{"a": ' + b"[" * deep + b"]" * deep + b"}")
