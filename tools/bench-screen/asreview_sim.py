"""Runs ASReview LAB's simulation on reviews given as JSON, the way `asreview simulate` does.

Input (stdin): {"reviews": [{"name", "titles": [...], "abstracts": [...], "labels": [0|1, ...],
"runs": [{"seed": int, "priors": [included_idx, excluded_idx]}]}], "ai": "elas_u4"}.
For each run it reproduces `asreview simulate --ai <ai> --prior-idx <priors> --seed <seed>`
(asreview/simulation/cli.py of the pinned version): `np.random.seed(seed)`, the cycles
[TopDown until fittable, the AI configuration], the priors labelled first, the default stop when
the last relevant record is found. Output (stdout): one JSON line per run with the record order
after the priors and the wall-clock seconds of the review loop.
"""

import json
import sys
import time

import numpy as np
import pandas as pd
from asreview import ActiveLearningCycle
from asreview.models.queriers import TopDown
from asreview.models.stoppers import IsFittable
from asreview.models.models import get_ai_config
from asreview.simulation.simulate import Simulate
import asreview


def main():
    job = json.load(sys.stdin)
    ai = job.get("ai", "elas_u4")
    for review in job["reviews"]:
        df = pd.DataFrame({"title": review["titles"], "abstract": review["abstracts"]})
        labels = pd.Series(review["labels"])
        for run in review["runs"]:
            np.random.seed(run["seed"])
            cycles = [
                ActiveLearningCycle(querier=TopDown(), stopper=IsFittable()),
                ActiveLearningCycle.from_meta(get_ai_config(ai)["value"]),
            ]
            sim = Simulate(df, labels, cycles, print_progress=False)
            sim.label(run["priors"])
            t0 = time.perf_counter()
            sim.review()
            seconds = time.perf_counter() - t0
            results = sim._results
            order = [int(i) for i in results["record_id"].tolist()[len(run["priors"]):]]
            print(json.dumps({"review": review["name"], "seed": run["seed"], "ai": ai, "asreview": asreview.__version__, "priors": run["priors"], "order": order, "seconds": seconds}), flush=True)


if __name__ == "__main__":
    main()
