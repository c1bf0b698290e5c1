#!/usr/bin/python3
"""Live cross-check of the research statistics (report/stats.h) against scipy.stats.

Usage: scipy_crosscheck.py PATH/TO/hpcab-stats-probe

Draws inputs with a fixed seed, sends them through the probe (JSON lines in and out) and
computes the same statistics independently:
  geometric mean           scipy.stats.gmean
  McNemar exact            scipy.stats.binomtest(min(b, c), b + c, 0.5) (two-sided)
  log-t interval, t-test   scipy.stats.t.ppf (polished: see t_quantile), scipy.stats.ttest_1samp
                           on log ratios
  Wilcoxon signed-rank     scipy.stats.wilcoxon(log r, zero_method="wilcox", correction=False),
                           method "exact" when n <= 25 without zeros or ties, else "approx"
  Benjamini-Hochberg       the step-up rule by hand (scipy 1.10 has no false_discovery_control;
                           it is used as well where present)
  fast_p                   a direct count
Deterministic values must agree to 1e-9 relative. The bootstrap uses its own random numbers, so
it is checked statistically: its endpoints against scipy.stats.bootstrap(method="percentile") and
a numpy percentile bootstrap, the coverage of the true geometric mean over simulated samples,
determinism per seed and nesting of levels. Exits 0 when everything agrees, 1 on a mismatch
(each one printed), 77 (ctest: skipped) when scipy is not installed.
"""
import json
import math
import subprocess
import sys
import warnings

try:
    import numpy as np
    import scipy
    from scipy import stats
except ImportError as e:  # python3-scipy is in scripts/packages.txt
    print(f"scipy_crosscheck: skipped, {e} (install python3-scipy)")
    sys.exit(77)

REL = 1e-9
SEED = 20240607
failures = []
checked = 0
max_rel = 0.0


def fail(msg):
    failures.append(msg)
    if len(failures) <= 30:
        print("MISMATCH", msg)


def close(what, got, want, rel=REL):
    """got from the probe (None for NaN/nullopt), want from scipy (None or NaN for undefined)."""
    global checked, max_rel
    checked += 1
    want_none = want is None or (isinstance(want, float) and math.isnan(want))
    if got is None or want_none:
        if not (got is None and want_none):
            fail(f"{what}: probe {got}, scipy {want}")
        return
    want = float(want)
    if got == want:
        return
    err = abs(got - want) / max(abs(got), abs(want))
    max_rel = max(max_rel, err)
    if err > rel:
        fail(f"{what}: probe {got!r}, scipy {want!r}, relative error {err:.3g}")


def run_probe(probe, requests):
    text = "".join(json.dumps(r) + "\n" for r in requests)
    out = subprocess.run([probe], input=text, capture_output=True, text=True, check=True)
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == len(requests), (len(answers), len(requests))
    return answers


def t_quantile(p, df):
    """scipy.stats.t.ppf polished by two Newton steps on scipy.stats.t.cdf. scipy 1.10's t.ppf
    (cephes stdtrit) is off by up to ~5e-9 relative for some df (e.g. df = 28, p = 0.9: 3e-9,
    checked against mpmath at 40 digits); t.cdf is accurate to ~1e-16, and the polished quantile
    agrees with mpmath to 1e-13 for df = 1..80 and levels 0.5..0.999."""
    x = stats.t.ppf(p, df)
    for _ in range(2):
        x -= (stats.t.cdf(x, df) - p) / stats.t.pdf(x, df)
    return float(x)


def random_ratios(rng, n):
    """Speedup ratios of several shapes: continuous, with ties, with exact 1.0 (zero log)."""
    kind = rng.integers(0, 4)
    if kind == 0:
        return list(np.exp(rng.normal(rng.normal(0, 0.3), rng.uniform(0.05, 1.0), n)))
    if kind == 1:  # ties: drawn from a few values
        pool = np.exp(rng.normal(0.1, 0.5, int(rng.integers(1, 5))))
        return list(rng.choice(pool, n))
    if kind == 2:  # some exact zeros of the log
        r = np.exp(rng.normal(0.2, 0.4, n))
        r[rng.random(n) < 0.3] = 1.0
        return list(r)
    # rounded to 2 decimals: ties as real timing ratios produce them, and ratios of exactly 1
    return list(np.maximum(np.round(np.exp(rng.normal(0, 0.3, n)), 2), 0.01))


