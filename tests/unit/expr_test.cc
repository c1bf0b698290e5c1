#include "common/expr.h"

#include <gtest/gtest.h>

namespace hpcab {
namespace {

int64_t eval_ok(const std::string& text, const SymbolTable& syms = {}) {
  auto e = Expr::parse(text);
  EXPECT_TRUE(e.ok()) << text << ": " << (e.ok() ? "" : e.error().message);
  auto v = e->eval(syms);
  EXPECT_TRUE(v.ok()) << text << ": " << (v.ok() ? "" : v.error().message);
  return *v;
}

TEST(Expr, PrecedenceAndParentheses) {
  EXPECT_EQ(eval_ok("2 + 3 * 4"), 14);
  EXPECT_EQ(eval_ok("(2 + 3) * 4"), 20);
  EXPECT_EQ(eval_ok("20 - 6 - 4"), 10);  // left associative
  EXPECT_EQ(eval_ok("100 / 10 / 5"), 2);
  EXPECT_EQ(eval_ok("-3 * -(2 + 1)"), 9);
  EXPECT_EQ(eval_ok("17 % 5 + 1"), 3);
}

TEST(Expr, DivisionTruncatesTowardZero) {
  EXPECT_EQ(eval_ok("-7 / 2"), -3);
  EXPECT_EQ(eval_ok("-7 % 2"), -1);
}

TEST(Expr, Symbols) {
  SymbolTable syms{{"N", 10}, {"KS", 3}, {"STRIDE", 2}};
  EXPECT_EQ(eval_ok("(N - KS) / STRIDE + 1", syms), 4);
  auto e = Expr::parse("N*N + M");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->symbols(), (std::set<std::string>{"M", "N"}));
  auto v = e->eval(syms);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("unknown symbol 'M'"), std::string::npos);
}

TEST(Expr, RejectsAnythingElse) {
  for (const char* bad : {"", "N +", "(N", "N)", "N ** 2", "N; rm -rf /", "__import__('os')",
                          "N << 2", "1.5", "N ? 1 : 2", "f(N)", "N N", "99999999999999999999"}) {
    EXPECT_FALSE(Expr::parse(bad).ok()) << bad;
  }
}

TEST(Expr, Functions) {
  SymbolTable syms{{"N", 1000}, {"M", 24}, {"R", 2}, {"K", 13}};
  EXPECT_EQ(eval_ok("min(N, M) + max(N, M)", syms), 1024);
  EXPECT_EQ(eval_ok("pow(R, K)", syms), 8192);
  EXPECT_EQ(eval_ok("pow(2, log2(N))", syms), 512);  // the largest power of two <= N
  EXPECT_EQ(eval_ok("log2(1)"), 0);
  EXPECT_EQ(eval_ok("pow(-1, 3) + pow(0, 0) + pow(7, 0)"), 1);
  EXPECT_EQ(eval_ok("max(min(N, 3 * M), pow(2, 6))", syms), 72);
  auto e = Expr::parse("pow(R, K) * min(N, M)");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->symbols(), (std::set<std::string>{"K", "M", "N", "R"}));
  // A symbol may carry a function's name: only a following '(' makes a call.
  EXPECT_EQ(eval_ok("max + 1", {{"max", 4}}), 5);
  for (const char* bad : {"min(N)", "pow(N, M, K)", "log2(N, M)", "min N", "sqrt(N)", "min(N,)"}) {
    EXPECT_FALSE(Expr::parse(bad).ok()) << bad;
  }
  for (const char* bad : {"log2(0)", "log2(-N)", "pow(N, -1)", "pow(2, 63)", "pow(N, N)"}) {
    auto f = Expr::parse(bad);
    ASSERT_TRUE(f.ok()) << bad;
    EXPECT_FALSE(f->eval(syms).ok()) << bad;
  }
}

TEST(Expr, ArithmeticErrorsAreValues) {
  auto div = Expr::parse("N / (N - 10)");
  ASSERT_TRUE(div.ok());
  EXPECT_FALSE(div->eval({{"N", 10}}).ok());
  auto big = Expr::parse("N * N * N");
  ASSERT_TRUE(big.ok());
  auto r = big->eval({{"N", int64_t{1} << 30}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("overflow"), std::string::npos);
}

TEST(Expr, DeepNestingIsAnErrorNotACrash) {
  std::string s(10000, '(');
  s += "1";
  s += std::string(10000, ')');
  EXPECT_FALSE(Expr::parse(s).ok());
  EXPECT_FALSE(Expr::parse(std::string(10000, '-') + "1").ok());
}

}  // namespace
}  // namespace hpcab
