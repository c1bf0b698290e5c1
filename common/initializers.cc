#include "common/initializers.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_set>
#include <vector>

#include "common/fill.h"
#include "common/rng.h"

namespace hpcab {

namespace {

using fill::below;
using fill::set_index;

constexpr int64_t kParallelThreshold = 1 << 14;

template <typename F>
void store_real(NdArray& a, int64_t i, F value) {
  if (a.dtype() == DType::kFloat64) {
    a.as<double>()[i] = value;
  } else {
    a.as<float>()[i] = static_cast<float>(value);
  }
}

Status init_spd(NdArray& a, const std::string& name, uint64_t seed, int threads) {
  if (a.shape().size() != 2 || a.shape()[0] != a.shape()[1]) {
    return Error{"spd initializer: '" + name + "' is not square"};
  }
  const int64_t n = a.shape()[0];
  const uint64_t stream = stream_id(name);
  // Off-diagonal uniform [-1, 1), diagonal n + [0, 1): strictly diagonally dominant with a
  // positive diagonal, hence symmetric positive definite and well conditioned.
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16) if (n * n > kParallelThreshold)
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i; j < n; ++j) {
      auto r = philox(seed, stream, static_cast<uint64_t>(i * n + j));
      double u = to_unit(r[0], r[1]);
      double v = i == j ? static_cast<double>(n) + u : 2.0 * u - 1.0;
      store_real(a, i * n + j, v);
      store_real(a, j * n + i, v);
    }
  }
  return Ok{};
}

Status init_diag_dominant(NdArray& a, const std::string& name, uint64_t seed, int threads) {
  if (a.shape().size() != 2 || a.shape()[0] != a.shape()[1]) {
    return Error{"diag_dominant initializer: '" + name + "' is not square"};
  }
  const int64_t n = a.shape()[0];
  const uint64_t stream = stream_id("diag_dominant:" + name);
  // Every entry independent (not symmetric): off-diagonal uniform [-1, 1), diagonal n + [0, 1),
  // so each row's and each column's off-diagonal magnitudes sum below n - 1: strictly
  // diagonally dominant by rows and columns, which LU without pivoting and Jacobi or
  // Gauss-Seidel sweeps need.
#pragma omp parallel for num_threads(threads) schedule(static) if (n * n > kParallelThreshold)
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      auto r = philox(seed, stream, static_cast<uint64_t>(i * n + j));
      const double u = to_unit(r[0], r[1]);
      store_real(a, i * n + j, i == j ? static_cast<double>(n) + u : 2.0 * u - 1.0);
    }
  }
  return Ok{};
}

Status init_orthogonal(NdArray& a, const std::string& name, uint64_t seed, int threads) {
  if (a.shape().size() != 2 || a.shape()[0] != a.shape()[1]) {
    return Error{"orthogonal initializer: '" + name + "' is not square"};
  }
  const int64_t n = a.shape()[0];
  const uint64_t stream = stream_id("orthogonal:" + name);
  // Q = H1 H2 H3, Householder reflections H = I - 2 v v^T / (v^T v) of random directions v
  // (entries uniform in [-1, 1)): orthogonal to rounding, dense, O(n^2) to build. It is not
  // Haar-distributed (that takes an O(n^3) QR); a kernel only needs Q^T Q = I. Built in double;
  // each row's sums run in index order whatever the thread count.
  std::vector<double> q(static_cast<std::size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) q[i * n + i] = 1.0;
  std::vector<double> v(n), w(n);
  for (int k = 0; k < 3; ++k) {
    double vv = 0;
    for (int64_t j = 0; j < n; ++j) {
      auto r = philox(seed, stream, static_cast<uint64_t>(k) * static_cast<uint64_t>(n) + j);
      v[j] = 2.0 * to_unit(r[0], r[1]) - 1.0;
      vv += v[j] * v[j];
    }
    if (vv == 0) continue;  // every entry exactly zero: the identity reflection
    const double f = 2.0 / vv;
#pragma omp parallel for num_threads(threads) schedule(static) if (n * n > kParallelThreshold)
    for (int64_t i = 0; i < n; ++i) {
      double s = 0;
      for (int64_t j = 0; j < n; ++j) s += q[i * n + j] * v[j];
      w[i] = f * s;
      for (int64_t j = 0; j < n; ++j) q[i * n + j] -= w[i] * v[j];
    }
  }
  for (int64_t i = 0; i < n * n; ++i) store_real(a, i, q[i]);
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
  if (auto why = initializer_shortfall(m, init, d.symbols)) return Error{*why};
  NdArray& indptr = d.arrays.at(init.indptr);
  NdArray& indices = d.arrays.at(init.indices);
  NdArray& data = d.arrays.at(init.data);
  const int64_t rows = indptr.size() - 1;
  const int64_t nnz = indices.size();
  const int64_t cols = *init.cols->eval(d.symbols);
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
  fill::fill_real(data, dspec->domain, seed, stream_id(init.data), dist, scale, threads);
  return Ok{};
}

