#!/usr/bin/env python3
"""Compares two program outputs token by token: numbers within a relative
tolerance, everything else exactly (for floating-point reductions split
across ranks, which may round differently).

  compare-numbers.py EXPECTED ACTUAL RTOL
"""
import re
import sys

number = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|[-+]?(inf|nan)")
expected, actual = (open(p).read() for p in sys.argv[1:3])
rtol = float(sys.argv[3])
e_tokens, a_tokens = expected.split(), actual.split()
if len(e_tokens) != len(a_tokens):
    sys.exit("compare-numbers: %d tokens expected, %d found" %
             (len(e_tokens), len(a_tokens)))
for line, (e, a) in enumerate(zip(e_tokens, a_tokens)):
    if e == a:
        continue
    # Tokens like "y[3]=1.5," compare their numbers and the rest exactly.
    en, an = number.findall(e), number.findall(a)
    if number.sub("#", e) != number.sub("#", a) or len(en) != len(an):
        sys.exit("compare-numbers: '%s' expected, '%s' found" % (e, a))
    for x, y in zip(number.finditer(e), number.finditer(a)):
        fx, fy = float(x.group()), float(y.group())
        if fx != fy and abs(fx - fy) > rtol * max(abs(fx), abs(fy)):
            sys.exit("compare-numbers: %s expected, %s found (rtol %g)" %
                     (x.group(), y.group(), rtol))