def reference_paired(ratios, level):
    d = np.log(np.asarray(ratios))
    n = len(d)
    out = {"n": n, "geomean": math.exp(d.mean())}
    constant = bool(np.all(d == d[0]))
    sd = 0.0 if constant else float(d.std(ddof=1)) if n >= 2 else 0.0
    out["lo"] = out["hi"] = None
    if n >= 6:
        half = t_quantile((1 + level) / 2, n - 1) * sd / math.sqrt(n)
        mean = d[0] if constant else d.mean()
        out["lo"], out["hi"] = math.exp(mean - half), math.exp(mean + half)
    out["t"] = out["p"] = None
    if n >= 2 and sd > 0:
        tt = stats.ttest_1samp(d, 0.0)
        out["t"], out["p"] = float(tt.statistic), float(tt.pvalue)
    nz = d[d != 0]
    if len(nz) == 0:
        out["w"] = None
    else:
        ties = len(np.unique(np.abs(nz))) != len(nz)
        exact = len(nz) == n and not ties and n <= 25
        w = stats.wilcoxon(d, zero_method="wilcox", correction=False,
                           method="exact" if exact else "approx")
        out["w"] = float(w.pvalue)
    return out


def reference_bh(p):
    p = np.asarray(p, dtype=float)
    m = len(p)
    order = np.argsort(p, kind="stable")
    ranked = p[order] * m / np.arange(1, m + 1)
    q_sorted = np.minimum(np.minimum.accumulate(ranked[::-1])[::-1], 1.0)
    q = np.empty(m)
    q[order] = q_sorted
    return q


def check_deterministic(probe, rng):
    requests, expected = [], []
    # Geometric mean
    for _ in range(60):
        v = list(np.exp(rng.normal(0, 1, int(rng.integers(1, 50)))))
        requests.append({"op": "geomean", "v": v})
        expected.append(("geomean", [float(stats.gmean(v))]))
    # McNemar: small and large discordant counts
    pairs = [(int(rng.integers(0, 40)), int(rng.integers(0, 40))) for _ in range(300)]
    pairs += [(int(rng.integers(0, 3000)), int(rng.integers(0, 3000))) for _ in range(100)]
    for b, c in pairs:
        requests.append({"op": "mcnemar", "b": b, "c": c})
        want = 1.0 if b + c == 0 else stats.binomtest(min(b, c), b + c, 0.5).pvalue
        expected.append((f"mcnemar({b}, {c})", [float(want)]))
    # Paired log-ratio comparisons
    for i in range(400):
        n = int(rng.integers(2, 61))
        ratios = [float(x) for x in random_ratios(rng, n)]
        level = float(rng.choice([0.8, 0.9, 0.95, 0.99]))
        requests.append({"op": "paired", "ratios": ratios, "level": level, "min_pairs": 6})
        expected.append((f"paired #{i} n={n}", reference_paired(ratios, level)))
    for value in (1.0, 1.37):  # constant ratios: sd = 0
        ratios = [value] * 8
        requests.append({"op": "paired", "ratios": ratios, "level": 0.95, "min_pairs": 6})
        expected.append((f"paired constant {value}", reference_paired(ratios, 0.95)))
    # Benjamini-Hochberg
    has_fdc = hasattr(stats, "false_discovery_control")
    for _ in range(150):
        m = int(rng.integers(1, 41))
        p = rng.beta(0.5, 1.5, m)
        if rng.random() < 0.3:
            p = np.round(p, 2)  # ties
        p = [float(x) for x in p]
        requests.append({"op": "bh", "p": p})
        q = reference_bh(p)
        if has_fdc:  # scipy >= 1.11: the hand rule against scipy's own
            for k, want in enumerate(stats.false_discovery_control(p)):
                close(f"bh by hand vs false_discovery_control [{k}]", float(q[k]), float(want))
        expected.append(("bh", list(q)))
    # fast_p
    for _ in range(50):
        n = int(rng.integers(0, 30))
        s = [None if rng.random() < 0.3 else float(np.round(rng.lognormal(0, 0.7), 1))
             for _ in range(n)]
        p = float(rng.choice([1.0, 1.5, 2.0]))
        requests.append({"op": "fast_p", "speedups": s, "p": p})
        want = 0.0 if n == 0 else sum(1 for x in s if x is not None and x > p) / n
        expected.append((f"fast_p({p})", [want]))

    answers = run_probe(probe, requests)
    for (what, want), got in zip(expected, answers):
        if isinstance(want, dict):
            for key in ("geomean", "lo", "hi", "t", "p", "w"):
                close(f"{what} {key}", got[key], want[key])
            if got["n"] != want["n"]:
                fail(f"{what} n: probe {got['n']}, want {want['n']}")
        elif what == "bh":
            for k, (g, w) in enumerate(zip(got["value"], want)):
                close(f"bh[{k}]", g, w)
        else:
            close(what, got["value"], want[0])


