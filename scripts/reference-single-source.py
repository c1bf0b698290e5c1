#!/usr/bin/python3
"""Converts a kernel's reference.c to the single-source form (docs/corpus.md "reference.c").

The old form holds the loop twice: `<id>_fp64` over double and `<id>_fp32` over float (or a
macro `DEFINE_X(NAME, real)` instantiated twice). The single-source form holds it once over the
type `real`, its exported function named `HPCAB_KERNEL(<id>)`; the build compiles the file once
per precision of kernel.json with a prelude that defines `real`, `HPCAB_KERNEL` and includes
<tgmath.h> (common/reference_build.cc).

What the conversion does, on the fp64 copy (the single source kept):
  - `double` -> `real`; every floating literal wrapped as `(real)0.5`, so the fp32 instantiation
    computes in float (the checker builds it with -Werror=double-promotion);
  - `<id>_fp64` -> `HPCAB_KERNEL(<id>)`; a helper pair `h_fp64` / `h_fp32` -> one `static h`;
  - the generic math names: `expf` -> `exp` etc. (type-generic through <tgmath.h>).
It then compares the dropped fp32 copy with the fp64 copy after spelling normalisation (float
and double as real, `f` suffixes and casts of literals, the `f` math names) and reports every
file whose copies differ in more than that: drift between the two copies, left for a person to
judge (the fp64 copy is what is kept).

Usage: reference-single-source.py [--check] [--diff-dir DIR] [reference.c ...]
  no files: every corpus/**/reference.c. Files already in the single-source form are skipped.
  --check: convert nothing, print what would change and the drift; exit 1 if any file is in the
           old form. Exit 2 when a file cannot be converted (its name and why on stderr).
"""
import argparse
import difflib
import glob
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

FLOAT_LIT = re.compile(
    r"(?<![\w.])((?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)([fFlL]?)(?![\w.])")
MATH_F = ["sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan", "asin",
          "acos", "atan", "atan2", "sinh", "cosh", "tanh", "pow", "fabs", "fmax", "fmin", "floor",
          "ceil", "round", "trunc", "fmod", "hypot", "cbrt", "erf", "erfc", "copysign", "fma",
          "lround", "nearbyint", "rint", "exp2"]


KEEP_DOUBLE = "hpcab_keep_double_"


class Unconvertible(Exception):
    pass


