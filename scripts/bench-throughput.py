#!/usr/bin/env python3
"""Throughput benchmark of the judge: how many grades an hour does one judge give?

Starts private hpcab-judge processes (free port, state and scratch in a temporary directory,
removed on exit) with the judge's defaults except the credited baselines (the C baselines, so
that a reference resubmitted is graded against its own build; --judge-config to override) and
measures:

  overhead  per kernel class (memory-bound tsvc_2_s000, compute-bound gemm, ML softmax, and a
            Python (NumPy) softmax) the reference resubmitted through /submit and /score (the
            first call warms the build cache, then --repeat cached calls): median wall, median
            timed calls (per configuration samples x (candidate + baseline median)), the
            judge's overhead share (wall - build - timed calls) / (wall - build) and the median
            of each stage of the response's timings_s;
  stream    a fixed mixed list of (kernel, source) pairs (the references, an OpenMP gemm, a 2x
            slower tsvc_2_s000, a wrong answer) sent to /submit by --clients concurrent clients
            for --duration seconds: grades per hour (in all and per verdict), client-seen
            latency, the queue wait (latency - the response's sum of timings_s: the response
            carries no queue time), the CPU time of the judge and all its descendants over the
            window and its peak RSS;
  slots     the same stream against judges with 1 slot of 1 CPU, 2 slots of 1 CPU with 2 grade
            workers (hosts with >= 2 CPUs), and the default (one slot of every CPU): grades per
            hour and the A/A credits of the references in the stream while every slot is busy;
  original  (--original-url) /score and /submit of gemm at preset S and tsvc_2_s000 at preset M
            on this judge and an already running original HPCAB judge, alternating;
  sizing    judges needed for 10, 100 and 1000 agents from the measured grades per hour
            (--sizing alone: from --grades-per-hour or a --from JSON file, no judge started).

It prints figures and asserts nothing about them (timing belongs in benchmarks, never in
pass/fail tests): exit 0 whatever the figures are, 1 only when a judge cannot start or a request
fails outright (no response, an HTTP error other than 429, not JSON), 2 on bad arguments.
Standard library only (python3 >= 3.9). Operator's guide: docs/deploy.md "Sizing a campaign".
"""

