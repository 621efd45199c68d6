#!/usr/bin/env python3
"""Differential fuzzing of `weft compile --target=seq` against gcc.

Mutates the scop regions of the end-to-end kernels (deletes, duplicates or
replaces tokens of random lines), and for every mutant that gcc builds and
that runs cleanly, checks that weft either reports an error (exit 1, no
output file) or produces a program that builds and prints exactly the same.
A crash of weft (any other exit status) is always a failure.

    python3 scripts/fuzz-seq.py [--iterations N] [--seed S] [--build DIR]

Not part of the test suite (it is random); run it after changes to the
front end or the C back end. Exits 1 if any failure was found. A reported
difference can also come from undefined behaviour in the mutant itself (a
deleted line leaves an array uninitialised): read the mutant before blaming
weft.
"""
import argparse
import glob
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKENS = ['i', 'j', '1', '-', '+', '*', '2', 'n', '+=', '-=', '0.5', '(i)',
          '(j+1)', 'i-1', '>', '<', '>=', '<=', '?', ':', '(', ')', ';']


def mutate(lines, rng):
    marks = [k for k, l in enumerate(lines) if 'scop' in l]
    if len(marks) < 2:
        return lines
    lo, hi = marks[0] + 1, marks[-1] - 1
    if hi < lo:
        return lines
    for _ in range(rng.randint(1, 2)):
        k = rng.randint(lo, hi)
        op = rng.choice(['del', 'dup', 'tok', 'tok'])
        if op == 'del':
            lines.pop(k)
            hi -= 1
        elif op == 'dup':
            lines.insert(k, lines[k])
            hi += 1
        else:
            toks = lines[k].split(' ')
            toks[rng.randrange(len(toks))] = rng.choice(TOKENS)
            lines[k] = ' '.join(toks)
        if hi < lo:
            break
    return lines


def run(cmd, timeout=10):
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=timeout)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--iterations', type=int, default=300)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--build', default=os.path.join(ROOT, 'build'))
    args = ap.parse_args()
    weft = os.path.join(args.build, 'bin', 'weft')
    kernels = sorted(glob.glob(os.path.join(ROOT, 'test/E2E/seq/*.c')))
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix='weft-fuzz.')
    compared = failures = 0
    for it in range(args.iterations):
        src = os.path.join(work, 'm%d.c' % it)
        out = src + '.weft.c'
        lines = open(rng.choice(kernels)).read().split('\n')
        open(src, 'w').write('\n'.join(mutate(lines, rng)))
        r = run([weft, 'compile', '--target=seq', src, '-o', out], 60)
        if r is None or r[0] not in (0, 1):
            print('CRASH or hang:', src)
            failures += 1
            continue
        if r[0] == 1:
            if os.path.exists(out):
                print('output left behind after an error:', src)
                failures += 1
            continue
        if run(['gcc', '-w', '-O1', src, '-o', src + '.ref', '-lm'])[0]:
            continue
        ref = run([src + '.ref'], 5)
        if ref is None or ref[0] != 0:
            continue
        if run(['gcc', '-w', '-O1', out, '-o', src + '.weft', '-lm'])[0]:
            print('output does not build:', src)
            failures += 1
            continue
        compared += 1
        if run([src + '.weft'], 5) != ref:
            print('output differs:', src)
            failures += 1
    print('%d mutants, %d compared with gcc, %d failures (files in %s)'
          % (args.iterations, compared, failures, work))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
