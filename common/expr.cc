#include "common/expr.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <iterator>
#include <limits>

namespace hpcab {

struct Expr::Node {
  enum class Kind { kConst, kSymbol, kNeg, kAdd, kSub, kMul, kDiv, kMod, kMin, kMax, kPow, kLog2 };
  Kind kind;
  int64_t value = 0;
  std::string name;
  std::shared_ptr<const Node> lhs, rhs;
};

namespace {

using Node = Expr::Node;
using NodePtr = std::shared_ptr<const Node>;
constexpr int kMaxDepth = 64;

// Recursive descent: expr := term (('+'|'-') term)*; term := unary (('*'|'/'|'%') unary)*;
// unary := '-' unary | primary; primary := integer | identifier | call | '(' expr ')';
// call := ('min' | 'max' | 'pow') '(' expr ',' expr ')' | 'log2' '(' expr ')'. A name followed
// by '(' is a call, so a size symbol may still be named like a function.
class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  Result<NodePtr> parse_all() {
    auto e = expr(0);
    if (!e) return e;
    skip();
    if (pos_ != s_.size()) return fail("unexpected '" + std::string(1, s_[pos_]) + "'");
    return e;
  }
  std::set<std::string> symbols;

 private:
  Error fail(const std::string& why) const {
    return Error{"size expression '" + s_ + "': " + why + " at offset " + std::to_string(pos_)};
  }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  static NodePtr binary(Node::Kind k, NodePtr a, NodePtr b) {
    auto n = std::make_shared<Node>();
    n->kind = k;
    n->lhs = std::move(a);
    n->rhs = std::move(b);
    return n;
  }

  Result<NodePtr> expr(int depth) {
    auto lhs = term(depth);
    if (!lhs) return lhs;
    NodePtr acc = *lhs;
    for (;;) {
      Node::Kind k;
      if (eat('+')) {
        k = Node::Kind::kAdd;
      } else if (eat('-')) {
        k = Node::Kind::kSub;
      } else {
        return acc;
      }
      auto rhs = term(depth);
      if (!rhs) return rhs;
      acc = binary(k, acc, *rhs);
    }
  }

  Result<NodePtr> term(int depth) {
    auto lhs = unary(depth);
    if (!lhs) return lhs;
    NodePtr acc = *lhs;
    for (;;) {
      Node::Kind k;
      if (eat('*')) {
        k = Node::Kind::kMul;
      } else if (eat('/')) {
        k = Node::Kind::kDiv;
      } else if (eat('%')) {
        k = Node::Kind::kMod;
      } else {
        return acc;
      }
      auto rhs = unary(depth);
      if (!rhs) return rhs;
      acc = binary(k, acc, *rhs);
    }
  }

  Result<NodePtr> unary(int depth) {
    if (depth > kMaxDepth) return fail("nested too deeply");
    if (eat('-')) {
      auto operand = unary(depth + 1);
      if (!operand) return operand;
      auto n = std::make_shared<Node>();
      n->kind = Node::Kind::kNeg;
      n->lhs = *operand;
      return NodePtr(n);
    }
    return primary(depth);
  }

  Result<NodePtr> primary(int depth) {
    skip();
    if (pos_ >= s_.size()) return fail("expected a number, a symbol or '('");
    char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      auto inner = expr(depth + 1);
      if (!inner) return inner;
      if (!eat(')')) return fail("expected ')'");
      return inner;
    }
    auto n = std::make_shared<Node>();
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        int d = s_[pos_] - '0';
        if (v > (std::numeric_limits<int64_t>::max() - d) / 10) return fail("integer too large");
        v = v * 10 + d;
        ++pos_;
      }
      n->kind = Node::Kind::kConst;
      n->value = v;
      return NodePtr(n);
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t start = pos_;
      while (pos_ < s_.size() &&
             (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
        ++pos_;
      }
      std::string name = s_.substr(start, pos_ - start);
      skip();
      if (pos_ < s_.size() && s_[pos_] == '(') return call(name, depth);
      n->kind = Node::Kind::kSymbol;
      n->name = std::move(name);
      symbols.insert(n->name);
      return NodePtr(n);
    }
    return fail("unexpected '" + std::string(1, c) + "'");
  }

  Result<NodePtr> call(const std::string& name, int depth) {
    static const std::pair<const char*, Node::Kind> kFunctions[] = {{"min", Node::Kind::kMin},
                                                                    {"max", Node::Kind::kMax},
                                                                    {"pow", Node::Kind::kPow},
                                                                    {"log2", Node::Kind::kLog2}};
    const auto* f = std::find_if(std::begin(kFunctions), std::end(kFunctions),
                                 [&](const auto& e) { return name == e.first; });
    if (f == std::end(kFunctions)) {
      return fail("unknown function '" + name + "' (expected min, max, pow or log2)");
    }
    eat('(');
    auto n = std::make_shared<Node>();
    n->kind = f->second;
    auto a = expr(depth + 1);
    if (!a) return a;
    n->lhs = *a;
    if (n->kind != Node::Kind::kLog2) {
      if (!eat(',')) return fail("expected ',' (" + name + " takes two arguments)");
      auto b = expr(depth + 1);
      if (!b) return b;
      n->rhs = *b;
    }
    if (!eat(')')) return fail("expected ')'");
    return NodePtr(n);
  }

  const std::string& s_;
  std::size_t pos_ = 0;
};