def mask(text):
    """The text with comments, string and char literals blanked (same length, newlines kept)."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            i += 1
            continue
        for k in range(i, min(j, n)):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def top_level_functions(text):
    """[(chunk_start, header_start, end, name)] of every function definition at file scope.

    chunk_start includes the comment and blank lines above the definition; end is one past its
    closing brace (and the newline after it)."""
    m = mask(text)
    funcs = []
    depth = 0
    boundary = 0  # one past the last top-level ';', '}' or preprocessor line
    i, n = 0, len(m)
    while i < n:
        c = m[i]
        if depth == 0 and c == "#" and (i == 0 or m[:i].rstrip(" \t").endswith("\n") or
                                        m[:i].strip() == ""):
            # a preprocessor line (with continuations)
            j = i
            while True:
                e = m.find("\n", j)
                if e < 0:
                    e = n
                    break
                if m[e - 1] == "\\":
                    j = e + 1
                    continue
                break
            i = boundary = min(e + 1, n)
            continue
        if c == "{":
            if depth == 0:
                header = m[boundary:i]
                name = re.search(r"([A-Za-z_]\w*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$", header)
                start_brace = i
                # find the matching brace
                d = 0
                j = i
                while j < n:
                    if m[j] == "{":
                        d += 1
                    elif m[j] == "}":
                        d -= 1
                        if d == 0:
                            break
                    j += 1
                end = j + 1
                if end < n and text[end] == "\n":
                    end += 1
                if name and "=" not in header:
                    funcs.append((boundary, _header_start(text, boundary, start_brace), end,
                                  name.group(1)))
                i = boundary = end
                continue
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                boundary = i + 1
        elif c == ";" and depth == 0:
            boundary = i + 1
        i += 1
    return funcs


def _header_start(text, boundary, brace):
    """Where the declaration itself begins: the line of its first token after `boundary` (the
    comments and blank lines above it are not part of it)."""
    m = mask(text)
    j = boundary
    while j < brace and m[j].isspace():
        j += 1
    return text.rfind("\n", 0, j) + 1


def wrap_literals(code):
    """Every floating literal outside comments and strings as (real)<literal without suffix>."""
    m = mask(code)
    out, last = [], 0
    for lit in FLOAT_LIT.finditer(m):
        before = m[:lit.start()].rstrip()
        if before.endswith("(real)"):
            continue
        out.append(code[last:lit.start()])
        out.append("(real)" + lit.group(1))
        last = lit.end()
    out.append(code[last:])
    return "".join(out)


def sub_code(pattern, repl, code):
    """re.sub applied only outside comments and strings."""
    m = mask(code)
    out, last = [], 0
    for hit in re.finditer(pattern, m):
        out.append(code[last:hit.start()])
        out.append(hit.expand(repl) if isinstance(repl, str) else repl(hit))
        last = hit.end()
    out.append(code[last:])
    return "".join(out)


def tokens(code):
    m = mask(code)
    return re.findall(r"[A-Za-z_]\w*|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFlLuU]*|\S", m)


def normalise(code, helpers):
    """The token list of one copy with precision spelling removed, for the drift comparison."""
    code = sub_code(r"\b(double|float)\b", "real", code)
    code = sub_code(r"\b(\w+)_fp(?:64|32)\b", r"\1", code)
    code = sub_code(r"\b(" + "|".join(MATH_F) + r")f\b", r"\1", code)
    code = sub_code(r"\bFLT_", "DBL_", code)
    toks = tokens(code)
    out = []
    i = 0
    while i < len(toks):
        # (real) <literal> -> <literal>; literal spelling -> its value
        if toks[i:i + 3] == ["(", "real", ")"] and i + 3 < len(toks) and FLOAT_LIT.fullmatch(
                toks[i + 3]):
            i += 3
            continue
        t = toks[i]
        lit = FLOAT_LIT.fullmatch(t)
        if lit:
            t = repr(float(lit.group(1)))
        out.append(t)
        i += 1
    return out


def literal_types(code):
    """How many floating literals of a float copy are double (no f suffix, not cast)."""
    m = mask(code)
    n = 0
    for lit in FLOAT_LIT.finditer(m):
        if lit.group(2) in ("f", "F"):
            continue
        if m[:lit.start()].rstrip().endswith(("(float)", "(real)")):
            continue
        n += 1
    return n


def kernel_id(path):
    kj = os.path.join(os.path.dirname(path), "kernel.json")
    if os.path.exists(kj):
        with open(kj) as f:
            return json.load(f)["id"]
    return os.path.basename(os.path.dirname(os.path.abspath(path)))


def expand_macro_form(text, kid):
    """A reference written as `#define DEFINE_X(NAME, real, ...) <body>` instantiated twice:
    the fp64 instantiation's body, unrolled into plain functions (old-form text)."""
    m = mask(text)
    defs = {}
    for d in re.finditer(r"^#define\s+(\w+)\(([^)]*)\)", m, re.M):
        # the macro's full text: continuation lines
        e = d.end()
        while True:
            nl = text.find("\n", e)
            if nl < 0:
                nl = len(text)
                break
            if text[nl - 1] == "\\":
                e = nl + 1
                continue
            break
        params = [p.strip() for p in d.group(2).split(",")]
        body = text[d.end():nl]
        defs[d.group(1)] = (d.start(), nl + 1, params, body)
    calls = list(re.finditer(r"^(\w+)\(([^)]*)\)\s*;?\s*$", m, re.M))
    uses = [c for c in calls if c.group(1) in defs]
    if not uses:
        raise Unconvertible("no fp64/fp32 function and no DEFINE_ macro instantiation found")
    # replace the instantiations of fp64 by the expanded body, drop those of fp32
    pieces = []
    removed_macros = set()
    fp32_drop = []
    for c in uses:
        args = [a.strip() for a in c.group(2).split(",")]
        name = c.group(1)
        start, end, params, body = defs[name]
        if len(args) != len(params):
            raise Unconvertible(f"{name}: {len(args)} arguments for {len(params)} parameters")
        if any(a.endswith("_fp32") or a == "float" for a in args):
            fp32_drop.append(c)
            continue
        if "float" in args or "double" not in args and "real" in params:
            raise Unconvertible(f"{name} instantiated without double")
        body = re.sub(r"\\\n", "\n", body)
        lines = body.split("\n")
        # strip the continuation padding and the macro body's extra indentation
        lines = [ln.rstrip() for ln in lines]
        indent = min((len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()), default=0)
        lines = [ln[indent:] for ln in lines]
        body = "\n".join(lines).strip("\n") + "\n"
        for p, a in zip(params, args):
            if p == "real" and a == "double":
                continue
            # token pasting: NAME##_dot -> <name>_dot
            body = re.sub(r"\b" + re.escape(p) + r"\s*##\s*", a, body)
            body = re.sub(r"\s*##\s*" + re.escape(p) + r"\b", a, body)
            body = re.sub(r"\b" + re.escape(p) + r"\b", a, body)
        removed_macros.add(name)
        pieces.append((c.start(), c.end(), body))
    for c in fp32_drop:
        pieces.append((c.start(), c.end(), ""))
    for name in removed_macros:
        start, end, _, _ = defs[name]
        pieces.append((start, end, ""))
    res = []
    last = 0
    for s, e, rep in sorted(pieces):
        res.append(text[last:s])
        res.append(rep)
        last = e
        if rep == "" and last < len(text) and text[last] == "\n":
            last += 1
    res.append(text[last:])
    body = "".join(res)
    body = re.sub(r"\n{3,}", "\n\n", body)
    # the fp64 instantiation's body now uses `real` as the macro did: spell it double, so the
    # rest of the conversion treats it like any old-form file
    # An explicit `double` in the macro's body was double at both precisions (a constant set up
    # in double, as NumPy computes Python scalars, then rounded): it stays double. Where it
    # takes a `real` implicitly, the strict fp32 build asks for an explicit (double) cast.
    body = sub_code(r"\bdouble\b", KEEP_DOUBLE, body)
    body = sub_code(r"\breal\b", "double", body)
    return body


