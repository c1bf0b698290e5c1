#!/usr/bin/env python3
"""Draws a regrade (hpcab regrade, docs/regrade.md): per kernel and language, the geometric-mean
speedup on judge A against judge B of the answers correct on both, log-log, with the diagonal
where both judges agree. Writes regrade-speedups.svg and .png and regrade-speedups.csv (the
points drawn) into --out. Called by `hpcab report regrade DIR`."""

import argparse
import csv
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def points(rows):
    """(kernel, language) -> (geomean speedup on A, on B, answers) over answers correct on both."""
    logs = defaultdict(lambda: [0.0, 0.0, 0])
    for r in rows:
        if r["status"] != "graded" or r["verdict_a"] != "ok" or r["verdict_b"] != "ok":
            continue
        try:
            a, b = float(r["speedup_a"]), float(r["speedup_b"])
        except ValueError:
            continue
        if a <= 0 or b <= 0:
            continue
        p = logs[(r["kernel"], r["language"])]
        p[0] += math.log(a)
        p[1] += math.log(b)
        p[2] += 1
    return {k: (math.exp(v[0] / v[2]), math.exp(v[1] / v[2]), v[2]) for k, v in logs.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("csv", help="regrade.csv")
    ap.add_argument("--out", required=True, help="output folder")
    args = ap.parse_args()
    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    pts = points(rows)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "regrade-speedups.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kernel", "language", "speedup_a", "speedup_b", "answers"])
        for (kernel, language), (a, b, n) in sorted(pts.items()):
            w.writerow([kernel, language, f"{a:.6g}", f"{b:.6g}", n])
    fig, ax = plt.subplots(figsize=(5, 5))
    languages = sorted({lang for _, lang in pts})
    for lang in languages:
        xs = [v[0] for k, v in pts.items() if k[1] == lang]
        ys = [v[1] for k, v in pts.items() if k[1] == lang]
        ax.scatter(xs, ys, label=lang, s=18)
    values = [v for p in pts.values() for v in p[:2]] or [1.0]
    lo, hi = min(values + [1.0]) / 1.5, max(values + [1.0]) * 1.5
    ax.plot([lo, hi], [lo, hi], color="grey", linewidth=0.8, linestyle="--")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("speedup on judge A")
    ax.set_ylabel("speedup on judge B")
    ax.set_title(f"Regrade: {len(pts)} kernel-language pairs")
    if languages:
        ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    for ext in ("svg", "png"):
        fig.savefig(os.path.join(args.out, f"regrade-speedups.{ext}"))
    print(f"regrade-speedups.svg, .png and .csv in {args.out} ({len(pts)} pairs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
