#!/usr/bin/env python3
"""Times pytrec_eval (trec_eval 9.x in a Python extension) on a qrels + run pair (used by scripts/bench).

Usage: python3 bench/pytrec_bench.py QRELS RUN
Prints one JSON line: parse_s (both files read into dicts, as pytrec_eval's README does), eval_s
(RelevanceEvaluator(qrels, {map, P, ndcg}) + evaluate(run)), and the mean map / P_10 / ndcg over queries.
"""
import json
import sys
import time

import pytrec_eval


def main():
    qrels_path, run_path = sys.argv[1], sys.argv[2]
    t0 = time.perf_counter()
    qrels = {}
    with open(qrels_path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 4:
                qrels.setdefault(parts[0], {})[parts[2]] = int(parts[3])
    run = {}
    with open(run_path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 6:
                run.setdefault(parts[0], {})[parts[2]] = float(parts[4])
    t1 = time.perf_counter()
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P", "ndcg"})
    per_query = evaluator.evaluate(run)
    t2 = time.perf_counter()

    def mean(m):
        vals = [q[m] for q in per_query.values()]
        return pytrec_eval.compute_aggregated_measure(m, vals) if vals else None

    print(json.dumps({
        "parse_s": t1 - t0,
        "eval_s": t2 - t1,
        "num_q": len(per_query),
        "scores": {"map": mean("map"), "P_10": mean("P_10"), "ndcg": mean("ndcg")},
    }))


if __name__ == "__main__":
    main()
