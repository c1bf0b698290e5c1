#!/usr/bin/env python3
"""Validity benchmark of the judge: does /submit credit what is true?

Starts a private hpcab-judge with its defaults (free port, state and scratch in a temporary
directory, removed on exit) and measures three things:

  A/A   each kernel's corpus reference.c resubmitted via /submit: the credited speedup should be
        1.0 (for scientific-track kernels the credited baseline is c-autopar, a different build
        of the same source, so there the true ratio is measured too and need not be 1.0);
  A/B   honest candidates whose true speed is known: tests/solutions/gemm.c (OpenMP, blocked:
        faster), tests/solutions/fuse_move_ifs_fused.c (one thread, two memory-bound nests fused
        into one pass: modestly faster, ~1.2-1.4x) and tests/solutions/tsvc_2_s000_twice.c (the
        reference loop run twice: ~2x slower);
        the credit is compared with the true ratio, timed here outside the judge by driving
        build/hpcab-runner directly on the very libraries the judge graded (read from its build
        cache), at the public configuration's sizes, candidate and baseline interleaved;
  wall  the wall time of a /submit, its timings_s breakdown, and the judge's overhead
        (wall - build - the timed calls of both sides).

It prints figures and asserts nothing about them (timing belongs in benchmarks, never in
pass/fail tests): it exits 0 whatever the credits are, 1 only when the judge cannot start, a
request fails outright (no response, non-200 status, not JSON) or a direct timing run fails, and
2 on bad arguments. Standard library only (python3 >= 3.9).
"""

import argparse
import hashlib
import json
import os
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from benchlib import (Fatal, JudgeProcess, fmt, host_line, judge_bandwidth, log, machine_info,
                      med, run_main, table, timed_calls_s)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_KERNELS = ["tsvc_2_s000", "gemm", "softmax"]

# A/B candidates: (name, kernel, source relative to ROOT, expected direction, goal).
# The goals: credited >= 1.5 for a truly >= 1.6x faster 2-thread OpenMP gemm,
# <= 0.7 for twice the work; and, for a memory-bound modest gain (a single-threaded
# loop fusion, truly ~1.2-1.4x): credited within ±10% of its true ratio (timed directly, warm),
# where a fixed bound would either miss it or be met by a credit of 1. Each in >= 95% of grades.
# A goal is (op, bound): op ">=" or "<=" compares a credit with bound; "~true" asks for
# |credit / true warm ratio - 1| <= bound.
AB_CASES = [
    {"name": "gemm-omp", "kernel": "gemm", "source": "tests/solutions/gemm.c",
     "expect": "faster", "goal": (">=", 1.5)},
    {"name": "fuse_move_ifs-fused", "kernel": "fuse_move_ifs",
     "source": "tests/solutions/fuse_move_ifs_fused.c", "expect": "faster",
     "goal": ("~true", 0.10)},
    {"name": "tsvc_2_s000-twice", "kernel": "tsvc_2_s000", "source": "tests/solutions/tsvc_2_s000_twice.c",
     "expect": "slower", "goal": ("<=", 0.7)},
]

# Stages the judge reports in timings_s, in pipeline order (others are appended as seen).
STAGES = ["build", "choose baseline", "calibrate", "start runners", "inputs", "candidate",
          "baseline", "oracle", "compare", "settle", "stop runners", "record"]


# ---- the judge --------------------------------------------------------------------------------


class Judge(JudgeProcess):
    """A private hpcab-judge with default settings but C baselines (or those of `config`, a JSON
    settings file), its files under `tmp`; stop() kills it."""

    def __init__(self, judge_bin, tmp, config=None):
        self.tmp = tmp
        if not config:
            # The judge's defaults except the credited baselines: the cases are built from
            # reference.c (A/A resubmits it, A/B times versions of it against it), so they are
            # credited against the C baselines; the paper's per-track defaults (Numba, NumPy)
            # would make an A/A case an A/B one.
            config = os.path.join(tmp, "validity-judge.json")
            with open(config, "w") as f:
                json.dump({"track_baseline": {"loop_level_reasoning": "c",
                                              "scientific_computing": "c,c-autopar",
                                              "machine_learning": "c"},
                           "report_baselines": ""}, f)
        super().__init__(judge_bin, tmp, config)

    def request(self, method, path, body=None, timeout=900):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                text = r.read().decode()
        except urllib.error.HTTPError as e:
            raise Fatal(f"{method} {path}: HTTP {e.code}: "
                        f"{e.read().decode(errors='replace')[:500]}") from None
        except Exception as e:  # refused, reset, timed out: no response at all
            raise Fatal(f"{method} {path} failed: {e!r}") from None
        try:
            return json.loads(text)
        except ValueError:
            raise Fatal(f"{method} {path}: response is not JSON: {text[:500]}") from None



# ---- the judge's build cache: which library it graded -----------------------------------------


def judge_flags(flavor, autopar_threads):
    """Builder::flags (judge/build/build.cc) for language c; kept in step with it by hand. Used to
    recompute the build-cache key (so the direct timing runs the judge's own libraries) and, if
    that entry is missing, to build an identical library here."""
    if flavor == "c":
        return ["gcc", "-std=gnu11", "-O3", "-march=native", "-fPIC", "-shared"]
    if flavor == "c-autopar":
        return ["gcc", "-std=gnu11", "-O3", "-march=native", "-fPIC", "-shared", "-fopenmp",
                f"-ftree-parallelize-loops={autopar_threads}"]
    return ["gcc", "-std=gnu11", "-O3", "-march=native", "-fopenmp", "-fPIC", "-shared"]


