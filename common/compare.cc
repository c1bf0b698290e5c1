#include "common/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <utility>

namespace hpcab {

namespace {

using CmpStatus = CompareResult::Status;

// Below this many elements a parallel region costs more than the scan it would split.
[[maybe_unused]] constexpr int64_t kParallelMin = int64_t{1} << 16;  // OpenMP builds only

__attribute__((format(printf, 1, 2))) std::string strprintf(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string out;
  if (n > 0) {
    out.resize(static_cast<std::size_t>(n) + 1);
    std::vsnprintf(out.data(), out.size(), fmt, args);
    out.resize(static_cast<std::size_t>(n));
  }
  va_end(args);
  return out;
}

// NumPy's spelling: "()", "(5,)", "(2, 3)".
std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

// "C[3,17] (flat 227)"; a shape-() array is "C[] (flat 0)".
std::string index_string(const std::string& name, const std::vector<int64_t>& shape, int64_t flat) {
  std::vector<int64_t> idx(shape.size());
  int64_t rest = flat;
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (shape[d] > 0) {
      idx[d] = rest % shape[d];
      rest /= shape[d];
    }
  }
  std::string s = name + "[";
  for (std::size_t d = 0; d < idx.size(); ++d) {
    if (d > 0) s += ",";
    s += std::to_string(idx[d]);
  }
  return s + "] (flat " + std::to_string(flat) + ")";
}

// Exact text of an integer or bool element (a double would round int64 above 2^53).
std::string integer_value_string(const NdArray& a, int64_t i) {
  switch (a.dtype()) {
    case DType::kInt64:
      return std::to_string(a.as<int64_t>()[i]);
    case DType::kInt32:
      return std::to_string(a.as<int32_t>()[i]);
    case DType::kUint16:
      return std::to_string(a.as<uint16_t>()[i]);
    case DType::kUint8:
      return std::to_string(a.as<uint8_t>()[i]);
    case DType::kInt8:
      return std::to_string(a.as<int8_t>()[i]);
    case DType::kBool:
      return a.as<uint8_t>()[i] != 0 ? "true" : "false";
    case DType::kFloat64:
    case DType::kFloat32:
      break;
  }
  return strprintf("%.17g", a.get(i));
}

// The scans below work in blocks. A screening pass over a block uses only arithmetic and max/+
// reductions, which GCC vectorizes under `omp simd` even at -O2 (boolean logic or selects in
// the loop body defeat it); it flags every block that may hold a failure, conservatively. Only
// a flagged block is rescanned element by element with the exact rule, so the screen decides
// speed, never the verdict. Blocks are the unit of OpenMP work and every reduction is
// order-independent (min index, max error, a sum of zeros), so results do not depend on the
// thread count. Clang (14) cannot vectorize floating-point max reductions without fast-math and
// warns that it could not honour `omp simd` there, so those loops request it from GCC only.
constexpr int64_t kBlock = 4096;
constexpr double kDoubleMax = std::numeric_limits<double>::max();
// The screen flags pairs within this factor of the bound too, so that a compiler contracting
// atol + rtol*|e| into an FMA differently in the vector and scalar loops (-march with FMA,
// -ffp-contract=fast) cannot make the screen pass a pair the exact rule fails.
constexpr double kScreenSlack = 1.0 - 0x1p-30;

template <typename T, bool kIsBool>
inline bool integer_differs(T e, T a) {
  // Bools compare by truth value, so a Fortran .true. stored as a byte other than 1 is true.
  if constexpr (kIsBool) {
    return (e != 0) != (a != 0);
  } else {
    return e != a;
  }
}

// The lowest flat index where the two arrays differ, or n.
template <typename T, bool kIsBool>
int64_t first_integer_mismatch(const T* e, const T* a, int64_t n) {
  const int64_t blocks = (n + kBlock - 1) / kBlock;
  int64_t first = n;
#ifdef _OPENMP
#pragma omp parallel for reduction(min : first) if (n >= kParallelMin)
#endif
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t lo = b * kBlock;
    const int64_t hi = std::min(n, lo + kBlock);
    // Any differing bit flags the block (for bools too: the rescan applies the truth rule).
    T bits = 0;
#ifdef _OPENMP
#pragma omp simd reduction(| : bits)
#endif
    for (int64_t i = lo; i < hi; ++i) bits |= static_cast<T>(e[i] ^ a[i]);
    if (bits == 0) continue;
    for (int64_t i = lo; i < hi; ++i) {
      if (integer_differs<T, kIsBool>(e[i], a[i])) {
        first = std::min(first, i);
        break;
      }
    }
  }
  return first;
}