import argparse
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from benchlib import (Fatal, JudgeProcess, fmt, host_line, judge_bandwidth, log, machine_info,
                      med, run_main, table, timed_calls_s)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The kernel classes of the overhead measurement: (class, kernel, language, source relative to
# ROOT). The Python class is the NumPy softmax of the corpus (docs/api.md "The Python form").
CLASSES = [
    ("memory-bound", "tsvc_2_s000", "c", "corpus/loop_level_reasoning/tsvc_2_s000/reference.c"),
    ("compute-bound", "gemm", "c",
     "corpus/scientific_computing/dense_linear_algebra/gemm/reference.c"),
    ("ML", "softmax", "c", "corpus/machine_learning/softmax/reference.c"),
    ("Python", "softmax", "python", "corpus/machine_learning/softmax/reference.py"),
]

# The mixed stream: (name, kernel, language, source relative to ROOT or None for the generated
# wrong answer, A/A: a reference graded against its own C build, credit 1.0 is right).
STREAM = [
    ("tsvc_2_s000-ref", "tsvc_2_s000", "c", CLASSES[0][3], True),
    ("gemm-ref", "gemm", "c", CLASSES[1][3], True),
    ("softmax-ref", "softmax", "c", CLASSES[2][3], True),
    ("softmax-numpy", "softmax", "python", CLASSES[3][3], False),
    ("gemm-omp", "gemm", "c", "tests/solutions/gemm.c", False),
    ("tsvc_2_s000-twice", "tsvc_2_s000", "c", "tests/solutions/tsvc_2_s000_twice.c", False),
    ("tsvc_2_s000-off-by-one", "tsvc_2_s000", "c", None, False),
]
# The wrong answer: tsvc_2_s000's reference whose fp64 loop stops one element short (the last
# output keeps the judge's poison: verdict incorrect).
OFF_BY_ONE = ("for (int64_t i = 0; i < N; i++) a[i] = b[i] + (real)1.0;",
              "for (int64_t i = 0; i < N - 1; i++) a[i] = b[i] + (real)1.0;")

# The side-by-side cases with the original judge: (kernel, preset).
ORIGINAL_CASES = [("gemm", "S"), ("tsvc_2_s000", "M")]

STAGES = ["build", "choose baseline", "calibrate", "start runners", "inputs", "candidate",
          "baseline", "oracle", "compare", "settle", "stop runners", "record"]

# Campaign sizing defaults (docs/deploy.md "Sizing a campaign").
SIZING_AGENTS = [10, 100, 1000]
SUBMITS_PER_AGENT_HOUR = 12.0  # one grade every 5 minutes
TARGET_UTILISATION = 0.7


# ---- the judge --------------------------------------------------------------------------------


class Judge(JudgeProcess):
    """A private hpcab-judge run with the settings `config` (a dict, written to a file in its
    directory); stop() kills it. Its directory is under the benchmark's temporary directory."""

    def __init__(self, judge_bin, tmp, name, config):
        self.dir = os.path.join(tmp, name)
        os.makedirs(self.dir)
        config_path = os.path.join(self.dir, "judge.json")
        with open(config_path, "w") as f:
            json.dump(config, f)
        super().__init__(judge_bin, self.dir, config_path)



class Refused(Exception):
    """A 4xx answer the caller asked to see (status, body text)."""

    def __init__(self, status, text, retry_after=None):
        super().__init__(f"HTTP {status}: {text[:300]}")
        self.status = status
        self.text = text
        self.retry_after = retry_after


def request(url, method, path, body=None, timeout=900, refusable=False):
    """JSON answer of METHOD url+path. Raises Fatal when there is no answer, an HTTP error or a
    body that is not JSON; with refusable, a 4xx (a 429 included) raises Refused instead."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            text = r.read().decode()
    except urllib.error.HTTPError as e:
        text = e.read().decode(errors="replace")
        if refusable and 400 <= e.code < 500:
            ra = e.headers.get("Retry-After")
            raise Refused(e.code, text, float(ra) if ra and ra.replace(".", "").isdigit()
                          else None) from None
        raise Fatal(f"{method} {url}{path}: HTTP {e.code}: {text[:500]}") from None
    except Exception as e:  # refused, reset, timed out: no response at all
        raise Fatal(f"{method} {url}{path} failed: {e!r}") from None
    try:
        return json.loads(text)
    except ValueError:
        raise Fatal(f"{method} {url}{path}: response is not JSON: {text[:500]}") from None


def grade(url, route, body, retry_429=True):
    """(response, client-seen seconds, 429 retries) of one grade; a 429 is retried after its
    Retry-After (10 s when absent), the wait counted in the latency."""
    t0 = time.monotonic()
    retries = 0
    while True:
        try:
            resp = request(url, "POST", "/" + route, body, refusable=True)
            return resp, time.monotonic() - t0, retries
        except Refused as e:
            if e.status != 429 or not retry_429:
                raise
            retries += 1
            time.sleep(e.retry_after if e.retry_after is not None else 10.0)


# ---- /proc: the judge's CPU time and memory ---------------------------------------------------

CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def proc_table():
    """pid -> (ppid, utime+stime, cutime+cstime in ticks, state) of every process /proc shows."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                rest = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        # rest[0] is field 3 (state): field n is rest[n - 3]
        table[int(name)] = (int(rest[1]), int(rest[11]) + int(rest[12]),
                            int(rest[13]) + int(rest[14]), rest[0])
    return table


def descendants(pid, table):
    children = {}
    for p, row in table.items():
        children.setdefault(row[0], []).append(p)
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def become_subreaper():
    """Makes this process the child subreaper of everything it starts (prctl
    PR_SET_CHILD_SUBREAPER): the judge kills its sandboxed runners' bubblewrap, whose pid-1
    process would otherwise be reparented to the host's init, taking the runners' CPU time with
    it; reparented here, reap_orphans() reaps it and the time lands in this process's cutime.
    False where prctl is not available."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def reap_orphans(keep):
    """Reaps the zombie children of this process but the pids in keep (the judges, which their
    Popen objects wait for)."""
    me = os.getpid()
    for p, row in proc_table().items():
        if row[0] == me and row[3] == "Z" and p not in keep:
            try:
                os.waitpid(p, os.WNOHANG)
            except ChildProcessError:
                pass


def tree_cpu_s(pid, keep):
    """CPU seconds so far of pid and all its descendants: each live process's own utime+stime
    plus what its reaped children left in its cutime+cstime, plus this process's cutime+cstime
    (orphaned descendants reaped here: become_subreaper). A process reaped between two readings
    moves from one sum into another: the difference stays whole, as long as no judge (a child
    of this process too) exits in between."""
    reap_orphans(keep)
    table = proc_table()
    if pid not in table or os.getpid() not in table:
        return None
    ticks = table[os.getpid()][2]
    for p in [pid] + descendants(pid, table):
        ticks += table[p][1] + table[p][2]
    return ticks / CLK_TCK


def status_kib(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class Monitor(threading.Thread):
    """Samples, every `period` seconds while running: the summed VmRSS of the judge and its
    descendants, and /health's queue_waiting."""

    def __init__(self, judge, period=1.0):
        super().__init__(daemon=True)
        self.judge, self.period = judge, period
        self.stop_event = threading.Event()
        self.tree_rss_kib, self.queue = [], []

    def run(self):
        pid = self.judge.proc.pid
        while not self.stop_event.wait(self.period):
            reap_orphans({pid})
            table = proc_table()
            if pid in table:
                rss = [status_kib(p, "VmRSS") for p in [pid] + descendants(pid, table)]
                self.tree_rss_kib.append(sum(x for x in rss if x))
            try:
                h = request(self.judge.url, "GET", "/health", timeout=10)
                self.queue.append(h.get("queue_waiting") or 0)
            except Fatal:
                pass


# ---- statistics and tables --------------------------------------------------------------------


def mean(xs):
    xs = [x for x in xs if x is not None]
    return statistics.fmean(xs) if xs else None


def p90(xs):
    """Nearest-rank 90th percentile."""
    xs = sorted(x for x in xs if x is not None)
    return xs[max(0, math.ceil(0.9 * len(xs)) - 1)] if xs else None


def pct(x, digits=1):
    return "-" if x is None else f"{100 * x:.{digits}f}%"


# ---- the host (as scripts/validity.py prints it) ----------------------------------------------


# ---- arguments --------------------------------------------------------------------------------


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="bench-throughput.py",
        description="Throughput benchmark of hpcab-judge: per-class overhead of /submit and "
        "/score, grades per hour of a mixed stream from concurrent clients (latency, queue "
        "wait, the judge's CPU and memory), the same under several slot settings with the A/A "
        "credits, optionally side by side with an original HPCAB judge, and the judges a "
        "campaign needs. Prints figures, asserts nothing; exit 1 only when a judge cannot "
        "start or a request fails outright.")
    p.add_argument("--build-dir", default=os.environ.get("BUILD_DIR", "build"),
                   help="where hpcab-judge is (default: $BUILD_DIR or build)")
    p.add_argument("--judge-config", default=None,
                   help="JSON settings file for every judge (docs/operations.md); the slot cases "
                   "replace its slots and grade_workers. Default: the judge's defaults but the C "
                   'baselines credited: {"track_baseline": {every track: "c"}, '
                   '"report_baselines": ""}')
    p.add_argument("--repeat", type=int, default=None,
                   help="cached grades per kernel class and route after the warm-up one, and "
                   "rounds against --original-url (default: 5; --quick: 2)")
    p.add_argument("--clients", type=int, default=None,
                   help="concurrent clients of the stream (default: 4; --quick: 2)")
    p.add_argument("--duration", type=float, default=None,
                   help="seconds the clients start new grades in each stream (default: 120; "
                   "--quick: 20); grades in flight then finish and count")
    p.add_argument("--slots", default=None,
                   help="slot cases of the stream, comma separated, from default (one slot of "
                   "every CPU), 1x1 (one slot of 1 CPU), 2x1 (two slots of 1 CPU each, 2 grade "
                   "workers; needs 2 CPUs) (default: all that fit this host; --quick: default)")
    p.add_argument("--classes", default=",".join(c[0] for c in CLASSES),
                   help="kernel classes of the overhead tables (default: %(default)s; empty: "
                   "none)")
    p.add_argument("--original-url", default=None,
                   help="an already running original HPCAB judge (same HTTP API): /score and "
                   "/submit of gemm at S and tsvc_2_s000 at M timed on both, alternating")
    p.add_argument("--original-cases", default=",".join(f"{k}:{pr}" for k, pr in ORIGINAL_CASES),
                   help="kernel:preset pairs timed against --original-url (default: %(default)s; "
                   "kernels: tsvc_2_s000, gemm, softmax)")
    p.add_argument("--original-rank", type=int, default=0,
                   help="the rank to send to --original-url (default: %(default)s)")
    p.add_argument("--json", default=None,
                   help="machine-readable results (default: <build-dir>/bench-throughput.json)")
    p.add_argument("--quick", action="store_true",
                   help="smoke run: --repeat 2 --duration 20 --clients 2 --slots default "
                   "(each unless given)")
    g = p.add_argument_group("campaign sizing (docs/deploy.md \"Sizing a campaign\")")
    g.add_argument("--sizing", action="store_true",
                   help="only print the sizing table, from --grades-per-hour or --from; start "
                   "no judge")
    g.add_argument("--grades-per-hour", type=float, default=None,
                   help="grades one judge gives per hour (default with --sizing: the figure "
                   "of --from)")
    g.add_argument("--from", dest="from_json", default=None,
                   help="a --json file of an earlier run: its default-slot stream's grades per "
                   "hour")
    g.add_argument("--submits-per-agent-hour", type=float, default=SUBMITS_PER_AGENT_HOUR,
                   help="grades an agent asks for per hour (/submit and /score; default: "
                   "%(default)s, one every 5 minutes)")
    g.add_argument("--utilisation", type=float, default=TARGET_UTILISATION,
                   help="target share of a judge's capacity in use (default: %(default)s)")
    g.add_argument("--agents", default=",".join(map(str, SIZING_AGENTS)),
                   help="agent counts of the table (default: %(default)s)")
    args = p.parse_args(argv)

    quick = {"repeat": 2, "duration": 20.0, "clients": 2, "slots": "default"}
    full = {"repeat": 5, "duration": 120.0, "clients": 4, "slots": None}
    for k, v in (quick if args.quick else full).items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    ncpu = os.cpu_count() or 1
    if args.slots is None:
        args.slots = "default,1x1,2x1" if ncpu >= 2 else "default,1x1"
    args.slots = [s for s in args.slots.split(",") if s]
    for s in args.slots:
        if s not in ("default", "1x1", "2x1"):
            p.error(f"unknown slot case '{s}' (default, 1x1, 2x1)")
        if s == "2x1" and ncpu < 2:
            p.error("slot case 2x1 needs a host with 2 CPUs or more")
    args.original_cases = [tuple(x.split(":", 1)) for x in args.original_cases.split(",") if x]
    for case in args.original_cases:
        if len(case) != 2 or case[0] not in ("tsvc_2_s000", "gemm", "softmax") or not case[1]:
            p.error(f"--original-cases: '{':'.join(case)}' is not kernel:preset with a kernel of "
                    "tsvc_2_s000, gemm, softmax")
    names = [c[0] for c in CLASSES]
    args.classes = [c for c in args.classes.split(",") if c]
    for c in args.classes:
        if c not in names:
            p.error(f"unknown kernel class '{c}' ({', '.join(names)})")
    try:
        args.agents = [int(a) for a in args.agents.split(",") if a]
    except ValueError:
        p.error("--agents: comma-separated whole numbers")
    if args.repeat < 1 or args.clients < 1 or args.duration <= 0:
        p.error("--repeat and --clients must be at least 1, --duration above 0")
    if args.submits_per_agent_hour <= 0 or not 0 < args.utilisation <= 1 or \
            any(a < 1 for a in args.agents):
        p.error("--submits-per-agent-hour must be above 0, --utilisation in (0, 1], --agents "
                "at least 1")
    if args.grades_per_hour is not None and args.grades_per_hour <= 0:
        p.error("--grades-per-hour must be above 0")
    if args.sizing and args.grades_per_hour is None and args.from_json is None:
        p.error("--sizing needs --grades-per-hour or --from FILE")
    build = args.build_dir if os.path.isabs(args.build_dir) else os.path.join(ROOT, args.build_dir)
    args.judge_bin = os.path.join(build, "hpcab-judge")
    global HPCAB_BIN
    HPCAB_BIN = os.path.join(build, "hpcab")
    if args.json is None:
        args.json = os.path.join(build, "bench-throughput.json")
    if args.judge_config and not os.path.isfile(args.judge_config):
        p.error(f"--judge-config {args.judge_config}: no such file")
    return args


