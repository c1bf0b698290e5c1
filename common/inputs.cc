#include "common/inputs.h"

#include <omp.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <set>

#include "common/rng.h"

namespace hpcab {

std::string_view distribution_name(Distribution d) {
  switch (d) {
    case Distribution::kUniform:
      return "uniform";
    case Distribution::kNormal:
      return "normal";
    case Distribution::kLognormal:
      return "lognormal";
  }
  return "?";
}

Distribution distribution_for_seed(uint64_t seed) { return static_cast<Distribution>(seed % 3); }

Result<SymbolTable> preset_sizes(const Manifest& m, const std::string& preset) {
  auto it = m.presets.find(preset);
  if (it == m.presets.end()) {
    return Error{"kernel '" + m.id + "' has no preset '" + preset + "' (expected S, M, L or XL)"};
  }
  return it->second;
}

SymbolTable fuzzed_sizes(const Manifest& m, uint64_t seed) {
  SymbolTable sizes = m.presets.at("S");
  for (const auto& [sym, range] : m.fuzzed) {
    auto r = philox(seed, stream_id("size:" + sym), 0);
    uint64_t span = static_cast<uint64_t>(range.second - range.first) + 1;
    uint64_t bits = (static_cast<uint64_t>(r[0]) << 32) | r[1];
    sizes[sym] = range.first + static_cast<int64_t>(bits % span);
  }
  return sizes;
}

double fold_into(const Domain& d, double x) {
  switch (d.kind) {
    case Domain::Kind::kAny:
      return x;
    case Domain::Kind::kPositive: {
      double a = std::fabs(x);
      return a < DBL_MIN ? DBL_MIN : a;
    }
    case Domain::Kind::kNonneg:
      return std::fabs(x);
    case Domain::Kind::kInterval: {
      // Triangle wave: reflect back and forth so the draw's shape survives inside [lo, hi].
      double w = d.hi - d.lo;
      double t = std::fmod(x - d.lo, 2 * w);
      if (t < 0) t += 2 * w;
      if (t > w) t = 2 * w - t;
      return d.lo + t;
    }
  }
  return x;
}

namespace {

// Elements 2k and 2k+1 share Philox block k: uniform values take one 64-bit half each, and
// Box-Muller turns the block's two uniforms into a cosine and a sine normal. Either way an
// element depends only on (seed, stream, its index).
inline void raw_pair(uint64_t seed, uint64_t stream, uint64_t block, Distribution dist,
                     double out[2]) {
  auto r = philox(seed, stream, block);
  if (dist == Distribution::kUniform) {
    out[0] = -1000.0 + 2000.0 * to_unit(r[0], r[1]);
    out[1] = -1000.0 + 2000.0 * to_unit(r[2], r[3]);
    return;
  }
  const double radius = std::sqrt(-2.0 * std::log(to_unit_open0(r[0], r[1])));
  const double angle = 2.0 * std::numbers::pi * to_unit(r[2], r[3]);
  out[0] = radius * std::cos(angle);
  out[1] = radius * std::sin(angle);
  if (dist == Distribution::kLognormal) {
    out[0] = std::exp(out[0]);
    out[1] = std::exp(out[1]);
  }
}

int thread_count(const DrawSpec& spec) {
  return spec.threads > 0 ? spec.threads : omp_get_max_threads();
}

constexpr int64_t kParallelThreshold = 1 << 14;

template <typename T>
void fill_real_typed(T* p, int64_t n, const Domain& dom, uint64_t seed, uint64_t stream,
                     Distribution dist, double scale, int threads) {
  const int64_t blocks = (n + 1) / 2;
  // A positive double below FLT_MIN would round to zero (or a denormal) in float.
  const bool clamp = sizeof(T) == 4 && dom.kind == Domain::Kind::kPositive;
#pragma omp parallel for num_threads(threads) schedule(static) if (n > kParallelThreshold)
  for (int64_t b = 0; b < blocks; ++b) {
    double v[2];
    raw_pair(seed, stream, static_cast<uint64_t>(b), dist, v);
    for (int64_t h = 0; h < 2 && 2 * b + h < n; ++h) {
      T x = static_cast<T>(fold_into(dom, scale * v[h]));
      if (clamp && !(x >= FLT_MIN)) x = FLT_MIN;
      p[2 * b + h] = x;
    }
  }
}

void fill_real(NdArray& a, const Domain& dom, uint64_t seed, uint64_t stream, Distribution dist,
               double scale, int threads) {
  if (a.dtype() == DType::kFloat64) {
    fill_real_typed(a.as<double>(), a.size(), dom, seed, stream, dist, scale, threads);
  } else {
    fill_real_typed(a.as<float>(), a.size(), dom, seed, stream, dist, scale, threads);
  }
}

template <typename T>
void fill_ints_typed(T* p, int64_t n, int64_t lo, uint64_t span, uint64_t seed, uint64_t stream,
                     int threads) {
  const int64_t blocks = (n + 1) / 2;
  // As for reals, elements 2k and 2k+1 take the two 64-bit halves of Philox block k.
#pragma omp parallel for num_threads(threads) schedule(static) if (n > kParallelThreshold)
  for (int64_t b = 0; b < blocks; ++b) {
    auto r = philox(seed, stream, static_cast<uint64_t>(b));
    const uint64_t bits[2] = {(static_cast<uint64_t>(r[0]) << 32) | r[1],
                              (static_cast<uint64_t>(r[2]) << 32) | r[3]};
    for (int64_t h = 0; h < 2 && 2 * b + h < n; ++h) {
      p[2 * b + h] =
          static_cast<T>(lo + static_cast<int64_t>(span == 0 ? bits[h] : bits[h] % span));
    }
  }
}

std::pair<int64_t, int64_t> dtype_limits(DType t) {
  switch (t) {
    case DType::kInt64:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
    case DType::kInt32:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case DType::kUint16:
      return {0, 65535};
    case DType::kUint8:
      return {0, 255};
    case DType::kBool:
      return {0, 1};
    default:
      return {0, 0};
  }
}

Status fill_ints(NdArray& a, const ArraySpec& spec, const SymbolTable& syms, uint64_t seed,
                 uint64_t stream, int threads) {
  int64_t lo = 0, hi = 100;
  if (a.dtype() == DType::kBool) {
    hi = 1;
  } else if (spec.range_lo) {
    auto l = spec.range_lo->eval(syms);
    if (!l) return l.error();
    auto h = spec.range_hi->eval(syms);
    if (!h) return h.error();
    lo = *l;
    hi = *h;
  }
  auto [tmin, tmax] = dtype_limits(a.dtype());
  if (lo > hi || lo < tmin || hi > tmax) {
    return Error{"array '" + spec.name + "': range [" + std::to_string(lo) + ", " +
                 std::to_string(hi) + "] is empty or does not fit " +
                 std::string(dtype_name(a.dtype()))};
  }
  uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;  // 0: full range
  const int64_t n = a.size();
  switch (a.dtype()) {
    case DType::kInt64:
      fill_ints_typed(a.as<int64_t>(), n, lo, span, seed, stream, threads);
      break;
    case DType::kInt32:
      fill_ints_typed(a.as<int32_t>(), n, lo, span, seed, stream, threads);
      break;
    case DType::kUint16:
      fill_ints_typed(a.as<uint16_t>(), n, lo, span, seed, stream, threads);
      break;
    case DType::kUint8:
    case DType::kBool:
      fill_ints_typed(a.as<uint8_t>(), n, lo, span, seed, stream, threads);
      break;
    default:
      return Error{"array '" + spec.name + "': not an integer type"};
  }
  return Ok{};
}

// Uniform integer in [0, bound) from a Philox block.
uint64_t below(uint64_t seed, uint64_t stream, uint64_t counter, uint64_t bound) {
  auto r = philox(seed, stream, counter);
  uint64_t bits = (static_cast<uint64_t>(r[0]) << 32) | r[1];
  return bits % bound;
}

void set_index(NdArray& a, int64_t i, int64_t v) {
  if (a.dtype() == DType::kInt64) {
    a.as<int64_t>()[i] = v;
  } else {
    a.as<int32_t>()[i] = static_cast<int32_t>(v);
  }
}

Status init_spd(NdArray& a, const std::string& name, uint64_t seed, int threads) {
  if (a.shape().size() != 2 || a.shape()[0] != a.shape()[1]) {
    return Error{"spd initializer: '" + name + "' is not square"};
  }
  const int64_t n = a.shape()[0];
  const uint64_t stream = stream_id(name);
  const bool f64 = a.dtype() == DType::kFloat64;
  // Off-diagonal uniform [-1, 1), diagonal n + [0, 1): strictly diagonally dominant with a
  // positive diagonal, hence symmetric positive definite and well conditioned.
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16) if (n * n > kParallelThreshold)
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i; j < n; ++j) {
      auto r = philox(seed, stream, static_cast<uint64_t>(i * n + j));
      double u = to_unit(r[0], r[1]);
      double v = i == j ? static_cast<double>(n) + u : 2.0 * u - 1.0;
      if (f64) {
        a.as<double>()[i * n + j] = a.as<double>()[j * n + i] = v;
      } else {
        a.as<float>()[i * n + j] = a.as<float>()[j * n + i] = static_cast<float>(v);
      }
    }
  }
  return Ok{};
}

