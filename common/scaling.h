// The distributed residency's arithmetic (docs/grading.md "Distributed residency"): which
// indices a rank holds, the sizes of a weak-scaling point, and the efficiency and score of a
// scaling series. Pure functions: the judge's grading and the reports call them, and the unit
// tests check them against hand-computed values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/expr.h"
#include "common/manifest.h"
#include "common/result.h"

namespace hpcab {

// The half-open index range [lo, hi) that rank `r` of `ranks` holds of an axis of length `n`
// under the block distribution: [floor(r*n/P), floor((r+1)*n/P)). Blocks differ by at most one
// index and cover the axis exactly once; a rank may hold none where n < P. Requires
// 0 <= r < ranks, n >= 0.
std::pair<int64_t, int64_t> block_range(int64_t n, int ranks, int r);

// The integer m with m^k == p, nullopt when p is not a perfect k-th power (k >= 1, p >= 1).
std::optional<int64_t> exact_root(int64_t p, int k);

// The rank counts of m.mpi->ranks at which weak scaling is defined: those that are perfect k-th
// powers for every k of the weak rule (all of them when the rule is empty). Empty for a kernel
// without an mpi block.
std::vector<int> weak_ranks(const Manifest& m);

// The sizes of the weak-scaling point at `ranks` PEs from the one-PE sizes `base`: each symbol
// of the weak rule multiplied by ranks^(1/k). Errors (Errc::kInvalid): no mpi block, a rank
// count outside its `ranks`, one that is no perfect k-th power, a growth that overflows.
Result<SymbolTable> weak_sizes(const Manifest& m, const SymbolTable& base, int ranks);

// The work of the grown problem over the base problem, from the manifest's `flops` expression
// (else `bytes`), at the run precision's REAL_BYTES: P for an exact weak rule, 1 for strong
// scaling (grown == base). Error when the manifest has neither expression or it does not
// evaluate to a positive value.
Result<double> work_growth(const Manifest& m, const SymbolTable& base, const SymbolTable& grown);

// Scaling efficiency of a time `t_p` on `ranks` PEs against the baseline's one-PE time
// `baseline_t1` on the base problem, when the measured problem holds `growth` times the base
// problem's work: baseline_t1 * growth / (ranks * t_p). 1 is ideal scaling of the baseline;
// above 1 beats the baseline per PE. Strong scaling has growth 1; weak scaling's growth is P
// (work_growth). Requires positive times and ranks.
double scaling_efficiency(double baseline_t1, double t_p, int ranks, double growth);

// One answer's scaling score: the geometric mean of its efficiencies over a series (every P of
// the series counts once, strong and weak points alike); nullopt for an empty series or a
// non-positive efficiency.
std::optional<double> scaling_score(const std::vector<double>& efficiencies);

}  // namespace hpcab
