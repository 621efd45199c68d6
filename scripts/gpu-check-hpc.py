#!/usr/bin/env python3
"""The HPC part of scripts/gpu-check.sh: checks and tabulates PolyBench runs.

  gpu-check-hpc.py compare EXPECTED ACTUAL
      Compares two PolyBench array dumps (-DPOLYBENCH_DUMP_ARRAYS, printed
      with "%.17g"). Prints "exact" when they are byte for byte the same;
      otherwise "yes (max diff X)" when every number
      is within RTOL (1e-10) of the largest magnitude in its array, else
      "NO (...)" and exits 1. Why a tolerance at all: nvcc contracts a * b + c
      into one fused multiply-add (one rounding instead of two) where gcc
      -O3 -march=native contracts other pairs or none; weft keeps the order
      of every operation (it maps only loops without carried dependences
      and each thread runs its inner loops in the source's order;
      reductions stay on the host), so the dumps differ by such roundings
      only, a few units in the last place per operation.

  gpu-check-hpc.py table RESULTS_DIR DEVICE_CPP GPU_TYPE [--emulated]
      The markdown table of the results (one KERNEL.result of key=value lines
      per kernel, written by gpu-check.sh), with each kernel's algorithmic
      floating-point operations and bytes (FORMULAS) and the peaks of
      GPU_TYPE from weft's device database (lib/CostModel/Device.cpp).

  gpu-check-hpc.py peaks DEVICE_CPP GPU_TYPE
      Prints GPU_TYPE's memory bandwidth (GB/s) and fp64 peak (TFLOP/s).

  gpu-check-hpc.py sizes HEADER DATASET
      Prints the sizes a PolyBench header defines for DATASET (N:1300 ...).

  gpu-check-hpc.py predicted REPORT
      Prints the seconds weft's cost model predicts for the kernels and
      launches of the nests its --report (REPORT) puts on the device: the
      sum over its "runs on the device" remarks of each nest's own
      "(kernels T, N launches L" figures (each nest alone: the figures the
      choice between host and device weighs), "-" for none.
"""
import math
import os
import re
import sys

RTOL = 1e-10

# Each kernel's floating-point operations and bytes, the algorithmic
# minimum, from its sizes (the PolyBench header's #defines for the
# dataset). Stencils: the operations as written in the source (+ - * each
# count one), over the points each sweep updates. Matrix products and
# solvers: 2 per multiply-add (the BLAS convention cuBLAS figures use;
# scalings by alpha and beta left out), lu's divisions included. Bytes:
# 8 per double each loop nest of the source must read (each array it reads,
# once) and write (each array it writes, once): jacobi-2d reads A and
# writes B per sweep. A kernel's real traffic is at least this; caches and
# registers cannot make it smaller, so the fractions are upper bounds of
# how close to the memory roofline the kernels come.
FORMULAS = {
    "jacobi-2d": (
        lambda s: 10 * s["TSTEPS"] * (s["N"] - 2) ** 2,
        lambda s: 8 * 2 * s["TSTEPS"] * (s["N"] ** 2 + (s["N"] - 2) ** 2),
        "2 sweeps per step, 5 flops per point; each reads one N^2 array, writes the other"),
    "heat-3d": (
        lambda s: 30 * s["TSTEPS"] * (s["N"] - 2) ** 3,
        lambda s: 8 * 2 * s["TSTEPS"] * (s["N"] ** 3 + (s["N"] - 2) ** 3),
        "2 sweeps per step, 15 flops per point; each reads one N^3 array, writes the other"),
    "fdtd-2d": (
        lambda s: s["TMAX"] * (3 * (s["NX"] - 1) * s["NY"] + 3 * s["NX"] * (s["NY"] - 1)
                               + 5 * (s["NX"] - 1) * (s["NY"] - 1)),
        lambda s: 8 * s["TMAX"] * (s["NY"] + 10 * s["NX"] * s["NY"]),
        "per step: ey (3 flops), ex (3), hz (5) per point; the 3 nests move 3 + 3 + 4 NX*NY arrays"),
    "gemm": (
        lambda s: 2 * s["NI"] * s["NJ"] * s["NK"],
        lambda s: 8 * (s["NI"] * s["NK"] + s["NK"] * s["NJ"] + 2 * s["NI"] * s["NJ"]),
        "2 NI NJ NK; A, B read, C read and written"),
    "syrk": (
        lambda s: s["N"] * (s["N"] + 1) * s["M"],
        lambda s: 8 * (s["N"] * s["M"] + s["N"] * (s["N"] + 1)),
        "2 M per element of C's lower triangle; A read, the triangle read and written"),
    "2mm": (
        lambda s: 2 * s["NI"] * s["NJ"] * (s["NK"] + s["NL"]),
        lambda s: 8 * (s["NI"] * s["NK"] + s["NK"] * s["NJ"] + 2 * s["NI"] * s["NJ"]
                       + s["NJ"] * s["NL"] + 2 * s["NI"] * s["NL"]),
        "two products; tmp written by the first, read by the second"),
    "atax": (
        lambda s: 4 * s["M"] * s["N"],
        lambda s: 8 * (s["M"] * s["N"] + 2 * s["N"] + s["M"]),
        "A x, then A^T of it: A read once, the vectors once each"),
    "bicg": (
        lambda s: 4 * s["M"] * s["N"],
        lambda s: 8 * (s["M"] * s["N"] + 2 * s["M"] + 2 * s["N"]),
        "A^T r and A p in one sweep: A read once, the vectors once each"),
    "mvt": (
        lambda s: 4 * s["N"] ** 2,
        lambda s: 8 * (2 * s["N"] ** 2 + 6 * s["N"]),
        "A x and A^T x in two nests (a row reduction and a thread per column): "
        "each reads A, its x and y, and writes its x"),
    "gesummv": (
        lambda s: 4 * s["N"] ** 2,
        lambda s: 8 * (2 * s["N"] ** 2 + 3 * s["N"]),
        "A x and B x in one sweep (row reductions): A, B, x read, tmp and y written"),
    "lu": (
        lambda s: s["N"] ** 2 * (s["N"] - 1) - s["N"] * (s["N"] - 1) * (2 * s["N"] - 1) // 6,
        lambda s: 8 * 2 * s["N"] ** 2,
        "about 2/3 N^3 (divisions included); A read and written once"),
}


