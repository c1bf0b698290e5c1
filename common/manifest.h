// Kernel manifests (kernel.json, SPEC §3; format in docs/corpus.md): loading with validation
// that names the file, the field and what was expected, and scanning a corpus tree.
// A kernel folder holds kernel.json, reference.py (always: it is the specification) and
// optionally reference.c (the C oracle and baseline; optional when NumPy is the oracle).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/constraints.h"
#include "common/dtype.h"
#include "common/expr.h"
#include "common/mpi_spec.h"
#include "common/result.h"

namespace hpcab {

enum class Intent { kIn, kOut, kInout };

struct Domain {
  enum class Kind { kAny, kPositive, kNonneg, kInterval };
  Kind kind = Kind::kAny;
  double lo = 0, hi = 0;  // kInterval only
};

struct ArraySpec {
  std::string name;
  std::vector<Expr> shape;
  std::optional<DType> fixed_dtype;  // nullopt: `real`, the run precision
  Intent intent = Intent::kIn;
  Domain domain;                           // real arrays
  std::optional<Expr> range_lo, range_hi;  // integer arrays, inclusive
  // Outputs only: why this output is graded although the upstream kernel does not return it
  // (e.g. a temporary upstream keeps in an array); empty: it is (part of) upstream's result.
  std::string graded_because;

  DType dtype(Precision p) const { return fixed_dtype ? *fixed_dtype : real_dtype(p); }
  bool is_output() const { return intent != Intent::kIn; }
};

struct ScalarSpec {
  std::string name;
  bool is_real = true;
  double real_value = 0;  // is_real
  int64_t int_value = 0;  // !is_real
};

struct Initializer {
  enum class Kind {
    kSpd,
    kPermutation,
    kCsr,
    kBanded,
    kDiagDominant,
    kOrthogonal,
    kGraph,
    kSorted,
    kProbability,
    kText
  };
  Kind kind = Kind::kSpd;
  std::string array;                  // every kind but csr and graph
  std::string indptr, indices, data;  // csr; graph (data: its optional edge weights, or empty)
  std::optional<Expr> cols;           // csr
  std::optional<Expr> lower, upper;   // banded: diagonals kept below and above the main one
  bool dominant = false;              // banded: diagonal above the row's off-diagonal sum
  bool directed = false;              // graph
  bool connected = true;              // graph
  std::string alphabet;               // text: the bytes its elements take
  std::string_view kind_name() const;
  // Arrays this initializer fills, first one names the group.
  std::vector<std::string> arrays() const;
};

// A fuzzed size symbol: uniform over [lo, hi], or over `values` when it is a discrete set
// (then lo and hi are its least and greatest values).
struct FuzzRange {
  int64_t lo = 1, hi = 1;
  std::vector<int64_t> values;
};

inline constexpr std::array<const char*, 4> kPresetNames = {"S", "M", "L", "XL"};
inline constexpr std::array<const char*, 3> kTracks = {"loop_level_reasoning",
                                                       "scientific_computing", "machine_learning"};

struct Manifest {
  std::filesystem::path dir;  // the kernel's folder
  std::string id, name, description, track, dwarf;
  int level = 1;
  std::vector<Precision> precisions;
  std::vector<std::string> size_symbols;       // sorted
  std::map<std::string, SymbolTable> presets;  // "S".."XL" -> symbol -> value
  std::map<std::string, FuzzRange> fuzzed;     // symbol -> range or set
  std::vector<Constraint> constraints;         // in manifest order
  std::vector<ScalarSpec> scalars;             // sorted by name
  std::vector<ArraySpec> arrays;               // sorted by name (ASCII)
  std::vector<Initializer> initializers;
  std::optional<Expr> reduction_length, bytes, flops;
  // "oracle": "c" (reference.c) or "numpy" (reference.py); nullopt: the track's default, which
  // the judge applies (docs/corpus.md, "A NumPy-only kernel").
  std::optional<std::string> oracle;
  // "tags": names of kernel sets this kernel belongs to (e.g. "llr-focus40"), in manifest order.
  std::vector<std::string> tags;
  // "mpi": the distributed residency (common/mpi_spec.h); nullopt: the kernel has none.
  std::optional<MpiSpec> mpi;