_gcc_version = None


def gcc_version():
    global _gcc_version
    if _gcc_version is None:
        r = subprocess.run(["gcc", "--version"], capture_output=True, text=True)
        _gcc_version = r.stdout.split("\n")[0] if r.returncode == 0 else "unknown"
    return _gcc_version


def reference_instance(hpcab_bin, kernel, precision):
    """A corpus reference.c (single-source, over `real`) instantiated at one precision as a
    self-contained C file, by `hpcab corpus reference` (common/reference_build.h)."""
    r = subprocess.run([hpcab_bin, "--corpus", os.path.join(ROOT, "corpus"), "corpus", "reference",
                        kernel, "--precision", precision], capture_output=True, text=True)
    if r.returncode != 0:
        raise Fatal(f"hpcab corpus reference {kernel} --precision {precision}: {r.stderr.strip()}")
    return r.stdout


def judge_library(state, tmp, source_text, flavor, autopar_threads):
    """(path, origin) of the library the judge built from source_text for flavor ("submission",
    "c", "c-autopar"): its cache entry <state>/builds/<key>/lib.so, the key being Builder::build's
    SHA-256 of language, flavor, compiler version, flags, libraries and source. Falls back to
    compiling it here with the same flags when the entry is not there (a judge whose key recipe
    changed); the origin says which."""
    flags = judge_flags(flavor, autopar_threads)
    key = "c\n" + flavor + "\n" + gcc_version()
    key += "".join("\n" + f for f in flags) + "\nL-lm" + "\n--\n" + source_text
    digest = hashlib.sha256(key.encode()).hexdigest()
    lib = os.path.join(state, "builds", digest, "lib.so")
    if os.path.exists(lib):
        return lib, "judge build cache"
    work = tempfile.mkdtemp(prefix=f"lib-{flavor}-", dir=tmp)
    src = os.path.join(work, "submission.c")
    with open(src, "w") as f:
        f.write(source_text)
    out = os.path.join(work, "lib.so")
    r = subprocess.run(flags + ["-o", out, src, "-lm"], capture_output=True, text=True)
    if r.returncode != 0:
        raise Fatal(f"building {flavor} library here failed:\n{r.stderr[-2000:]}")
    return out, "built here (judge cache entry not found)"


# ---- direct timing: hpcab-runner without the judge --------------------------------------------


