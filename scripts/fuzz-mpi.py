#!/usr/bin/env python3
"""Differential fuzzing of `weft compile --target=mpi` (and seq) against gcc.

Generates random affine programs: a kernel over pointer parameters (1-D
`double *` and rows `double (*)[M]`) and a global, with one to three loop
nests (some inside a time loop, some pinned with `#pragma weft distribute`,
some adding up a few rows along an innermost loop over k, which
dist-interchange-inner may swap outward, some walking columns in a loop over
rows inside one over columns, which dist-interchange-local may swap, some
filtering columns through scalars, which weft may keep in arrays to swap) whose subscripts are the iterators
plus small offsets, called from main
with overlapping arguments (`x + 1, x`), the same array twice and distinct
arrays. Every program is compiled by gcc (the reference), and by weft for
seq and mpi; the mpi program runs on 1 to 4 ranks. The outputs must be
identical (the programs have no floating-point reduction that could be
split, so results are bitwise), and weft must not crash.

    python3 scripts/fuzz-mpi.py [--iterations N] [--seed S] [--build DIR]
                                [--ranks 1,2,3,4] [--keep DIR]

Not part of the test suite (it is random and takes minutes); run it after
changes to the partitioner, the alias check or the MPI back end. Exits 1 if
any failure was found; --keep writes each failing program there.
"""
import os
import random
import sys
import tempfile

from fuzz_common import arguments, build_and_compare, report, run

N = 48  # iterations of the 1-D loops, rows of the 2-D ones
M = 12  # columns
PAD = 8  # elements (rows) before and after, so offsets stay in bounds


def offset(rng):
    return rng.choice([-2, -1, 0, 0, 0, 1, 2])


def sub(var, o):
    return var if o == 0 else f"{var} {'+' if o > 0 else '-'} {abs(o)}"


def statement1(rng, iv):
    """One assignment over the 1-D arrays a, b and the global g."""
    target = rng.choice(["a", "a", "b", "g"])
    terms = []
    for _ in range(rng.randint(1, 3)):
        array = rng.choice(["a", "b", "g"])
        terms.append(f"{rng.choice(['0.5', '0.25', '1.5'])} * {array}[{sub(iv, offset(rng))}]")
    return f"{target}[{sub(iv, offset(rng))}] = {' + '.join(terms)} + 1.0;"


def row_assignment(rng, most_terms, target_offset):
    """One assignment to [i + target_offset][j] of the rows r or s (double
    (*)[M]), of 1 to most_terms of their elements near [i][j]."""
    target = rng.choice(["r", "s"])
    terms = []
    for _ in range(rng.randint(1, most_terms)):
        array = rng.choice(["r", "s"])
        j = sub("j", rng.choice([-1, 0, 1]))
        terms.append(f"0.5 * {array}[{sub('i', offset(rng))}][{j}]")
    return f"{target}[{sub('i', target_offset(rng))}][j] = {' + '.join(terms)};"


def statement2(rng):
    """One assignment over the rows r, s."""
    return row_assignment(rng, 3, offset)


def column_sums(rng):
    """Sums over a few rows of r or s, added along k into a row of the
    other (or the same) array: the innermost loop walks a column, which
    dist-interchange-inner swaps with the loop over j where it may."""
    target, source = rng.choice(["r", "s"]), rng.choice(["r", "s"])
    j = sub("j", rng.choice([-1, 0, 1]))
    first = rng.choice(["", "0", "i - 2"])
    lower = first or "0"
    return (f"for (i = 2; i < n - 2; i++)\n      for (j = 1; j < {M} - 1; j++)\n"
            f"        for (k = {lower}; k < {lower} + 4; k++)\n"
            f"          {target}[i][j] += 0.25 * {source}[k][{j}];")


def column_walks(rng):
    """A loop over columns j around one over rows i, assignments to r or s:
    the inner loop walks columns, which dist-interchange-inner marks and
    dist-interchange-local swaps in each rank's part where the loop over j
    carries nothing."""
    body = row_assignment(rng, 2, lambda r: r.choice([-1, 0, 1]))
    return (f"for (j = 1; j < {M} - 1; j++)\n      for (i = 2; i < n - 2; i++)\n"
            f"        {body}")


def column_filters(rng):
    """A recursive filter down the columns (deriche's): scalars p and q set
    for each column, then a chain through them along the rows; weft keeps
    them in arrays indexed by j and swaps the loops where it may (not where
    p is read after the nest, which sometimes follows)."""
    target, source = rng.choice(["r", "s"]), rng.choice(["r", "s"])
    j = sub("j", rng.choice([-1, 0, 0, 0, 1]))
    both = rng.random() < 0.5
    body = (f"{target}[i][j] = 0.5 * {source}[{sub('i', offset(rng))}][{j}] + 0.25 * p"
            + (" - 0.125 * q;" if both else ";"))
    keep = rng.choice([f"{target}[i][j]", f"{source}[i][{j}]"])
    then = ("q = p; " if both else "") + f"p = {keep};"
    after = "\n    a[2] = p;" if rng.random() < 0.2 else ""
    return (f"for (j = 1; j < {M} - 1; j++) {{\n      p = 0.0;{' q = 1.0;' if both else ''}\n"
            f"      for (i = 2; i < n - 2; i++) {{\n        {body} {then}\n      }}\n    }}{after}")


