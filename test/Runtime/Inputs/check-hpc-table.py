#!/usr/bin/env python3
"""Checks the table of `gpu-check.sh hpc` against figures worked out by hand.

  check-hpc-table.py TABLE.md PEAK_GBPS PEAK_TFLOPS KERNEL:BYTES:FLOPS:LAUNCHES[:IN:OUT] ...

For each kernel named: its row says correct (exact or yes), the times are
positive, the launches are LAUNCHES, the predicted kernels' time is positive
and the measured / predicted column is the kernels' time over it (both "-"
for a kernel compiled for the nominal sizes), GB/s times the region time is BYTES
and GFLOP/s times it FLOPS (the table prints 3 digits: within 1%), the
fractions are those rates over the peaks, and the roofline fraction is the
larger of the two; with IN and OUT, the bus column's megabytes each way
are those bytes. Prints "ok KERNEL" per kernel; exits 1 at the first
mismatch.
"""
import sys


def close(x, y, rel=0.01):
    return abs(x - y) <= rel * max(abs(x), abs(y))


def main(path, bw, tflops, expected):
    lines = [l for l in open(path) if l.startswith("| ") and not l.startswith("| kernel")]
    head = [c.strip() for c in next(l for l in open(path) if l.startswith("| kernel")).strip("|\n").split("|")]
    rows = {}
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[cells[0]] = dict(zip(head, cells))
    for spec in expected:
        kernel, nbytes, flops, launches, *moved = spec.split(":")
        r = rows.get(kernel)
        if r is None:
            sys.exit("no row for %s" % kernel)
        if not (r["correct"] == "exact" or r["correct"].startswith("yes (")):
            sys.exit("%s: correct is '%s'" % (kernel, r["correct"]))
        cpu, region = float(r["CPU s"]), float(r["region s"])
        ksec, klaunches = r["kernels s (launches)"].split()
        # PolyBench prints its timer with 6 decimals: a MINI kernel on the
        # CPU may take less than a microsecond and print 0.000000 (atax did,
        # 2026-12-07); the emulated region and kernels take far longer.
        if not (cpu >= 0 and region > 0 and float(ksec) > 0):
            sys.exit("%s: a time is negative or not positive" % kernel)
        if klaunches != "(%s)" % launches:
            sys.exit("%s: %s launches, %s expected" % (kernel, klaunches, launches))
        # A kernel compiled for the nominal sizes has no prediction for
        # the run's.
        if "nominal" in r["notes"]:
            if r["predicted kernels s"] != "-" or r["measured / predicted"] != "-":
                sys.exit("%s: a prediction for other sizes than the run's" % kernel)
        else:
            pred = float(r["predicted kernels s"])
            if not (pred > 0 and close(float(r["measured / predicted"]), float(ksec) / pred, 0.02)):
                sys.exit("%s: predicted %s, measured / predicted %s" % (kernel, r["predicted kernels s"],
                                                                        r["measured / predicted"]))
        gbps, gflops = float(r["GB/s"]), float(r["GFLOP/s"])
        # The table's region time has 3 digits too: compare through it.
        for what, got, want in (("bytes", gbps * 1e9 * region, float(nbytes)),
                                ("flops", gflops * 1e9 * region, float(flops))):
            if not close(got, want, 0.02):
                sys.exit("%s: %s %g, %g expected" % (kernel, what, got, want))
        pbw, pfl = float(r["% BW"]), float(r["% FLOP/s"])
        if not close(pbw, 100 * gbps / bw) or not close(pfl, 100 * gflops / (tflops * 1e3)):
            sys.exit("%s: fractions %g %g of %g GB/s, %g TFLOP/s" % (kernel, pbw, pfl, bw, tflops))
        if not close(float(r["roofline %"]), max(pbw, pfl)):
            sys.exit("%s: roofline %s" % (kernel, r["roofline %"]))
        if not close(float(r["speed-up"]), cpu / region, 0.02):
            sys.exit("%s: speed-up %s" % (kernel, r["speed-up"]))
        if moved:
            cells = r["bus MB in / out (copies)"].split()
            got = (float(cells[0]) * 1e6, float(cells[3]) * 1e6)
            if not all(close(g, float(w)) for g, w in zip(got, moved)):
                sys.exit("%s: bus %s, %s bytes expected" % (kernel, r["bus MB in / out (copies)"],
                                                             " / ".join(moved)))
        print("ok", kernel)


if __name__ == "__main__":
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    main(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4:])