Status init_graph(Draw& d, const Manifest& m, const Initializer& init, uint64_t seed) {
  if (auto why = initializer_shortfall(m, init, d.symbols)) return Error{*why};
  NdArray& indptr = d.arrays.at(init.indptr);
  NdArray& indices = d.arrays.at(init.indices);
  const int64_t n = indptr.size() - 1;
  const int64_t stored = indices.size();
  const int64_t edges = init.directed ? stored : stored / 2;
  const uint64_t un = static_cast<uint64_t>(n);
  // An undirected edge is keyed by its ordered pair (min, max); a directed one by (tail, head).
  auto key = [&](int64_t u, int64_t v) {
    if (!init.directed && u > v) std::swap(u, v);
    return static_cast<uint64_t>(u) * un + static_cast<uint64_t>(v);
  };
  std::unordered_set<uint64_t> present;
  present.reserve(static_cast<std::size_t>(edges) * 2);
  std::vector<std::pair<int64_t, int64_t>> list;
  list.reserve(static_cast<std::size_t>(edges));
  auto add = [&](int64_t u, int64_t v) {
    if (u == v || !present.insert(key(u, v)).second) return;
    list.emplace_back(u, v);
  };
  if (init.connected && n > 1) {
    // A random order of the vertices; undirected: each vertex joins a random earlier one (a
    // random spanning tree); directed: the order closed into a cycle (strongly connected).
    std::vector<int64_t> order(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) order[i] = i;
    const uint64_t os = stream_id("graph-order:" + init.indptr);
    for (int64_t k = n - 1; k > 0; --k) {
      std::swap(order[k],
                order[below(seed, os, static_cast<uint64_t>(k), static_cast<uint64_t>(k + 1))]);
    }
    const uint64_t ts = stream_id("graph-tree:" + init.indptr);
    for (int64_t i = 1; i < n; ++i) {
      if (init.directed) {
        add(order[i - 1], order[i]);
      } else {
        add(order[i], order[below(seed, ts, static_cast<uint64_t>(i), static_cast<uint64_t>(i))]);
      }
    }
    if (init.directed) add(order[n - 1], order[0]);
  }
  // The remaining edges uniformly among the absent ones (rejection); past a generous number of
  // draws (a nearly complete graph), the first absent pairs in order.
  const uint64_t es = stream_id("graph-edges:" + init.indptr);
  const uint64_t max_draws = 32 * static_cast<uint64_t>(edges) + 1024;
  for (uint64_t c = 0; static_cast<int64_t>(list.size()) < edges && c < max_draws; ++c) {
    add(static_cast<int64_t>(below(seed, es, 2 * c, un)),
        static_cast<int64_t>(below(seed, es, 2 * c + 1, un)));
  }
  for (int64_t u = 0; u < n && static_cast<int64_t>(list.size()) < edges; ++u) {
    for (int64_t v = init.directed ? 0 : u + 1; v < n && static_cast<int64_t>(list.size()) < edges;
         ++v) {
      add(u, v);
    }
  }
  // CSR rows: each vertex's out-neighbours (undirected: both directions), sorted.
  std::vector<std::pair<int64_t, int64_t>> arcs;
  arcs.reserve(static_cast<std::size_t>(stored));
  for (const auto& [u, v] : list) {
    arcs.emplace_back(u, v);
    if (!init.directed) arcs.emplace_back(v, u);
  }
  std::sort(arcs.begin(), arcs.end());
  int64_t e = 0;
  set_index(indptr, 0, 0);
  for (int64_t u = 0; u < n; ++u) {
    while (e < stored && arcs[e].first == u) {
      set_index(indices, e, arcs[e].second);
      ++e;
    }
    set_index(indptr, u + 1, e);
  }
  if (!init.data.empty()) {
    // Weights uniform in the array's interval, drawn per edge key, so an undirected edge has
    // one weight in both of its entries.
    NdArray& w = d.arrays.at(init.data);
    const Domain& dom = m.array(init.data)->domain;
    const uint64_t ws = stream_id("graph-weights:" + init.data);
    for (int64_t i = 0; i < stored; ++i) {
      auto r = philox(seed, ws, key(arcs[i].first, arcs[i].second));
      store_real(w, i, dom.lo + (dom.hi - dom.lo) * to_unit(r[0], r[1]));
    }
  }
  return Ok{};
}

Status init_banded(Draw& d, const Manifest& m, const Initializer& init, uint64_t seed,
                   Distribution dist, double scale, int threads) {
  if (auto why = initializer_shortfall(m, init, d.symbols)) return Error{*why};
  NdArray& a = d.arrays.at(init.array);
  const int64_t rows = a.shape()[0], cols = a.shape()[1];
  const int64_t lower = *init.lower->eval(d.symbols), upper = *init.upper->eval(d.symbols);
  // In-band entries are the array's ordinary draw (its domain, the draw's distribution); the
  // rest are exactly zero.
  fill::fill_real(a, m.array(init.array)->domain, seed, stream_id(init.array), dist, scale,
                  threads);
#pragma omp parallel for num_threads(threads) schedule(static) if (rows * cols > kParallelThreshold)
  for (int64_t i = 0; i < rows; ++i) {
    double off = 0;
    for (int64_t j = 0; j < cols; ++j) {
      if (j - i > upper || i - j > lower) {
        store_real(a, i * cols + j, 0.0);
      } else if (j != i) {
        off += std::fabs(a.get(i * cols + j));
      }
    }
    // dominant: the diagonal exceeds the row's off-diagonal magnitudes (a banded solver's
    // Thomas or LU sweep without pivoting stays stable).
    if (init.dominant && i < cols) store_real(a, i * cols + i, 1.0 + off);
  }
  return Ok{};
}