def sizes(header, dataset):
    """The #defines of `dataset`'s block in a PolyBench header."""
    values, inside = {}, False
    for line in open(header):
        if re.match(r"\s*#\s*ifdef\s+%s\b" % re.escape(dataset), line):
            inside = True
        elif inside and re.match(r"\s*#\s*endif", line):
            break
        elif inside:
            m = re.match(r"\s*#\s*define\s+(\w+)\s+(\d+)", line)
            if m:
                values[m.group(1)] = int(m.group(2))
    if not values:
        sys.exit("gpu-check-hpc: no %s sizes in %s" % (dataset, header))
    return values


def peaks(device_cpp, gpu_type):
    """(GB/s, fp64 TFLOP/s) of `gpu_type`: make("NAME", mem, fp16, int8,
    fp32, fp64, bandwidth, ...) in weft's device table."""
    number = r"\s*([0-9.]+)"
    pattern = re.compile(r'make\("%s",%s' % (re.escape(gpu_type), ",".join([number] * 6)))
    m = pattern.search(open(device_cpp).read())
    if not m:
        sys.exit("gpu-check-hpc: %s is not in %s" % (gpu_type, device_cpp))
    return float(m.group(6)), float(m.group(5))


def dump_arrays(path):
    """(array name, tokens) of each array in a dump."""
    arrays, name, tokens = [], None, []
    for line in open(path):
        if line.startswith("begin dump:"):
            name, tokens = line.split(":", 1)[1].strip(), []
        elif line.startswith("end   dump:"):
            arrays.append((name, tokens))
            name = None
        elif name is not None:
            tokens.extend(line.split())
    return arrays


def compare(expected, actual):
    if open(expected, "rb").read() == open(actual, "rb").read():
        print("exact")
        return 0
    exp, act = dump_arrays(expected), dump_arrays(actual)
    if [n for n, _ in exp] != [n for n, _ in act] or not exp:
        print("NO (the dumps hold different arrays)")
        return 1
    worst = 0.0
    for (name, e), (_, a) in zip(exp, act):
        if len(e) != len(a):
            print("NO (%s: %d numbers expected, %d found)" % (name, len(e), len(a)))
            return 1
        try:
            ev, av = [float(x) for x in e], [float(x) for x in a]
        except ValueError:
            print("NO (%s: a token is not a number)" % name)
            return 1
        scale = max((abs(x) for x in ev if math.isfinite(x)), default=0.0) or 1.0
        for i, (x, y) in enumerate(zip(ev, av)):
            if x == y:
                continue
            diff = abs(x - y) / scale
            if not diff <= RTOL:  # NaN included
                print("NO (%s[%d]: %r expected, %r found)" % (name, i, x, y))
                return 1
            worst = max(worst, diff)
    print("yes (max diff %.1e)" % worst)
    return 0


UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6}


def predicted(report):
    """Seconds of the device nests' kernels and launches in a --report."""
    total, nests = 0.0, 0
    figure = re.compile(r"\(kernels ([0-9.e+-]+) (s|ms|us), \d+ launch(?:es)? ([0-9.e+-]+) (s|ms|us)")
    try:
        lines = open(report).readlines()
    except OSError:
        return "-"
    for line in lines:
        if "remark: runs on the device" not in line:
            continue
        m = figure.search(line)
        if not m:
            continue
        total += float(m.group(1)) * UNITS[m.group(2)] + float(m.group(3)) * UNITS[m.group(4)]
        nests += 1
    return "%.6g" % total if nests else "-"