class Runner:
    """One hpcab-runner process (judge/runner/protocol.h) outside any sandbox, with the
    environment and CPU affinity the judge gives that role (judge/grade/real_effects.cc)."""

    def __init__(self, runner_bin, manifest, lib, sizes, threads, cpus, gen_threads, workdir,
                 precision="fp64"):
        os.makedirs(workdir, exist_ok=True)
        rfd, wfd = os.pipe()  # replies come back on the runner's fd 3

        def child():
            if wfd != 3:
                os.dup2(wfd, 3)
            else:
                os.set_inheritable(3, True)
            os.sched_setaffinity(0, cpus)

        env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C",
               "OMP_NUM_THREADS": str(threads), "OMP_PROC_BIND": "close", "OMP_PLACES": "cores"}
        self.log_path = os.path.join(workdir, "log.txt")
        sizes_arg = ",".join(f"{k}={v}" for k, v in sizes.items())
        with open(self.log_path, "w") as logf:
            self.proc = subprocess.Popen(
                [runner_bin, "--manifest", manifest, "--lib", lib, "--precision", precision,
                 "--sizes", sizes_arg, "--out-dir", os.path.join(workdir, "out"),
                 "--gen-threads", str(gen_threads)],
                stdin=subprocess.PIPE, stdout=logf, stderr=logf, env=env, cwd=workdir,
                preexec_fn=child, close_fds=False)
        os.close(wfd)
        self.rfd = rfd
        self.buf = b""
        self.stopped = False
        boot = self.read_line(120)
        layout = self.read_line(120) if boot == "boot" else boot
        hello = self.read_line(120) if layout.startswith("layout ") else layout
        if hello != "hello":
            raise Fatal(f"hpcab-runner did not start ({hello!r}): {self.log()}")

    def log(self):
        try:
            with open(self.log_path) as f:
                return f.read()[-1500:]
        except OSError:
            return ""

    def read_line(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.rfd], [], [], left)[0]:
                raise Fatal("hpcab-runner did not answer in time")
            chunk = os.read(self.rfd, 4096)
            if not chunk:
                raise Fatal(f"hpcab-runner exited: {self.log()}")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    def command(self, line, timeout=120):
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
        return self.read_line(timeout)

    def prep(self, seed):
        r = self.command(f"prep {seed} auto 1")
        if r != "ready":
            raise Fatal(f"prep answered {r!r}")

    def go(self):
        r = self.command("go")
        if not r.startswith("done "):
            raise Fatal(f"go answered {r!r}")
        return int(r.split()[1])

    def stop(self):
        os.kill(self.proc.pid, signal.SIGSTOP)

    def cont(self):
        os.kill(self.proc.pid, signal.SIGCONT)

    def wait_threads_asleep(self, limit_s=0.5):
        """Like the judge between calls: every thread but the main one asleep (an OpenMP pool
        spins a while after a region), so the next call starts with its pool asleep."""
        deadline = time.monotonic() + limit_s
        pid = self.proc.pid
        while time.monotonic() < deadline:
            busy = False
            try:
                for tid in os.listdir(f"/proc/{pid}/task"):
                    if int(tid) == pid:
                        continue
                    with open(f"/proc/{pid}/task/{tid}/stat") as f:
                        state = f.read().rsplit(")", 1)[1].split()[0]
                    if state not in ("S", "D", "T", "t"):
                        busy = True
                        break
            except OSError:
                busy = True
            if not busy:
                return
            time.sleep(0.00005)

    def quit(self):
        try:
            if self.stopped:
                self.cont()
            self.proc.stdin.write(b"quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        os.close(self.rfd)


def measure_true_ratio(args, tmp, manifest, sizes, cand_lib, base_lib, baseline, rounds,
                       budget_s, inner=5):
    """The true ratio baseline/candidate at the public sizes, timed directly: per round a fresh
    draw (seed = round), then on each side in turn (alternating which goes first; the idle side
    SIGSTOPped, as the judge does) one call with its thread pool asleep ("cold": what the judge's
    protocol times) and inner-1 calls back to back on the same data ("warm": what a program
    calling the kernel in a loop sees). Returns medians and ratios of medians."""
    ncpu = os.cpu_count() or 1
    all_cpus = set(range(ncpu))
    work = tempfile.mkdtemp(prefix="true-", dir=tmp)
    cand = Runner(args.runner_bin, manifest, cand_lib, sizes, ncpu, all_cpus, 1,
                  os.path.join(work, "cand"))
    # The c baseline gets one thread (as in the judge) but the whole slot (the judge pins it to
    # the slot's first CPU): the ratio is to measure the code, not the placement. Pinned, a
    # microsecond baseline shares CPU 0 with this driver and other load and loses its cache
    # between calls while the candidate may run on a quiet CPU: tsvc_2_s000's reference against itself
    # then read 1.38 back to back on the 2-CPU VM.
    base_threads = 1 if baseline == "c" else ncpu
    base = Runner(args.runner_bin, manifest, base_lib, sizes, base_threads, all_cpus, 0,
                  os.path.join(work, "base"))
    sides = {"cand": cand, "base": base}
    cold = {"cand": [], "base": []}
    warm = {"cand": [], "base": []}
    try:
        for r in sides.values():
            r.stop()
            r.stopped = True
        t0 = time.monotonic()
        done = 0
        for k in range(-2, rounds):  # two untimed warm-up rounds
            order = ["cand", "base"] if k % 2 == 0 else ["base", "cand"]
            for side in order:
                r = sides[side]
                r.cont()
                r.stopped = False
                r.prep(1000 + max(k, 0))
                r.wait_threads_asleep()
                first = r.go()
                rest = [r.go() for _ in range(inner - 1)]
                r.stop()
                r.stopped = True
                if k >= 0:
                    cold[side].append(first)
                    warm[side].extend(rest)
            if k >= 0:
                done += 1
                if time.monotonic() - t0 > budget_s and done >= 10:
                    break
    finally:
        cand.quit()
        base.quit()
        shutil.rmtree(work, ignore_errors=True)

    def med(xs):
        return statistics.median(xs) if xs else float("nan")

    res = {"rounds": done, "inner": inner,
           "cold_cand_ns": med(cold["cand"]), "cold_base_ns": med(cold["base"]),
           "warm_cand_ns": med(warm["cand"]), "warm_base_ns": med(warm["base"])}
    res["cold_ratio"] = res["cold_base_ns"] / res["cold_cand_ns"]
    res["warm_ratio"] = res["warm_base_ns"] / res["warm_cand_ns"]
    return res


# ---- corpus -----------------------------------------------------------------------------------


def find_kernel(kernel):
    for dirpath, _dirs, files in os.walk(os.path.join(ROOT, "corpus")):
        if os.path.basename(dirpath) == kernel and "kernel.json" in files:
            with open(os.path.join(dirpath, "kernel.json")) as f:
                manifest = json.load(f)
            return {"dir": dirpath, "manifest": os.path.join(dirpath, "kernel.json"),
                    "reference": os.path.join(dirpath, "reference.c"),
                    "track": manifest.get("track", "?")}
    raise Fatal(f"no kernel '{kernel}' under {ROOT}/corpus")


# ---- statistics and tables --------------------------------------------------------------------


def pct(part, whole):
    return "-" if whole == 0 or part is None else f"{100.0 * part / whole:.0f}%"


def goal_text(goal):
    op, bound = goal
    return f"within ±{100 * bound:.0f}% of true" if op == "~true" else f"{op} {bound}"


def goal_hits(goal, credits, true):
    """How many credits meet an A/B goal (AB_CASES); None for a goal relative to the true ratio
    when that was not measured."""
    op, bound = goal
    if op == "~true":
        if not true or not true["warm_ratio"] > 0:  # also nan
            return None
        return sum(abs(x / true["warm_ratio"] - 1) <= bound for x in credits)
    return sum((x >= bound) if op == ">=" else (x <= bound) for x in credits)


def public_config(resp):
    for c in resp.get("configs") or []:
        if str(c.get("config", "")).startswith("public"):
            return c
    return None


# ---- the benchmark ----------------------------------------------------------------------------


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="validity.py",
        description="Validity benchmark of hpcab-judge: A/A (references resubmitted), A/B "
        "(honest faster and slower candidates against their true ratio, timed directly) and the "
        "wall time and overhead of /submit, against a private judge with default settings. "
        "Prints figures, asserts nothing; exit 1 only when the judge cannot start or a request "
        "fails outright.")
    p.add_argument("--build-dir", default=os.environ.get("BUILD_DIR", "build"),
                   help="where hpcab-judge and hpcab-runner are (default: $BUILD_DIR or build)")
    p.add_argument("--judge-config", default=None,
                   help="JSON settings file for the judge (docs/operations.md), e.g. "
                        '{"min_call_ms": 5} to measure timed sizes chosen by time; '
                        "default: the judge's defaults")
    p.add_argument("--kernels", default=",".join(DEFAULT_KERNELS),
                   help="A/A kernels, comma separated (default: %(default)s: one per track)")
    p.add_argument("--aa", type=int, default=12,
                   help="A/A /submits per kernel (default: %(default)s)")
    p.add_argument("--ab", type=int, default=15,
                   help="/submits per A/B candidate (default: %(default)s)")
    p.add_argument("--ab-cases", default=",".join(c["name"] for c in AB_CASES),
                   help="A/B candidates, comma separated (default: %(default)s)")
    p.add_argument("--route", default="submit", choices=["submit", "score"],
                   help="the route every request goes to (default: %(default)s); /score is what "
                   "an agent iterates on: the same A/A and A/B figures for it")
    p.add_argument("--load", default="none", choices=["none", "mem"],
                   help="a busy neighbour for the whole run (default: %(default)s); mem: one "
                   "process streaming a 256 MiB array (read and write) without pause, on any "
                   "CPU, the way another tenant's job would")
    p.add_argument("--preset", default=None,
                   help="preset of the public configuration (default: the judge's default)")
    p.add_argument("--true-rounds", type=int, default=300,
                   help="rounds of the direct timing per library pair (default: %(default)s)")
    p.add_argument("--true-budget-s", type=float, default=30.0,
                   help="at most this many seconds of direct timing per pair, at least 10 rounds "
                   "(default: %(default)s)")
    p.add_argument("--json", default=None,
                   help="machine-readable results (default: <build-dir>/validity.json)")
    p.add_argument("--keep-state", action="store_true",
                   help="keep the private judge's state directory (its SQLite database, with "
                   "every timed sample in table samples) and print where it is")
    p.add_argument("--quick", action="store_true",
                   help="smoke run: 1 A/A /submit per kernel of gemm and softmax (unless --kernels "
                   "is given), 1 per A/B candidate, short direct timing")
    args = p.parse_args(argv)
    if args.quick:
        if "--kernels" not in " ".join(argv):
            args.kernels = "gemm,softmax"
        args.aa, args.ab = 1, 1
        args.true_rounds, args.true_budget_s = 20, 3.0
    args.kernels = [k for k in args.kernels.split(",") if k]
    names = {c["name"]: c for c in AB_CASES}
    args.cases = []
    for n in [n for n in args.ab_cases.split(",") if n]:
        if n not in names:
            p.error(f"unknown A/B candidate '{n}' ({', '.join(names)})")
        args.cases.append(names[n])
    if args.aa < 0 or args.ab < 0 or args.true_rounds < 1:
        p.error("counts must be non-negative (--true-rounds at least 1)")
    build = args.build_dir if os.path.isabs(args.build_dir) else os.path.join(ROOT, args.build_dir)
    args.judge_bin = os.path.join(build, "hpcab-judge")
    args.runner_bin = os.path.join(build, "hpcab-runner")
    args.hpcab_bin = os.path.join(build, "hpcab")
    if args.json is None:
        args.json = os.path.join(build, "validity.json")
    return args