def check_bootstrap(probe, rng):
    global checked
    # 1. Endpoints against scipy's and numpy's percentile bootstraps (their Monte-Carlo error
    #    with 20000 resamples is far below the 2% allowed on the log scale).
    datasets = [list(np.exp(rng.normal(rng.normal(0, 0.3), rng.uniform(0.1, 0.8), n)))
                for n in (8, 15, 30, 60)]
    requests = [{"op": "bootstrap", "v": v, "resamples": 20000, "level": 0.95, "seed": 3}
                for v in datasets]
    answers = run_probe(probe, requests)
    for v, got in zip(datasets, answers):
        x = np.asarray(v)
        res = stats.bootstrap((x,), stats.gmean, n_resamples=20000, method="percentile",
                              confidence_level=0.95, random_state=np.random.default_rng(5))
        idx = np.random.default_rng(6).integers(0, len(x), (20000, len(x)))
        gm = np.exp(np.log(x)[idx].mean(axis=1))
        lo_np, hi_np = np.percentile(gm, [2.5, 97.5])
        for name, lo, hi in (("scipy.stats.bootstrap", res.confidence_interval.low,
                              res.confidence_interval.high), ("numpy", lo_np, hi_np)):
            checked += 2
            if abs(math.log(got["lo"] / lo)) > 0.02 or abs(math.log(got["hi"] / hi)) > 0.02:
                fail(f"bootstrap n={len(v)}: probe [{got['lo']}, {got['hi']}], {name} [{lo}, {hi}]")

    # 2. Coverage of the true geometric mean (1) by 95% intervals over 400 lognormal samples of 30
    #    (the percentile bootstrap runs a little below nominal at this n).
    samples = [list(np.exp(rng.normal(0, 0.5, 30))) for _ in range(400)]
    answers = run_probe(probe, [{"op": "bootstrap", "v": v, "resamples": 2000, "level": 0.95,
                                 "seed": 100 + i} for i, v in enumerate(samples)])
    coverage = np.mean([a["lo"] <= 1.0 <= a["hi"] for a in answers])
    checked += 1
    print(f"bootstrap coverage of 95% intervals over 400 samples: {coverage:.3f}")
    if not 0.90 <= coverage <= 0.98:
        fail(f"bootstrap coverage {coverage} outside [0.90, 0.98]")

    # 3. Determinism per seed, change with the seed, nesting of levels (same resamples).
    v = samples[0]
    reqs = [{"op": "bootstrap", "v": v, "resamples": 3000, "level": lv, "seed": s}
            for lv, s in ((0.95, 9), (0.95, 9), (0.95, 10), (0.8, 9), (0.99, 9))]
    a, b, c, lo80, hi99 = run_probe(probe, reqs)
    checked += 3
    if a != b:
        fail(f"bootstrap not deterministic for one seed: {a} vs {b}")
    if a == c:
        fail(f"bootstrap identical for seeds 9 and 10: {a}")
    if not (hi99["lo"] <= a["lo"] <= lo80["lo"] <= lo80["hi"] <= a["hi"] <= hi99["hi"]):
        fail(f"bootstrap levels not nested: 80% {lo80}, 95% {a}, 99% {hi99}")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    probe = sys.argv[1]
    warnings.simplefilter("ignore")  # scipy warns on small-sample normal approximations
    rng = np.random.default_rng(SEED)
    check_deterministic(probe, rng)
    check_bootstrap(probe, rng)
    print(f"scipy {scipy.__version__}: {checked} comparisons, {len(failures)} mismatches, "
          f"largest relative difference {max_rel:.3g} (allowed {REL:g})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
