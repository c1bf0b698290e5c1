#!/usr/bin/env python3
"""Runs a kernel's reference.py on inputs exchanged as .npy files (used by `hpcab corpus check`
and `hpcab corpus numba-status`).

usage: run_reference.py JOB.json

JOB.json: {"kernel_dir": str, "id": str,
           "cases": [{"dir": str, "precision": "fp64"|"fp32", "values": {name: number},
                      "real_scalars": [name], "arrays": [name], "outputs": [name]}],
           "numba": {"case": int, "status_file": str}}          (optional)
For each case it loads <dir>/in/<name>.npy for every array, calls reference.<id>(**kwargs), and
writes every output to <dir>/out/<name>.npy. Exits non-zero naming the case on any failure.

With "numba", it then runs cases[case] again under numba.njit(fn) and numba.njit(parallel=True)(fn)
(one call each, on fresh inputs), writes their outputs to <dir>/numba/ and <dir>/numba_parallel/,
and writes to status_file {"numba": S, "numba_parallel": S} with S = {"status": "ok"} |
{"status": "unsupported", "error": first line} (Numba cannot compile the function: that baseline
is unavailable, not a fault of the kernel) | {"status": "failed", "error": text} (it compiled but
raised or returned a value: a disagreement with NumPy). The caller compares the outputs.
"""
import importlib.util
import inspect
import json
import os
import re
import sys
import traceback
import warnings

import numpy as np


def load_kwargs(case, directory="in"):
    real = np.float32 if case["precision"] == "fp32" else float
    kwargs = {}
    for name in case["arrays"]:
        kwargs[name] = np.load(os.path.join(case["dir"], directory, name + ".npy"))
    for name, value in case["values"].items():
        kwargs[name] = real(value) if name in case["real_scalars"] else int(value)
    return kwargs


def save_outputs(case, kwargs, directory):
    os.makedirs(os.path.join(case["dir"], directory), exist_ok=True)
    for name in case["outputs"]:
        np.save(os.path.join(case["dir"], directory, name + ".npy"), kwargs[name])


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# Addresses and install paths: the same failure reads the same on every run and machine.
_NOISE = re.compile(r" at 0x[0-9a-fA-F]+| from '[^']*'")
_GENERIC = ("Failed in ", "- Resolution failure for")


def first_line(exc):
    """The first informative line of an exception. Numba's typing errors open with generic lines
    ('Failed in nopython mode pipeline (step: ...)', '- Resolution failure for literal
    arguments:') that say nothing about the cause; 'No implementation of function F found for
    signature:' is completed with the signature on its '>>>' line, and a terse cause ('kws not
    supported') with what Numba was resolving."""
    lines = [_NOISE.sub("", _ANSI.sub("", l)).strip() for l in str(exc).splitlines()]
    lines = [l for l in lines if l]
    informative = [i for i, l in enumerate(lines) if not l.startswith(_GENERIC)]
    text = lines[informative[0]] if informative else ""
    if text.startswith("No implementation of function"):
        signature = next((l for l in lines if l.startswith(">>>")), None)
        if signature:
            text = "no implementation for " + signature[3:].strip()
    elif len(text) < 40:
        during = next((l for l in lines if l.startswith("During: ")), None)
        if during:
            text += " (" + during[len("During: "):] + ")"
    text = type(exc).__name__ + (": " + text if text else "")
    return text if len(text) <= 240 else text[:237] + "..."


def run_numba(fn, case, parallel):
    """One call of fn compiled by Numba on cases's inputs; returns the status object."""
    try:
        import numba
    except Exception as e:  # no Numba here: the baseline is unavailable, nothing is wrong
        return {"status": "unsupported", "error": "numba is not importable: " + first_line(e)}
    kwargs = load_kwargs(case)
    bound = inspect.signature(fn).bind(**kwargs)
    try:
        jitted = numba.njit(parallel=parallel)(fn)
    except Exception as e:
        return {"status": "unsupported", "error": first_line(e)}
    with warnings.catch_warnings():
        # NumbaPerformanceWarning (nothing to parallelize), deprecation notes: not our concern.
        warnings.simplefilter("ignore")
        try:
            result = jitted(*bound.args, **bound.kwargs)
        except Exception as e:
            # Nothing compiled: Numba cannot type or lower the function.
            if not jitted.signatures:
                return {"status": "unsupported", "error": first_line(e)}
            return {"status": "failed", "error": "raised at run time: " + first_line(e)}
    if result is not None:
        return {"status": "failed", "error": "returned a value (outputs are written in place)"}
    save_outputs(case, kwargs, "numba_parallel" if parallel else "numba")
    return {"status": "ok"}


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) == 2 else 2
    with open(argv[1]) as f:
        job = json.load(f)
    path = os.path.join(job["kernel_dir"], "reference.py")
    spec = importlib.util.spec_from_file_location("reference_" + job["id"], path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception:
        print(f"{path}: cannot be imported:", file=sys.stderr)
        traceback.print_exc()
        return 1
    fn = getattr(module, job["id"], None)
    if fn is None:
        print(f"{path}: defines no function named '{job['id']}'", file=sys.stderr)
        return 1
    for case in job["cases"]:
        kwargs = load_kwargs(case)
        try:
            result = fn(**kwargs)
        except Exception:
            print(f"{path}: case {case['dir']} raised:", file=sys.stderr)
            traceback.print_exc()
            return 1
        if result is not None:
            print(f"{path}: {job['id']}() must write outputs in place and return None",
                  file=sys.stderr)
            return 1
        save_outputs(case, kwargs, "out")
    if job.get("numba"):
        case = job["cases"][job["numba"]["case"]]
        status = {"numba": run_numba(fn, case, parallel=False),
                  "numba_parallel": run_numba(fn, case, parallel=True)}
        with open(job["numba"]["status_file"], "w") as f:
            json.dump(status, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
