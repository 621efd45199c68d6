#!/usr/bin/env python3
"""Compares two float32 logit files of shape [positions][VOCAB].

  logits.py REF.f32 TEST.f32 VOCAB [MAX_REL]

Prints `max_abs_diff=… max_ref=… kl=…`: the largest absolute difference,
the largest reference logit magnitude, and the mean over positions of
KL(softmax(REF) || softmax(TEST)) in nats. With MAX_REL, exits 1 when the
largest difference exceeds MAX_REL times the largest reference logit.
"""
import array
import math
import sys

def load(path):
    a = array.array("f")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    return a

ref, test, vocab = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3])
if len(ref) != len(test) or len(ref) % vocab or not ref:
    sys.exit(f"logits.py: sizes differ or are not a multiple of {vocab}: "
             f"{len(ref)} and {len(test)} floats")

def log_softmax(row):
    m = max(row)
    s = math.log(sum(math.exp(x - m) for x in row)) + m
    return [x - s for x in row]

kl = 0.0
positions = len(ref) // vocab
for p in range(positions):
    lp = log_softmax(ref[p * vocab:(p + 1) * vocab])
    lq = log_softmax(test[p * vocab:(p + 1) * vocab])
    kl += sum(math.exp(a) * (a - b) for a, b in zip(lp, lq))
diff = max(abs(a - b) for a, b in zip(ref, test))
top = max(abs(a) for a in ref)
print("max_abs_diff=%.6g max_ref=%.6g kl=%.6g" % (diff, top, kl / positions))
if len(sys.argv) > 4 and diff > float(sys.argv[4]) * top:
    sys.exit("logits.py: logits differ by %g, more than %s of %g" %
             (diff, sys.argv[4], top))
