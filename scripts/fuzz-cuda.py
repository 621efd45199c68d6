#!/usr/bin/env python3
"""Differential fuzzing of `weft compile --target=cuda` and `mpi-cuda`
against gcc, through the test-only CPU emulation of CUDA.

Generates random affine programs aimed at the reorderings and placements of
the CUDA targets (docs/cuda.md): an outer loop over `i` (or `j`) holding an
optional statement and an inner loop over `j` (or `i`; from 0, 1 or the
outer iterator, to the size, a constant or one less) whose two to four
statements update
1-D arrays at `i`, `j`, `i + 1` or `j + 1` and a 2-D array at `[i][j]`
(sums into an element of `i`, updates of elements of `j`, and statements
feeding each other), sometimes inside a time loop, sometimes followed by a
second nest over the same arrays; or matrix products over rectangles and
triangles (`P[i][j] += X[i][k] * Y[k][j]` for `j <= i`, `j >= i`, ...),
whose k loop gpu-stage-tiles stages in shared memory where every row and
column of the grid's box holds an element. gpu-expose-bands distributes and
interchanges these where ISL allows it (splitting the inner loop first
where only some of its statements are parallel); gpu-select-nests places
adjacent nests together. Sizes are the kernel's parameters, so the cost
model predicts for its nominal sizes while the runs are small.

Each program is compiled by gcc (the reference) and by weft with
`--fp-reductions=ordered` (floating-point sums in program order, so results
are bitwise): `--target=cuda` with `--gpu-choice=always` and with the cost
model's choice, built with g++ -fopenmp -DWEFT_CUDA_EMULATE, and
`--target=mpi-cuda --gpu-choice=always` built with mpicxx and run on each
of `--ranks`. Outputs must be identical, and weft must not fail. With
`--split`, weft's default instead (threads combine floating-point sums in
an order of their own: row reductions such as `a[i] = a[i] + A[i][j] *
b[j]` become rows of threads along `j`), and numbers compare within a
relative 1e-12.

    python3 scripts/fuzz-cuda.py [--iterations N] [--seed S] [--build DIR]
                                 [--ranks 1,2,3] [--keep DIR] [--split]
                                 [--weft-flag=OPTION ...]

Not part of the test suite (random, minutes); run it after changes to
gpu-expose-bands, gpu-select-nests, gpu-place-data or the CUDA runtime.
Exits 1 if any failure was found; --keep writes each failing program there.
"""
import os
import random
import sys
import tempfile

from fuzz_common import arguments, build_and_compare, report, run

ARRAYS = ["a", "b", "c", "d"]


# Where statements read and write, with their cumulative odds: a 1-D array
# ({a}: one of ARRAYS) at i, j, i + 1 or j + 1, or a 2-D array at [i][j].
READS = [(0.35, "{a}[i]"), (0.7, "{a}[j]"), (0.8, "{a}[i + 1]"), (0.9, "{a}[j + 1]"),
         (1.0, "A[i][j]")]
WRITES = [(0.4, "{a}[i]"), (0.8, "{a}[j]"), (0.9, "{a}[j + 1]"), (1.0, "B[i][j]")]


def pick(rng, table):
    odds = rng.random()
    name = rng.choice(ARRAYS)
    return next(form.format(a=name) for limit, form in table if odds < limit)


def statement(rng):
    lhs = pick(rng, WRITES)
    rhs = rng.choice([f"{lhs} + {pick(rng, READS)} * {pick(rng, READS)}",
                      f"{pick(rng, READS)} * 0.5 + {pick(rng, READS)}",
                      f"{lhs} * 0.75 + {pick(rng, READS)}"])
    return f"{lhs} = {rhs};"


def loop(rng, var, bound, outer=None, below_outer=False):
    """`for (var = lo; var < hi; var++)`: from 0 or 1, or from the outer
    loop's iterator (a triangle); to the size, a constant (`M`, `N`, equal
    to the parameter at run time, so that block counts fold) or one less;
    with `below_outer`, also to the outer iterator or one past it (syrk's
    `j <= i`)."""
    lo = rng.choice(["0", "0", "1"] + ([outer] if outer else []))
    his = [bound, bound, bound.upper(), f"{bound} - 1"]
    if below_outer and lo != outer:
        his += [f"{outer} + 1", f"{outer} + 1", outer]
    hi = rng.choice(his)
    return f"for ({var} = {lo}; {var} < {hi}; {var}++)"