def convert_text(text, kid):
    """(new text, drift report lines, fp32 double-literal count) of one reference.c."""
    drift = []
    funcs = top_level_functions(text)
    names = [f[3] for f in funcs]
    if kid + "_fp64" not in names:
        text = expand_macro_form(text, kid)
        funcs = top_level_functions(text)
        names = [f[3] for f in funcs]
        if kid + "_fp64" not in names:
            raise Unconvertible(f"no {kid}_fp64 after expanding the macro form")
        drift.append("(macro form: one body for both precisions, nothing to compare)")
    helpers = sorted({n[:-5] for n in names if n.endswith("_fp64") and n != kid + "_fp64"})
    fp32 = {f[3]: f for f in funcs if f[3].endswith("_fp32")}
    fp64 = {f[3]: f for f in funcs if f[3].endswith("_fp64")}
    promo = 0
    for name, f in fp64.items():
        twin = fp32.get(name[:-5] + "_fp32")
        if twin is None:
            continue
        a = normalise(text[f[1]:f[2]], helpers)
        b = normalise(text[twin[1]:twin[2]], helpers)
        promo += literal_types(text[twin[1]:twin[2]])
        if a != b:
            diff = list(difflib.unified_diff(a, b, "fp64", "fp32", n=3, lineterm=""))
            drift.append(f"{name[:-5]}: the fp32 copy differs: " + " ".join(diff[2:40]))
    for name in fp32:
        if name[:-5] + "_fp64" not in fp64:
            raise Unconvertible(f"{name} has no fp64 twin")
    # drop every fp32 function (with the comment above it), bottom up
    out = text
    for f in sorted(fp32.values(), key=lambda f: -f[0]):
        out = out[:f[0]] + out[f[2]:]
    out = re.sub(r"\n{3,}", "\n\n", out).rstrip("\n") + "\n"
    # the names
    out = sub_code(r"\b" + re.escape(kid) + r"_fp64\b", "HPCAB_KERNEL(" + kid + ")", out)
    # helpers pasted from the kernel's name (<id>_fp64_dot) lose the precision: <id>_dot
    out = sub_code(r"\b" + re.escape(kid) + r"_fp64_(\w+)", kid + r"_\1", out)
    for h in helpers:
        out = sub_code(r"\b" + re.escape(h) + r"_fp64\b", h, out)
    # helpers are the kernel's own: static
    for f in top_level_functions(out):
        if f[3].startswith("HPCAB_KERNEL") or f[3] == "HPCAB_KERNEL":
            continue
        hdr = out[f[1]:]
        if not re.match(r"\s*static\b", hdr):
            out = out[:f[1]] + "static " + out[f[1]:]
    out = sub_code(r"\bdouble\b", "real", out)
    out = out.replace(KEEP_DOUBLE, "double")
    out = sub_code(r"\b(" + "|".join(MATH_F) + r")f\b", r"\1", out)
    out = sub_code(r"\bDBL_(MAX|MIN|EPSILON)\b", r"HPCAB_REAL_\1", out)
    out = wrap_literals(out)
    return reflow(out), drift, promo


