#!/usr/bin/env python3
"""The GPU suite behind scripts/gpu-check.sh: drives hpcab-runner directly (its line protocol,
judge/runner/protocol.h) on prepared CUDA libraries and prints a summary table.

Standard library only (the GPU machine may have no NumPy and no registry). Cases:
  s000 correct / incorrect / racing / left-running, residency host and device, each against
  the C reference's outputs for the same draws; gemm device-resident against its C baseline
  (outputs compared, median times and the speedup). Exit status 0 when every case gave the
  expected verdict, 1 otherwise.
"""
import argparse
import ast
import os
import struct
import subprocess
import sys
import time
from array import array


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(path + ": not an npy file")
    major = data[6]
    if major == 1:
        hlen = struct.unpack("<H", data[8:10])[0]
        start = 10
    else:
        hlen = struct.unpack("<I", data[8:12])[0]
        start = 12
    header = ast.literal_eval(data[start:start + hlen].decode("latin1"))
    code = {"<f8": "d", "<f4": "f"}.get(header["descr"])
    if code is None:
        raise ValueError(path + ": dtype " + header["descr"])
    a = array(code)
    a.frombytes(data[start + hlen:])
    return a


class Runner:
    """One hpcab-runner process, commands on stdin, replies on fd 3."""

    def __init__(self, argv, log):
        r, w = os.pipe()

        def child():
            os.dup2(w, 3)

        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=log, stderr=log,
                                     close_fds=False, preexec_fn=child)
        os.close(w)
        self.replies = os.fdopen(r, "r")

    def line(self):
        s = self.replies.readline()
        if not s:
            raise RuntimeError("the runner exited (status %s)" % self.proc.poll())
        return s.rstrip("\n")

    def ask(self, command):
        self.proc.stdin.write((command + "\n").encode())
        self.proc.stdin.flush()
        return self.line()

    def close(self):
        try:
            self.proc.stdin.write(b"quit\n")
            self.proc.stdin.flush()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.replies.close()


def run_calls(args, lib, manifest, sizes, residency, calls, tag, gpu=True):
    """Runs `calls` calls; returns (times_ns, problem or None, out_dir or error string)."""
    out_dir = os.path.join(args.out, "runs", tag)
    os.makedirs(out_dir, exist_ok=True)
    argv = [args.runner, "--manifest", manifest, "--sizes", sizes, "--lib", lib,
            "--out-dir", out_dir]
    if gpu:
        argv += ["--gpu", "cuda", "--gpu-lib", args.cudart, "--residency", residency]
    with open(os.path.join(out_dir, "runner.log"), "ab") as log:
        r = Runner(argv, log)
        try:
            boot = r.line()
            layout = r.line() if boot == "boot" else boot
            hello = r.line() if layout.startswith("layout ") else layout
            if boot != "boot" or hello != "hello":
                return [], None, "start: " + (hello if boot == "boot" else boot)
            times, problem = [], None
            for i in range(calls):
                if r.ask("prep %d auto 1" % (1000 + i)) != "ready":
                    return times, None, "prep failed"
                done = r.ask("go")
                if not done.startswith("done "):
                    return times, None, "go: " + done
                times.append(int(done.split()[1]))
                posted = r.ask("post 1 c%d" % i)
                if posted != "posted ok" and problem is None:
                    problem = posted[len("posted "):]
            return times, problem, out_dir
        except RuntimeError as e:
            return [], None, str(e)
        finally:
            r.close()


def same_outputs(dir_a, dir_b, names, calls, rtol):
    for i in range(calls):
        for n in names:
            a = read_npy(os.path.join(dir_a, "c%d" % i, n + ".npy"))
            b = read_npy(os.path.join(dir_b, "c%d" % i, n + ".npy"))
            if len(a) != len(b):
                return False
            scale = max(1.0, max(abs(x) for x in b)) if rtol > 0 else 1.0
            for x, y in zip(a, b):
                if not (abs(x - y) <= rtol * scale):  # NaN (the poison) fails too
                    return False
    return True


