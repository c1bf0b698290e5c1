// Timed sizes chosen by time (SPEC §5.7): the size ladder between a kernel's presets,
// the search for the smallest sizes at which the credited baseline's call lasts at least
// `min_call_ms`, and the secret jitter of hidden timed sizes around them. Pure: the search
// takes the measurement as a function, so its rules are unit-tested without running anything.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "common/dtype.h"
#include "common/manifest.h"
#include "common/result.h"

namespace hpcab::judge {

// The presets in ladder order (S, M, L, XL: those the manifest has).
std::vector<std::string> ladder_presets(const Manifest& m);

// How far below S the ladder reaches, in presets (the S-M step extended down): paper-scale S
// can be far slower than min_call_ms (gemm's 1000x1100x1200 is a 0.25 s call on a 2-core VM).
inline constexpr double kBelowS = 4;

// Sizes at ladder position t in [-kBelowS, presets - 1] (clamped; [0, 0] with one preset): each
// symbol interpolated geometrically between the neighbouring presets (log-linear, so relations
// like H >= K that hold at both presets hold in between), below S extrapolated from S and M,
// rounded, at least 1, then rounded down onto the manifest's constraints where it has any
// (snap_to_constraints; left as interpolated when no rounding satisfies them, which
// unusable_sizes then reports).
SymbolTable ladder_sizes(const Manifest& m, double t);

// Why `sizes` cannot be timed (an array extent below 1, a broken constraint, more than
// `max_bytes` of data, or ungradeable at `p`), nullopt when they can.
std::optional<std::string> unusable_sizes(const Manifest& m, Precision p, const SymbolTable& sizes,
                                          uint64_t max_bytes);

// `base` with every size symbol scaled by a factor drawn from [lo, hi] with `seed` (so a hidden
// timed configuration is near the calibrated size but not at it), rounded down onto the
// constraints; `base` itself when the drawn sizes are unusable.
SymbolTable jittered_sizes(const Manifest& m, Precision p, const SymbolTable& base, uint64_t seed,
                           double lo, double hi, uint64_t max_bytes);

struct Calibration {
  SymbolTable sizes;
  double baseline_ns = 0;  // the measured call at `sizes` (the fastest of calibration_calls)
  double t = 0;            // ladder position
  int measurements = 0;
  bool reached = false;  // false: the largest usable size is still below the target
};

// The smallest ladder sizes whose measured call lasts at least `target_ns` (within a few
// measurements: a secant search on log time, never stepping more than one preset past the last
// measured point, so a slow kernel is never measured far above the target; from a single point
// it steps to where the data has grown by the time still missing, as a call's time grows at
// least as fast as its data; from S slower than the target it steps down below S the same
// way, to the smallest usable sizes at most). `measure` returns the median ns of a call at the
// given sizes.
Result<Calibration> calibrate_sizes(
    const Manifest& m, Precision p, double target_ns, uint64_t max_bytes,
    const std::function<Result<double>(const SymbolTable&)>& measure, int max_measurements = 7);

}  // namespace hpcab::judge
