"""Checks a `weft cost calibrate --runs` report against the profile it wrote.

usage: check-calibration.py REPORT PROFILE RUNS.json [--loose]

- the fitted profile predicts the runs better than the base profile, and
  its leave-one-cluster-out error is better than the base profile's too;
- `weft plan --evaluate --profile PROFILE` on every run predicts the
  prefill and decode seconds the report printed as "fitted";
- the profile says it is measured and records its provenance.
With --loose only the first check is made on MAPE (real data), and at most
5 runs are re-evaluated.
"""
import json
import os
import re
import subprocess
import sys

report_path, profile_path, runs_path = sys.argv[1:4]
loose = "--loose" in sys.argv
report = open(report_path).read()
profile = json.load(open(profile_path))


def mape(label):
    m = re.search(r"^%s: MAPE prefill ([0-9.]+)%%, decode ([0-9.]+)%%, "
                  r"total ([0-9.]+)%%" % re.escape(label), report, re.M)
    assert m, "no line '%s: MAPE ...'" % label
    return [float(x) for x in m.groups()]


base, fitted, held = (mape(x) for x in
                      ("base profile", "fitted profile", "leave-one-cluster-out"))
assert fitted[2] < base[2], (fitted, base)
assert held[2] < base[2], (held, base)
if not loose:
    assert fitted[2] < base[2] / 5, (fitted, base)

assert profile["format"] == "weft-runtime-profile" and profile["version"] == 2
assert profile["estimated"] is False
prov = profile["provenance"]
assert "--runs" in prov["command"], prov
assert re.match(r"^\d{4}-\d{2}-\d{2}$", prov["when"]), prov
assert "end-to-end runs" in prov["measured"], prov

runs = json.load(open(runs_path))["runs"]
root = os.path.dirname(runs_path)
for run in runs[:5] if loose else runs:
    m = re.search(r"^%s \[.*\]\n(?:  .*\n)*?  fitted +([0-9.]+) +([0-9.]+)"
                  % re.escape(run["id"]), report, re.M)
    assert m, "no fitted line for " + run["id"]
    w = run["workload"]
    out = subprocess.run(
        ["weft", "plan", "--evaluate", os.path.join(root, run["plan"]),
         "--model", os.path.join(root, run["model"]),
         "--cluster", os.path.join(root, run["cluster"]),
         "--batch", str(w["batch"]), "--prompt-len", str(w["prompt_len"]),
         "--gen-len", str(w["gen_len"]), "--profile", profile_path],
        capture_output=True, text=True, check=True).stdout
    p = json.loads(out)["predicted"]
    for got, printed in ((p["prefill_s"], m.group(1)), (p["decode_s"], m.group(2))):
        assert abs(got - float(printed)) <= 0.006 + 1e-3 * got, (run["id"], got, printed)
print("ok: %d runs, MAPE total base %.1f%%, fitted %.1f%%, held-out %.1f%%"
      % (len(runs), base[2], fitted[2], held[2]))
