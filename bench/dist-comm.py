#!/usr/bin/env python3
"""Communication, run time and memory of weft's MPI output on PolyBench.

    python3 bench/dist-comm.py POLYBENCH_DIR [--ranks 2 4] [--dataset MEDIUM_DATASET]
                               [--kernels jacobi-2d heat-3d ...]

For each kernel: compiles it with `weft compile --target=mpi`, runs it under
mpirun with WEFT_STATS=1 (the runtime counts every byte it hands to MPI) on
each rank count, checks the array dump against the sequential program, and
prints the bytes sent next to

  * lb1d:  the owner-computes lower bound of a 1-D block decomposition of
           the outermost parallel loop (for seidel-2d, of its rows; exact
           halos of the stencil, one
           element per neighbour and array read across a block boundary,
           plus one gather of the written arrays to rank 0), for the
           stencils whose bound has a closed form here;
  * lb:    the same bound for the decomposition weft chose: lb1d, or over
           the 2-D grid (rows x cols, the most nearly square factorisation
           of P) when --report says a nest was split over it, for jacobi-2d
           and heat-3d (halos across the grid's row and column boundaries,
           plus the gather);
  * naive: every distributed sweep sends everything it wrote to every other
           rank (the whole flow-out set, as Pluto's simplest scheme does);

and, at P=1, the kernel time of weft's program against the sequential one
(PolyBench's own timer, best of 3, so MPI start-up is not counted), and the
largest peak resident memory of a rank (WEFT_STATS, MPI libraries included).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_btl="self,vader",
           OMPI_MCA_btl_vader_single_copy_mechanism="none")
CATEGORIES = ["stencils", "linear-algebra/kernels", "linear-algebra/blas",
              "linear-algebra/solvers", "datamining", "medley"]


def sizes(header, dataset):
    """The #defines of `dataset` in a PolyBench header."""
    text = open(header).read()
    block = re.search(r"#\s*ifdef\s+%s(.*?)#\s*endif" % dataset, text, re.S)
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"#\s*define\s+(\w+)\s+(\d+)", block.group(1))}


def block0(n, p):
    """Iterations of rank 0 in dist.local_bounds' balanced blocks."""
    return n // p + (1 if n % p else 0)


def grid_shape(p):
    """rows x cols of weft's 2-D grid (gridShape2D)."""
    cols = max(c for c in range(1, p + 1) if c * c <= p and p % c == 0)
    return p // cols, cols


def grid_bound(kernel, s, p):
    """The owner-computes bound over weft's 2-D grid, in bytes."""
    if kernel not in ("jacobi-2d", "heat-3d"):
        return None
    n, t = s["N"], s["TSTEPS"]
    rows, cols = grid_shape(p)
    depth = 1 if kernel == "jacobi-2d" else n - 2  # the local k extent
    # Each internal row or column boundary of the grid moves one face of
    # (n - 2) * depth elements each way per sweep (the first sweep reads
    # data from before the region); then both arrays go to rank 0, which
    # owns block0 rows and block0 columns of the interior.
    face = (n - 2) * depth
    halos = face * 2 * (rows - 1 + cols - 1) * (2 * t - 1)
    mine = block0(n - 2, rows) * block0(n - 2, cols) * depth
    gather = 2 * ((n - 2) ** 2 * depth - mine)
    return 8 * (halos + gather)


def stencil_bounds(kernel, s, p):
    """(lb1d, naive) in bytes for the stencils with a closed form."""
    if kernel in ("jacobi-1d", "jacobi-2d", "heat-3d"):
        n, t = s["N"], s["TSTEPS"]
        face = {"jacobi-1d": 1, "jacobi-2d": n - 2, "heat-3d": (n - 2) ** 2}[kernel]
        # Two sweeps per step; the first reads data from before the region
        # in the first step. Each internal block boundary moves one face
        # each way per sweep; then both arrays are gathered to rank 0.
        halos = face * 2 * (p - 1) * (2 * t - 1)
        gather = 2 * face * (n - 2 - block0(n - 2, p))
        naive = 2 * t * face * (n - 2) * (p - 1)
        return 8 * (halos + gather), 8 * naive
    if kernel == "fdtd-2d":
        nx, ny, t = s["NX"], s["NY"], s["TMAX"]
        b0 = block0(nx, p)  # rows of rank 0 (the sweeps share blocks of [0, NX))
        # ey's sweep reads the hz row above its block (hz[.][NY-1] is never
        # written), from the second step on; hz's sweep reads the ey row
        # below its block. Then ey (rows >= 1), ex and hz go to rank 0.
        halos = (t - 1) * (p - 1) * (ny - 1) + t * (p - 1) * (ny - 1)
        gather = ny * (nx - b0) + (ny - 1) * (nx - b0) + (ny - 1) * (nx - 1 - b0)
        naive = t * (p - 1) * ((nx - 1) * ny + nx * (ny - 1) + (nx - 1) * (ny - 1))
        return 8 * (halos + gather), 8 * naive
    if kernel == "seidel-2d":
        n, t = s["N"], s["TSTEPS"]
        face = n - 2  # interior columns of a row (columns 0, n-1 never change)
        # Per step and internal boundary: the upper block's last row, new,
        # goes down; the lower block's first row goes up for the next step
        # (the first step reads data from before the region). Then the
        # interior rows go to rank 0.
        halos = face * (p - 1) * (2 * t - 1)
        gather = face * (n - 2 - block0(n - 2, p))
        naive = t * face * (n - 2) * (p - 1)
        return 8 * (halos + gather), 8 * naive
    return None, None


