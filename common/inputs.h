// The input generator (SPEC §5.2): a draw is fully determined by (kernel, sizes, precision,
// seed). Element values depend only on (seed, array name, element index); structured inputs
// come from named initializers keyed on (seed, the initializer's first array). Generation is
// OpenMP-parallel and bit-identical for any thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "common/manifest.h"
#include "common/ndarray.h"
#include "common/result.h"

namespace hpcab {

enum class Distribution { kUniform, kNormal, kLognormal };
std::string_view distribution_name(Distribution d);
// The distribution a name ("uniform", "normal", "lognormal") forces; nullopt for "auto" (and
// any other word): the seed chooses (distribution_for_seed).
std::optional<Distribution> distribution_named(std::string_view name);

// The distribution a seed selects when the caller does not force one (cycles over the three).
Distribution distribution_for_seed(uint64_t seed);

struct DrawSpec {
  uint64_t seed = 0;
  Precision precision = Precision::kFp64;
  SymbolTable sizes;                         // one value per size symbol
  std::optional<Distribution> distribution;  // nullopt: distribution_for_seed(seed)
  double scale = 1.0;                        // multiplies raw real values before domain folding
  int threads = 0;                           // 0: OpenMP default
};

struct Draw {
  Precision precision = Precision::kFp64;
  Distribution distribution = Distribution::kUniform;
  SymbolTable symbols;                    // size symbols and integer scalars
  std::map<std::string, NdArray> arrays;  // every array: inputs generated, outputs poisoned
};

// Sizes of a named preset ("S".."XL").
Result<SymbolTable> preset_sizes(const Manifest& m, const std::string& preset);
// fuzzed_sizes (a fuzzed size configuration): common/constraints.h.

Result<Draw> generate_draw(const Manifest& m, const DrawSpec& spec);

// The extents of array `a` at `symbols` (Manifest::symbols of the sizes), as a draw has them.
Result<std::vector<int64_t>> shape_of(const ArraySpec& a, const SymbolTable& symbols);

// The draw's arrays at spec's sizes and precision, zero-filled, with no values generated
// (symbols and precision set): for a caller that fills it with regenerate_draw before any
// use, as a runner does before every call, which saves it one whole generation per process.
// The same checks and errors as generate_draw.
Result<Draw> allocate_draw(const Manifest& m, const DrawSpec& spec);

// Refills an existing draw (same sizes and precision, e.g. from generate_draw) with the values
// of `spec` without allocating: the per-call fresh draw of a timing loop. The result is
// bit-identical to generate_draw(m, spec). Output arrays the draw lacks (a shared draw's) are
// left out; those it holds are poisoned.
Status regenerate_draw(const Manifest& m, const DrawSpec& spec, Draw& draw);

// One draw shared by every runner of a configuration (docs/grading.md, "One draw per call"):
// the arrays the generator writes (every array but the pure outputs) at page-aligned offsets
// of one buffer, in manifest order. The judge generates each call's draw there once and each
// runner maps the buffer read-only, instead of every side generating the same values itself.
struct SharedDrawLayout {
  struct Entry {
    std::string name;
    uint64_t offset = 0;
    DType dtype = DType::kFloat64;
    std::vector<int64_t> shape;
    uint64_t bytes = 0;
  };
  std::vector<Entry> entries;
  uint64_t total_bytes = 0;  // a whole number of pages, at least one
};
Result<SharedDrawLayout> shared_draw_layout(const Manifest& m, Precision p,
                                            const SymbolTable& sizes);
// A draw whose generated arrays are views of `base` at the layout's offsets and which holds no
// output array: regenerate_draw fills it in place (outputs left out).
Draw shared_draw_view(const Manifest& m, Precision p, const SymbolTable& sizes,
                      const SharedDrawLayout& layout, void* base);

// Writes the poison pattern into every `out` array: a quiet NaN for reals, 0xA5 bytes for
// integers and bools, so an output the kernel never writes cannot match the reference.
void poison_outputs(const Manifest& m, Draw& draw);

// Sets `nbytes` at `p` to the 8-byte `pattern` repeated (little-endian: byte i is byte i % 8 of
// it), for memory nothing reads before it is overwritten (poison). Fills of 8 MiB or more on a
// 64-byte aligned `p` bypass the caches (non-temporal stores), which saves the read that an
// ordinary store makes of each line it writes.
void fill_poison(void* p, std::size_t nbytes, uint64_t pattern);

// Folds a raw value into a domain (exposed for tests).
double fold_into(const Domain& d, double x);

// The generator's building blocks, exposed for tests (docs/numerics.md, "The input generator").
// Each works on n independent elements in a loop the compiler vectorizes; an element's result
// depends on that element alone, never on n or on its position in the batch. Outputs must not
// overlap inputs.
namespace generator {

// Philox4x32-10 blocks for counters first .. first+n-1 of (seed, stream), as two 64-bit
// halves: with w = philox(seed, stream, first + i), h01[i] = w[0]:w[1] and h23[i] = w[2]:w[3]
// (high word first, the halves to_unit and the integer fill take).
void philox_batch(uint64_t seed, uint64_t stream, uint64_t first, int64_t n, uint64_t* h01,
                  uint64_t* h23);
// Natural logarithm for x in [DBL_MIN, DBL_MAX], < 1 ulp (x = 2^e (1 + f), an odd polynomial
// in s = f / (2 + f) with s carried to ~2^-76; no branches for zero, negative or special x).
void log_batch(const double* x, double* y, int64_t n);
// Exponential for |x| <= 708, < 1 ulp (x = k ln2/2 + r, a polynomial for exp(r), times
// sqrt(2)^(k mod 2) and 2^(k div 2)).
void exp_batch(const double* x, double* y, int64_t n);
// cos(2 pi u) and sin(2 pi u) for u in [0, 1), < 1 ulp (exact reduction to a quadrant in u,
// polynomials in t^2 for |t| <= 1/8).
void sincos_2pi_batch(const double* u, double* c, double* s, int64_t n);

// The fp32 draw's transforms in float arithmetic, each within a few float ulps of the true
// function (tests: 4 ulps): log for x in [FLT_MIN, 1], exp for |x| <= 87, and cos and sin of
// 2 pi u for u in [0, 1) a multiple of 2^-24.
void log_batch(const float* x, float* y, int64_t n);
void exp_batch(const float* x, float* y, int64_t n);
void sincos_2pi_batch(const float* u, float* c, float* s, int64_t n);

}  // namespace generator

}  // namespace hpcab
