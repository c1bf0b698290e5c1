// Size expressions: integers, identifiers (size symbols, integer scalars), + - * / % with the
// usual precedence, unary minus, parentheses and the functions min(a, b), max(a, b), pow(a, b)
// (b >= 0) and log2(a) (floor, a >= 1). Parsed into a small tree once, evaluated many
// times. Anything else is a parse error: a manifest never executes code.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab {

using SymbolTable = std::map<std::string, int64_t, std::less<>>;

class Expr {
 public:
  static Result<Expr> parse(const std::string& text);
  static Expr constant(int64_t value);

  // Division and modulo truncate toward zero; division by zero and int64 overflow are errors.
  Result<int64_t> eval(const SymbolTable& symbols) const;
  const std::set<std::string>& symbols() const { return symbols_; }
  const std::string& text() const { return text_; }

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;  // immutable, so sharing between copies is safe
  std::set<std::string> symbols_;
};

}  // namespace hpcab
