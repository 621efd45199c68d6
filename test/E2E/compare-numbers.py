#!/usr/bin/env python3
"""Compares two program outputs token by token: numbers within a tolerance,
everything else exactly (for floating-point reductions split across ranks or
thread blocks, which may round differently).

  compare-numbers.py EXPECTED ACTUAL RTOL

Two numbers match when they differ by at most RTOL times the larger of their
magnitudes and the largest magnitude in EXPECTED: a sum that cancels to
rounding noise (-4.4e-16 against 1.3e-15 where the terms were near 1) carries
the rounding error of its terms, not of its result.
"""
import math
import re
import sys

# Hexadecimal floats (printf's %a) first: "0x1.9bdd14p+2".
number = re.compile(r"[-+]?0[xX][0-9a-fA-F]*\.?[0-9a-fA-F]*[pP][-+]?\d+|"
                    r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|[-+]?(inf|nan)")


def value(text):
    return float.fromhex(text) if "x" in text.lower() else float(text)


expected, actual = (open(p).read() for p in sys.argv[1:3])
rtol = float(sys.argv[3])
e_tokens, a_tokens = expected.split(), actual.split()
if len(e_tokens) != len(a_tokens):
    sys.exit("compare-numbers: %d tokens expected, %d found" %
             (len(e_tokens), len(a_tokens)))
magnitudes = [abs(value(m.group())) for m in number.finditer(expected)]
scale = max([m for m in magnitudes if math.isfinite(m)], default=0.0)
for line, (e, a) in enumerate(zip(e_tokens, a_tokens)):
    if e == a:
        continue
    # Tokens like "y[3]=1.5," compare their numbers and the rest exactly.
    en, an = list(number.finditer(e)), list(number.finditer(a))
    if number.sub("#", e) != number.sub("#", a) or len(en) != len(an):
        sys.exit("compare-numbers: '%s' expected, '%s' found" % (e, a))
    for x, y in zip(number.finditer(e), number.finditer(a)):
        fx, fy = value(x.group()), value(y.group())
        if fx == fy or (math.isnan(fx) and math.isnan(fy)):
            continue
        if (not (math.isfinite(fx) and math.isfinite(fy)) or
                abs(fx - fy) > rtol * max(abs(fx), abs(fy), scale)):
            sys.exit("compare-numbers: %s expected, %s found (rtol %g of %g)" %
                     (x.group(), y.group(), rtol, max(abs(fx), abs(fy), scale)))
