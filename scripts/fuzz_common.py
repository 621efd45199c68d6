"""What the differential fuzzers (scripts/fuzz-mpi.py, fuzz-cuda.py) share:
running a command with a time limit, and reporting a failing program."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def run(cmd, timeout=60, **kw):
    """(exit status or "timeout", stdout, stderr) of `cmd`."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def report(it, problems, src, keep, seed):
    """Prints program `it`'s problems; with `keep`, copies its source there.
    Returns whether there were any."""
    if not problems:
        return False
    print(f"[{it}] FAIL:\n  " + "\n  ".join(problems), file=sys.stderr)
    if keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(src, os.path.join(keep, f"fail-{seed}-{it}.c"))
    return True


def same_numbers(got, want, rtol):
    """Whether `got` prints what `want` does, numbers within `rtol`
    (test/E2E/compare-numbers.py)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, n) for n in ("want", "got")]
        for path, text in zip(paths, (want, got)):
            with open(path, "w") as f:
                f.write(text)
        rc, _, _ = run([sys.executable, os.path.join(root, "test", "E2E", "compare-numbers.py"),
                        *paths, str(rtol)])
    return rc == 0


def build_and_compare(build, binary, ranks, want, env, label="", rtol=None):
    """Builds `binary` with the command `build`, runs it (under mpirun on
    each of `ranks`, when given) and returns a problem for a build that
    fails and for each run that fails or prints other than `want` (numbers
    within `rtol`, when given)."""
    rc, _, err = run(build)
    if rc != 0:
        return [f"{label}{build[0]} failed on weft's output: {err[:400]}"]
    runs = [[binary]] if not ranks else [
        ["mpirun", "--oversubscribe", "-np", str(p), binary] for p in ranks]
    problems = []
    for cmd in runs:
        rc, got, _ = run(cmd, env=env)
        if rc != 0 or (got != want and not (rtol and same_numbers(got, want, rtol))):
            problems.append(f"{label}{' '.join(cmd[:4])}: exit {rc}, output "
                            f"{'differs' if got != want else 'same'}")
    return problems


def arguments(default_ranks, more=None):
    """The fuzzers' options (--iterations, --seed, --build, --ranks, --keep,
    and those `more` adds to the parser), parsed; weft's path, the rank
    counts, and the environment MPI programs run in (as root, shared memory
    only)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    if more:
        more(ap)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--build", default=os.path.join(root, "build"))
    ap.add_argument("--ranks", default=default_ranks)
    ap.add_argument("--keep", default="")
    args = ap.parse_args()
    ranks = [int(r) for r in args.ranks.split(",") if r]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,vader", OMPI_MCA_btl_vader_single_copy_mechanism="none")
    return args, os.path.join(args.build, "bin", "weft"), ranks, env