def median_ms(ns):
    if not ns:
        return float("nan")
    s = sorted(ns)
    return s[len(s) // 2] / 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--runner", required=True, help="hpcab-runner")
    ap.add_argument("--cudart", required=True, help="libcudart to dlopen (path or soname)")
    ap.add_argument("--libs", required=True, help="folder of the built CUDA and C libraries")
    ap.add_argument("--corpus", required=True, help="the corpus folder")
    ap.add_argument("--out", required=True, help="output folder")
    ap.add_argument("--n", type=int, default=1 << 24, help="tsvc_2_s000's N")
    ap.add_argument("--gemm", type=int, default=1024, help="gemm's NI = NJ = NK")
    ap.add_argument("--calls", type=int, default=5)
    args = ap.parse_args()

    s000 = os.path.join(args.corpus, "loop_level_reasoning", "tsvc_2_s000", "kernel.json")
    gemm = os.path.join(args.corpus, "scientific_computing", "dense_linear_algebra", "gemm",
                        "kernel.json")
    lib = lambda name: os.path.join(args.libs, name)
    rows = []  # case, residency, expected, got, median ms, note
    sizes = "N=%d" % args.n
    t = time.time()
    _, _, ref_dir = run_calls(args, lib("s000_ref.so"), s000, sizes, "host", args.calls,
                              "s000-ref", gpu=False)
    print("C reference of tsvc_2_s000 done in %.1f s" % (time.time() - t), flush=True)
    cases = [("correct", 0, "ok", "ok"), ("incorrect", 1, "wrong", "wrong"),
             ("racing", 2, "not ok", "ok"), ("left-running", 3, "running", "running")]
    for name, variant, expect_host, expect_device in cases:
        for residency, expect in (("host", expect_host), ("device", expect_device)):
            so = lib("s000_%d%s.so" % (variant, "_dev" if residency == "device" else ""))
            t = time.time()
            times, problem, out = run_calls(args, so, s000, sizes, residency, args.calls,
                                            "s000-%s-%s" % (name, residency))
            if not times or (out is not None and not os.path.isdir(out)):
                got = "error: " + str(out)
            elif problem is not None:
                got = "running" if problem.startswith("running") else "rejected: " + problem
            elif isinstance(ref_dir, str) and os.path.isdir(ref_dir) and \
                    same_outputs(out, ref_dir, ["a"], len(times), 0.0):
                got = "ok"
            else:
                got = "wrong"
            good = got == expect or (expect == "not ok" and got != "ok" and
                                     not got.startswith("error"))
            rows.append(("s000 " + name, residency, expect, got, median_ms(times),
                         "%.1f s" % (time.time() - t), good))
            print("  %-18s %-7s %s" % ("s000 " + name, residency, got), flush=True)

    gsizes = "NI=%d,NJ=%d,NK=%d" % (args.gemm, args.gemm, args.gemm)
    gcalls = 3
    t = time.time()
    base_times, _, base_dir = run_calls(args, lib("gemm_ref.so"), gemm, gsizes, "host", gcalls,
                                        "gemm-c", gpu=False)
    rows.append(("gemm baseline c", "-", "ok", "ok" if base_times else "error: " + str(base_dir),
                 median_ms(base_times), "%.1f s" % (time.time() - t), bool(base_times)))
    t = time.time()
    times, problem, out = run_calls(args, lib("gemm_dev.so"), gemm, gsizes, "device", gcalls,
                                    "gemm-device")
    if not times:
        got = "error: " + str(out)
    elif problem is not None:
        got = "rejected: " + problem
    elif base_times and same_outputs(out, base_dir, ["C"], gcalls, 1e-9):
        got = "ok"
    else:
        got = "wrong"
    note = "%.1f s" % (time.time() - t)
    if times and base_times:
        note += ", speedup %.1fx over c" % (median_ms(base_times) / median_ms(times))
    rows.append(("gemm cuda", "device", "ok", got, median_ms(times), note, got == "ok"))

    print()
    print("%-18s %-9s %-9s %-28s %12s  %s" % ("case", "residency", "expected", "got",
                                              "median ms", "note"))
    for case, res, expect, got, ms, note, good in rows:
        print("%-18s %-9s %-9s %-28s %12.3f  %s%s" % (case, res, expect, got[:28], ms, note,
                                                     "" if good else "  <-- UNEXPECTED"))
    bad = sum(1 for r in rows if not r[-1])
    print()
    print("census of kernels left running: " + ", ".join(
        "%s=%s" % (r[1], r[3]) for r in rows if r[0] == "s000 left-running"))
    print("RESULT: %s (%d of %d cases as expected)" % ("PASS" if bad == 0 else "FAIL",
                                                       len(rows) - bad, len(rows)))
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
