#!/usr/bin/env python3
"""Figures of a campaign, drawn from the observations CSV of `hpcab report extract` only.

Each figure is written as SVG and PNG, with the CSV table it was drawn from beside it
(same name, .csv), so every plotted number can be checked; figures.json records what was
counted per arm (episodes, solved, credited) so a reader or a test can check the figures
against `hpcab report summary`. Definitions: docs/research.md.

"Solved" is the rule of docs/research.md, the same as the summary's: the episode's answer (its
final submission, or its best with --pick best) has verdict ok. A solved answer without a
credited speedup (a suspect grade) counts as solved but has no point on a speedup axis.

usage: plot-report.py OBSERVATIONS.csv --out DIR [--weights 1,0.1,1] [--pick final|best]
"""
import argparse
import csv
import json
import math
import os
import sys
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator  # noqa: E402

plt.rcParams["svg.hashsalt"] = "hpcab"  # reproducible SVG ids
plt.rcParams["svg.fonttype"] = "none"

TITLE_WIDTH = 48  # characters per title line before it wraps (titles never run off the figure)


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    need = {"arm", "kernel", "repetition", "solved", "speedup", "input_tokens", "cached_tokens",
            "output_tokens"}
    if rows and not need.issubset(rows[0].keys()):
        sys.exit("%s: missing columns %s" % (path, sorted(need - set(rows[0].keys()))))
    return rows


def apply_pick(rows, pick):
    """The answer per episode: the final submission's columns, or the best_* ones (a CSV from
    before those columns has no best: its final is its best)."""
    for r in rows:
        if pick == "best" and "best_solved" in r:
            r["solved"] = r["best_solved"]
            r["speedup"] = r["best_speedup"] if r["best_solved"] == "1" else ""
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


def is_solved(r):
    return r["solved"] == "1"


def credited_speedup(r):
    """The credited speedup of a solved episode; None when unsolved or not credited."""
    if not is_solved(r) or r["speedup"] == "":
        return None
    v = float(r["speedup"])
    return v if v > 0 and math.isfinite(v) else None


def geomean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def history(r):
    """[(attempt, route, verdict, speedup or None)] from the history column."""
    out = []
    for entry in filter(None, r.get("history", "").split(";")):
        attempt, route, verdict, speedup = entry.split(":")
        s = float(speedup) if speedup else None
        out.append((int(attempt), route, verdict, s if s is not None and s > 0 else None))
    return out


def speedup_ticks(lo, hi):
    """Tick values for a log speedup axis spanning [lo, hi]: powers of two (thinned to at most
    nine), with 0.75, 0.9, 1.1, 1.25, 1.5 and 3 added when the span holds fewer than three."""
    k0, k1 = math.floor(math.log2(lo)), math.ceil(math.log2(hi))
    ticks = [2.0 ** k for k in range(k0, k1 + 1) if lo <= 2.0 ** k <= hi]
    step = 1
    while len(ticks[::step]) > 9:
        step += 1
    if step > 1:  # keep 1x on the axis
        ticks = [t for t in ticks if round(math.log2(t)) % step == 0]
    if len(ticks) < 3:
        ticks = sorted(set(ticks + [t for t in (0.75, 0.9, 1.1, 1.25, 1.5, 3.0) if lo <= t <= hi]))
    return ticks


def speedup_label(v, _pos=None):
    return ("%.3g" % v) + "\u00d7"


def speedup_axis(ax, values, axis="y"):
    """A log axis for speedups: limits that hold every value and 1x, ticks like 0.5x, 1x, 2x."""
    vals = [v for v in values if v and v > 0] + [1.0]
    lo, hi = min(vals) / 1.3, max(vals) * 1.3
    a = ax.yaxis if axis == "y" else ax.xaxis
    (ax.set_yscale if axis == "y" else ax.set_xscale)("log")
    (ax.set_ylim if axis == "y" else ax.set_xlim)(lo, hi)
    a.set_major_locator(FixedLocator(speedup_ticks(lo, hi)))
    a.set_major_formatter(FuncFormatter(speedup_label))
    a.set_minor_locator(NullLocator())
    return lo, hi


def title(ax, text):
    ax.set_title(textwrap.fill(text, TITLE_WIDTH), fontsize=11)


