#include "common/constraints.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <vector>

#include "common/manifest.h"
#include "common/rng.h"

namespace hpcab {

namespace {

struct OpText {
  const char* text;
  Constraint::Op op;
};
// Two-character operators first, so "<=" is never read as "<" followed by "=".
constexpr OpText kOps[] = {{"==", Constraint::Op::kEq}, {"!=", Constraint::Op::kNe},
                           {"<=", Constraint::Op::kLe}, {">=", Constraint::Op::kGe},
                           {"<", Constraint::Op::kLt},  {">", Constraint::Op::kGt}};

bool compare(Constraint::Op op, int64_t a, int64_t b) {
  switch (op) {
    case Constraint::Op::kEq:
      return a == b;
    case Constraint::Op::kNe:
      return a != b;
    case Constraint::Op::kLt:
      return a < b;
    case Constraint::Op::kLe:
      return a <= b;
    case Constraint::Op::kGt:
      return a > b;
    case Constraint::Op::kGe:
      return a >= b;
  }
  return false;
}

bool all_hold(const Manifest& m, const SymbolTable& syms, std::vector<bool>* which = nullptr) {
  bool all = true;
  if (which) which->assign(m.constraints.size(), false);
  for (std::size_t i = 0; i < m.constraints.size(); ++i) {
    auto h = m.constraints[i].holds(syms);
    const bool ok = h && *h;
    if (which) (*which)[i] = ok;
    all = all && ok;
  }
  return all;
}

// Values at or below v (and >= 1) that rounding down reaches, nearest first: the 64 integers
// below v (all of a small symbol's values), the nearest multiples of 2..64 and of powers of
// two, v halved repeatedly, every power of two.
std::vector<int64_t> rounded_down(int64_t v) {
  std::vector<int64_t> out;
  if (v < 1) return out;
  for (int64_t k = 0; k <= 64; ++k) out.push_back(v - k);
  for (int64_t d = 2; d <= 64; ++d) out.push_back(v - v % d);
  for (int k = 1; k < 63; ++k) {
    out.push_back(v & ~((int64_t{1} << k) - 1));
    out.push_back(v >> k);
    out.push_back(int64_t{1} << (k - 1));
  }
  std::erase_if(out, [v](int64_t x) { return x < 1 || x > v; });
  std::sort(out.begin(), out.end(), std::greater<>());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::set<std::string> Constraint::symbols() const {
  std::set<std::string> out = lhs.symbols();
  out.insert(rhs.symbols().begin(), rhs.symbols().end());
  return out;
}

Result<bool> Constraint::holds(const SymbolTable& symbols) const {
  auto a = lhs.eval(symbols);
  if (!a) return a.error();
  auto b = rhs.eval(symbols);
  if (!b) return b.error();
  return compare(op, *a, *b);
}

Result<Constraint> parse_constraint(const std::string& text) {
  // The size-expression grammar has no '<', '>', '=' or '!', so the first of them starts the
  // one comparison, and any later one is a second comparison.
  const std::size_t at = text.find_first_of("<>=!");
  if (at == std::string::npos) {
    return Error{"constraint '" + text + "': expected a comparison (==, !=, <, <=, >, >=)"};
  }
  const OpText* found = nullptr;
  for (const auto& o : kOps) {
    if (text.compare(at, std::char_traits<char>::length(o.text), o.text) == 0) {
      found = &o;
      break;
    }
  }
  if (!found)
    return Error{"constraint '" + text + "': unknown operator at offset " + std::to_string(at)};
  const std::size_t rhs_at = at + std::char_traits<char>::length(found->text);
  if (text.find_first_of("<>=!", rhs_at) != std::string::npos) {
    return Error{"constraint '" + text + "': one comparison per constraint"};
  }
  auto lhs = Expr::parse(text.substr(0, at));
  if (!lhs) return Error{"constraint '" + text + "': " + lhs.error().message};
  auto rhs = Expr::parse(text.substr(rhs_at));
  if (!rhs) return Error{"constraint '" + text + "': " + rhs.error().message};
  Constraint c;
  c.text = text;
  c.lhs = std::move(*lhs);
  c.rhs = std::move(*rhs);
  c.op = found->op;
  return c;
}

std::optional<std::string> violated_constraint(const Manifest& m, const SymbolTable& sizes) {
  const SymbolTable syms = m.symbols(sizes);
  for (const auto& c : m.constraints) {
    auto h = c.holds(syms);
    if (!h || !*h) return c.text;
  }
  return std::nullopt;
}

std::optional<SymbolTable> snap_to_constraints(const Manifest& m, const SymbolTable& sizes) {
  SymbolTable cur = sizes;
  std::vector<bool> held;
  if (all_hold(m, m.symbols(cur), &held)) return cur;
  // Whether `cur` now satisfies constraint i without breaking one that held; if so it becomes
  // the new state.
  auto accept = [&](std::size_t i) {
    std::vector<bool> now;
    all_hold(m, m.symbols(cur), &now);
    bool keeps = now[i];
    for (std::size_t j = 0; keeps && j < now.size(); ++j) keeps = !held[j] || now[j];
    if (keeps) held = std::move(now);
    return keeps;
  };
  for (int pass = 0; pass < 4; ++pass) {
    for (std::size_t i = 0; i < m.constraints.size(); ++i) {
      if (held[i]) continue;
      // Size symbols only: an integer scalar is fixed.
      std::vector<SymbolTable::iterator> syms;
      for (const auto& sym : m.constraints[i].symbols()) {
        if (auto it = cur.find(sym); it != cur.end()) syms.push_back(it);
      }
      for (auto it : syms) {
        const int64_t original = it->second;
        for (int64_t v : rounded_down(original)) {
          it->second = v;
          if (accept(i)) break;
        }
        if (held[i]) break;
        it->second = original;
      }
      // No single symbol repairs it (N == pow(R, K) with K rounded up and N down): two symbols
      // together, the first at one of its 8 nearest values.
      for (std::size_t a = 0; a < syms.size() && !held[i]; ++a) {
        for (std::size_t b = a + 1; b < syms.size() && !held[i]; ++b) {
          const int64_t oa = syms[a]->second, ob = syms[b]->second;
          const std::vector<int64_t> ca = rounded_down(oa), cb = rounded_down(ob);
          for (std::size_t x = 0; x < std::min<std::size_t>(ca.size(), 8) && !held[i]; ++x) {
            for (int64_t vb : cb) {
              syms[a]->second = ca[x];
              syms[b]->second = vb;
              if (accept(i)) break;
            }
          }
          if (!held[i]) {
            syms[a]->second = oa;
            syms[b]->second = ob;
          }
        }
      }
    }
    if (all_hold(m, m.symbols(cur), &held)) return cur;
  }
  return std::nullopt;
}

std::optional<SymbolTable> fuzzed_sizes_drawn(const Manifest& m, uint64_t seed) {
  SymbolTable sizes = m.presets.at("S");
  // Attempt k takes Philox block k of each symbol's stream, so attempt 0 is the draw of a
  // kernel without constraints and a rejected attempt never shifts another symbol's values.
  for (uint64_t attempt = 0; attempt < kFuzzAttempts; ++attempt) {
    for (const auto& [sym, fuzz] : m.fuzzed) {
      auto r = philox(seed, stream_id("size:" + sym), attempt);
      const uint64_t bits = (static_cast<uint64_t>(r[0]) << 32) | r[1];
      if (!fuzz.values.empty()) {
        sizes[sym] = fuzz.values[bits % fuzz.values.size()];
      } else {
        const uint64_t span = static_cast<uint64_t>(fuzz.hi - fuzz.lo) + 1;
        sizes[sym] = fuzz.lo + static_cast<int64_t>(bits % span);
      }
    }
    if (!violated_constraint(m, sizes)) return sizes;
  }
  return std::nullopt;
}

SymbolTable fuzzed_sizes(const Manifest& m, uint64_t seed) {
  auto drawn = fuzzed_sizes_drawn(m, seed);
  return drawn ? *drawn : m.presets.at("S");
}

}  // namespace hpcab