void init_permutation(NdArray& a, const std::string& name, uint64_t seed) {
  const int64_t n = a.size();
  const uint64_t stream = stream_id(name);
  for (int64_t i = 0; i < n; ++i) set_index(a, i, i);
  // Fisher-Yates: O(n) and sequential; the permutation depends only on (seed, name, n).
  for (int64_t k = n - 1; k > 0; --k) {
    int64_t j = static_cast<int64_t>(
        below(seed, stream, static_cast<uint64_t>(k), static_cast<uint64_t>(k + 1)));
    int64_t vk = static_cast<int64_t>(a.get(k));
    int64_t vj = static_cast<int64_t>(a.get(j));
    set_index(a, k, vj);
    set_index(a, j, vk);
  }
}

Status init_csr(Draw& d, const Manifest& m, const Initializer& init, uint64_t seed,
                Distribution dist, double scale, int threads) {
  NdArray& indptr = d.arrays.at(init.indptr);
  NdArray& indices = d.arrays.at(init.indices);
  NdArray& data = d.arrays.at(init.data);
  const int64_t rows = indptr.size() - 1;
  const int64_t nnz = indices.size();
  auto cols_v = init.cols->eval(d.symbols);
  if (!cols_v) return cols_v.error();
  const int64_t cols = *cols_v;
  if (rows < 1 || cols < 1 || data.size() != nnz || nnz > rows * cols) {
    return Error{"csr initializer: need len(" + init.indptr + ") >= 2, len(" + init.data +
                 ") == len(" + init.indices + ") and nnz <= rows*cols (rows " +
                 std::to_string(rows) + ", cols " + std::to_string(cols) + ", nnz " +
                 std::to_string(nnz) + ")"};
  }
  const uint64_t stream = stream_id(init.indptr);
  // Each stored entry picks a row uniformly; rows over `cols` spill into the next rows with room.
  std::vector<int64_t> counts(static_cast<std::size_t>(rows), 0);
  for (int64_t e = 0; e < nnz; ++e) {
    counts[below(seed, stream, static_cast<uint64_t>(e), static_cast<uint64_t>(rows))]++;
  }
  int64_t spill = 0;
  for (auto& c : counts) {
    if (c > cols) {
      spill += c - cols;
      c = cols;
    }
  }
  for (int64_t r = 0; spill > 0; r = (r + 1) % rows) {
    int64_t take = std::min(spill, cols - counts[r]);
    counts[r] += take;
    spill -= take;
  }
  int64_t acc = 0;
  set_index(indptr, 0, 0);
  for (int64_t r = 0; r < rows; ++r) {
    acc += counts[r];
    set_index(indptr, r + 1, acc);
  }
  const uint64_t col_stream = stream_id(init.indices);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64) if (nnz > kParallelThreshold)
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t k = counts[r];
    const int64_t start = static_cast<int64_t>(indptr.get(r));
    // Floyd's sampling: k distinct columns from [0, cols) with k random numbers.
    std::set<int64_t> chosen;
    for (int64_t j = cols - k; j < cols; ++j) {
      uint64_t ctr =
          static_cast<uint64_t>(r) * static_cast<uint64_t>(cols) + static_cast<uint64_t>(j);
      int64_t t = static_cast<int64_t>(below(seed, col_stream, ctr, static_cast<uint64_t>(j + 1)));
      if (!chosen.insert(t).second) chosen.insert(j);
    }
    int64_t pos = start;
    for (int64_t c : chosen) set_index(indices, pos++, c);
  }
  const ArraySpec* dspec = m.array(init.data);
  fill_real(data, dspec->domain, seed, stream_id(init.data), dist, scale, threads);
  return Ok{};
}

}  // namespace