template <typename T>
double max_abs_finite(const T* e, int64_t n) {
  const int64_t blocks = (n + kBlock - 1) / kBlock;
  double m = 0;
#ifdef _OPENMP
#pragma omp parallel for reduction(max : m) if (n >= kParallelMin)
#endif
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t lo = b * kBlock;
    const int64_t hi = std::min(n, lo + kBlock);
    double block_m = 0;
#if defined(_OPENMP) && !defined(__clang__)  // see kBlock
#pragma omp simd reduction(max : block_m)
#endif
    for (int64_t i = lo; i < hi; ++i) {
      const double v = std::fabs(static_cast<double>(e[i]));
      // NaN fails the comparison and Inf exceeds the maximum, so only finite values count.
      const double f = v <= kDoubleMax ? v : 0.0;
      block_m = f > block_m ? f : block_m;
    }
    m = std::max(m, block_m);
  }
  return m;
}

// The exact elementwise rule: whether element (ev, av) fails, and its contribution to the max
// relative error (0 unless both values are finite).
inline bool element_fails(double ev, double av, double rtol, double atol, double* rel) {
  *rel = 0;
  if (std::isfinite(ev) && std::isfinite(av)) {
    const double ae = std::fabs(ev);
    // May be Inf when the difference of two finite values overflows; that fails too.
    const double d = std::fabs(av - ev);
    *rel = ae == 0 ? d : d / ae;
    return !(d <= atol + rtol * ae);
  }
  // NaN must meet NaN; an infinity must meet the same infinity.
  return !((std::isnan(ev) && std::isnan(av)) || ev == av);
}

struct RealScan {
  int64_t first_fail;  // n when every element passes
  double max_rel;
};

// One pass over a real output: the lowest failing flat index and the max relative error over
// the elements where both sides are finite.
template <typename T>
RealScan scan_real(const T* e, const T* a, int64_t n, double rtol, double atol) {
  const int64_t blocks = (n + kBlock - 1) / kBlock;
  int64_t first = n;
  double max_rel = 0;
#ifdef _OPENMP
#pragma omp parallel for reduction(min : first) reduction(max : max_rel) if (n >= kParallelMin)
#endif
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t lo = b * kBlock;
    const int64_t hi = std::min(n, lo + kBlock);
    // excess = |a-e| - (atol + rtol*|e|)*slack is > 0 wherever a finite pair fails (with
    // gradual underflow x - y == 0 only when x == y), and for a few borderline passes. A NaN or Inf
    // on either side makes excess NaN or Inf, so excess * 0 is NaN and the sum `special` turns NaN.
    // `rel` is right only for blocks of finite pairs; a block with a special value is rescanned
    // exactly.
    double excess_max = -1;
    double special = 0;
    double block_rel = 0;
#if defined(_OPENMP) && !defined(__clang__)  // see kBlock
#pragma omp simd reduction(max : excess_max, block_rel) reduction(+ : special)
#endif
    for (int64_t i = lo; i < hi; ++i) {
      const double ev = static_cast<double>(e[i]);
      const double av = static_cast<double>(a[i]);
      const double ae = std::fabs(ev);
      const double d = std::fabs(av - ev);
      const double excess = d - (atol + rtol * ae) * kScreenSlack;
      excess_max = excess > excess_max ? excess : excess_max;
      special += excess * 0.0;
      const double rel = d / (ae + static_cast<double>(ae == 0));
      block_rel = rel > block_rel ? rel : block_rel;
    }
    if (excess_max <= 0 && special == 0) {
      max_rel = std::max(max_rel, block_rel);
      continue;
    }
    block_rel = 0;
    for (int64_t i = lo; i < hi; ++i) {
      double rel;
      if (element_fails(static_cast<double>(e[i]), static_cast<double>(a[i]), rtol, atol, &rel)) {
        first = std::min(first, i);
      }
      block_rel = std::max(block_rel, rel);
    }
    max_rel = std::max(max_rel, block_rel);
  }
  return {first, max_rel};
}

// Fp32 if either the run or the array's storage is single precision: a float32 array cannot
// carry fp64 accuracy, so the fp64 band would demand bit-exactness of it.
Precision effective_precision(Precision run, DType dtype) {
  return (run == Precision::kFp32 || dtype == DType::kFloat32) ? Precision::kFp32
                                                               : Precision::kFp64;
}