def write_table(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def save(fig, out, name, header, rows):
    base = os.path.join(out, name)
    # bbox_inches="tight" grows the saved canvas to whatever the titles and labels need.
    fig.savefig(base + ".svg", metadata={"Date": None}, bbox_inches="tight", pad_inches=0.15)
    fig.savefig(base + ".png", dpi=120, bbox_inches="tight", pad_inches=0.15)
    plt.close(fig)
    write_table(base + ".csv", header, rows)
    print("wrote %s.svg, %s.png, %s.csv" % (base, base, base))


def arm_figsize(n):
    return (max(6.0, 1.5 * n + 2.5), 4.5)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("observations")
    ap.add_argument("--out", required=True)
    ap.add_argument("--weights", default="1,0.1,1")
    ap.add_argument("--pick", choices=("final", "best"), default="final")
    a = ap.parse_args()
    w = [float(x) for x in a.weights.split(",")]
    if len(w) != 3:
        sys.exit("--weights: three numbers input,cached,output")
    rows = read(a.observations)
    if not rows:
        sys.exit("%s: no observations" % a.observations)
    rows = apply_pick(rows, a.pick)
    os.makedirs(a.out, exist_ok=True)
    arms = arms_in_order(rows)
    colors = {arm: plt.cm.tab10(i % 10) for i, arm in enumerate(arms)}
    by_arm = {arm: [r for r in rows if r["arm"] == arm] for arm in arms}

    # What every figure counts, per arm: the figures and the summary share this rule.
    counted = []
    for arm in arms:
        mine = by_arm[arm]
        counted.append({"arm": arm, "episodes": len(mine),
                        "solved": sum(1 for r in mine if is_solved(r)),
                        "credited": sum(1 for r in mine if credited_speedup(r) is not None)})

    def arm_label(c):
        s = "%s\n%d/%d solved" % (c["arm"], c["solved"], c["episodes"])
        if c["credited"] != c["solved"]:
            s += "\n(%d credited)" % c["credited"]
        return s

    # 1. Speedup per arm: every solved episode's credited speedup, and the geometric mean.
    table = []
    fig, ax = plt.subplots(figsize=arm_figsize(len(arms)))
    allv = []
    for i, arm in enumerate(arms):
        vals = []
        for r in by_arm[arm]:
            s = credited_speedup(r)
            table.append([arm, r["kernel"], r["repetition"], r["solved"],
                          "" if s is None else "%.6g" % s])
            if s is not None:
                vals.append(s)
        allv += vals
        if vals:
            ax.scatter([i] * len(vals), vals, color=colors[arm], alpha=0.6, s=18)
            ax.hlines(geomean(vals), i - 0.3, i + 0.3, color="black", linewidth=2)
    ax.axhline(1.0, color="grey", linestyle="--", linewidth=0.8)
    speedup_axis(ax, allv)
    ax.set_xlim(-0.6, len(arms) - 0.4)
    ax.set_xticks(range(len(arms)))
    ax.set_xticklabels([arm_label(c) for c in counted], fontsize=8)
    ax.set_ylabel("credited speedup (bar: geometric mean)")
    title(ax, "Speedup per arm (solved episodes, %s submission)" % a.pick)
    save(fig, a.out, "speedup_by_arm", ["arm", "kernel", "repetition", "solved", "speedup"], table)

    # 2. Spend per arm: weighted token cost, total and per episode.
    table = []
    totals = []
    for arm in arms:
        mine = by_arm[arm]
        c = sum(cost(r, w) for r in mine)
        totals.append(c)
        table.append([arm, len(mine), "%.6g" % c, "%.6g" % (c / len(mine))])
    fig, ax = plt.subplots(figsize=arm_figsize(len(arms)))
    ax.bar(range(len(arms)), totals, color=[colors[x] for x in arms])
    ax.set_xticks(range(len(arms)))
    ax.set_xticklabels(arms, rotation=20, ha="right")
    ax.set_ylabel("weighted tokens\n(input %g, cached %g, output %g)" % tuple(w))
    title(ax, "Spend per arm")
    save(fig, a.out, "spend_by_arm", ["arm", "episodes", "weighted_cost", "cost_per_episode"],
         table)

    # 3. Speedup against cost, one point per solved episode with a credited speedup.
    table = []
    fig, ax = plt.subplots(figsize=(7, 4.5))
    allv = []
    for arm in arms:
        xs, ys = [], []
        for r in by_arm[arm]:
            s = credited_speedup(r)
            c = cost(r, w)
            table.append([arm, r["kernel"], r["repetition"], "%.6g" % c,
                          "" if s is None else "%.6g" % s, r["solved"]])
            if s is not None:
                xs.append(max(c, 1e-9))
                ys.append(s)
        allv += ys
        if xs:
            ax.scatter(xs, ys, color=colors[arm], label=arm, alpha=0.7, s=20)
    ax.axhline(1.0, color="grey", linestyle="--", linewidth=0.8)
    speedup_axis(ax, allv)
    if any(float(t[3]) > 0 for t in table):
        ax.set_xscale("symlog")
    ax.set_xlabel("weighted tokens spent")
    ax.set_ylabel("credited speedup")
    title(ax, "Speedup against cost, per kernel")
    if allv:
        ax.legend(fontsize=8)
    save(fig, a.out, "speedup_vs_cost",
         ["arm", "kernel", "repetition", "weighted_cost", "speedup", "solved"], table)

    # 4. Token breakdown per arm: input, cached input, output.
    table = []
    parts = {"input": [], "cached": [], "output": []}
    for arm in arms:
        mine = by_arm[arm]
        t = [sum(int(r[k + "_tokens"]) for r in mine) for k in ("input", "cached", "output")]
        for k, v in zip(("input", "cached", "output"), t):
            parts[k].append(v)
        table.append([arm] + t)
    fig, ax = plt.subplots(figsize=arm_figsize(len(arms)))
    bottom = [0] * len(arms)
    for k, col in (("input", "#4c72b0"), ("cached", "#8fb3e0"), ("output", "#dd8452")):
        ax.bar(range(len(arms)), parts[k], bottom=bottom, label=k, color=col)
        bottom = [b + v for b, v in zip(bottom, parts[k])]
    ax.set_xticks(range(len(arms)))
    ax.set_xticklabels(arms, rotation=20, ha="right")
    ax.set_ylabel("tokens")
    title(ax, "Token breakdown per arm")
    ax.legend(fontsize=8)
    save(fig, a.out, "token_breakdown", ["arm", "input_tokens", "cached_tokens", "output_tokens"],
         table)

    # 5. Candidate history: per episode, every /score (open circle) and /submit (filled square)
    # in order, at its speedup; a candidate without a speedup (wrong, failed, suspect) is an x on
    # the bottom edge.
    table = []
    fig, axes = plt.subplots(len(arms), 1, figsize=(7, 2.6 * len(arms) + 0.8), squeeze=False)
    allv = [s for r in rows for (_, _, _, s) in history(r) if s is not None]
    for ax, arm in zip(axes[:, 0], arms):
        lo, hi = speedup_axis(ax, allv)
        floor = lo * 1.08
        longest = 1
        for r in by_arm[arm]:
            h = history(r)
            longest = max(longest, len(h))
            xs = list(range(1, len(h) + 1))
            ys = [s if s is not None else floor for (_, _, _, s) in h]
            for i, (attempt, route, verdict, s) in enumerate(h, 1):
                table.append([arm, r["kernel"], r["repetition"], i, attempt, route, verdict,
                              "" if s is None else "%.6g" % s])
            if not h:
                continue
            ax.plot(xs, ys, color=colors[arm], alpha=0.35, linewidth=0.8)
            for x, (_, route, _, s), y in zip(xs, h, ys):
                if s is None:
                    ax.scatter([x], [y], marker="x", color="#a01010", s=16)
                elif route == "score":
                    ax.scatter([x], [y], marker="o", facecolors="none", edgecolors=colors[arm],
                               s=22)
                else:
                    ax.scatter([x], [y], marker="s", color=colors[arm], s=22)
        ax.axhline(1.0, color="grey", linestyle="--", linewidth=0.8)
        ax.set_xlim(0.5, longest + 0.5)
        ax.set_xticks(range(1, longest + 1, max(1, longest // 10)))
        ax.set_ylabel("speedup")
        ax.set_title(arm, fontsize=9, loc="left")
        if not any(history(r) for r in by_arm[arm]):
            ax.text(0.5, 0.5, "no /score or /submit recorded", transform=ax.transAxes,
                    ha="center", va="center", fontsize=9, color="#555")
    axes[-1, 0].set_xlabel("candidate (in order; o = /score, \u25a0 = /submit, "
                           "x = no speedup)")
    fig.suptitle(textwrap.fill("Candidate history per episode", TITLE_WIDTH), fontsize=11)
    fig.tight_layout()
    save(fig, a.out, "candidate_history",
         ["arm", "kernel", "repetition", "index", "attempt", "route", "verdict", "speedup"], table)

    with open(os.path.join(a.out, "figures.json"), "w") as f:
        json.dump({"pick": a.pick, "arms": counted}, f, indent=1)
        f.write("\n")
    print("wrote %s" % os.path.join(a.out, "figures.json"))


if __name__ == "__main__":
    main()
