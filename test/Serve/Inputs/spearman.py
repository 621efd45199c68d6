#!/usr/bin/env python3
"""Spearman rank correlation of the two columns of `NAME X Y` lines (stdin).

Prints the table sorted by Y and `spearman=R`; exits 1 if R < the
threshold given as argv[1] (default: no check).
"""
import sys

rows = [l.split() for l in sys.stdin if l.strip()]
names = [r[0] for r in rows]
xs = [float(r[1]) for r in rows]
ys = [float(r[2]) for r in rows]

def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):  # ties share their mean rank
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r

rx, ry = ranks(xs), ranks(ys)
n = len(rows)
mx, my = sum(rx) / n, sum(ry) / n
cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
sx = sum((a - mx) ** 2 for a in rx) ** 0.5
sy = sum((b - my) ** 2 for b in ry) ** 0.5
rho = cov / (sx * sy) if sx and sy else 0.0
for i in sorted(range(n), key=lambda i: ys[i]):
    print("%-12s predicted=%-10.4g measured_kl=%.4g" % (names[i], xs[i], ys[i]))
print("spearman=%.3f" % rho)
if len(sys.argv) > 1 and rho < float(sys.argv[1]):
    sys.exit(1)
