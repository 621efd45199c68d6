#!/usr/bin/env python3
"""weft's plan against the plan LLM-PQ ran, on every cluster of the measured
LLM-PQ runs, predicted with the LLM-PQ runtime profile.

  python3 bench/planner-vs-llmpq.py [RUNS.json] [PROFILE.json]

Defaults: ../shared/data/measured-runs/llmpq/runs.json and
examples/llm/profiles/llmpq-2023.json. For each run whose method is LLM-PQ:
`weft plan --evaluate` of LLM-PQ's plan gives its predicted throughput and
quality loss; `weft plan` on the same model, cluster and workload with
`--max-quality-loss` set to that loss gives weft's plan. Prints both, the
ratio, and the measured throughput of LLM-PQ's plan for reference. Exit
status 1 when weft's plan is predicted slower or of worse quality on some
cluster (the issue's check), 0 otherwise.
"""
import json
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
weft = os.environ.get("WEFT", os.path.join(root, "build", "bin", "weft"))
runs_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    root, "..", "shared", "data", "measured-runs", "llmpq", "runs.json")
profile = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    root, "examples", "llm", "profiles", "llmpq-2023.json")
base = os.path.dirname(os.path.abspath(runs_path))
runs = json.load(open(runs_path))["runs"]


def weft_json(args):
    out = subprocess.run([weft] + args, check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def workload_args(w):
    return ["--batch", str(w["batch"]), "--prompt-len", str(w["prompt_len"]),
            "--gen-len", str(w["gen_len"])]


print(f"profile: {os.path.relpath(profile, root)}")
print(f"{'run':<16} {'model':<9} {'cluster':<22} {'LLM-PQ pred':>11} "
      f"{'weft pred':>10} {'ratio':>6} {'loss LLM-PQ':>11} {'loss weft':>9} "
      f"{'LLM-PQ meas':>11}")
failed = 0
with tempfile.TemporaryDirectory() as tmp:
    for r in runs:
        if r["method"] != "LLM-PQ":
            continue
        model = os.path.join(base, r["model"])
        cluster = os.path.join(base, r["cluster"])
        common = ["--model", model, "--cluster", cluster, "--profile",
                  profile] + workload_args(r["workload"])
        theirs = weft_json(["plan", "--evaluate", os.path.join(base, r["plan"])]
                           + common)["predicted"]
        out = os.path.join(tmp, r["id"] + ".json")
        subprocess.run([weft, "plan", "-o", out, "--max-quality-loss",
                        repr(theirs["quality_loss"])] + common, check=True,
                       capture_output=True)
        ours = weft_json(["plan", "--evaluate", out] + common)["predicted"]
        ratio = ours["throughput_tokens_per_s"] / theirs["throughput_tokens_per_s"]
        ok = ratio >= 1 - 1e-9 and ours["quality_loss"] <= theirs["quality_loss"] + 1e-12
        failed += not ok
        print(f"{r['id']:<16} {os.path.basename(r['model'])[:-5]:<9} "
              f"{os.path.basename(r['cluster'])[:-5]:<22} "
              f"{theirs['throughput_tokens_per_s']:>11.2f} "
              f"{ours['throughput_tokens_per_s']:>10.2f} {ratio:>5.2f}x "
              f"{theirs['quality_loss']:>11.4f} {ours['quality_loss']:>9.4f} "
              f"{r['measured']['throughput_tokens_per_s']:>11.2f}"
              f"{'' if ok else '  <- weft worse'}")
print("weft's plan is predicted at least as fast at no worse quality on every "
      "cluster" if not failed else f"{failed} cluster(s) where it is not")
sys.exit(1 if failed else 0)