# ---- campaign sizing --------------------------------------------------------------------------


def judges_needed(agents, submits_per_agent_hour, grades_per_judge_hour, utilisation):
    """ceil(agents x submits per agent-hour / (grades per judge-hour x utilisation)), at least 1.
    deploy/slurm/lib.sh (hpcab_auto_judges) computes the same."""
    demand = agents * submits_per_agent_hour
    return max(1, math.ceil(demand / (grades_per_judge_hour * utilisation) - 1e-9))


def sizing(gph, rate, util, agents):
    rows = []
    for a in agents:
        j = judges_needed(a, rate, gph, util)
        rows.append({"agents": a, "demand_grades_per_hour": a * rate, "judges": j,
                     "utilisation": a * rate / (j * gph)})
    return {"grades_per_judge_hour": gph, "submits_per_agent_hour": rate,
            "target_utilisation": util, "rows": rows}


def print_sizing(s, source):
    print(f"\n-- campaign sizing: judges = ceil(agents x {s['submits_per_agent_hour']:g} "
          f"grades/agent-hour / ({s['grades_per_judge_hour']:.0f} grades/judge-hour x "
          f"{s['target_utilisation']:g}))")
    print(f"(grades per judge-hour: {source})")
    rows = [[r["agents"], f"{r['demand_grades_per_hour']:.0f}", r["judges"],
             pct(r["utilisation"], 0)] for r in s["rows"]]
    print(table(["agents", "grades/h demanded", "judges", "judge utilisation"], rows))


