// The tolerance comparator (SPEC §5.6): the one place that decides whether an output matches
// the reference. Integers and bools exactly; reals |a - e| <= atol + rtol*|e| elementwise with
// NaN positions equal and ±Inf positions and signs equal. For a declared reduction length l,
// atol is raised to the reassociation floor l*eps*max|e|; l*eps >= rtol is ungradeable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "common/manifest.h"
#include "common/ndarray.h"

namespace hpcab {

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

// The base band of a precision: fp64 1e-9/1e-11, fp32 1e-3/1e-5.
Tolerance tolerance_band(Precision p);

// Why a configuration cannot be graded at precision `p` (SPEC §5.6): its declared reduction
// length times epsilon reaches rtol, so no tolerance separates reassociation from error. The
// reason names the numbers; nullopt when gradeable (or the kernel declares no reduction).
std::optional<std::string> ungradeable_reason(const Manifest& m, Precision p,
                                              const SymbolTable& sizes);

struct CompareOptions {
  Precision precision = Precision::kFp64;
  std::optional<int64_t> reduction_length;  // none: no floor
};

struct Mismatch {
  std::string output;  // array name
  int64_t index = 0;   // flat (row-major) index; -1 for a shape or dtype mismatch
  double expected = 0;
  double actual = 0;
};

struct CompareResult {
  enum class Status { kPass, kFail, kUngradeable };
  Status status = Status::kPass;
  // max of |a-e|/|e| (|a-e| where e == 0) over real element pairs where both values are
  // finite; 0 when there is no real output.
  double max_rel_error = 0;
  std::optional<Mismatch> first_failure;
  std::string detail;  // human text: names output, index and both values on failure
  bool passed() const { return status == Status::kPass; }
};

struct NamedArray {
  std::string name;
  const NdArray* array = nullptr;
};

// Compares one output. `expected` is the reference.
CompareResult compare_array(const std::string& name, const NdArray& expected, const NdArray& actual,
                            const CompareOptions& options);

// Compares every output (matched by name, in the order of `expected`); fails on the first
// failing output but keeps the max relative error over all compared outputs.
CompareResult compare_outputs(const std::vector<NamedArray>& expected,
                              const std::vector<NamedArray>& actual, const CompareOptions& options);

}  // namespace hpcab