void poison_outputs(const Manifest& m, Draw& draw) {
  for (const auto& spec : m.arrays) {
    if (spec.intent != Intent::kOut) continue;
    NdArray& a = draw.arrays.at(spec.name);
    const int64_t n = a.size();
    if (a.dtype() == DType::kFloat64) {
      std::fill_n(a.as<double>(), n, std::numeric_limits<double>::quiet_NaN());
    } else if (a.dtype() == DType::kFloat32) {
      std::fill_n(a.as<float>(), n, std::numeric_limits<float>::quiet_NaN());
    } else {
      std::memset(a.data(), 0xA5, a.nbytes());
    }
  }
}

namespace {

Status check_spec(const Manifest& m, const DrawSpec& spec) {
  if (!m.supports(spec.precision)) {
    return Error{"kernel '" + m.id + "' does not support precision " +
                 std::string(precision_name(spec.precision))};
  }
  for (const auto& sym : m.size_symbols) {
    auto it = spec.sizes.find(sym);
    if (it == spec.sizes.end() || it->second < 1) {
      return Error{"kernel '" + m.id + "': size symbol '" + sym + "' missing or not positive"};
    }
  }
  return Ok{};
}

Result<std::vector<int64_t>> shape_of(const ArraySpec& a, const SymbolTable& symbols) {
  std::vector<int64_t> shape;
  for (const auto& e : a.shape) {
    auto v = e.eval(symbols);
    if (!v) return Error{"array '" + a.name + "': " + v.error().message};
    if (*v < 0) return Error{"array '" + a.name + "': negative extent " + e.text()};
    shape.push_back(*v);
  }
  return shape;
}

}  // namespace