def product(rng, indent):
    """A matrix product over a rectangle or a triangle (syrk's `j <= i`,
    covariance's `j >= i`, or one with an empty first or last row): `P[i][j]`
    accumulates `X[i][k]` times `Y[k][j]`, `Z[j][k]` or `X[j][k]` over `k`,
    after an optional first statement and before an optional last one.
    gpu-select-nests stages the k loop in shared-memory tiles where every
    row and column of the grid's box holds an element."""
    pad = " " * indent
    rhs = rng.choice(["Y[k][j]", "Z[j][k]", "X[j][k]"])
    first = rng.choice(["", "P[i][j] = 0.0;", "P[i][j] = P[i][j] * 0.5;"])
    last = rng.choice(["", "", "P[i][j] = P[i][j] * 0.25 + a[j];"])
    kk = rng.choice(["k < K", "k < kk", "k < kk", "k < kk - 1"])
    # j up to the same size as i (syrk, covariance) or to its own.
    size = rng.choice(["m", "m", "n"])
    return (f"{pad}{loop(rng, 'i', 'm')} {{\n"
            + f"{pad}  {loop(rng, 'j', size, 'i', below_outer=True)} {{\n"
            + (f"{pad}    {first}\n" if first else "")
            + f"{pad}    for (k = 0; {kk}; k++)\n"
            + f"{pad}      P[i][j] = P[i][j] + X[i][k] * {rhs};\n"
            + (f"{pad}    {last}\n" if last else "")
            + f"{pad}  }}\n{pad}}}\n")


def nest(rng, indent):
    pad = " " * indent
    # Over i then j, or over j then i (columns: `d[j] = 0.0` then sums of
    # `d[j] + A[i][j] * ...` along i).
    outer, inner = rng.choice([("i", "j"), ("i", "j"), ("j", "i")])
    firsts = (["", "q[i] = 0.0;", "a[i] = a[i] * 0.5;"] if outer == "i"
              else ["", "d[j] = 0.0;", "c[j] = c[j] * 0.5;"])
    first = rng.choice(firsts)
    bounds = {"i": "m", "j": "n"}
    body = "\n".join(f"{pad}    {statement(rng)}" for _ in range(rng.randint(2, 4)))
    return (f"{pad}{loop(rng, outer, bounds[outer])} {{\n"
            + (f"{pad}  {first}\n" if first else "")
            + f"{pad}  {loop(rng, inner, bounds[inner], outer)} {{\n{body}\n{pad}  }}\n"
            + f"{pad}}}\n")


