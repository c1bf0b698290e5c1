#!/usr/bin/env python3
"""Figures of a campaign, drawn from the observations CSV of `hpcab report extract` only.

Each figure is written as SVG and PNG, with the CSV table it was drawn from beside it
(same name, .csv), so every plotted number can be checked. Definitions: docs/research.md.

usage: plot-report.py OBSERVATIONS.csv --out DIR [--weights 1,0.1,1]
"""
import argparse
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams["svg.hashsalt"] = "hpcab"  # reproducible SVG ids
plt.rcParams["svg.fonttype"] = "none"


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    need = {"arm", "kernel", "repetition", "solved", "speedup", "input_tokens", "cached_tokens",
            "output_tokens"}
    if rows and not need.issubset(rows[0].keys()):
        sys.exit("%s: missing columns %s" % (path, sorted(need - set(rows[0].keys()))))
    return rows


def arms_in_order(rows):
    seen = []
    for r in rows:
        if r["arm"] not in seen:
            seen.append(r["arm"])
    return seen


def cost(r, w):
    return (int(r["input_tokens"]) * w[0] + int(r["cached_tokens"]) * w[1] +
            int(r["output_tokens"]) * w[2])


def solved_speedup(r):
    if r["solved"] != "1" or r["speedup"] == "":
        return None
    v = float(r["speedup"])
    return v if v > 0 else None


def geomean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def write_table(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def save(fig, out, name, header, rows):
    base = os.path.join(out, name)
    fig.tight_layout()
    fig.savefig(base + ".svg", metadata={"Date": None})
    fig.savefig(base + ".png", dpi=120)
    plt.close(fig)
    write_table(base + ".csv", header, rows)
    print("wrote %s.svg, %s.png, %s.csv" % (base, base, base))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("observations")
    ap.add_argument("--out", required=True)
    ap.add_argument("--weights", default="1,0.1,1")
    a = ap.parse_args()
    w = [float(x) for x in a.weights.split(",")]
    if len(w) != 3:
        sys.exit("--weights: three numbers input,cached,output")
    rows = read(a.observations)
    if not rows:
        sys.exit("%s: no observations" % a.observations)
    os.makedirs(a.out, exist_ok=True)
    arms = arms_in_order(rows)
    colors = {arm: plt.cm.tab10(i % 10) for i, arm in enumerate(arms)}

    # 1. Speedup per arm: every solved episode's credited speedup, and the geometric mean.
    table = []
    fig, ax = plt.subplots(figsize=(max(4, 1.4 * len(arms) + 2), 4))
    for i, arm in enumerate(arms):
        mine = [r for r in rows if r["arm"] == arm]
        sp = [(r, solved_speedup(r)) for r in mine]
        vals = [s for _, s in sp if s is not None]
        for r, s in sp:
            table.append([arm, r["kernel"], r["repetition"], r["solved"],
                          "" if s is None else "%.6g" % s])
        if vals:
            ax.scatter([i] * len(vals), vals, color=colors[arm], alpha=0.6, s=18)
            ax.hlines(geomean(vals), i - 0.3, i + 0.3, color="black", linewidth=2)
        ax.annotate("%d/%d solved" % (len(vals), len(mine)), (i, 1), textcoords="offset points",
                    xytext=(0, -28), ha="center", fontsize=8)
    ax.axhline(1.0, color="grey", linestyle="--", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(arms)))
    ax.set_xticklabels(arms, rotation=20, ha="right")
    ax.set_ylabel("credited speedup (log; bar = geometric mean)")
    ax.set_title("Speedup per arm (solved episodes)")
    save(fig, a.out, "speedup_by_arm", ["arm", "kernel", "repetition", "solved", "speedup"], table)

    # 2. Spend per arm: weighted token cost, total and per episode.
    table = []
    totals = []
    for arm in arms:
        mine = [r for r in rows if r["arm"] == arm]
        c = sum(cost(r, w) for r in mine)
        totals.append(c)
        table.append([arm, len(mine), "%.6g" % c, "%.6g" % (c / len(mine))])
    fig, ax = plt.subplots(figsize=(max(4, 1.4 * len(arms) + 2), 4))
    ax.bar(range(len(arms)), totals, color=[colors[x] for x in arms])
    ax.set_xticks(range(len(arms)))
    ax.set_xticklabels(arms, rotation=20, ha="right")
    ax.set_ylabel("weighted tokens (input %g, cached %g, output %g)" % tuple(w))
    ax.set_title("Spend per arm")
    save(fig, a.out, "spend_by_arm", ["arm", "episodes", "weighted_cost", "cost_per_episode"],
         table)

    # 3. Speedup against cost, one point per episode (unsolved at speedup 0 on a separate row).
    table = []
    fig, ax = plt.subplots(figsize=(6, 4))
    for arm in arms:
        xs, ys = [], []
        for r in rows:
            if r["arm"] != arm:
                continue
            s = solved_speedup(r)
            c = cost(r, w)
            table.append([arm, r["kernel"], r["repetition"], "%.6g" % c,
                          "" if s is None else "%.6g" % s, r["solved"]])
            if s is not None:
                xs.append(max(c, 1e-9))
                ys.append(s)
        if xs:
            ax.scatter(xs, ys, color=colors[arm], label=arm, alpha=0.7, s=20)
    ax.axhline(1.0, color="grey", linestyle="--", linewidth=0.8)
    ax.set_yscale("log")
    if any(float(t[3]) > 0 for t in table):
        ax.set_xscale("symlog")
    ax.set_xlabel("weighted tokens spent")
    ax.set_ylabel("credited speedup (log)")
    ax.set_title("Speedup against cost, per kernel")
    if arms:
        ax.legend(fontsize=8)
    save(fig, a.out, "speedup_vs_cost",
         ["arm", "kernel", "repetition", "weighted_cost", "speedup", "solved"], table)

    # 4. Token breakdown per arm: input, cached input, output.
    table = []
    parts = {"input": [], "cached": [], "output": []}
    for arm in arms:
        mine = [r for r in rows if r["arm"] == arm]
        t = [sum(int(r[k + "_tokens"]) for r in mine) for k in ("input", "cached", "output")]
        for k, v in zip(("input", "cached", "output"), t):
            parts[k].append(v)
        table.append([arm] + t)
    fig, ax = plt.subplots(figsize=(max(4, 1.4 * len(arms) + 2), 4))
    bottom = [0] * len(arms)
    for k, col in (("input", "#4c72b0"), ("cached", "#8fb3e0"), ("output", "#dd8452")):
        ax.bar(range(len(arms)), parts[k], bottom=bottom, label=k, color=col)
        bottom = [b + v for b, v in zip(bottom, parts[k])]
    ax.set_xticks(range(len(arms)))
    ax.set_xticklabels(arms, rotation=20, ha="right")
    ax.set_ylabel("tokens")
    ax.set_title("Token breakdown per arm")
    ax.legend(fontsize=8)
    save(fig, a.out, "token_breakdown", ["arm", "input_tokens", "cached_tokens", "output_tokens"],
         table)


if __name__ == "__main__":
    main()
