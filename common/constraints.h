// Constraints between size symbols (SPEC §3, docs/corpus.md "Constraints"): a manifest's
// "constraints": ["M >= N", "N % 4 == 0", "N == pow(R, K)"] must hold at every preset, at every
// fuzzed draw and at every timed size the judge derives from the presets. A constraint is one
// comparison (==, !=, <, <=, >, >=) of two size expressions; nothing else parses.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "common/expr.h"
#include "common/result.h"

namespace hpcab {

struct Manifest;

struct Constraint {
  enum class Op { kEq, kNe, kLt, kLe, kGt, kGe };
  std::string text;
  Expr lhs, rhs;
  Op op = Op::kEq;
  // Both sides' symbols.
  std::set<std::string> symbols() const;
  // Whether the comparison holds; an evaluation error (division by zero, overflow, a missing
  // symbol) is an error, which callers treat as "does not hold".
  Result<bool> holds(const SymbolTable& symbols) const;
};

Result<Constraint> parse_constraint(const std::string& text);

// The text of the first of the manifest's constraints that `sizes` (size symbols; integer
// scalars are added) breaks, nullopt when all hold.
std::optional<std::string> violated_constraint(const Manifest& m, const SymbolTable& sizes);

// `sizes` moved, only ever downward, to satisfy the constraints: for each broken constraint in
// turn, each of its size symbols in name order is tried at rounded-down values (the 64 below
// it, to a multiple of 2..64 or of a power of two, halved, every power of two below it)
// from the nearest on; the first that makes that constraint hold without breaking one that
// held is kept; when no single symbol does, pairs of its symbols (the first at one of its 8
// nearest values). Up to four passes. `sizes` itself when nothing is broken; nullopt when no such
// move satisfies them all. Pure and deterministic: the judge's size ladder (geometric interpolation
// between presets, which keeps relations like M >= N but not divisibility) goes through it.
std::optional<SymbolTable> snap_to_constraints(const Manifest& m, const SymbolTable& sizes);

// A fuzzed size configuration: S with every `fuzzed` symbol drawn uniformly from its range or
// set, redrawn (up to kFuzzAttempts times, each attempt a fresh block of every symbol's stream)
// until the manifest's constraints hold; nullopt when no attempt satisfies them.
// load_manifest refuses a manifest whose constraints reject every attempt of some of a few
// fixed seeds, so in practice this is a rare event.
inline constexpr uint64_t kFuzzAttempts = 64;
std::optional<SymbolTable> fuzzed_sizes_drawn(const Manifest& m, uint64_t seed);
// fuzzed_sizes_drawn, or S (which satisfies the constraints) when no attempt does.
SymbolTable fuzzed_sizes(const Manifest& m, uint64_t seed);

}  // namespace hpcab