def run(cmd, **kw):
    return subprocess.run(cmd, env=ENV, capture_output=True, text=True, **kw)


def timed(cmd):
    """Best of 3 of the kernel time the program prints (-DPOLYBENCH_TIME)."""
    best = None
    for _ in range(3):
        r = run(cmd)
        if r.returncode != 0:
            return None
        try:
            elapsed = float(r.stdout.split()[-1])
        except (IndexError, ValueError):
            return None
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("polybench")
    ap.add_argument("--ranks", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--dataset", default="MEDIUM_DATASET")
    ap.add_argument("--weft-flags", default="",
                    help="extra weft compile options, e.g. --grid-dims=1")
    ap.add_argument("--kernels", nargs="+",
                    default=["jacobi-1d", "jacobi-2d", "heat-3d", "fdtd-2d",
                             "seidel-2d", "gemm", "2mm", "mvt", "atax",
                             "syrk", "lu", "floyd-warshall"])
    args = ap.parse_args()
    weft = os.path.join(ROOT, "build", "bin", "weft")
    pb = os.path.abspath(args.polybench)
    util = os.path.join(pb, "utilities")
    work = tempfile.mkdtemp(prefix="weft-comm.")
    extra = args.weft_flags.split()
    print("| kernel | P | bytes sent | lb1d | sent/lb1d | lb | sent/lb | "
          "naive | messages | max RSS/rank MiB | P=1 time / seq |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for kernel in args.kernels:
        src = next((os.path.join(pb, c, kernel, kernel + ".c")
                    for c in CATEGORIES
                    if os.path.exists(os.path.join(pb, c, kernel, kernel + ".c"))),
                   None)
        if not src:
            print("| %s | missing |" % kernel)
            continue
        kdir = os.path.dirname(src)
        flags = ["-I", util, "-I", kdir, "-D" + args.dataset,
                 "-DPOLYBENCH_DUMP_ARRAYS"]
        w = os.path.join(work, kernel)
        os.makedirs(w)
        seq = os.path.join(w, "seq")
        r = run(["gcc", "-O2"] + flags + [os.path.join(util, "polybench.c"),
                                          src, "-o", seq, "-lm"])
        out = os.path.join(w, "mpi.c")
        r2 = run([weft, "compile", "--report"] + extra + flags +
                 [src, "-o", out])
        on_grid = "distributed over a 2-D grid" in r2.stderr
        exe = os.path.join(w, "mpi")
        r3 = run(["mpicc", "-O2"] + flags + [os.path.join(util, "polybench.c"),
                                             out, "-o", exe, "-lm"])
        if r.returncode or r2.returncode or r3.returncode:
            print("| %s | build failed |" % kernel)
            continue
        expected = run([seq]).stderr
        s = sizes(src[:-2] + ".h", args.dataset)
        # Kernel time alone (PolyBench's timer, no dump), so that MPI's
        # start-up does not count.
        tflags = [f for f in flags if f != "-DPOLYBENCH_DUMP_ARRAYS"] + \
            ["-DPOLYBENCH_TIME"]
        run(["gcc", "-O2"] + tflags + [os.path.join(util, "polybench.c"), src,
                                       "-o", seq + ".t", "-lm"])
        run([weft, "compile"] + extra + tflags + [src, "-o", out + ".t.c"])
        run(["mpicc", "-O2"] + tflags + [os.path.join(util, "polybench.c"),
                                         out + ".t.c", "-o", exe + ".t", "-lm"])
        ratio = ""
        t_seq = timed([seq + ".t"])
        t_one = timed(["mpirun", "-np", "1", exe + ".t"])
        if t_seq and t_one:
            ratio = "%.2f" % (t_one / t_seq)
        for p in args.ranks:
            r = run(["mpirun", "--oversubscribe", "-np", str(p), "/usr/bin/env",
                     "WEFT_STATS=1", exe])
            stats = re.search(r"weft: \d+ ranks sent (\d+) bytes in (\d+) messages",
                              r.stderr)
            dump = "\n".join(l for l in r.stderr.splitlines()
                             if not l.startswith("weft: "))
            if r.returncode or not stats or dump.strip() != expected.strip():
                print("| %s | %d | WRONG OUTPUT |" % (kernel, p))
                continue
            sent, msgs = int(stats.group(1)), int(stats.group(2))
            lb, naive = stencil_bounds(kernel, s, p)
            chosen = grid_bound(kernel, s, p) if on_grid else lb
            # The runtime's largest peak RSS over the ranks.
            m = re.findall(r"weft: peak memory per rank \d+ to (\d+) bytes",
                           r.stderr)
            print("| %s | %d | %d | %s | %s | %s | %s | %s | %d | %s | %s |" % (
                kernel, p, sent, lb if lb is not None else "-",
                "%.3f" % (sent / lb) if lb else "-",
                ("%d%s" % (chosen, " (grid)" if on_grid else ""))
                if chosen else "-",
                "%.3f" % (sent / chosen) if chosen else "-",
                naive if naive is not None else "-", msgs,
                "%.1f" % (int(m[0]) / 2**20) if m else "-",
                ratio if p == args.ranks[0] else ""))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