Result<int64_t> evaluate(const Node& n, const SymbolTable& symbols, const std::string& text) {
  auto overflow = [&] { return Error{"size expression '" + text + "': integer overflow"}; };
  switch (n.kind) {
    case Node::Kind::kConst:
      return n.value;
    case Node::Kind::kSymbol: {
      auto it = symbols.find(n.name);
      if (it == symbols.end()) {
        return Error{"size expression '" + text + "': unknown symbol '" + n.name + "'"};
      }
      return it->second;
    }
    case Node::Kind::kNeg: {
      auto v = evaluate(*n.lhs, symbols, text);
      if (!v) return v;
      if (*v == std::numeric_limits<int64_t>::min()) return overflow();
      return -*v;
    }
    case Node::Kind::kLog2: {
      auto v = evaluate(*n.lhs, symbols, text);
      if (!v) return v;
      if (*v < 1) return Error{"size expression '" + text + "': log2 of a value below 1"};
      return int64_t{63} - std::countl_zero(static_cast<uint64_t>(*v));
    }
    default:
      break;
  }
  auto a = evaluate(*n.lhs, symbols, text);
  if (!a) return a;
  auto b = evaluate(*n.rhs, symbols, text);
  if (!b) return b;
  int64_t r = 0;
  switch (n.kind) {
    case Node::Kind::kAdd:
      if (__builtin_add_overflow(*a, *b, &r)) return overflow();
      return r;
    case Node::Kind::kSub:
      if (__builtin_sub_overflow(*a, *b, &r)) return overflow();
      return r;
    case Node::Kind::kMul:
      if (__builtin_mul_overflow(*a, *b, &r)) return overflow();
      return r;
    case Node::Kind::kDiv:
    case Node::Kind::kMod:
      if (*b == 0) return Error{"size expression '" + text + "': division by zero"};
      if (*a == std::numeric_limits<int64_t>::min() && *b == -1) return overflow();
      return n.kind == Node::Kind::kDiv ? *a / *b : *a % *b;
    case Node::Kind::kMin:
      return std::min(*a, *b);
    case Node::Kind::kMax:
      return std::max(*a, *b);
    case Node::Kind::kPow: {
      if (*b < 0) return Error{"size expression '" + text + "': pow with a negative exponent"};
      // |base| <= 1 directly (the loop would run b times); otherwise overflow ends the loop
      // within 63 steps.
      if (*a == 0) return int64_t{*b == 0 ? 1 : 0};
      if (*a == 1) return int64_t{1};
      if (*a == -1) return int64_t{*b % 2 == 0 ? 1 : -1};
      int64_t result = 1;
      for (int64_t e = *b; e > 0; --e) {
        if (__builtin_mul_overflow(result, *a, &result)) return overflow();
      }
      return result;
    }
    default:
      return Error{"size expression '" + text + "': internal error"};
  }
}

}  // namespace

Result<Expr> Expr::parse(const std::string& text) {
  Parser p(text);
  auto root = p.parse_all();
  if (!root) return root.error();
  Expr e;
  e.text_ = text;
  e.root_ = *root;
  e.symbols_ = std::move(p.symbols);
  return e;
}

Expr Expr::constant(int64_t value) {
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::kConst;
  n->value = value;
  Expr e;
  e.text_ = std::to_string(value);
  e.root_ = n;
  return e;
}

Result<int64_t> Expr::eval(const SymbolTable& symbols) const {
  if (!root_) return Error{"empty size expression"};
  return evaluate(*root_, symbols, text_);
}

}  // namespace hpcab
