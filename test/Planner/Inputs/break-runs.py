"""Writes broken copies of a runs file: break-runs.py RUNS.json OUTDIR.

Each output is RUNS.json with one defect; the models, clusters and plans it
names stay valid (paths are made absolute so the copies can live anywhere).
"""
import copy
import json
import os
import sys

src, out = sys.argv[1:3]
good = json.load(open(src))
root = os.path.dirname(os.path.abspath(src))
for r in good["runs"]:
    for key in ("model", "cluster", "plan"):
        r[key] = os.path.join(root, r[key])


def write(name, edit):
    d = copy.deepcopy(good)
    edit(d)
    json.dump(d, open(os.path.join(out, name + ".json"), "w"))


write("good", lambda d: None)
write("no-decode", lambda d: d["runs"][1]["measured"].pop("decode_s"))
write("zero-total", lambda d: d["runs"][0]["measured"].update(total_s=0))
write("no-workload", lambda d: d["runs"][2].pop("workload"))
write("bad-batch", lambda d: d["runs"][0]["workload"].update(batch=-3))
write("bad-plan-path", lambda d: d["runs"][0].update(plan="plans/none.json"))
write("bad-model-path", lambda d: d["runs"][0].update(model="models/none.json"))
write("no-cluster", lambda d: d["runs"][0].pop("cluster"))
# The plan of a 2-T4 cluster run on the A100 cluster.
write("plan-vs-cluster", lambda d: d["runs"][0].update(
    cluster=d["runs"][4]["cluster"]))
# A 4-layer plan for a model with 40 layers.
write("plan-vs-model", lambda d: d["runs"][0].update(
    model=os.path.join(root, "..", "..", "..", "..", "examples", "llm",
                       "models", "llama-2-13b.json")))
write("duplicate-id", lambda d: d["runs"][1].update(id=d["runs"][0]["id"]))
write("no-runs", lambda d: d.update(runs=[]))
write("runs-not-array", lambda d: d.update(runs={"a": 1}))
