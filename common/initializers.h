// Named initializers (docs/corpus.md, "Initializers"): structured inputs a kernel needs and
// independent draws cannot give (a positive-definite or orthogonal matrix, a connected graph,
// sorted keys, probability rows, strings over an alphabet). Each depends only on (seed, the
// initializer's first array name, the sizes): never on the thread count.
#pragma once

#include <cstdint>

#include "common/inputs.h"
#include "common/manifest.h"
#include "common/result.h"

namespace hpcab {

// Fills the arrays `init` names in `d` (allocated at the draw's shapes). An error describes
// sizes the initializer cannot build (a graph with fewer stored entries than connectivity
// needs, a CSR pattern with more entries than rows * cols).
Status apply_initializer(Draw& d, const Manifest& m, const Initializer& init, uint64_t seed,
                         Distribution dist, double scale, int threads);

}  // namespace hpcab