def number(value, digits=3):
    try:
        v = float(value)
    except (TypeError, ValueError):
        return "-"
    return "%.*g" % (digits, v)


def bus(counts):
    """"1.15 (4) / 1.15 (3)": MB and copies each way, from "H2D:N:D2H:M"."""
    try:
        h2d, hn, d2h, dn = (int(x) for x in counts.split(":"))
    except ValueError:
        return "-"
    return "%s (%d) / %s (%d)" % (number(h2d / 1e6), hn, number(d2h / 1e6), dn)


def table(results, device_cpp, gpu_type, emulated):
    bw, fp64 = peaks(device_cpp, gpu_type)
    head = ["kernel", "sizes", "correct", "GPU nests", "CPU s", "region s",
            "kernels s (launches)", "predicted kernels s", "measured / predicted",
            "bus MB in / out (copies)", "speed-up",
            "GB/s", "GFLOP/s", "% BW",
            "% FLOP/s", "roofline %", "kernels roofline %", "notes"]
    rows = []
    for name in sorted(os.listdir(results)):
        if not name.endswith(".result"):
            continue
        r = dict(line.rstrip("\n").split("=", 1)
                 for line in open(os.path.join(results, name)) if "=" in line)
        kernel = r.get("kernel", name[:-len(".result")])
        s = {k: int(v) for k, v in (kv.split(":") for kv in r.get("sizes", "").split() if ":" in kv)}
        flops = nbytes = None
        # A kernel compiled again with other flags (gemm+rt8) has its own work.
        base = kernel.split("+")[0]
        if base in FORMULAS and s:
            try:
                flops, nbytes = FORMULAS[base][0](s), FORMULAS[base][1](s)
            except KeyError:
                pass
        cpu, region, kms = (float(r[k]) if r.get(k) else None for k in ("cpu_s", "region_s", "kernels_ms"))
        try:
            pred = float(r.get("predicted_s", ""))
        except ValueError:
            pred = None
        ksec = kms / 1e3 if kms is not None else None

        def rates(t):
            if not t or flops is None:
                return None
            return nbytes / t / 1e9, flops / t / 1e9

        whole, kern = rates(region), rates(ksec)
        row = [kernel, " ".join("%s=%d" % kv for kv in s.items()), r.get("correct", "-"),
               r.get("gpu_nests", "-"), number(cpu), number(region),
               "%s (%s)" % (number(ksec), r.get("launches", "-")) if ksec is not None else "-",
               number(pred),
               number(ksec / pred) if ksec and pred else "-",
               bus(r.get("bus", "")),
               number(cpu / region) if cpu and region else "-"]
        if whole:
            row += [number(whole[0]), number(whole[1]), number(100 * whole[0] / bw),
                    number(100 * whole[1] / (fp64 * 1e3)),
                    number(100 * max(whole[0] / bw, whole[1] / (fp64 * 1e3)))]
        else:
            row += ["-"] * 5
        row.append(number(100 * max(kern[0] / bw, kern[1] / (fp64 * 1e3))) if kern else "-")
        row.append((r.get("status", "-") + ("; " + r["notes"] if r.get("notes") else "")).replace("|", "/"))
        rows.append(row)
    where = ("the CPU emulation (a format check: no GPU ran; fractions of %s's peaks)" % gpu_type
             if emulated else gpu_type)
    print("PolyBench/C 4.2.1, weft --target=cuda on %s; peaks from weft's device table: "
          "%g GB/s, %g TFLOP/s fp64. region: PolyBench's timer around the kernel "
          "function (device allocation, copies in and out, launches); kernels: "
          "WEFT_CUDA_TIMING's events around each launch. GB/s and GFLOP/s: the "
          "algorithmic bytes and flops (scripts/gpu-check-hpc.py) over the region "
          "time; roofline %% = the larger of %% BW and %% FLOP/s (kernels roofline %%: "
          "over the kernels' time). predicted kernels: weft's cost model (--report, "
          "at the dataset's sizes; none for kernels compiled for the nominal ones), each device nest's "
          "kernels and launches; measured / predicted: the kernels' time over it. "
          "bus: the bytes and copies host to device and back, "
          "counted by weft's runtime (WEFT_STATS). correct: exact = the same dump as the sequential "
          "program's (%%.17g), yes (d) = every number within %g of its array's largest "
          "magnitude, d the largest difference (fused multiply-adds round once).\n"
          % (where, bw, fp64, RTOL))
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "compare":
        return compare(argv[1], argv[2])
    if len(argv) >= 4 and argv[0] == "table":
        return table(argv[1], argv[2], argv[3], "--emulated" in argv[4:])
    if len(argv) == 3 and argv[0] == "peaks":
        print("%g %g" % peaks(argv[1], argv[2]))
        return 0
    if len(argv) == 2 and argv[0] == "predicted":
        print(predicted(argv[1]))
        return 0
    if len(argv) == 3 and argv[0] == "sizes":
        print(" ".join("%s:%d" % kv for kv in sizes(argv[1], argv[2]).items()))
        return 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