def program(rng):
    m, n = rng.choice([(5, 7), (9, 4), (13, 11), (3, 17), (40, 37)])
    k = rng.choice([3, 8, 33])
    steps = rng.choice([0, 0, 2, 3])
    pad = 4 if steps else 2
    nests = product(rng, pad) if rng.random() < 0.3 else nest(rng, pad)
    if rng.random() < 0.3:
        nests += product(rng, pad) if rng.random() < 0.3 else nest(rng, pad)
    if steps:
        nests = f"  for (t = 0; t < steps; t++) {{\n{nests}  }}\n"
    return f"""#include <stdio.h>
#define M {m}
#define N {n}
#define K {k}
static double a[M + N + 2], b[M + N + 2], c[M + N + 2], d[M + N + 2], q[M + 2];
static double A[M + 1][N + 1], B[M + 1][N + 1];
static double P[M + N + 2][M + N + 2], X[M + N + 2][K + 1], Y[K + 1][M + N + 2],
    Z[M + N + 2][K + 1];
static void kernel(int steps, int m, int n, int kk) {{
  int t, i, j, k;
#pragma scop
{nests}#pragma endscop
}}
int main(void) {{
  int i, j;
  for (i = 0; i < M + N + 2; i++) {{
    a[i] = i * 0.25; b[i] = 1.0 / (i + 1); c[i] = (i % 5) - 2.0; d[i] = (i % 3) * 0.5;
  }}
  for (i = 0; i < M + 1; i++)
    for (j = 0; j < N + 1; j++) {{
      A[i][j] = (i * 7 + j * 3) % 11 * 0.125; B[i][j] = (i + j) % 4;
    }}
  for (i = 0; i < M + N + 2; i++)
    for (j = 0; j < M + N + 2; j++) {{
      P[i][j] = (i * 3 + j) % 7 * 0.25;
      if (j < K + 1) {{
        X[i][j] = (i + j * 5) % 9 * 0.125 - 0.5; Z[i][j] = (i * 2 + j) % 5 * 0.25;
        Y[j][i] = (i * 3 + j * 7) % 13 * 0.0625;
      }}
    }}
  kernel({steps}, M, N, K);
  for (i = 0; i < M + N + 2; i++) printf("%.17g %.17g %.17g %.17g\\n", a[i], b[i], c[i], d[i]);
  for (i = 0; i < M + 2; i++) printf("%.17g\\n", q[i]);
  for (i = 0; i < M + 1; i++)
    for (j = 0; j < N + 1; j++) printf("%.17g\\n", B[i][j]);
  for (i = 0; i < M + N + 2; i++)
    for (j = 0; j < M + N + 2; j++) printf("%.17g\\n", P[i][j]);
  return 0;
}}
"""


def main():
    def options(ap):
        ap.add_argument(
            "--split", action="store_true",
            help="let the threads combine floating-point reductions in an order of their "
                 "own (row reductions among them); numbers then compare within 1e-12")
        ap.add_argument(
            "--weft-flag", action="append", default=[],
            help="a further option of every weft compile (repeatable), e.g. "
                 "--weft-flag=--gpu=H100-80GB --weft-flag=--gpu-register-tile=8")
    args, weft, ranks, env = arguments("1,2,3", options)
    fp = ([] if args.split else ["--fp-reductions=ordered"]) + args.weft_flag
    rtol = 1e-12 if args.split else None
    emulate = ["-x", "c++", "-O1", "-fopenmp", "-DWEFT_CUDA_EMULATE"]
    builds = [("cuda", ["--gpu-choice=always"], ["g++"]),
              ("cuda", ["--gpu-choice=cost"], ["g++"]),
              ("mpi-cuda", ["--gpu-choice=always"], ["mpicxx"])]
    rng = random.Random(args.seed)
    failures = reordered = 0
    with tempfile.TemporaryDirectory() as tmp:
        for it in range(args.iterations):
            src = os.path.join(tmp, "k.c")
            with open(src, "w") as f:
                f.write(program(rng))
            rc, _, err = run(["gcc", "-O1", "-std=gnu99", src, "-o", src + ".ref"])
            if rc != 0:
                print(f"[{it}] generator error: gcc rejected the program\n{err}", file=sys.stderr)
                return 2
            _, want, _ = run([src + ".ref"])
            problems = []
            for k, (tgt, flags, cxx) in enumerate(builds):
                out = f"{src}.{k}.cu"
                rc, _, err = run([weft, "compile", f"--target={tgt}", "--report",
                                  *fp, *flags, src, "-o", out])
                if rc != 0:
                    problems.append(f"weft --target={tgt} {' '.join(flags)} exited {rc}: "
                                    f"{err.strip()[:400]}")
                    continue
                if k == 0 and ("distributed into" in err or "interchanged with" in err):
                    reordered += 1
                problems += build_and_compare(
                    cxx + emulate + [out, "-o", out + ".bin", "-lm"], out + ".bin",
                    ranks if tgt == "mpi-cuda" else [], want, env, f"{tgt} {' '.join(flags)}: ",
                    rtol)
            failures += report(it, problems, src, args.keep, args.seed)
    print(f"fuzz-cuda: {args.iterations} programs ({reordered} reordered by "
          f"gpu-expose-bands), {failures} failures (seed {args.seed})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
