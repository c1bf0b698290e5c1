// The corpus check (SPEC §3): for each kernel, reference.c against reference.py on generated
// inputs (preset S with each distribution, plus fuzzed draws, in every listed precision),
// compared with the judge's comparator, and the linter that rejects degenerate tasks.
#pragma once

#include <cstdint>
#include <filesystem>
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
};

struct KernelCheck {
  std::string id, track;
  bool ok = false;
  double max_rel_error = 0;
  int cases = 0;        // cases compared
  int ungradeable = 0;  // cases skipped as ungradeable at their precision
  std::string reason;   // first failure, empty when ok
  // Presets other than S that are ungradeable at a supported precision ("M fp64"): the judge
  // leaves them out of /submit (reported as excluded) and refuses them as the public preset.
  std::vector<std::string> ungradeable_presets;
  // Presets other than S whose arrays do not fit the data budget of `memory_bytes` at a
  // supported precision ("L fp64"): the judge refuses them as the public preset and leaves them
  // out of /submit (reported as excluded).
  std::vector<std::string> oversized_presets;
};

// The presets check (issue 13, "every reference passes its own grade"): preset S, the default
// public and hidden-variant size, must be gradeable at every supported precision; an error
// names the precision and the numbers. Other ungradeable presets are listed in `out`.
Status check_presets_gradeable(const Manifest& m, std::vector<std::string>* out);

// The memory check (issue 13): every preset's arrays, at every supported precision, against the
// data budget of a runner limited to `memory_bytes` (a quarter of it, as the judge's calibration
// uses). Preset S, the default public and hidden-variant size, must fit; an error names the
// precision and the amounts. Other presets that do not fit are listed in `out`, per precision
// from S to XL.
Status check_presets_fit(const Manifest& m, uint64_t memory_bytes, std::vector<std::string>* out);

KernelCheck check_kernel(const Manifest& m, const CheckOptions& options);

// "gemm  scientific_computing  ok  3.1e-16" — one table row.
std::string format_check_row(const KernelCheck& k);

}  // namespace hpcab
