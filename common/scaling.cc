#include "common/scaling.h"

#include <cmath>
#include <limits>

namespace hpcab {

namespace {

// p^k in int64, nullopt on overflow.
std::optional<int64_t> checked_pow(int64_t base, int k) {
  int64_t out = 1;
  for (int i = 0; i < k; ++i) {
    if (base != 0 && out > std::numeric_limits<int64_t>::max() / base) return std::nullopt;
    out *= base;
  }
  return out;
}

Error invalid(std::string what) { return Error{std::move(what), Errc::kInvalid}; }

bool declares_rank(const MpiSpec& s, int ranks) {
  for (int r : s.ranks) {
    if (r == ranks) return true;
  }
  return false;
}

}  // namespace

std::pair<int64_t, int64_t> block_range(int64_t n, int ranks, int r) {
  // floor(r*n/P) without overflowing r*n for the axis lengths a manifest allows: split n into
  // whole multiples of P and the remainder.
  const int64_t p = ranks;
  auto start = [&](int64_t i) { return (n / p) * i + (n % p) * i / p; };
  return {start(r), start(r + 1)};
}

std::optional<int64_t> exact_root(int64_t p, int k) {
  if (k < 1 || p < 1) return std::nullopt;
  auto m = static_cast<int64_t>(std::llround(std::pow(static_cast<double>(p), 1.0 / k)));
  // The rounded floating-point root is within one of the integer root for any int64 p.
  for (int64_t c = std::max<int64_t>(1, m - 1); c <= m + 1; ++c) {
    auto v = checked_pow(c, k);
    if (v && *v == p) return c;
  }
  return std::nullopt;
}

std::vector<int> weak_ranks(const Manifest& m) {
  std::vector<int> out;
  if (!m.mpi) return out;
  for (int p : m.mpi->ranks) {
    bool whole = true;
    for (const auto& [sym, k] : m.mpi->weak) whole = whole && exact_root(p, k).has_value();
    if (whole) out.push_back(p);
  }
  return out;
}

Result<SymbolTable> weak_sizes(const Manifest& m, const SymbolTable& base, int ranks) {
  if (!m.mpi) return invalid("kernel '" + m.id + "' has no mpi block");
  if (!declares_rank(*m.mpi, ranks)) {
    return invalid("kernel '" + m.id + "' is not graded at " + std::to_string(ranks) +
                   " ranks (its mpi block's ranks)");
  }
  SymbolTable out = base;
  for (const auto& [sym, k] : m.mpi->weak) {
    auto root = exact_root(ranks, k);
    if (!root) {
      return invalid("weak scaling of '" + sym + "' grows by the " + std::to_string(k) +
                     "-th root of P, which is not an integer at P = " + std::to_string(ranks));
    }
    auto it = out.find(sym);
    if (it == out.end()) return invalid("the sizes have no symbol '" + sym + "'");
    if (it->second > std::numeric_limits<int64_t>::max() / *root) {
      return invalid("weak scaling of '" + sym + "' overflows at P = " + std::to_string(ranks));
    }
    it->second *= *root;
  }
  return out;
}

Result<double> work_growth(const Manifest& m, const SymbolTable& base, const SymbolTable& grown) {
  const auto& expr = m.flops ? m.flops : m.bytes;
  if (!expr) return invalid("kernel '" + m.id + "' declares neither flops nor bytes");
  auto work = [&](const SymbolTable& sizes) -> Result<int64_t> {
    SymbolTable syms = m.symbols(sizes);
    syms["REAL_BYTES"] = 8;  // a ratio: the same width in both terms
    return expr->eval(syms);
  };
  auto w0 = work(base);
  if (!w0) return w0.error();
  auto w1 = work(grown);
  if (!w1) return w1.error();
  if (*w0 <= 0 || *w1 <= 0) return invalid("kernel '" + m.id + "': its work is not positive");
  return static_cast<double>(*w1) / static_cast<double>(*w0);
}

double scaling_efficiency(double baseline_t1, double t_p, int ranks, double growth) {
  return baseline_t1 * growth / (static_cast<double>(ranks) * t_p);
}

std::optional<double> scaling_score(const std::vector<double>& efficiencies) {
  if (efficiencies.empty()) return std::nullopt;
  double log_sum = 0;
  for (double e : efficiencies) {
    if (!(e > 0) || !std::isfinite(e)) return std::nullopt;
    log_sum += std::log(e);
  }
  return std::exp(log_sum / static_cast<double>(efficiencies.size()));
}

}  // namespace hpcab