CompareResult structural_failure(const std::string& name, std::string what) {
  CompareResult r;
  r.status = CmpStatus::kFail;
  r.first_failure = Mismatch{name, -1, 0, 0};
  r.detail = "output " + name + ": " + std::move(what);
  return r;
}

CompareResult compare_integer(const std::string& name, const NdArray& expected,
                              const NdArray& actual) {
  const int64_t n = expected.size();
  int64_t first = n;
  switch (expected.dtype()) {
    case DType::kInt64:
      first =
          first_integer_mismatch<int64_t, false>(expected.as<int64_t>(), actual.as<int64_t>(), n);
      break;
    case DType::kInt32:
      first =
          first_integer_mismatch<int32_t, false>(expected.as<int32_t>(), actual.as<int32_t>(), n);
      break;
    case DType::kUint16:
      first = first_integer_mismatch<uint16_t, false>(expected.as<uint16_t>(),
                                                      actual.as<uint16_t>(), n);
      break;
    case DType::kUint8:
      first =
          first_integer_mismatch<uint8_t, false>(expected.as<uint8_t>(), actual.as<uint8_t>(), n);
      break;
    case DType::kInt8:
      first = first_integer_mismatch<int8_t, false>(expected.as<int8_t>(), actual.as<int8_t>(), n);
      break;
    case DType::kBool:
      first =
          first_integer_mismatch<uint8_t, true>(expected.as<uint8_t>(), actual.as<uint8_t>(), n);
      break;
    case DType::kFloat64:
    case DType::kFloat32:
      break;
  }
  CompareResult r;
  const std::string type(dtype_name(expected.dtype()));
  if (first == n) {
    r.detail = strprintf("output %s: pass (%lld %s elements, exactly equal)", name.c_str(),
                         static_cast<long long>(n), type.c_str());
    return r;
  }
  r.status = CmpStatus::kFail;
  r.first_failure = Mismatch{name, first, expected.get(first), actual.get(first)};
  r.detail = "output " + name + ": " + index_string(name, expected.shape(), first) + ": expected " +
             integer_value_string(expected, first) + ", actual " +
             integer_value_string(actual, first) + " (" + type + " outputs must be exactly equal)";
  return r;
}

CompareResult compare_real(const std::string& name, const NdArray& expected, const NdArray& actual,
                           const CompareOptions& options) {
  const int64_t n = expected.size();
  const bool fp64 = expected.dtype() == DType::kFloat64;
  const Precision p = effective_precision(options.precision, expected.dtype());
  const Tolerance band = tolerance_band(p);
  const double eps = precision_epsilon(p);
  const double rtol = band.rtol;
  double atol = band.atol;
  std::string tol_text = strprintf("rtol %g, atol %g", rtol, band.atol);

  bool ungradeable = false;
  std::string ungradeable_text;
  if (options.reduction_length) {
    const int64_t l = *options.reduction_length;
    const double l_eps = static_cast<double>(l) * eps;
    if (l < 0) {
      ungradeable = true;
      ungradeable_text = strprintf(
          "reduction length %lld is negative: this configuration cannot be graded (a manifest "
          "error)",
          static_cast<long long>(l));
    } else if (l_eps >= rtol) {
      ungradeable = true;
      ungradeable_text = strprintf(
          "reduction length %lld times epsilon %.17g = %.6g >= rtol %g: this configuration "
          "cannot be graded at this precision (%s)",
          static_cast<long long>(l), eps, l_eps, rtol, std::string(precision_name(p)).c_str());
    } else {
      const double max_e =
          fp64 ? max_abs_finite(expected.as<double>(), n) : max_abs_finite(expected.as<float>(), n);
      const double floor = l_eps * max_e;
      if (floor > atol) {
        atol = floor;
        tol_text = strprintf(
            "rtol %g, atol %.6g (reduction floor: length %lld * epsilon %.6g * max|e| %.6g, above "
            "the band's %g)",
            rtol, atol, static_cast<long long>(l), eps, max_e, band.atol);
      }
    }
  }

  const RealScan scan = fp64 ? scan_real(expected.as<double>(), actual.as<double>(), n, rtol, atol)
                             : scan_real(expected.as<float>(), actual.as<float>(), n, rtol, atol);
  CompareResult r;
  r.max_rel_error = scan.max_rel;
  if (ungradeable) {
    r.status = CmpStatus::kUngradeable;
    r.detail = strprintf("output %s: %s (max_rel_error %.6g)", name.c_str(),
                         ungradeable_text.c_str(), scan.max_rel);
    return r;
  }
  if (scan.first_fail == n) {
    r.detail =
        strprintf("output %s: pass (%lld %s elements, max_rel_error %.6g, %s)", name.c_str(),
                  static_cast<long long>(n), std::string(dtype_name(expected.dtype())).c_str(),
                  scan.max_rel, tol_text.c_str());
    return r;
  }
  const int64_t i = scan.first_fail;
  const double ev = expected.get(i);
  const double av = actual.get(i);
  r.status = CmpStatus::kFail;
  r.first_failure = Mismatch{name, i, ev, av};
  std::string why;
  if (std::isnan(ev) || std::isnan(av)) {
    why = "NaN positions differ";
  } else if (std::isinf(ev) || std::isinf(av)) {
    why = "Inf positions or signs differ";
  } else {
    why = strprintf("|a-e| = %.17g > atol + rtol*|e| = %.17g", std::fabs(av - ev),
                    atol + rtol * std::fabs(ev));
  }
  r.detail = strprintf("output %s: %s: expected %.17g, actual %.17g (%s; %s; max_rel_error %.6g)",
                       name.c_str(), index_string(name, expected.shape(), i).c_str(), ev, av,
                       why.c_str(), tol_text.c_str(), scan.max_rel);
  return r;
}

}  // namespace

