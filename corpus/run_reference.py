#!/usr/bin/env python3
"""Runs a kernel's reference.py on inputs exchanged as .npy files (used by `hpcab corpus check`).

usage: run_reference.py JOB.json

JOB.json: {"kernel_dir": str, "id": str,
           "cases": [{"dir": str, "precision": "fp64"|"fp32", "values": {name: number},
                      "real_scalars": [name], "arrays": [name], "outputs": [name]}]}
For each case it loads <dir>/in/<name>.npy for every array, calls reference.<id>(**kwargs), and
writes every output to <dir>/out/<name>.npy. Exits non-zero naming the case on any failure.
"""
import importlib.util
import json
import os
import sys
import traceback

import numpy as np


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) == 2 else 2
    with open(argv[1]) as f:
        job = json.load(f)
    path = os.path.join(job["kernel_dir"], "reference.py")
    spec = importlib.util.spec_from_file_location("reference_" + job["id"], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, job["id"], None)
    if fn is None:
        print(f"{path}: defines no function named '{job['id']}'", file=sys.stderr)
        return 1
    for case in job["cases"]:
        real = np.float32 if case["precision"] == "fp32" else float
        kwargs = {}
        for name in case["arrays"]:
            kwargs[name] = np.load(os.path.join(case["dir"], "in", name + ".npy"))
        for name, value in case["values"].items():
            kwargs[name] = real(value) if name in case["real_scalars"] else int(value)
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
        os.makedirs(os.path.join(case["dir"], "out"), exist_ok=True)
        for name in case["outputs"]:
            np.save(os.path.join(case["dir"], "out", name + ".npy"), kwargs[name])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