def column_updates(rng):
    """ludcmp's rows: inside a loop over k, each iteration of the loop over
    j (from k, or a constant) sets p from an element, subtracts a sum down
    column j through it and stores it after; weft keeps p in an array
    indexed by j less that bound, made for each k, and swaps the sum's loop
    outside where it may (not where p is read after the nest, which
    sometimes follows)."""
    target, source = rng.choice(["r", "s"]), rng.choice(["r", "s"])
    lo = rng.choice(["k", "k + 1", "1"])
    j = sub("j", rng.choice([-1, 0, 0, 1]))
    after = "\n    a[3] = p;" if rng.random() < 0.2 else ""
    return (f"for (k = 1; k < 4; k++)\n      for (j = {lo}; j < {M} - 1; j++) {{\n"
            f"        p = {target}[k][j];\n"
            f"        for (i = 2; i < n - 2; i++)\n"
            f"          p -= 0.5 * {source}[i][{j}] * a[i];\n"
            f"        {target}[k][j] = p;\n      }}{after}")


def nest(rng):
    if rng.random() < 0.1:
        return column_updates(rng)
    if rng.random() < 0.2:
        return column_sums(rng)
    if rng.random() < 0.15:
        return column_walks(rng)
    if rng.random() < 0.15:
        return column_filters(rng)
    pin = "#pragma weft distribute(i: block)\n    " if rng.random() < 0.4 else ""
    if rng.random() < 0.6:
        body = "\n      ".join(statement1(rng, "i") for _ in range(rng.randint(1, 2)))
        if rng.random() < 0.2:
            return f"{pin}for (i = n - 3; i >= 2; i--) {{\n      {body}\n    }}"
        return f"{pin}for (i = 2; i < n - 2; i++) {{\n      {body}\n    }}"
    body = statement2(rng)
    return (f"{pin}for (i = 2; i < n - 2; i++)\n      for (j = 1; j < {M} - 1; j++)\n"
            f"        {body}")


def program(rng):
    nests = "\n    ".join(nest(rng) for _ in range(rng.randint(1, 3)))
    if rng.random() < 0.4:
        region = f"for (t = 0; t < 3; t++) {{\n    {nests}\n  }}"
    else:
        region = nests.replace("\n    ", "\n  ")
    calls = []
    for _ in range(rng.randint(2, 4)):
        ka, kb, kr, ks = (rng.randint(-2, 2) for _ in range(4))
        a, b = rng.choice([("x", "x"), ("x", "y"), ("y", "x"), ("g", "x"), ("x", "g")])
        r, s = rng.choice([("R", "R"), ("R", "S")])
        calls.append(f"kernel({N}, {a} + {PAD + ka}, {b} + {PAD + kb}, "
                     f"{r} + {PAD + kr}, {s} + {PAD + ks});")
        calls.append("dump();")
    return f"""#include <stdio.h>
#define L ({N} + 2 * {PAD})
double g[L], x[L], y[L];
double R[L][{M}], S[L][{M}];

static void kernel(int n, double *a, double *b, double (*r)[{M}],
                   double (*s)[{M}]) {{
  int t, i, j, k;
  double p, q;
#pragma scop
  {region}
#pragma endscop
  (void)t; (void)j; (void)k; (void)r; (void)s;
}}

static void dump(void) {{
  double sx = 0, sy = 0, sg = 0, sr = 0, ss = 0;
  for (int i = 0; i < L; i++) {{
    sx += x[i] * (i % 7 + 1);
    sy += y[i] * (i % 5 + 1);
    sg += g[i] * (i % 3 + 1);
    for (int j = 0; j < {M}; j++) {{
      sr += R[i][j] * (j + 1);
      ss += S[i][j] * (i % 4 + 1);
    }}
  }}
  printf("%.17g %.17g %.17g %.17g %.17g\\n", sx, sy, sg, sr, ss);
}}

int main(void) {{
  for (int i = 0; i < L; i++) {{
    x[i] = i % 7;
    y[i] = i % 5 - 2;
    g[i] = i % 3;
    for (int j = 0; j < {M}; j++) {{
      R[i][j] = (i + j) % 9;
      S[i][j] = (i * j) % 7;
    }}
  }}
  {chr(10).join('  ' + c for c in calls).strip()}
  return 0;
}}
"""


def main():
    args, weft, ranks, env = arguments("1,2,3,4")
    rng = random.Random(args.seed)
    failures = rejected = 0
    with tempfile.TemporaryDirectory() as tmp:
        for it in range(args.iterations):
            src = os.path.join(tmp, "k.c")
            with open(src, "w") as f:
                f.write(program(rng))
            # A pin on a loop that carries a dependence is a located error;
            # such programs are tried again without their pins.
            rc, _, err = run([weft, "compile", src, "-o", src + ".try.c"])
            if rc == 1 and "cannot distribute this loop" in err:
                rejected += 1
                with open(src) as f:
                    text = f.read()
                with open(src, "w") as f:
                    f.write(text.replace("#pragma weft distribute(i: block)", ""))
            problems = []
            rc, _, err = run(["gcc", "-O1", "-std=gnu99", src, "-o", src + ".ref"])
            if rc != 0:
                print(f"[{it}] generator error: gcc rejected the program\n{err}", file=sys.stderr)
                return 2
            _, want, _ = run([src + ".ref"])
            for target in ("seq", "mpi"):
                out = f"{src}.{target}.c"
                rc, _, err = run([weft, "compile", f"--target={target}", src, "-o", out])
                if rc != 0:
                    problems.append(f"weft --target={target} exited {rc}: {err.strip()[:400]}")
                    continue
                cc = "mpicc" if target == "mpi" else "gcc"
                problems += build_and_compare(
                    [cc, "-O1", "-std=gnu99", out, "-o", out + ".bin", "-lm"], out + ".bin",
                    ranks if target == "mpi" else [], want, env, f"{target}: ")
            failures += report(it, problems, src, args.keep, args.seed)
    print(f"fuzz-mpi: {args.iterations} programs ({rejected} with an illegal pin, "
          f"run without it), {failures} failures (seed {args.seed})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
