"""What the judge benchmarks share (scripts/validity.py, scripts/bench-throughput.py): a private
hpcab-judge process, the host line, the judge's measured bandwidth, the timed-calls figure and
the table printing. Standard library only (python3 >= 3.9); no figure is asserted here."""

import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import time


class Fatal(Exception):
    """A failure that ends the benchmark with exit status 1 (not a figure: the run is broken)."""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class JudgeProcess:
    """A private hpcab-judge on a free port, its state, scratch, stdout and log under `directory`,
    with the settings file `config_path`; `url` once it listens. stop() ends it."""

    def __init__(self, judge_bin, directory, config_path):
        self.state = os.path.join(directory, "state")
        self.out_path = os.path.join(directory, "judge.out")
        self.log_path = os.path.join(directory, "judge.log")
        with open(self.out_path, "w") as out, open(self.log_path, "w") as err:
            argv = [judge_bin, "--port", "0", "--state-dir", self.state, "--scratch-dir",
                    os.path.join(directory, "scratch"), "--config", config_path]
            self.proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        self.url = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with open(self.out_path) as f:
                line = f.readline()
            if line.endswith("\n"):
                if not line.startswith("listening on "):
                    raise Fatal(f"unexpected first judge stdout line: {line.strip()}")
                self.url = line[len("listening on "):].strip()
                break
            if self.proc.poll() is not None:
                raise Fatal("the judge exited during startup:\n" + self.log_tail())
            time.sleep(0.1)
        if self.url is None:
            raise Fatal("the judge did not report its address within 60 s")

    def log_tail(self, n=20):
        try:
            with open(self.log_path) as f:
                return "".join(f.readlines()[-n:])
        except OSError:
            return ""

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(x, digits=3):
    if x is None:
        return "-"
    if isinstance(x, float) and x != x:
        return "nan"
    return f"{x:.{digits}f}"


def table(head, rows, left=1):
    w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    out = []
    for line in [head] + rows:
        out.append("  ".join(str(c).ljust(n) if i < left else str(c).rjust(n)
                             for i, (c, n) in enumerate(zip(line, w))))
    return "\n".join(out)


def timed_calls_s(resp):
    """Seconds of timed kernel calls in a response: per configuration, samples x (candidate
    median + baseline median); a median stands in for the calls the response does not list."""
    total = 0.0
    for c in resp.get("configs") or []:
        n = c.get("samples") or 0
        total += n * ((c.get("candidate_median_ns") or 0) + (c.get("baseline_median_ns") or 0))
    return total * 1e-9


def machine_info():
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    # Physical cores: distinct (package, core) pairs of the online CPUs; None when sysfs
    # does not say.
    cores = set()
    try:
        for cpu in os.sched_getaffinity(0) | set(range(os.cpu_count() or 1)):
            topo = f"/sys/devices/system/cpu/cpu{cpu}/topology"
            with open(f"{topo}/physical_package_id") as f, open(f"{topo}/core_id") as g:
                cores.add((f.read().strip(), g.read().strip()))
    except OSError:
        cores = set()
    return {"nproc": os.cpu_count(), "cores": len(cores) or None, "cpu": model,
            "host": platform.node(), "loadavg_start": os.getloadavg()}


def bytes_text(n):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:g} {unit}"
    return f"{n} B"


def host_line(m):
    """host: name, CPU model, cores and CPUs, and the judge-measured memory bandwidth."""
    cores = f"{m['cores']} cores, " if m.get("cores") else ""
    bw = m.get("bandwidth")
    if not bw:
        bws = "memory bandwidth not known (no judge bandwidth table found)"
    elif bw["dram_bytes"] is None:
        bws = f"memory bandwidth {bw['dram_gbs']:.1f} GB/s ({bw['source']})"
    else:
        bws = (f"memory bandwidth {bw['dram_gbs']:.1f} GB/s at a {bytes_text(bw['dram_bytes'])} "
               f"working set, peak {bw['peak_gbs']:.1f} GB/s at {bytes_text(bw['peak_bytes'])} "
               f"(the judge's copy rate, {bw['source']})")
    return f"host: {m['host']}, CPU {m['cpu']}, {cores}{m['nproc']} CPUs; {bws}"


def judge_bandwidth(settings, state, health):
    """The memory bandwidth the judge measured at its start (judge/host/bandwidth.cc: the best copy
    rate per working set, 32 KiB to 128 MiB, read from its bandwidth_file, <state>/bandwidth.json
    unless its `settings` name one), or the flat memory_bandwidth_gbs the settings set. /health is
    asked first in case it reports the table. None when neither says."""
    gbs = settings.get("memory_bandwidth_gbs") or 0
    if gbs > 0:
        return {"source": "memory_bandwidth_gbs (configured)", "points": [],
                "dram_gbs": float(gbs), "dram_bytes": None, "peak_gbs": float(gbs),
                "peak_bytes": None}
    table, source = health.get("bandwidth"), "GET /health"
    if not isinstance(table, dict) or not table.get("points"):
        path = settings.get("bandwidth_file")
        source = path or "bandwidth.json of its state dir"
        path = path or os.path.join(state, "bandwidth.json")
        try:
            with open(path) as f:
                table = json.load(f)
        except (OSError, ValueError):
            return None
    try:
        pts = sorted(((int(p["bytes"]), float(p["bytes_per_s"])) for p in table["points"]))
    except (KeyError, TypeError, ValueError):
        return None
    if not pts:
        return None
    peak = max(pts, key=lambda p: p[1])
    return {"source": source, "machine": table.get("machine"),
            "points": [{"bytes": b, "gbs": bw / 1e9} for b, bw in pts],
            "dram_gbs": pts[-1][1] / 1e9, "dram_bytes": pts[-1][0],
            "peak_gbs": peak[1] / 1e9, "peak_bytes": peak[0]}


def run_main(name, run, args):
    """Runs `run(args)` as a benchmark's main: SIGTERM and SIGINT unwind through its cleanup (a
    SystemExit of 128 + the signal), a Fatal is logged as `name: why` and gives exit status 1."""

    def on_signal(signum, _frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        return run(args)
    except Fatal as e:
        log(f"{name}: {e}")
        return 1
