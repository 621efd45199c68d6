#!/usr/bin/env python3
"""Writes a plan.json (DESIGN.md schema) for CPU devices host/0, host/1, ...

  make-plan.py OUT --model NAME [--prefill-mb M] [--decode-mb M]
               [--batch B] [--prompt-len P] [--gen-len G] STAGE...

STAGE is FIRST-END:BITS, BITS being one width for every layer of the stage
or a comma-separated list with one width per layer.
"""
import argparse
import json

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--model", required=True)
ap.add_argument("--prefill-mb", type=int, default=1)
ap.add_argument("--decode-mb", type=int, default=1)
ap.add_argument("--batch", type=int, default=1)
ap.add_argument("--prompt-len", type=int, default=8)
ap.add_argument("--gen-len", type=int, default=16)
ap.add_argument("--type", default="cpu")
ap.add_argument("stages", nargs="+")
a = ap.parse_args()
stages = []
for k, spec in enumerate(a.stages):
    layers, bits = spec.split(":")
    first, end = (int(x) for x in layers.split("-"))
    widths = [int(b) for b in bits.split(",")]
    if len(widths) == 1:
        widths *= end - first
    stages.append({"device": f"host/{k}", "type": a.type,
                   "layers": [first, end], "bits": widths})
plan = {"model": a.model, "prefill_microbatch": a.prefill_mb,
        "decode_microbatch": a.decode_mb, "stages": stages,
        "workload": {"batch": a.batch, "prompt_len": a.prompt_len,
                     "gen_len": a.gen_len}}
with open(a.out, "w") as f:
    json.dump(plan, f, indent=1)