  bool has_tag(const std::string& tag) const;
  // The original judge's path-style key: "<track>/[<dwarf>/]<id>".
  std::string key() const;
  const ArraySpec* array(const std::string& name) const;
  const ScalarSpec* scalar(const std::string& name) const;
  bool supports(Precision p) const;
  // Size symbols plus integer scalars: the environment for shape and range expressions.
  SymbolTable symbols(const SymbolTable& sizes) const;
  // The initializer that fills `array`, if any.
  const Initializer* initializer_for(const std::string& array) const;
  std::filesystem::path reference_c() const { return dir / "reference.c"; }
  std::filesystem::path reference_py() const { return dir / "reference.py"; }
  // Whether those files exist in `dir` (regular files; a failed stat is "no").
  bool has_reference_c() const;
  bool has_reference_py() const;
};

inline constexpr std::array<const char*, 2> kOracles = {"c", "numpy"};

// Loads `<dir>/kernel.json` (or the file itself) and validates it completely, including that
// every preset's shapes evaluate and that the XL preset stays within `max_xl_bytes` of data.
// It reads kernel.json alone (the judge's sandboxed runner is given nothing else); the files
// beside it are check_kernel_files' business, which load_corpus applies.
Result<Manifest> load_manifest(const std::filesystem::path& dir_or_file,
                               uint64_t max_xl_bytes = uint64_t{4} << 30);

// The kernel folder is complete: reference.py exists (the specification, always required) and
// `"oracle": "c"` has its reference.c; reference.c is otherwise optional. Errors name the kernel
// and the folder.
Status check_kernel_files(const Manifest& m);

// Scans `root` for kernel.json files (corpus/<track>/[<dwarf>/]<id>/kernel.json), loads each,
// checks folder layout against track/dwarf/id, the kernel's files (check_kernel_files) and that
// ids are unique. Sorted by id.
Result<std::vector<Manifest>> load_corpus(const std::filesystem::path& root);

// The kernel a client names, by id ("tsvc_2_s000") or by the original judge's path-style key
// ("loop_level_reasoning/tsvc_2_s000", "scientific_computing/dense_linear_algebra/gemm": the
// track, the dwarf where it has one, the id); nullptr for anything else, including a path whose
// track or dwarf is not the kernel's.
const Manifest* find_kernel(const std::vector<Manifest>& corpus, std::string_view key);

// Expands kernel selectors to ids: an id or path-style key, `track:<t>`, `dwarf:<d>`,
// `level:<n>`, `tag:<name>` or `all`. Each selector contributes its kernels sorted by id;
// duplicates keep their first position. A selector matching nothing, or an unknown id, is an
// error naming it.
Result<std::vector<std::string>> select_kernels(const std::vector<Manifest>& corpus,
                                                const std::vector<std::string>& selectors);

// How many kernels the corpus has per track, dwarf, level and tag, for `/health` and `hpcab
// corpus list`: {"total": n, "tracks": {track: n}, "dwarfs": {dwarf: n}, "levels": {"1": n},
// "tags": {tag: n}} (every track listed, with 0 where it has none).
std::string corpus_counts_json(const std::vector<Manifest>& corpus);

// The longest kernel id (and track or dwarf name) the judge accepts; the paper's longest id has
// 84 characters. load_manifest refuses longer ids, so every kernel that loads can be graded.
inline constexpr std::size_t kMaxKernelIdLength = 96;

// Whether `key` has the form of a kernel id or path-style key (at most three '/'-separated
// names of [a-z][a-z0-9_]*, each at most kMaxKernelIdLength, 200 characters in all), before any
// lookup: request parsers refuse other strings without echoing them into a lookup.
bool valid_kernel_key(std::string_view key);

// Why the sizes `syms` (size symbols and integer scalars) cannot hold `init`'s structure,
// nullopt when they can: a square matrix that is not square, a negative bandwidth, a CSR
// pattern with more entries than rows * cols, a graph with too few entries for connectivity or
// more than the complete graph holds. load_manifest applies it to every preset; the generator
// (common/initializers.h) before it builds anything.
std::optional<std::string> initializer_shortfall(const Manifest& m, const Initializer& init,
                                                 const SymbolTable& syms);

// Bytes of all arrays at `sizes` in precision `p`.
Result<uint64_t> data_bytes(const Manifest& m, const SymbolTable& sizes, Precision p);
// Bytes of the output arrays only (what the runner copies out and saves after each call).
Result<uint64_t> output_bytes(const Manifest& m, const SymbolTable& sizes, Precision p);

// The data budget of one call: a sandboxed runner holds the arrays, a snapshot of the inputs and
// a copy of the outputs, besides its own code and heap, so the arrays of one call may take a
// quarter of its memory limit (the address space of one runner process).
inline constexpr uint64_t kDataShareOfMemory = 4;
constexpr uint64_t data_budget(uint64_t memory_bytes) { return memory_bytes / kDataShareOfMemory; }

// Why the arrays at `sizes` in precision `p` do not fit the data budget of a runner limited to
// `memory_bytes`, naming both amounts; nullopt when they fit. Sizes whose bytes cannot be
// evaluated (an overflow) do not fit either.
std::optional<std::string> memory_shortfall(const Manifest& m, const SymbolTable& sizes,
                                            Precision p, uint64_t memory_bytes);

}  // namespace hpcab