def reflow(code):
    """Re-indents the continuation lines of a function header whose name changed length."""
    def fix(hit):
        head = hit.group(0)
        first, *rest = head.split("\n")
        col = first.index("(", first.index("HPCAB_KERNEL(") + len("HPCAB_KERNEL(")) + 1
        rest = [" " * col + ln.lstrip() for ln in rest]
        return "\n".join([first] + rest)
    return re.sub(r"^[^\n]*HPCAB_KERNEL\(\w+\)\([^{;]*\)\s*\{", fix, code, flags=re.M)


def clang_format(text, path):
    exe = shutil.which("clang-format")
    if exe is None:
        return text
    r = subprocess.run([exe, "--assume-filename=" + path], input=text, capture_output=True,
                       text=True, cwd=ROOT)
    return r.stdout if r.returncode == 0 else text


def formatted(text, path):
    return shutil.which("clang-format") is not None and clang_format(text, path) == text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(ROOT, "corpus", "**", "reference.c"),
                                           recursive=True))
    old, failed, drifted, promoted = 0, [], [], []
    for path in files:
        with open(path) as f:
            text = f.read()
        if "HPCAB_KERNEL(" in text:
            continue
        old += 1
        kid = kernel_id(path)
        try:
            new, drift, promo = convert_text(text, kid)
        except Unconvertible as e:
            failed.append((path, str(e)))
            print(f"{path}: cannot convert: {e}", file=sys.stderr)
            continue
        real_drift = [d for d in drift if not d.startswith("(macro form")]
        if real_drift:
            drifted.append(path)
            for d in real_drift:
                print(f"DRIFT {kid}: {d}")
        if promo:
            promoted.append((kid, promo))
        if not args.check:
            # A file that clang-format (the repository's .clang-format) left as it was is
            # formatted again after the conversion (the longer names move line breaks).
            if formatted(text, path):
                new = clang_format(new, path)
            with open(path, "w") as f:
                f.write(new)
    print(f"{old} in the old form, {len(failed)} not convertible, {len(drifted)} with drift")
    if promoted:
        print("fp32 copies computing some literal in double (no f suffix): " +
              " ".join(f"{k}({n})" for k, n in promoted))
    if failed:
        return 2
    return 1 if args.check and old else 0


if __name__ == "__main__":
    sys.exit(main())
