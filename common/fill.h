// The generator's element fills, shared by inputs.cc (plain arrays) and initializers.cc
// (structured inputs). Internal to common_core: the public interface is common/inputs.h.
#pragma once

#include <cstdint>

#include "common/inputs.h"

namespace hpcab::fill {

// Real values of (seed, stream) at each element index from `dist`, times `scale`, folded into
// `dom`; stored in the array's float type. Bit-identical for any thread count.
void fill_real(NdArray& a, const Domain& dom, uint64_t seed, uint64_t stream, Distribution dist,
               double scale, int threads);

// Integers uniform over the spec's range (default [0, 100]; bool 0/1), evaluated at `syms`; an
// empty range or one the dtype cannot hold is an error.
Status fill_ints(NdArray& a, const ArraySpec& spec, const SymbolTable& syms, uint64_t seed,
                 uint64_t stream, int threads);

// Uniform integer in [0, bound) from Philox block `counter` of (seed, stream); bound >= 1.
uint64_t below(uint64_t seed, uint64_t stream, uint64_t counter, uint64_t bound);

// Stores v at flat index i of an int32 or int64 array.
void set_index(NdArray& a, int64_t i, int64_t v);

}  // namespace hpcab::fill