Status init_sorted(Draw& d, const Manifest& m, const Initializer& init, uint64_t seed,
                   Distribution dist, double scale, int threads) {
  NdArray& a = d.arrays.at(init.array);
  const ArraySpec& spec = *m.array(init.array);
  // The array's ordinary draw (its domain or range), then ascending.
  if (dtype_is_float(a.dtype())) {
    fill::fill_real(a, spec.domain, seed, stream_id(init.array), dist, scale, threads);
  } else if (auto st = fill::fill_ints(a, spec, d.symbols, seed, stream_id(init.array), threads);
             !st) {
    return st;
  }
  const int64_t n = a.size();
  switch (a.dtype()) {
    case DType::kFloat64:
      std::sort(a.as<double>(), a.as<double>() + n);
      break;
    case DType::kFloat32:
      std::sort(a.as<float>(), a.as<float>() + n);
      break;
    case DType::kInt64:
      std::sort(a.as<int64_t>(), a.as<int64_t>() + n);
      break;
    case DType::kInt32:
      std::sort(a.as<int32_t>(), a.as<int32_t>() + n);
      break;
    case DType::kUint16:
      std::sort(a.as<uint16_t>(), a.as<uint16_t>() + n);
      break;
    case DType::kInt8:
      std::sort(a.as<int8_t>(), a.as<int8_t>() + n);
      break;
    case DType::kUint8:
    case DType::kBool:
      std::sort(a.as<uint8_t>(), a.as<uint8_t>() + n);
      break;
  }
  return Ok{};
}

Status init_probability(NdArray& a, const std::string& name, uint64_t seed, int threads) {
  if (a.shape().empty() || a.shape().back() < 1) {
    return Error{"probability initializer: '" + name + "' has no last axis to normalize"};
  }
  const int64_t len = a.shape().back();
  const int64_t rows = a.size() / len;
  const uint64_t stream = stream_id("probability:" + name);
  // Each row along the last axis: weights 1/20 + uniform [0, 1) (positive, at most 21 times
  // apart), divided by their sum taken in index order.
#pragma omp parallel for num_threads(threads) schedule(static) if (a.size() > kParallelThreshold)
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double> w(static_cast<std::size_t>(len));
    double sum = 0;
    for (int64_t j = 0; j < len; ++j) {
      auto x = philox(seed, stream, static_cast<uint64_t>(r * len + j));
      w[j] = 0.05 + to_unit(x[0], x[1]);
      sum += w[j];
    }
    for (int64_t j = 0; j < len; ++j) store_real(a, r * len + j, w[j] / sum);
  }
  return Ok{};
}

void init_text(NdArray& a, const Initializer& init, uint64_t seed, int threads) {
  const uint64_t stream = stream_id("text:" + init.array);
  const uint64_t k = init.alphabet.size();
  const int64_t n = a.size();
  uint8_t* p = static_cast<uint8_t*>(a.data());  // uint8 and int8 alike: the byte is the letter
#pragma omp parallel for num_threads(threads) schedule(static) if (n > kParallelThreshold)
  for (int64_t i = 0; i < n; ++i) {
    p[i] = static_cast<uint8_t>(init.alphabet[below(seed, stream, static_cast<uint64_t>(i), k)]);
  }
}

}  // namespace

Status apply_initializer(Draw& d, const Manifest& m, const Initializer& init, uint64_t seed,
                         Distribution dist, double scale, int threads) {
  using Kind = Initializer::Kind;
  switch (init.kind) {
    case Kind::kSpd:
      return init_spd(d.arrays.at(init.array), init.array, seed, threads);
    case Kind::kDiagDominant:
      return init_diag_dominant(d.arrays.at(init.array), init.array, seed, threads);
    case Kind::kOrthogonal:
      return init_orthogonal(d.arrays.at(init.array), init.array, seed, threads);
    case Kind::kPermutation:
      init_permutation(d.arrays.at(init.array), init.array, seed);
      return Ok{};
    case Kind::kCsr:
      return init_csr(d, m, init, seed, dist, scale, threads);
    case Kind::kGraph:
      return init_graph(d, m, init, seed);
    case Kind::kBanded:
      return init_banded(d, m, init, seed, dist, scale, threads);
    case Kind::kSorted:
      return init_sorted(d, m, init, seed, dist, scale, threads);
    case Kind::kProbability:
      return init_probability(d.arrays.at(init.array), init.array, seed, threads);
    case Kind::kText:
      init_text(d.arrays.at(init.array), init, seed, threads);
      return Ok{};
  }
  return Error{"unknown initializer kind"};
}

}  // namespace hpcab