Result<Draw> generate_draw(const Manifest& m, const DrawSpec& spec) {
  if (auto st = check_spec(m, spec); !st) return st.error();
  Draw d;
  d.precision = spec.precision;
  d.symbols = m.symbols(spec.sizes);
  for (const auto& a : m.arrays) {
    auto shape = shape_of(a, d.symbols);
    if (!shape) return shape.error();
    d.arrays.emplace(a.name, NdArray(a.dtype(spec.precision), std::move(*shape)));
  }
  if (auto st = regenerate_draw(m, spec, d); !st) return st.error();
  return d;
}

Status regenerate_draw(const Manifest& m, const DrawSpec& spec, Draw& d) {
  if (auto st = check_spec(m, spec); !st) return st;
  const SymbolTable symbols = m.symbols(spec.sizes);
  for (const auto& a : m.arrays) {
    auto shape = shape_of(a, symbols);
    if (!shape) return shape.error();
    auto it = d.arrays.find(a.name);
    if (it == d.arrays.end() || it->second.shape() != *shape ||
        it->second.dtype() != a.dtype(spec.precision)) {
      return Error{"regenerate_draw: array '" + a.name + "' does not have the draw's shape"};
    }
  }
  d.precision = spec.precision;
  d.symbols = symbols;
  d.distribution = spec.distribution.value_or(distribution_for_seed(spec.seed));
  const int threads = thread_count(spec);
  for (const auto& a : m.arrays) {
    if (a.intent == Intent::kOut || m.initializer_for(a.name) != nullptr) continue;
    NdArray& arr = d.arrays.at(a.name);
    if (dtype_is_float(arr.dtype())) {
      fill_real(arr, a.domain, spec.seed, stream_id(a.name), d.distribution, spec.scale, threads);
    } else if (auto st = fill_ints(arr, a, d.symbols, spec.seed, stream_id(a.name), threads); !st) {
      return st;
    }
  }
  for (const auto& init : m.initializers) {
    switch (init.kind) {
      case Initializer::Kind::kSpd:
        if (auto st = init_spd(d.arrays.at(init.array), init.array, spec.seed, threads); !st) {
          return st;
        }
        break;
      case Initializer::Kind::kPermutation:
        init_permutation(d.arrays.at(init.array), init.array, spec.seed);
        break;
      case Initializer::Kind::kCsr:
        if (auto st = init_csr(d, m, init, spec.seed, d.distribution, spec.scale, threads); !st) {
          return st;
        }
        break;
    }
  }
  poison_outputs(m, d);
  return Ok{};
}

}  // namespace hpcab
