#!/usr/bin/env python3
"""Checks a profile fitted to make-kernel-samples.py's exact samples against
the generator's coefficients (1e-4 relative); prints one line per value."""
import json
import sys

p = json.load(open(sys.argv[1]))
c = p["curves"]
W_NS = {16: 0.50, 8: 0.30, 4: 0.20, 3: 0.25}
ROW_NS = {16: 0.010, 8: 0.040, 4: 0.050, 3: 0.060}
PHASE = {"decode": dict(w=1.0, att=0.8, score=3.0, ew=20.0, layer=0.015),
         "prefill": dict(w=0.05, att=0.4, score=1.0, ew=10.0, layer=0.030)}
checks = []
for phase, k in PHASE.items():
    layer = c["layer"][phase]
    for b in (16, 8, 4, 3):
        checks.append((f"{phase} {b}-bit weight_ns", k["w"] * W_NS[b],
                       layer["weight_ns"][str(b)]))
        checks.append((f"{phase} {b}-bit row_weight_ns", ROW_NS[b],
                       layer["row_weight_ns"][str(b)]))
    checks.append((f"{phase} attention_ns", k["att"], layer["attention_ns"]))
    checks.append((f"{phase} attention_head_ns", k["score"],
                   layer["attention_head_ns"]))
    checks.append((f"{phase} elementwise_ns", k["ew"], layer["elementwise_ns"]))
    checks.append((f"layer overhead {phase}", k["layer"],
                   p["overheads_ms"]["layer"][phase], " ms"))
checks.append(("head weight", 0.3, c["head_ns"]["weight"]))
checks.append(("head row_weight", 0.05, c["head_ns"]["row_weight"]))
checks.append(("embedding_ns", 2.0, c["embedding_ns"]))
checks.append(("transfer latency_us", 5.0, p["transfer"]["latency_us"]))
checks.append(("transfer staging_GBps", 10.0, p["transfer"]["staging_GBps"]))
bad = 0
for name, want, got, *unit in checks:
    ok = abs(got - want) <= 1e-4 * abs(want)
    bad += not ok
    print(f"{name} {want:g}{unit[0] if unit else ''} {'ok' if ok else f'WRONG: {got}'}")
print(f"all {len(checks)} coefficients match" if not bad else f"{bad} of {len(checks)} wrong")
sys.exit(1 if bad else 0)
