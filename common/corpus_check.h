// The corpus check (SPEC §3): for each kernel, reference.c against reference.py on generated
// inputs (preset S with each distribution, plus fuzzed draws, in every listed precision),
// compared with the judge's comparator, and the linter that rejects degenerate tasks. A kernel
// without reference.c (NumPy is its oracle) has reference.py run on the same cases and linted.
// Optionally, reference.py compiled by Numba (plain and parallel) against its NumPy run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/build_info.h"
#include "common/manifest.h"

namespace hpcab {

struct CheckOptions {
  std::string python = HPCAB_DEFAULT_PYTHON;
  // The script that runs reference.py on .npy inputs.
  std::filesystem::path driver =
      std::filesystem::path(::hpcab::source_dir()) / "corpus" / "run_reference.py";
  std::filesystem::path work_dir;  // scratch space; must exist
  std::string cc = "gcc";
  std::vector<std::string> cflags = {"-std=c11", "-O2", "-march=native", "-fPIC", "-shared"};
  uint64_t seed = 0x4850434142434b31ULL;  // any fixed value: the check is reproducible
  int fuzzed_draws = 2;
  bool lint = true;
  double build_timeout_s = 120;
  double python_timeout_s = 600;
  // The memory limit of the judge's sandboxed runner (judge memory_bytes): a preset whose
  // arrays do not fit a quarter of it (data_budget) cannot run there.
  uint64_t memory_bytes = uint64_t{8} << 30;
  // Also run reference.py under numba.njit and numba.njit(parallel=True) once, on the first
  // fuzzed case of the first precision (about 1-3 s of JIT per kernel).
  bool numba = true;
};

// What Numba made of a kernel's reference.py: whether the numba / numba-parallel baselines
// exist. Unsupported (Numba cannot compile it) is no fault of the kernel; failed (it compiled
// but raised, returned a value or disagreed with NumPy) is.
struct NumbaStatus {
  enum class State { kNotChecked, kOk, kUnsupported, kFailed };
  State state = State::kNotChecked;
  std::string detail;  // unsupported: the first line of Numba's error; failed: why
  // "not_checked", "ok", "unsupported", "failed"
  const char* name() const;
  // "ok", "unsupported (<detail>)", "failed (<detail>)", "not checked"
  std::string text() const;
};

struct KernelCheck {
  std::string id, track;
  bool ok = false;
  // No reference.c: reference.py was run on every case and linted alone, nothing to compare
  // it with (max_rel_error stays 0). Otherwise reference.c was compared with reference.py.
  bool numpy_only = false;
  double max_rel_error = 0;
  int cases = 0;        // cases compared (NumPy-only: cases run and checked)
  int ungradeable = 0;  // cases skipped as ungradeable at their precision
  std::string reason;   // first failure, empty when ok
  // Presets other than S that are ungradeable at a supported precision ("M fp64"): the judge
  // leaves them out of /submit (reported as excluded) and refuses them as the public preset.
  std::vector<std::string> ungradeable_presets;
  // Presets other than S whose arrays do not fit the data budget of `memory_bytes` at a
  // supported precision ("L fp64"): the judge refuses them as the public preset and leaves them
  // out of /submit (reported as excluded).
  std::vector<std::string> oversized_presets;
  NumbaStatus numba, numba_parallel;  // not checked without CheckOptions::numba
};

// The presets check ("every reference passes its own grade"): preset S, the default
// public and hidden-variant size, must be gradeable at every supported precision; an error
// names the precision and the numbers. Other ungradeable presets are listed in `out`.
Status check_presets_gradeable(const Manifest& m, std::vector<std::string>* out);

// The memory check: every preset's arrays, at every supported precision, against the
// data budget of a runner limited to `memory_bytes` (a quarter of it, as the judge's calibration
// uses). Preset S, the default public and hidden-variant size, must fit; an error names the
// precision and the amounts. Other presets that do not fit are listed in `out`, per precision
// from S to XL.
Status check_presets_fit(const Manifest& m, uint64_t memory_bytes, std::vector<std::string>* out);

// The graded-outputs rule (a lint): every graded output is upstream's result or declares why it
// is graded anyway (the array's "graded_because"). A description sentence that calls an output
// something upstream does not return (one that says "output" together with "temporar",
// "intermediate", "scratch", "workspace", "signature", "returns only", "output(s) too" or
// "output(s) as in", and not "not (an) output(s)") needs at least one output with
// graded_because; the error quotes the sentence.
Status check_graded_outputs(const Manifest& m);

KernelCheck check_kernel(const Manifest& m, const CheckOptions& options);

// The Numba part alone (`hpcab corpus numba-status`): reference.py on one fuzzed case of the
// first precision under NumPy, numba.njit and numba.njit(parallel=True), compared. No presets,
// reference.c or linter; `ok` is false when the NumPy run fails or a Numba run fails.
KernelCheck check_numba(const Manifest& m, const CheckOptions& options);

// "gemm  scientific_computing  ok  3.1e-16  c-vs-numpy  numba: ok, numba-parallel: ok" — one
// table row: the statuses in full when checked ("unsupported (<first line>)"), by name after a
// failing row's reason.
std::string format_check_row(const KernelCheck& k);

// {"id", "track", "ok", "reason" (when not ok), "checked": "c-vs-numpy" | "numpy-only",
//  "numba": {"status": "ok" | "unsupported" | "failed" | "not_checked", "detail" (when any)},
//  "numba_parallel": {...}}: one kernel of `hpcab corpus numba-status --json`.
nlohmann::json check_json(const KernelCheck& k);

}  // namespace hpcab
