#!/usr/bin/env python3
"""Writes weft-kernel-bench samples timed by known kernel curves, so that a
test can check that `weft cost profile --samples` recovers them.

  make-kernel-samples.py OUT [--noise F] [--drop PART] [--one-shape]

Curves (ns): decode layers W*(w_b + rows*r_b) + 0.8*attended + 3*scores +
20*rows*dim + 15000; prefill W*(0.05*w_b + rows*r_b) + 0.4*attended + ...;
head V*D*(0.3 + 0.05*rows); embedding 2 ns per row x dim; hand-off 5 us +
bytes / 10 GB/s. --noise F multiplies every time by 1 +- F (alternating).
--one-shape times only the first model shape (as weft-kernel-bench --quick).
"""
import argparse
import json

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--noise", type=float, default=0.0)
ap.add_argument("--drop", default="")
ap.add_argument("--one-shape", action="store_true")
a = ap.parse_args()

W_NS = {16: 0.50, 8: 0.30, 4: 0.20, 3: 0.25}
ROW_NS = {16: 0.010, 8: 0.040, 4: 0.050, 3: 0.060}
PHASE = {"decode": dict(w=1.0, att=0.8, score=3.0, ew=20.0, layer=15000.0),
         "prefill": dict(w=0.05, att=0.4, score=1.0, ew=10.0, layer=30000.0)}
shapes = [(256, 688, 8, 4), (512, 1376, 8, 4), (768, 2048, 12, 4)]
if a.one_shape:
    shapes = shapes[:1]
samples = []
flip = [1.0]


def jitter(ms):
    flip[0] = -flip[0]
    return ms * (1 + flip[0] * a.noise)


def base(part, phase, bits, shape, seqs, rows, past):
    dim, hidden, heads, kv = shape
    return {"part": part, "phase": phase, "bits": bits, "dim": dim,
            "hidden": hidden, "heads": heads, "kv_heads": kv, "vocab": 4096,
            "layers": 4, "seqs": seqs, "rows": rows, "past": past}


for shape in shapes:
    dim, hidden, heads, kv = shape
    kvdim = dim // heads * kv
    W = dim * (dim + 2 * kvdim) + dim * dim + 3 * dim * hidden
    for bits in (16, 8, 4, 3):
        configs = [("decode", s, 1, p) for s in (1, 3, 8) for p in (16, 384)]
        configs += [("prefill", s, r, 0) for s in (1, 3) for r in (16, 64)]
        for phase, seqs, rows, past in configs:
            c = PHASE[phase]
            T = seqs * rows
            positions = T * (past + (rows + 1) / 2)
            ns = (W * (c["w"] * W_NS[bits] + T * ROW_NS[bits]) +
                  positions * dim * c["att"] + positions * heads * c["score"] +
                  T * dim * c["ew"] + c["layer"])
            empty = 0.002 if phase == "decode" else 0.01
            s = base("layers", phase, bits, shape, seqs, rows, past)
            s["empty_ms"] = empty
            s["ms"] = jitter(4 * ns * 1e-6) + empty
            samples.append(s)
    for n in (1, 4, 8):
        s = base("head", "decode", 16, shape, n, 1, 0)
        s["ms"] = jitter(4096 * dim * (0.3 + 0.05 * n) * 1e-6)
        samples.append(s)
        s = base("embed", "decode", 16, shape, n, 1, 0)
        s["ms"] = jitter(2 * n * dim * 1e-6)
        samples.append(s)
for b in (4096, 65536, 1 << 20):
    samples.append({"part": "transfer", "bytes": b,
                    "ms": jitter(5e-3 + b / 10e9 * 1e3)})
samples = [s for s in samples if s["part"] != a.drop]
with open(a.out, "w") as f:
    json.dump({"format": "weft-kernel-samples", "version": 1, "threads": 1,
               "repeats": 5, "samples": samples}, f, indent=1)