def judge_settings(args):
    """The --judge-config settings (a dict; empty without one or when unreadable)."""
    if not args.judge_config:
        return {}
    try:
        with open(args.judge_config) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def run(args):
    for f in (args.judge_bin, args.runner_bin):
        if not os.access(f, os.X_OK):
            raise Fatal(f"missing {f} (build hpcab-judge and hpcab-runner first)")
    t_start = time.monotonic()
    machine = machine_info()
    tmp = tempfile.mkdtemp(prefix="hpcab-validity.")
    os.chmod(tmp, 0o711)  # the sandbox uid must traverse it to reach the scratch dir (root)
    judge = None
    neighbour = None
    try:
        if args.load == "mem":
            # Copies between two 128 MiB buffers (a memcpy each), far beyond any cache: a
            # memory-bound neighbour, standard library only.
            neighbour = subprocess.Popen(
                [sys.executable, "-c",
                 "a = bytearray(1 << 27); b = bytearray(1 << 27)\n"
                 "while True:\n    b[:] = a; a[:] = b\n"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
            time.sleep(0.5)
            if neighbour.poll() is not None:
                raise Fatal(f"the busy neighbour exited at once (status {neighbour.returncode})")
            log(f"== validity: a memory-streaming neighbour runs throughout (pid {neighbour.pid})")
        machine["load"] = args.load
        log(f"== validity: starting a private judge ({args.judge_bin})")
        if args.judge_config and not os.path.isfile(args.judge_config):
            raise Fatal(f"--judge-config {args.judge_config}: no such file")
        judge = Judge(args.judge_bin, tmp,
                      os.path.abspath(args.judge_config) if args.judge_config else None)
        health = judge.request("GET", "/health")
        log(f"judge at {judge.url}: {health.get('machine')}")
        machine["bandwidth"] = judge_bandwidth(judge_settings(args), judge.state, health)
        log(host_line(machine))
        return bench(args, judge, health, machine, tmp, t_start)
    except Fatal:
        if judge is not None:
            tail = judge.log_tail()
            if tail:
                log("validity: last judge log lines:\n" + tail)
        raise
    finally:
        if neighbour is not None:
            neighbour.kill()
            neighbour.wait()
        if judge is not None:
            judge.stop()
        if args.keep_state:
            log(f"validity: judge state kept in {os.path.join(tmp, 'state')}")
            shutil.rmtree(os.path.join(tmp, "scratch"), ignore_errors=True)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def bench(args, judge, health, machine, tmp, t_start):
    autopar_threads = os.cpu_count() or 1  # the default slot: every logical CPU
    cases = []  # every (A/A or A/B) source graded
    for k in args.kernels:
        info = find_kernel(k)
        cases.append({"kind": "A/A", "name": f"{k}-ref", "kernel": k, "track": info["track"],
                      "manifest": info["manifest"], "source_path": info["reference"],
                      "n": args.aa, "expect": "equal", "goal": None})
    for c in args.cases:
        info = find_kernel(c["kernel"])
        cases.append({"kind": "A/B", "name": c["name"], "kernel": c["kernel"],
                      "track": info["track"], "manifest": info["manifest"],
                      "source_path": os.path.join(ROOT, c["source"]), "n": args.ab,
                      "expect": c["expect"], "goal": c["goal"]})
    for c in cases:
        with open(c["source_path"]) as f:
            c["source"] = f.read()
        if c["kind"] == "A/A" and "HPCAB_KERNEL(" in c["source"]:
            # A/A resubmits the reference: its fp64 instantiation (what /submit grades)
            c["source"] = reference_instance(args.hpcab_bin, c["kernel"], "fp64")
        c["grades"] = []
    total = sum(c["n"] for c in cases)
    log(f"== validity: {total} /{args.route}s, round robin over {len(cases)} sources "
        f"(A/A x{args.aa}: {', '.join(args.kernels)}; A/B x{args.ab}: "
        f"{', '.join(c['name'] for c in args.cases)}); preset {args.preset or 'judge default'}")
    done = 0
    for rep in range(max([c["n"] for c in cases] + [0])):
        for c in cases:
            if rep >= c["n"]:
                continue
            body = {"kernel": c["kernel"], "language": "c", "rank": 0, "source": c["source"],
                    "run_id": "validity", "optimizer": f"validity-{c['name']}"}
            if args.preset:
                body["preset"] = args.preset
            t0 = time.monotonic()
            resp = judge.request("POST", "/" + args.route, body)
            wall = time.monotonic() - t0
            pub = public_config(resp) or {}
            g = {"rep": rep, "wall_s": wall, "verdict": resp.get("verdict"),
                 "suspect": bool(resp.get("suspect")), "speedup": resp.get("speedup"),
                 "public_credit": pub.get("credit"), "public_ratio": pub.get("ratio"),
                 "public_sizes": pub.get("sizes"), "baseline": resp.get("baseline"),
                 "speedups": resp.get("speedups") or {},
                 "preset": resp.get("preset"), "timings_s": resp.get("timings_s") or {},
                 "timed_calls_s": timed_calls_s(resp),
                 "configs": [{k: v for k, v in cfg.items() if k != "sizes"}
                             for cfg in resp.get("configs") or []],
                 "detail": resp.get("detail") if resp.get("verdict") != "ok" or
                 resp.get("suspect") else None}
            c["grades"].append(g)
            done += 1
            extra = "" if g["detail"] is None else f" ({str(g['detail'])[:120]})"
            log(f"[{done:3d}/{total}] {c['kind']} {c['name']:<12} #{rep + 1}: {g['verdict']}"
                f"{' suspect' if g['suspect'] else ''}, credit {fmt(g['speedup'])}, public "
                f"{fmt(g['public_credit'])}, {wall:.1f} s{extra}")

    log("== validity: true ratios, timed directly with hpcab-runner (no judge, no sandbox)")
    state = judge.state
    for c in cases:
        ok = [g for g in c["grades"] if g["public_sizes"]]
        if not ok:
            c["true"] = None
            log(f"  {c['name']}: no graded public configuration, no direct timing")
            continue
        sizes, baseline = ok[0]["public_sizes"], ok[0]["baseline"]
        # The baseline's code: the reference at fp64 (the judge's own build instantiates every
        # precision of the kernel into one library; fp64 is the one timed here), so it is built
        # here when the judge's cache key (which covers the instantiation units) is not matched.
        ref_text = reference_instance(args.hpcab_bin, c["kernel"], "fp64")
        cand_lib, cand_origin = judge_library(state, tmp, c["source"], "submission",
                                              autopar_threads)
        base_lib, base_origin = judge_library(state, tmp, ref_text, baseline, autopar_threads)
        t0 = time.monotonic()
        tr = measure_true_ratio(args, tmp, c["manifest"], sizes, cand_lib, base_lib, baseline,
                                args.true_rounds, args.true_budget_s)
        tr.update({"sizes": sizes, "baseline": baseline, "candidate_lib": cand_origin,
                   "baseline_lib": base_origin, "seconds": time.monotonic() - t0})
        c["true"] = tr
        log(f"  {c['name']:<12} vs {baseline}: warm {fmt(tr['warm_ratio'])} "
            f"({fmt(tr['warm_base_ns'] / 1e3, 1)} / {fmt(tr['warm_cand_ns'] / 1e3, 1)} us), cold "
            f"{fmt(tr['cold_ratio'])}, {tr['rounds']} rounds, {tr['seconds']:.1f} s "
            f"[libraries: {cand_origin}; {base_origin}]")

    report = summarize(args, cases, health, machine)
    report["replay"] = replay_rules(args, state, [c for c in cases if c["kind"] == "A/A"])
    report["duration_s"] = time.monotonic() - t_start
    report["machine"]["loadavg_end"] = os.getloadavg()
    print_report(report)
    with open(args.json, "w") as f:
        json.dump(report, f, indent=1)
    print(f"\n(machine-readable: {args.json}; full run {report['duration_s'] / 60:.1f} min)")
    return 0


def replay_rules(args, state, aa_cases):
    """The credit rules replayed on the A/A grades' recorded samples, as recorded and with
    known effects injected (hpcab db replay: the judge's own verdict stage), so the power each
    rule costs is measured on this run's noise. None when there is nothing to replay."""
    hpcab = os.path.join(os.path.dirname(args.judge_bin), "hpcab")
    if not aa_cases or not os.access(hpcab, os.X_OK):
        return None
    argv = [hpcab, "db", "replay", os.path.join(state, "judge.db"), "--json"]
    for c in aa_cases:
        argv += ["--optimizer", f"validity-{c['name']}"]
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        log(f"validity: hpcab db replay failed: {p.stderr.strip()}")
        return None
    return json.loads(p.stdout)


def summarize(args, cases, health, machine):
    out = {"command": " ".join([os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:]),
           "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "machine": machine,
           "judge": {"machine": health.get("machine"), "version": health.get("version"),
                     "track_baseline": health.get("baseline"),
                     "preset": args.preset or "default", "route": args.route,
                     "blas": health.get("blas")},
           "cases": []}
    for c in cases:
        gs = c["grades"]
        credits = [g["speedup"] for g in gs if g["verdict"] == "ok" and g["speedup"] is not None]
        s = {"kind": c["kind"], "name": c["name"], "kernel": c["kernel"], "track": c["track"],
             "source": os.path.relpath(c["source_path"], ROOT), "expect": c["expect"],
             "baseline": gs[0]["baseline"] if gs else None, "n": len(gs),
             "ok": sum(g["verdict"] == "ok" for g in gs),
             "suspect": sum(g["suspect"] for g in gs),
             "not_ok": sum(g["verdict"] != "ok" for g in gs),
             "credited": len(credits),
             "min": min(credits) if credits else None,
             "median": med(credits), "max": max(credits) if credits else None,
             "public_median": med([g["public_credit"] for g in gs if g["verdict"] == "ok"]),
             "true": c.get("true"), "grades": gs}
        if c["kind"] == "A/A":
            s["within_2pct"] = sum(abs(x - 1) <= 0.02 for x in credits)
            s["within_3pct"] = sum(abs(x - 1) <= 0.03 for x in credits)
            s["within_5pct"] = sum(abs(x - 1) <= 0.05 for x in credits)
            t = c.get("true")
            s["within_5pct_of_true"] = (sum(abs(x / t["warm_ratio"] - 1) <= 0.05 for x in credits)
                                        if t else None)
        else:
            faster = c["expect"] == "faster"
            s["right_side"] = sum((x > 1) if faster else (x < 1) for x in credits)
            s["goal"] = goal_text(c["goal"])
            s["goal_met"] = goal_hits(c["goal"], credits, c.get("true"))
        # wall and overhead: cached builds only (the first /submit of a source builds it)
        cached = gs[1:] if len(gs) > 1 else gs
        w = {"n": len(cached), "cached_only": len(gs) > 1,
             "wall_s": med([g["wall_s"] for g in cached]),
             "timings_sum_s": med([sum(g["timings_s"].values()) for g in cached]),
             "timed_calls_s": med([g["timed_calls_s"] for g in cached]),
             "first_wall_s": gs[0]["wall_s"] if gs else None,
             "first_build_s": gs[0]["timings_s"].get("build") if gs else None,
             "stages": {}}
        overheads = [g["wall_s"] - g["timings_s"].get("build", 0) - g["timed_calls_s"]
                     for g in cached]
        w["overhead_s"] = med(overheads)
        w["overhead_share"] = med([o / g["wall_s"] for o, g in zip(overheads, cached)])
        stages = list(STAGES)
        for g in cached:
            stages += [k for k in g["timings_s"] if k not in stages]
        for st in stages:
            w["stages"][st] = med([g["timings_s"].get(st) for g in cached])
        w["unreported_s"] = med([g["wall_s"] - sum(g["timings_s"].values()) for g in cached])
        s["wall"] = w
        out["cases"].append(s)
    return out


def print_report(r):
    m = r["machine"]
    print("\n== validity benchmark")
    print(host_line(m))
    print(f"load: average at start {m['loadavg_start'][0]:.2f}, at end "
          f"{m['loadavg_end'][0]:.2f}; busy neighbour: {m.get('load', 'none')}")
    print(f"judge: {r['judge']['machine']}, version {r['judge']['version']}, default settings, "
          f"preset {r['judge']['preset']}; credited baselines {r['judge']['track_baseline']}; "
          f"route /{r['judge']['route']}; BLAS {r['judge']['blas']}")
    aa = [c for c in r["cases"] if c["kind"] == "A/A"]
    ab = [c for c in r["cases"] if c["kind"] == "A/B"]

    def true_cols(c):
        t = c["true"]
        return [fmt(t["warm_ratio"]) if t else "-", fmt(t["cold_ratio"]) if t else "-"]

    print(f"\n-- A/A: each reference.c resubmitted via /{r['judge']['route']} (credited speedup; "
          "1.0 is right)")
    head = ["kernel", "track", "baseline", "n", "not ok", "suspect", "±2%", "±3%", "±5%", "min",
            "median", "max", "public med", "true warm", "true cold", "±5% of true"]
    rows = []
    for c in aa:
        k = c["credited"]
        w5t = c["within_5pct_of_true"]
        rows.append([c["kernel"], c["track"], c["baseline"] or "-", c["n"], c["not_ok"],
                     c["suspect"], pct(c["within_2pct"], k), pct(c["within_3pct"], k),
                     pct(c["within_5pct"], k), fmt(c["min"]), fmt(c["median"]), fmt(c["max"]),
                     fmt(c["public_median"])] + true_cols(c) +
                    ["-" if w5t is None else pct(w5t, k)])
    allc = [g["speedup"] for c in aa for g in c["grades"]
            if g["verdict"] == "ok" and g["speedup"] is not None]
    if aa:
        k = len(allc)
        rows.append(["all", "", "", sum(c["n"] for c in aa), sum(c["not_ok"] for c in aa),
                     sum(c["suspect"] for c in aa),
                     pct(sum(c["within_2pct"] for c in aa), k),
                     pct(sum(c["within_3pct"] for c in aa), k),
                     pct(sum(c["within_5pct"] for c in aa), k),
                     fmt(min(allc) if allc else None), fmt(med(allc)),
                     fmt(max(allc) if allc else None), "", "", "", ""])
    print(table(head, rows, left=3))
    print("(±x%: share of credited grades within x% of 1.0; not ok: any verdict but ok; suspect: "
          "ok but not credited; public med: median credit of the public configuration alone; "
          "true warm/cold: baseline/candidate timed directly at the public sizes, calls back to "
          "back / first call after a fresh draw with the thread pool asleep; ±5% of true: "
          "credits within 5% of true warm, the right figure where the credited baseline is "
          "another build: c-autopar)")

    if ab:
        print("\n-- A/B: honest candidates against their true ratio")
        head = ["candidate", "kernel", "baseline", "expect", "n", "not ok", "suspect",
                "right side", "goal", "goal met", "min", "median", "max", "public med",
                "true warm", "true cold", "median/true"]
        rows = []
        for c in ab:
            k = c["credited"]
            t = c["true"]
            rows.append([c["name"], c["kernel"], c["baseline"] or "-", c["expect"], c["n"],
                         c["not_ok"], c["suspect"], pct(c["right_side"], k), c["goal"],
                         pct(c["goal_met"], k), fmt(c["min"]), fmt(c["median"]), fmt(c["max"]),
                         fmt(c["public_median"])] + true_cols(c) +
                        [fmt(c["median"] / t["warm_ratio"]) if t and c["median"] else "-"])
        print(table(head, rows, left=4))
        print("(right side: share of credits > 1 for a faster candidate, < 1 for a slower one; "
              "goal met: share of credits meeting the goal, \"of true\" relative to true warm; "
              "median/true: median credit over the warm true ratio)")

    reported = []
    for c in r["cases"]:
        names = sorted({n for g in c["grades"] if g["verdict"] == "ok" for n in g["speedups"]
                        if n != g["baseline"]})
        for n in names:
            xs = [g["speedups"][n] for g in c["grades"]
                  if g["verdict"] == "ok" and g["speedups"].get(n) is not None]
            within = sum(abs(x - 1) <= 0.03 for x in xs)
            reported.append([c["name"], n, len(xs), fmt(min(xs)), fmt(med(xs)), fmt(max(xs)),
                             pct(within, len(xs)) if c["kind"] == "A/A" else "-"])
    if reported:
        print("\n-- reported speedups against the baselines not credited (speedups in the "
              "response; paired on /submit)")
        print(table(["source", "baseline", "n", "min", "median", "max", "A/A ±3%"], reported))
        print("(for an A/A source, the figure against c is the reference against its own "
              "build: 1.0 is right)")

    print("\n-- the credit rules at work (configurations of ok grades)")
    head = ["source", "configs", "credited != 1", "within margin", "median disagrees",
            "unreplicated", "clock shifted"]
    rows = []
    for c in r["cases"]:
        cfgs = [x for g in c["grades"] if g["verdict"] == "ok" for x in g.get("configs") or []]
        rows.append([c["name"], len(cfgs), sum(x.get("credit", 1) != 1 for x in cfgs),
                     sum(bool(x.get("within_margin")) for x in cfgs),
                     sum(bool(x.get("median_disagrees")) for x in cfgs),
                     sum(bool(x.get("unreplicated")) for x in cfgs),
                     sum((x.get("clock_shift_ns") or 0) > 0 for x in cfgs)])
    print(table(head, rows))
    print("(within margin: confirmed, |ratio - 1| < equivalence_margin, credited 1; median "
          "disagrees: confirmed one side, the medians beyond the margin on the other, credited 1; "
          "unreplicated: "
          "confirmed pooled but not by every timing process alone, credited 1; clock shifted: "
          "the clock audit raised the candidate's samples; docs/grading.md \"Credit rules\")")

    rp = r.get("replay")
    if rp:
        print(f"\n-- the credit rules replayed on the A/A samples with injected effects "
              f"({rp['grades']} grades; hpcab db replay)")
        head = ["rules", "effect", "grades", "right side", "median credit"]
        rows = [[x["rules"], fmt(x["effect"]), x["grades"], pct(x["right"], x["grades"]),
                 fmt(x["median_credit"])] for x in rp["rows"]]
        print(table(head, rows))
        print("(right side: at effect 1 the share within ±3% of 1; above 1, a candidate that many "
              "times faster: the share credited > 1; below 1: credited < 1)")

    print("\n-- /submit wall time and judge overhead (medians over cached-build /submits)")
    head = ["source", "n", "wall", "Σtimings", "build", "timed calls", "overhead", "overhead %",
            "1st wall", "1st build"]
    rows = []
    for c in r["cases"]:
        w = c["wall"]
        rows.append([c["name"], w["n"], fmt(w["wall_s"], 2), fmt(w["timings_sum_s"], 2),
                     fmt(w["stages"].get("build"), 2), fmt(w["timed_calls_s"], 4),
                     fmt(w["overhead_s"], 2),
                     "-" if w["overhead_share"] is None else f"{100 * w['overhead_share']:.1f}%",
                     fmt(w["first_wall_s"], 2), fmt(w["first_build_s"], 2)])
    print(table(head, rows))
    print("(seconds; timed calls = Σ over configurations of samples × (candidate + baseline "
          "median); overhead = wall - build - timed calls; 1st: the /submit that built the "
          "source)")
    stages = []
    for c in r["cases"]:
        stages += [s for s in c["wall"]["stages"] if s not in stages]
    head = ["source"] + stages + ["unreported"]
    rows = [[c["name"]] + [fmt(c["wall"]["stages"].get(s), 3) for s in stages] +
            [fmt(c["wall"]["unreported_s"], 3)] for c in r["cases"]]
    print("\nstage breakdown (timings_s medians, seconds; unreported = wall - Σtimings: HTTP, "
          "queue, planning)")
    print(table(head, rows))

    print("\n-- against the goals (reported, not asserted)")
    if aa and allc:
        share = sum(abs(x - 1) <= 0.03 for x in allc) / len(allc)
        print(f"A/A: >= 95% of credits within ±3% of 1.0: {100 * share:.0f}% "
              f"({'met' if share >= 0.95 else 'not met'})")
        same = [g["speedup"] for c in aa if c["baseline"] == "c" for g in c["grades"]
                if g["verdict"] == "ok" and g["speedup"] is not None]
        if same and len(same) < len(allc):
            share = sum(abs(x - 1) <= 0.03 for x in same) / len(same)
            print(f"A/A where the credited baseline is the same code (baseline c): "
                  f"{100 * share:.0f}% within ±3% ({'met' if share >= 0.95 else 'not met'})")
    for c in ab:
        k = c["credited"]
        t = c["true"]
        tw = f"true ratio {fmt(t['warm_ratio'])} warm / {fmt(t['cold_ratio'])} cold" if t else ""
        if c["goal_met"] is None:
            print(f"{c['name']}: credit {c['goal']} in >= 95% of grades: no true ratio measured "
                  "(not met)")
            continue
        share = c["goal_met"] / k if k else 0.0
        print(f"{c['name']}: credit {c['goal']} in >= 95% of grades: {100 * share:.0f}% "
              f"({'met' if share >= 0.95 else 'not met'}); median credit {fmt(c['median'])}; "
              f"{tw}")
    for c in r["cases"]:
        w = c["wall"]
        if w["wall_s"] is None:
            continue
        if c["kernel"] == "gemm":
            print(f"{c['name']}: /submit <= 30 s cached: {w['wall_s']:.2f} s "
                  f"({'met' if w['wall_s'] <= 30 else 'not met'}); overhead <= 20% of wall: "
                  f"{100 * w['overhead_share']:.1f}% "
                  f"({'met' if w['overhead_share'] <= 0.2 else 'not met'})")
        if c["kernel"] == "tsvc_2_s000":
            print(f"{c['name']}: /submit <= 60 s: {w['wall_s']:.2f} s "
                  f"({'met' if w['wall_s'] <= 60 else 'not met'})")


def main(argv):
    args = parse_args(argv)
    return run_main("validity", run, args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