Tolerance tolerance_band(Precision p) {
  return p == Precision::kFp64 ? Tolerance{1e-9, 1e-11} : Tolerance{1e-3, 1e-5};
}

CompareResult compare_array(const std::string& name, const NdArray& expected, const NdArray& actual,
                            const CompareOptions& options) {
  if (expected.dtype() != actual.dtype()) {
    return structural_failure(name, "dtype mismatch: expected " +
                                        std::string(dtype_name(expected.dtype())) + ", actual " +
                                        std::string(dtype_name(actual.dtype())));
  }
  if (expected.shape() != actual.shape()) {
    return structural_failure(name, "shape mismatch: expected " + shape_string(expected.shape()) +
                                        ", actual " + shape_string(actual.shape()));
  }
  if (expected.size() > 0 && (expected.data() == nullptr || actual.data() == nullptr)) {
    return structural_failure(name, "array has no data");
  }
  if (dtype_is_float(expected.dtype())) return compare_real(name, expected, actual, options);
  return compare_integer(name, expected, actual);
}

CompareResult compare_outputs(const std::vector<NamedArray>& expected,
                              const std::vector<NamedArray>& actual,
                              const CompareOptions& options) {
  CompareResult total;
  std::optional<CompareResult> ungradeable;
  for (const NamedArray& e : expected) {
    const NamedArray* a = nullptr;
    for (const NamedArray& candidate : actual) {
      if (candidate.name == e.name) {
        a = &candidate;
        break;
      }
    }
    CompareResult r;
    if (e.array == nullptr) {
      r = structural_failure(e.name, "no reference array");
    } else if (a == nullptr || a->array == nullptr) {
      r = structural_failure(e.name, "missing from the actual outputs");
    } else {
      r = compare_array(e.name, *e.array, *a->array, options);
    }
    total.max_rel_error = std::max(total.max_rel_error, r.max_rel_error);
    if (r.status == CmpStatus::kFail) {
      r.max_rel_error = total.max_rel_error;
      return r;
    }
    // An ungradeable output says nothing about the rest: a later exact (integer) output can
    // still prove the answer wrong, so keep going and report ungradeable only without a fail.
    if (r.status == CmpStatus::kUngradeable && !ungradeable) ungradeable = std::move(r);
  }
  if (ungradeable) {
    ungradeable->max_rel_error = total.max_rel_error;
    return *std::move(ungradeable);
  }
  total.detail =
      strprintf("all %zu outputs pass (max_rel_error %.6g)", expected.size(), total.max_rel_error);
  return total;
}

std::optional<std::string> ungradeable_reason(const Manifest& m, Precision p,
                                              const SymbolTable& sizes) {
  if (!m.reduction_length) return std::nullopt;
  auto l = m.reduction_length->eval(m.symbols(sizes));
  if (!l) return "reduction_length: " + l.error().message;
  const double l_eps = static_cast<double>(*l) * precision_epsilon(p);
  const double rtol = tolerance_band(p).rtol;
  if (*l >= 0 && l_eps < rtol) return std::nullopt;
  return strprintf("reduction length %lld times epsilon = %.3g >= rtol %g at %s",
                   static_cast<long long>(*l), l_eps, rtol, std::string(precision_name(p)).c_str());
}

}  // namespace hpcab