def sizing_only(args):
    gph, source = args.grades_per_hour, "--grades-per-hour"
    if gph is None:
        try:
            with open(args.from_json) as f:
                data = json.load(f)
            gph = data["sizing"]["grades_per_judge_hour"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            log(f"bench-throughput: {args.from_json}: no sizing figure ({e!r})")
            return 2
        if not gph:
            log(f"bench-throughput: {args.from_json}: no grades per hour measured")
            return 2
        source = f"{args.from_json} ({data['sizing'].get('source', 'measured')})"
    print_sizing(sizing(gph, args.submits_per_agent_hour, args.utilisation, args.agents), source)
    return 0


# ---- part 1: overhead per kernel class --------------------------------------------------------


HPCAB_BIN = os.path.join(ROOT, "build", "hpcab")  # set from --build-dir


def read_source(rel):
    """The text submitted for a source: a corpus reference.c is single-source, so its fp64
    instantiation (`hpcab corpus reference`, common/reference_build.h); any other file as it is."""
    with open(os.path.join(ROOT, rel)) as f:
        text = f.read()
    if os.path.basename(rel) != "reference.c" or "HPCAB_KERNEL(" not in text:
        return text
    kernel = os.path.basename(os.path.dirname(rel))
    r = subprocess.run([HPCAB_BIN, "--corpus", os.path.join(ROOT, "corpus"), "corpus", "reference",
                        kernel, "--precision", "fp64"], capture_output=True, text=True)
    if r.returncode != 0:
        raise Fatal(f"hpcab corpus reference {kernel}: {r.stderr.strip()}")
    return r.stdout


def body_of(kernel, language, source, tag):
    return {"kernel": kernel, "language": language, "rank": 0, "source": source,
            "run_id": "bench-throughput", "optimizer": f"bench-throughput-{tag}"}


def grade_record(resp, wall, retries=0):
    t = resp.get("timings_s") or {}
    return {"wall_s": wall, "verdict": resp.get("verdict"), "suspect": bool(resp.get("suspect")),
            "speedup": resp.get("speedup"), "baseline": resp.get("baseline"), "timings_s": t,
            "timings_sum_s": sum(t.values()), "timed_calls_s": timed_calls_s(resp),
            "retries": retries,
            "detail": str(resp.get("detail"))[:200] if resp.get("verdict") != "ok" else None}


def overhead(args, judge):
    """Per route and class: a warm-up grade then args.repeat cached ones, each tried up to 3
    times while the judge answers judge_error (its slot watch finding the CPUs busy, on a shared
    host; every such answer is counted). Returns (results by route, the classes the judge
    refused: a 4xx, or a build_error of the warm-up grade for a language other than C)."""
    refused = {}
    out = {"submit": [], "score": []}
    classes = [c for c in CLASSES if c[0] in args.classes]
    total = 2 * len(classes) * (1 + args.repeat)
    done = 0
    for route in ("submit", "score"):
        for cls, kernel, language, rel in classes:
            if cls in refused:
                continue
            src = read_source(rel)
            grades, errors = [], 0
            tries = 0
            while len(grades) < 1 + args.repeat:
                try:
                    resp, wall, _ = grade(judge.url, route, body_of(kernel, language, src, cls))
                except Refused as e:
                    refused[cls] = f"/{route} answered {e.status}: {e.text[:200]}"
                    break
                g = grade_record(resp, wall)
                warm = not grades
                if warm and language != "c" and g["verdict"] == "build_error":
                    refused[cls] = f"/{route} graded it build_error: {g['detail']}"
                    break
                tries += 1
                again = g["verdict"] == "judge_error" and tries < 3
                errors += g["verdict"] == "judge_error"
                done += 0 if again else 1
                extra = f" ({g['detail']})" if g["detail"] else ""
                log(f"[{done:3d}/{total}] /{route} {cls} {kernel} ({language}) "
                    f"{'warm-up' if warm else f'#{len(grades)}'}: {g['verdict']}, credit "
                    f"{fmt(g['speedup'])}, {wall:.2f} s{extra}{', again' if again else ''}")
                if again:
                    continue
                grades.append(g)
                tries = 0
            if cls in refused:
                log(f"bench-throughput: {cls} ({language}) skipped: {refused[cls]}")
                continue
            out[route].append(summarize_class(cls, kernel, language, grades, errors))
    return out, refused


def summarize_class(cls, kernel, language, grades, errors):
    """Medians over the cached grades the judge did not answer judge_error (a fault of its own,
    e.g. a slot another process kept busy: not a grade's time); errors: every judge_error
    answer, tries again included."""
    cached = [g for g in grades[1:] if g["verdict"] != "judge_error"]
    shares = []
    for g in cached:
        build = g["timings_s"].get("build", 0.0)
        net = g["wall_s"] - build
        shares.append((net - g["timed_calls_s"]) / net if net > 0 else None)
    stages = list(STAGES)
    for g in cached:
        stages += [k for k in g["timings_s"] if k not in stages]
    return {"class": cls, "kernel": kernel, "language": language, "n": len(cached),
            "judge_errors": errors,
            "verdicts": sorted({g["verdict"] for g in cached}),
            "wall_s": med([g["wall_s"] for g in cached]),
            "build_s": med([g["timings_s"].get("build") for g in cached]),
            "timed_calls_s": med([g["timed_calls_s"] for g in cached]),
            "overhead_s": med([g["wall_s"] - g["timings_s"].get("build", 0.0) -
                               g["timed_calls_s"] for g in cached]),
            "overhead_share": med(shares),
            "unreported_s": med([g["wall_s"] - g["timings_sum_s"] for g in cached]),
            "stages": {s: med([g["timings_s"].get(s) for g in cached]) for s in stages
                       if any(s in g["timings_s"] for g in cached)},
            "first_wall_s": grades[0]["wall_s"],
            "first_build_s": grades[0]["timings_s"].get("build"),
            "grades": grades}


def print_overhead(res, refused, repeat):
    for route in ("submit", "score"):
        rows = res.get(route) or []
        if not rows:
            continue
        print(f"\n-- overhead per kernel class: /{route} (medians over {repeat} cached grades "
              "after a warm-up one)")
        head = ["class", "kernel", "lang", "n", "verdict", "judge_error", "wall", "build",
                "timed calls", "overhead", "overhead share", "1st wall", "1st build"]
        print(table(head, [[r["class"], r["kernel"], r["language"], r["n"],
                            ",".join(r["verdicts"]) or "-", r["judge_errors"],
                            fmt(r["wall_s"], 2), fmt(r["build_s"], 2),
                            fmt(r["timed_calls_s"], 4), fmt(r["overhead_s"], 2),
                            pct(r["overhead_share"]), fmt(r["first_wall_s"], 2),
                            fmt(r["first_build_s"], 2)] for r in rows], left=5))
        stages = []
        for r in rows:
            stages += [s for s in r["stages"] if s not in stages]
        print(f"stage breakdown of /{route} (timings_s medians, seconds; unreported = wall - "
              "Σtimings_s: HTTP, queue, planning)")
        print(table(["class"] + stages + ["unreported"],
                    [[r["class"]] + [fmt(r["stages"].get(s)) for s in stages] +
                     [fmt(r["unreported_s"])] for r in rows]))
    for cls, why in refused.items():
        print(f"{cls}: skipped: {why}")
    if res.get("submit") or res.get("score"):
        print("(seconds; n: cached grades in the medians; judge_error: the judge's fault answers "
              "(e.g. its slot watch finding the CPUs busy), each grade tried up to 3 times, left "
              "out of the medians; "
              "timed calls = Σ over configurations of samples × (candidate + baseline median); "
              "overhead share = (wall - build - timed calls) / (wall - build); 1st: the warm-up "
              "grade, which built the source on /submit)")


# ---- part 2 and 3: the mixed stream under a slot setting --------------------------------------


def stream_items(tmp, skip_python):
    items = []
    for name, kernel, language, rel, aa in STREAM:
        if language == "python" and skip_python:
            continue
        if rel is None:
            src = read_source(CLASSES[0][3])
            if OFF_BY_ONE[0] not in src:
                raise Fatal("tsvc_2_s000's reference.c changed: update OFF_BY_ONE")
            src = src.replace(OFF_BY_ONE[0], OFF_BY_ONE[1])
            with open(os.path.join(tmp, "tsvc_2_s000_off_by_one.c"), "w") as f:
                f.write(src)
        else:
            src = read_source(rel)
        items.append({"name": name, "kernel": kernel, "language": language, "source": src,
                      "aa": aa})
    return items


def run_stream(args, judge, items, label):
    """args.clients threads, each looping over items from its own offset, starting grades until
    args.duration has passed; the in-flight ones finish and count. Returns the figures."""
    n = len(items)
    grades, errors = [], []
    lock = threading.Lock()
    stop = threading.Event()
    t_start = time.monotonic()
    deadline = t_start + args.duration

    def client(c):
        i = c * n // args.clients
        while time.monotonic() < deadline and not stop.is_set():
            it = items[i % n]
            i += 1
            t_sent = time.monotonic()
            try:
                resp, wall, retries = grade(judge.url, "submit",
                                            body_of(it["kernel"], it["language"], it["source"],
                                                    it["name"]))
            except (Fatal, Refused) as e:
                with lock:
                    errors.append(f"{it['name']}: {e}")
                stop.set()
                return
            g = grade_record(resp, wall, retries)
            g.update({"name": it["name"], "aa": it["aa"], "client": c,
                      "sent_s": t_sent - t_start, "done_s": time.monotonic() - t_start})
            with lock:
                grades.append(g)
                k = len(grades)
            log(f"  [{label}] {k:3d} client {c} {it['name']}: {g['verdict']}, credit "
                f"{fmt(g['speedup'])}, {wall:.1f} s{f', {retries} x 429' if retries else ''}")

    pid = judge.proc.pid
    cpu0 = tree_cpu_s(pid, {pid})
    mon = Monitor(judge)
    mon.start()
    threads = [threading.Thread(target=client, args=(c,), daemon=True)
               for c in range(args.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    t_end = time.monotonic()
    cpu1 = tree_cpu_s(pid, {pid})
    mon.stop_event.set()
    mon.join()
    if errors:
        raise Fatal(f"stream {label}: a request failed: {errors[0]}")
    elapsed = t_end - t_start
    if grades:
        elapsed = max(g["done_s"] for g in grades)
    hour = 3600.0 / elapsed if elapsed > 0 else 0.0
    by_verdict = {}
    for g in grades:
        by_verdict[g["verdict"]] = by_verdict.get(g["verdict"], 0) + 1
    lat = [g["wall_s"] for g in grades]
    qwait = [g["wall_s"] - g["timings_sum_s"] for g in grades]
    aa = [g["speedup"] for g in grades if g["aa"] and g["verdict"] == "ok" and
          g["speedup"] is not None]
    cpu = (cpu1 - cpu0) if cpu0 is not None and cpu1 is not None else None
    useful = sum(g["verdict"] != "judge_error" for g in grades)
    return {"label": label, "clients": args.clients, "duration_s": args.duration,
            "elapsed_s": elapsed, "grades": len(grades), "grades_per_hour": len(grades) * hour,
            "graded": useful, "graded_per_hour": useful * hour,
            "by_verdict": by_verdict,
            "grades_per_hour_by_verdict": {v: k * hour for v, k in by_verdict.items()},
            "latency_s": {"mean": mean(lat), "median": med(lat), "p90": p90(lat)},
            "queue_wait_s": {"mean": mean(qwait), "median": med(qwait), "p90": p90(qwait)},
            "retries_429": sum(g["retries"] for g in grades),
            "queue_waiting": {"mean": mean(mon.queue), "max": max(mon.queue) if mon.queue
                              else None, "samples": len(mon.queue)},
            "cpu_s": cpu, "cpu_per_grade_s": cpu / len(grades) if cpu and grades else None,
            "cpus_busy": cpu / elapsed if cpu is not None and elapsed > 0 else None,
            "vmhwm_kib": status_kib(pid, "VmHWM"),
            "tree_rss_peak_kib": max(mon.tree_rss_kib) if mon.tree_rss_kib else None,
            "aa": {"n": len(aa), "min": min(aa) if aa else None, "median": med(aa),
                   "max": max(aa) if aa else None,
                   "within_3pct": sum(abs(x - 1) <= 0.03 for x in aa) / len(aa) if aa else None,
                   "suspect": sum(g["aa"] and g["suspect"] for g in grades),
                   "not_ok": sum(g["aa"] and g["verdict"] != "ok" for g in grades)},
            "grades_list": grades}


def mib(kib):
    return "-" if kib is None else f"{kib / 1024:.0f} MiB"


def print_stream(s, ncpu):
    print(f"\n-- mixed stream, {s['label']}: {s['clients']} clients for {s['duration_s']:g} s "
          f"(/submit; each client loops over the list from its own offset)")
    print(f"grades: {s['grades']} in {s['elapsed_s']:.1f} s -> {s['grades_per_hour']:.0f} "
          f"grades/hour per judge; without judge_error answers (faults, to be resubmitted): "
          f"{s['graded']} -> {s['graded_per_hour']:.0f} grades/hour")
    print("(elapsed: from the first request to the last answer; clients start no grade after "
          "the duration, the ones in flight finish and count)")
    rows = [[v, k, f"{s['grades_per_hour_by_verdict'][v]:.0f}"]
            for v, k in sorted(s["by_verdict"].items())]
    print(table(["verdict", "grades", "grades/hour"], rows))
    la, qw = s["latency_s"], s["queue_wait_s"]
    print(table(["seconds", "mean", "median", "p90"],
                [["client-seen latency", fmt(la["mean"], 2), fmt(la["median"], 2),
                  fmt(la["p90"], 2)],
                 ["queue wait (latency - Σtimings_s)", fmt(qw["mean"], 2), fmt(qw["median"], 2),
                  fmt(qw["p90"], 2)]]))
    q = s["queue_waiting"]
    print(f"queue depth (GET /health queue_waiting, {q['samples']} samples): mean "
          f"{fmt(q['mean'], 2)}, max {q['max'] if q['max'] is not None else '-'}; "
          f"429 answers retried: {s['retries_429']}")
    print(f"judge CPU (it and every descendant, /proc utime+stime+cutime+cstime): "
          f"{fmt(s['cpu_s'], 1)} s = {fmt(s['cpus_busy'], 2)} of {ncpu} CPUs busy, "
          f"{fmt(s['cpu_per_grade_s'], 2)} s per grade")
    print(f"judge memory: VmHWM {mib(s['vmhwm_kib'])} (the judge process since its start); "
          f"peak RSS of the judge and its descendants {mib(s['tree_rss_peak_kib'])} (sampled "
          "every second)")


SLOT_CASES = {
    "default": ("one slot of every CPU (default), 1 grade worker", None),
    "1x1": ("one slot of 1 CPU, 1 grade worker", {"slots": [[0]], "grade_workers": 1}),
    "2x1": ("two slots of 1 CPU each, 2 grade workers",
            {"slots": [[0], [1]], "grade_workers": 2}),
}


def print_slots(runs):
    print("\n-- slots: the same stream per slot setting; A/A: credits of the references in the "
          "stream (against their own C build: 1.000 is right) while every slot is busy")
    head = ["slots", "grades", "grades/hour", "w/o judge_error", "latency med", "CPUs busy",
            "A/A n", "min", "median", "max", "±3%", "suspect", "not ok"]
    rows = []
    for case, s in runs:
        a = s["aa"]
        rows.append([SLOT_CASES[case][0], s["grades"], f"{s['grades_per_hour']:.0f}",
                     f"{s['graded_per_hour']:.0f}",
                     fmt(s["latency_s"]["median"], 2), fmt(s["cpus_busy"], 2), a["n"],
                     fmt(a["min"]), fmt(a["median"]), fmt(a["max"]), pct(a["within_3pct"], 0),
                     a["suspect"], a["not_ok"]])
    print(table(head, rows))
    print("(w/o judge_error: grades per hour leaving out the judge's fault answers; A/A n: ok "
          "grades of tsvc_2_s000, gemm and softmax's reference.c; ±3%: their share within 3% of "
          "1.000; not ok: those answered another verdict, e.g. judge_error)")


# ---- part 4: side by side with the original judge ---------------------------------------------


def verdict_of(resp):
    """A response's verdict; the original judge answers `correct` (true/false) instead."""
    if resp.get("verdict") is not None:
        return str(resp["verdict"])
    if isinstance(resp.get("correct"), bool):
        return "correct" if resp["correct"] else "incorrect"
    return "?"


def original(args, judge):
    """/score and /submit of each --original-cases pair on both judges, alternating which goes
    first, args.repeat rounds after one warm-up round. Bodies: kernel, language, source, rank,
    preset (what both judges take)."""
    walls, verdicts = {}, {}
    total = (1 + args.repeat) * len(args.original_cases) * 2 * 2
    done = 0
    for rep in range(1 + args.repeat):
        for kernel, preset in args.original_cases:
            src = read_source(next(c[3] for c in CLASSES if c[1] == kernel and c[2] == "c"))
            for route in ("score", "submit"):
                order = [("this", judge.url, 0), ("original", args.original_url.rstrip("/"),
                                                  args.original_rank)]
                if rep % 2:
                    order.reverse()
                for who, url, rank in order:
                    body = {"kernel": kernel, "language": "c", "source": src, "rank": rank,
                            "preset": preset}
                    try:
                        resp, wall, _ = grade(url, route, body)
                    except Refused as e:
                        raise Fatal(f"{who} judge /{route} {kernel}: HTTP {e.status}: "
                                    f"{e.text[:300]}") from None
                    done += 1
                    verdict = verdict_of(resp)
                    log(f"[{done:3d}/{total}] {who} /{route} {kernel} {preset} "
                        f"{'warm-up' if rep == 0 else f'#{rep}'}: {verdict}, {wall:.2f} s")
                    if rep > 0:
                        walls.setdefault((kernel, preset, route, who), []).append(wall)
                        verdicts.setdefault((kernel, preset, route, who), set()).add(verdict)
    rows = []
    for kernel, preset in args.original_cases:
        for route in ("score", "submit"):
            this = med(walls.get((kernel, preset, route, "this"), []))
            orig = med(walls.get((kernel, preset, route, "original"), []))
            rows.append({"kernel": kernel, "preset": preset, "route": route,
                         "this_wall_s": this, "original_wall_s": orig,
                         "this_verdicts": sorted(verdicts.get((kernel, preset, route, "this"), [])),
                         "original_verdicts": sorted(verdicts.get((kernel, preset, route,
                                                                   "original"), [])),
                         "this_grades_per_hour": 3600 / this if this else None,
                         "original_grades_per_hour": 3600 / orig if orig else None})
    return {"url": args.original_url, "rounds": args.repeat, "rows": rows}


def print_original(o):
    if o is None:
        print("\noriginal judge: skipped (pass --original-url; see docs/deploy.md)")
        return
    print(f"\n-- side by side with the original judge at {o['url']} (medians of {o['rounds']} "
          "alternating rounds after a warm-up one; grades/hour = 3600 / median wall, one at a "
          "time)")
    head = ["kernel", "preset", "route", "verdicts here", "verdicts original", "wall here",
            "wall original", "grades/h here", "grades/h original"]
    print(table(head, [[r["kernel"], r["preset"], "/" + r["route"], ",".join(r["this_verdicts"]),
                        ",".join(r["original_verdicts"]), fmt(r["this_wall_s"], 2),
                        fmt(r["original_wall_s"], 2), fmt(r["this_grades_per_hour"], 0),
                        fmt(r["original_grades_per_hour"], 0)] for r in o["rows"]], left=5))


# ---- the benchmark ----------------------------------------------------------------------------


def base_settings(args):
    if args.judge_config:
        try:
            with open(args.judge_config) as f:
                settings = json.load(f)
        except (OSError, ValueError) as e:
            raise Fatal(f"--judge-config {args.judge_config}: {e}") from None
        if not isinstance(settings, dict):
            raise Fatal(f"--judge-config {args.judge_config}: not a JSON object")
        return settings
    # The judge's defaults except the credited baselines (as scripts/validity.py): the
    # references resubmitted are graded against their own C build, so A/A reads 1.0; the
    # paper's per-track defaults (Numba, NumPy, c-autopar) would make them A/B cases.
    return {"track_baseline": {"loop_level_reasoning": "c", "scientific_computing": "c",
                               "machine_learning": "c"},
            "report_baselines": ""}


def run(args):
    if not os.access(args.judge_bin, os.X_OK):
        raise Fatal(f"missing {args.judge_bin} (build hpcab-judge first: make build)")
    t_start = time.monotonic()
    subreaper = become_subreaper()
    machine = machine_info()
    ncpu = machine["nproc"] or 1
    settings = base_settings(args)
    tmp = tempfile.mkdtemp(prefix="hpcab-throughput.")
    os.chmod(tmp, 0o711)  # the sandbox uid must traverse it to reach the scratch dir (root)
    judges = []

    def start(name, extra=None):
        cfg = dict(settings)
        cfg.update(extra or {})
        log(f"== bench-throughput: starting judge '{name}' ({json.dumps(extra or {})})")
        j = Judge(args.judge_bin, tmp, name, cfg)
        judges.append(j)
        return j

    report = {"command": " ".join([os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:]),
              "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "machine": machine,
              "settings": settings, "quick": args.quick, "repeat": args.repeat,
              "clients": args.clients, "duration_s": args.duration,
              "cpu_accounting": "subreaper" if subreaper else "descendants only"}
    try:
        main_judge = start("main")
        health = request(main_judge.url, "GET", "/health")
        machine["bandwidth"] = judge_bandwidth(settings, main_judge.state, health)
        report["judge"] = {"machine": health.get("machine"), "version": health.get("version"),
                           "track_baseline": health.get("baseline")}
        log(host_line(machine))
        # Later judges reuse the main judge's bandwidth table instead of measuring again (its
        # buffers would be their peak RSS).
        bw = os.path.join(main_judge.state, "bandwidth.json")
        bw_extra = {}
        if "bandwidth_file" not in settings and "memory_bandwidth_gbs" not in settings and \
                os.path.isfile(bw):
            shutil.copy(bw, os.path.join(tmp, "bandwidth.json"))
            bw_extra = {"bandwidth_file": os.path.join(tmp, "bandwidth.json")}

        log(f"== bench-throughput: overhead per kernel class ({', '.join(args.classes)}), "
            f"1 + {args.repeat} grades per class and route")
        res, refused = overhead(args, main_judge)
        report["overhead"] = res
        report["refused"] = refused

        report["original"] = None
        if args.original_url:
            log(f"== bench-throughput: side by side with {args.original_url}")
            report["original"] = original(args, main_judge)
        main_judge.stop()

        items = stream_items(tmp, skip_python="Python" in refused)
        report["stream_list"] = [{k: v for k, v in it.items() if k != "source"} for it in items]
        runs = []
        for case in args.slots:
            label, extra = SLOT_CASES[case]
            j = start(f"stream-{case}", dict(bw_extra, **(extra or {})))
            request(j.url, "GET", "/health")
            log(f"== bench-throughput: mixed stream, {label}: {args.clients} clients, "
                f"{args.duration:g} s")
            s = run_stream(args, j, items, case)
            s["slots"] = case
            s["slots_label"] = label
            runs.append((case, s))
            j.stop()
        report["streams"] = [s for _, s in runs]
        default = next((s for c, s in runs if c == "default"), None)
        basis = default or (runs[0][1] if runs else None)
        report["sizing"] = None
        if basis and basis["graded"]:
            report["sizing"] = sizing(basis["graded_per_hour"], args.submits_per_agent_hour,
                                      args.utilisation, args.agents)
            report["sizing"]["source"] = (f"mixed stream, {basis['slots_label']}, judge_error "
                                          "answers left out")
        report["machine"]["loadavg_end"] = os.getloadavg()
        report["duration_s"] = time.monotonic() - t_start
        print_report(report, runs, ncpu)
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
        print(f"\n(machine-readable: {args.json}; full run {report['duration_s'] / 60:.1f} min)")
        return 0
    except Fatal:
        for j in judges:
            tail = j.log_tail()
            if tail and j.proc.poll() is not None and j.proc.returncode not in (0, -15):
                log(f"bench-throughput: last lines of {j.log_path}:\n{tail}")
        raise
    finally:
        for j in judges:
            j.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def print_report(r, runs, ncpu):
    m = r["machine"]
    print("\n== judge throughput benchmark" + (" (--quick)" if r["quick"] else ""))
    print(host_line(m))
    print(f"load: average at start {m['loadavg_start'][0]:.2f}, at end {m['loadavg_end'][0]:.2f}")
    print(f"judge: {r['judge']['machine']}, version {r['judge']['version']}; settings "
          f"{json.dumps(r['settings'])} (all else default); credited baselines "
          f"{r['judge']['track_baseline']}")
    print_overhead(r["overhead"], r["refused"], r["repeat"])
    default = next((s for c, s in runs if c == "default"), None)
    for c, s in runs:
        if c == "default" or default is None:
            print_stream(s, ncpu)
            break
    if runs:
        print_slots(runs)
    print_original(r["original"])
    if r["sizing"]:
        print_sizing(r["sizing"], r["sizing"]["source"] + " of this run")


def main(argv):
    args = parse_args(argv)
    if args.sizing:
        return sizing_only(args)
    return run_main("bench-throughput", run, args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
