#include "common/manifest.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

namespace hpcab {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::vector<std::string> Initializer::arrays() const {
  if (kind == Kind::kCsr) return {indptr, indices, data};
  if (kind == Kind::kGraph) {
    if (data.empty()) return {indptr, indices};
    return {indptr, indices, data};
  }
  return {array};
}

const ArraySpec* Manifest::array(const std::string& n) const {
  for (const auto& a : arrays) {
    if (a.name == n) return &a;
  }
  return nullptr;
}

const ScalarSpec* Manifest::scalar(const std::string& n) const {
  for (const auto& s : scalars) {
    if (s.name == n) return &s;
  }
  return nullptr;
}

bool Manifest::has_tag(const std::string& tag) const {
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

std::string Manifest::key() const { return track + "/" + (dwarf.empty() ? "" : dwarf + "/") + id; }

bool valid_kernel_key(std::string_view key) {
  if (key.empty() || key.size() > 200) return false;
  int segments = 0;
  std::size_t start = 0;
  while (true) {
    std::size_t end = key.find('/', start);
    std::string_view seg = key.substr(start, end == std::string_view::npos ? end : end - start);
    if (seg.empty() || seg.size() > kMaxKernelIdLength || seg[0] < 'a' || seg[0] > 'z') {
      return false;
    }
    for (char c : seg) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    }
    if (++segments > 3) return false;
    if (end == std::string_view::npos) return true;
    start = end + 1;
  }
}

const Manifest* find_kernel(const std::vector<Manifest>& corpus, std::string_view key) {
  const std::size_t slash = key.rfind('/');
  const std::string_view id = slash == std::string_view::npos ? key : key.substr(slash + 1);
  for (const auto& m : corpus) {
    if (m.id != id) continue;
    return slash == std::string_view::npos || m.key() == key ? &m : nullptr;
  }
  return nullptr;
}

Result<std::vector<std::string>> select_kernels(const std::vector<Manifest>& corpus,
                                                const std::vector<std::string>& selectors) {
  std::vector<std::string> out;
  std::set<std::string> have;
  for (const auto& sel : selectors) {
    std::vector<std::string> ids;
    const auto colon = sel.find(':');
    const std::string kind = colon == std::string::npos ? "" : sel.substr(0, colon);
    const std::string arg = colon == std::string::npos ? sel : sel.substr(colon + 1);
    const Manifest* named = kind.empty() ? find_kernel(corpus, sel) : nullptr;
    for (const auto& m : corpus) {
      bool match = sel == "all" || (kind == "track" && m.track == arg) ||
                   (kind == "dwarf" && m.dwarf == arg) ||
                   (kind == "level" && std::to_string(m.level) == arg) ||
                   (kind == "tag" && m.has_tag(arg)) || (named == &m);
      if (match) ids.push_back(m.id);
    }
    if (ids.empty()) {
      if (kind.empty() && sel != "all") return Error{"unknown kernel '" + sel + "'"};
      return Error{"selector '" + sel + "' matches no kernel of the corpus"};
    }
    std::sort(ids.begin(), ids.end());
    for (auto& id : ids) {
      if (have.insert(id).second) out.push_back(id);
    }
  }
  return out;
}

std::string corpus_counts_json(const std::vector<Manifest>& corpus) {
  json tracks = json::object(), dwarfs = json::object(), levels = json::object(),
       tags = json::object();
  for (const char* t : kTracks) tracks[t] = 0;
  auto bump = [](json& j, const std::string& k) { j[k] = j.value(k, 0) + 1; };
  for (const auto& m : corpus) {
    bump(tracks, m.track);
    if (!m.dwarf.empty()) bump(dwarfs, m.dwarf);
    bump(levels, std::to_string(m.level));
    for (const auto& t : m.tags) bump(tags, t);
  }
  return json{{"total", corpus.size()},
              {"tracks", tracks},
              {"dwarfs", dwarfs},
              {"levels", levels},
              {"tags", tags}}
      .dump();
}

bool Manifest::supports(Precision p) const {
  return std::find(precisions.begin(), precisions.end(), p) != precisions.end();
}

SymbolTable Manifest::symbols(const SymbolTable& sizes) const {
  SymbolTable t = sizes;
  for (const auto& s : scalars) {
    if (!s.is_real) t[s.name] = s.int_value;
  }
  return t;
}

bool Manifest::has_reference_c() const {
  std::error_code ec;
  return fs::is_regular_file(reference_c(), ec);
}

bool Manifest::has_reference_py() const {
  std::error_code ec;
  return fs::is_regular_file(reference_py(), ec);
}

std::string_view Initializer::kind_name() const {
  switch (kind) {
    case Kind::kSpd:
      return "spd";
    case Kind::kPermutation:
      return "permutation";
    case Kind::kCsr:
      return "csr";
    case Kind::kBanded:
      return "banded";
    case Kind::kDiagDominant:
      return "diag_dominant";
    case Kind::kOrthogonal:
      return "orthogonal";
    case Kind::kGraph:
      return "graph";
    case Kind::kSorted:
      return "sorted";
    case Kind::kProbability:
      return "probability";
    case Kind::kText:
      return "text";
  }
  return "?";
}

const Initializer* Manifest::initializer_for(const std::string& a) const {
  for (const auto& init : initializers) {
    for (const auto& name : init.arrays()) {
      if (name == a) return &init;
    }
  }
  return nullptr;
}

namespace {

// Collects the context (file and field path) so every error says where and what was expected.
class Validator {
 public:
  explicit Validator(std::string file) : file_(std::move(file)) {}

  Error fail(const std::string& field, const std::string& what) const {
    return Error{file_ + ": field '" + field + "': " + what};
  }
  Error fail_file(const std::string& what) const { return Error{file_ + ": " + what}; }

 private:
  std::string file_;
};

std::string kind_of(const json& j) {
  if (j.is_object()) return "an object";
  if (j.is_array()) return "an array";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_number_integer()) return "an integer";
  if (j.is_number()) return "a number";
  return "null";
}

bool valid_identifier(const std::string& s) {
  static const std::regex re("[A-Za-z_][A-Za-z0-9_]*");
  return std::regex_match(s, re);
}

// Names that would break the generated C, C++ or Fortran prototypes.
bool reserved_name(const std::string& s) {
  static const std::set<std::string> kReserved = {
      "workspace", "workspace_size", "REAL_BYTES", "int",    "float", "double", "void",
      "const",     "restrict",       "return",     "if",     "else",  "for",    "while",
      "do",        "char",           "long",       "short",  "auto",  "bool",   "true",
      "false",     "int64_t",        "uint8_t",    "size_t", "new",   "delete", "class"};
  return kReserved.count(s) != 0;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Result<Expr> parse_expr(const Validator& v, const std::string& field, const json& j,
                        const std::set<std::string>& allowed) {
  std::string text;
  if (j.is_number_integer()) {
    text = std::to_string(j.get<int64_t>());
  } else if (j.is_string()) {
    text = j.get<std::string>();
  } else {
    return v.fail(field, "expected a size expression (integer or string), got " + kind_of(j));
  }
  auto e = Expr::parse(text);
  if (!e) return v.fail(field, e.error().message);
  for (const auto& s : e->symbols()) {
    if (allowed.count(s) == 0) {
      return v.fail(field, "unknown symbol '" + s + "' in '" + text +
                               "' (expected size symbols or integer scalars)");
    }
  }
  return e;
}

Status check_keys(const Validator& v, const std::string& field, const json& obj,
                  const std::set<std::string>& allowed) {
  for (const auto& [k, _] : obj.items()) {
    if (allowed.count(k) == 0) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      return v.fail(field.empty() ? k : field + "." + k,
                    "unknown field (expected one of: " + list + ")");
    }
  }
  return Ok{};
}

Result<std::string> get_string(const Validator& v, const json& obj, const std::string& key,
                               const std::string& prefix = "") {
  std::string field = prefix.empty() ? key : prefix + "." + key;
  if (!obj.contains(key)) return v.fail(field, "missing (expected a string)");
  const auto& j = obj.at(key);
  if (!j.is_string()) return v.fail(field, "expected a string, got " + kind_of(j));
  return j.get<std::string>();
}

Result<Domain> parse_domain(const Validator& v, const std::string& field, const json& j) {
  Domain d;
  if (j.is_string()) {
    auto s = j.get<std::string>();
    if (s == "any") return d;
    if (s == "positive") {
      d.kind = Domain::Kind::kPositive;
      return d;
    }
    if (s == "nonneg") {
      d.kind = Domain::Kind::kNonneg;
      return d;
    }
  } else if (j.is_array() && j.size() == 2 && j[0].is_number() && j[1].is_number()) {
    d.kind = Domain::Kind::kInterval;
    d.lo = j[0].get<double>();
    d.hi = j[1].get<double>();
    if (!(d.lo < d.hi)) return v.fail(field, "expected [lo, hi] with lo < hi");
    return d;
  }
  return v.fail(field, "expected \"any\", \"positive\", \"nonneg\" or [lo, hi]");
}

}  // namespace

namespace {

// Element count of `name` at `syms` (-1 when a shape does not evaluate).
int64_t extent(const Manifest& m, const std::string& name, const SymbolTable& syms) {
  const ArraySpec* a = m.array(name);
  if (!a) return -1;
  int64_t n = 1;
  for (const auto& e : a->shape) {
    auto v = e.eval(syms);
    if (!v || *v < 0 || __builtin_mul_overflow(n, *v, &n)) return -1;
  }
  return n;
}

}  // namespace

std::optional<std::string> initializer_shortfall(const Manifest& m, const Initializer& init,
                                                 const SymbolTable& syms) {
  using Kind = Initializer::Kind;
  auto num = [](int64_t x) { return std::to_string(x); };
  const bool square = init.kind == Kind::kSpd || init.kind == Kind::kDiagDominant ||
                      init.kind == Kind::kOrthogonal ||
                      (init.kind == Kind::kBanded && init.dominant);
  if (square) {
    const ArraySpec* a = m.array(init.array);
    if (!a || a->shape.size() != 2) return std::string(init.kind_name()) + ": not a 2-D array";
    auto r = a->shape[0].eval(syms);
    auto c = a->shape[1].eval(syms);
    if (!r || !c || *r != *c) {
      return std::string(init.kind_name()) + " initializer: '" + init.array + "' is " +
             (r ? num(*r) : "?") + " x " + (c ? num(*c) : "?") + ", not square";
    }
  }
  if (init.kind == Kind::kBanded) {
    auto lo = init.lower->eval(syms);
    if (!lo) return lo.error().message;
    auto up = init.upper->eval(syms);
    if (!up) return up.error().message;
    if (*lo < 0 || *up < 0) {
      return "banded initializer: '" + init.array + "' has a negative bandwidth (lower " +
             num(*lo) + ", upper " + num(*up) + ")";
    }
  }
  if (init.kind == Kind::kCsr) {
    const int64_t rows = extent(m, init.indptr, syms) - 1;
    const int64_t nnz = extent(m, init.indices, syms);
    const int64_t data = extent(m, init.data, syms);
    auto cols = init.cols->eval(syms);
    if (!cols) return cols.error().message;
    int64_t cap = 0;
    if (rows < 1 || *cols < 1 || data != nnz || __builtin_mul_overflow(rows, *cols, &cap) ||
        nnz > cap) {
      return "csr initializer: need len(" + init.indptr + ") >= 2, len(" + init.data + ") == len(" +
             init.indices + ") and nnz <= rows*cols (rows " + num(rows) + ", cols " + num(*cols) +
             ", nnz " + num(nnz) + ")";
    }
  } else if (init.kind == Kind::kGraph) {
    const int64_t n = extent(m, init.indptr, syms) - 1;
    const int64_t stored = extent(m, init.indices, syms);
    const std::string what = "graph initializer (" + init.indptr + ", " + init.indices + "): ";
    if (n < 1) return what + "needs len(" + init.indptr + ") >= 2";
    if (!init.data.empty() && extent(m, init.data, syms) != stored) {
      return what + "len(" + init.data + ") must equal len(" + init.indices + ")";
    }
    if (!init.directed && stored % 2 != 0) {
      return what + "an undirected graph stores each edge twice, so len(" + init.indices +
             ") must be even, not " + num(stored);
    }
    const int64_t edges = init.directed ? stored : stored / 2;
    const int64_t most = init.directed ? n * (n - 1) : n * (n - 1) / 2;  // n <= ~3e9 here
    if (edges > most) {
      return what + num(edges) + " edges do not fit " + num(n) + " vertices without loops or " +
             "parallel edges (at most " + num(most) + ")";
    }
    const int64_t least = !init.connected || n == 1 ? 0 : init.directed ? n : n - 1;
    if (edges < least) {
      return what + "a connected graph of " + num(n) + " vertices needs at least " + num(least) +
             " edges, got " + num(edges);
    }
  }
  return std::nullopt;
}

namespace {

// One kernel.json being read: the section parsers below fill `m` in file order, and each
// returns the first error it finds, so the order of the calls in load_manifest is the order
// in which a manifest's mistakes are reported.
struct ManifestParse {
  const Validator& v;
  const json& root;
  Manifest& m;
  std::set<std::string> names;         // every ABI name: size symbols, scalars, arrays
  std::set<std::string> expr_symbols;  // what a size expression may name
};

bool is_lower_id(const std::string& s) {
  static const std::regex id_re("[a-z][a-z0-9_]*");
  return std::regex_match(s, id_re);
}

Status check_top_level_keys(ManifestParse& p) {
  return check_keys(p.v, "", p.root,
                    {"id", "name", "track", "dwarf", "level", "description", "precisions", "sizes",
                     "fuzzed", "constraints", "scalars", "arrays", "initializers",
                     "reduction_length", "bytes", "flops", "oracle", "tags", "mpi"});
}

// id, name, track, description, dwarf, level and oracle.
Status parse_identity(ManifestParse& p) {
  const Validator& v = p.v;
  const json& root = p.root;
  Manifest& m = p.m;
  for (auto [key, dst] : {std::pair{"id", &m.id}, std::pair{"name", &m.name},
                          std::pair{"track", &m.track}, std::pair{"description", &m.description}}) {
    auto s = get_string(v, root, key);
    if (!s) return s.error();
    *dst = *s;
  }
  if (!is_lower_id(m.id)) return v.fail("id", "expected [a-z][a-z0-9_]*, got '" + m.id + "'");
  if (m.id.size() > kMaxKernelIdLength) {
    return v.fail("id", "'" + m.id + "' is longer than " + std::to_string(kMaxKernelIdLength) +
                            " characters (the judge's kernel names: docs/api.md)");
  }
  if (m.dir.filename() != m.id) {
    return v.fail("id",
                  "'" + m.id + "' must equal the folder name '" + m.dir.filename().string() + "'");
  }
  if (std::find(kTracks.begin(), kTracks.end(), m.track) == kTracks.end()) {
    return v.fail("track",
                  "expected loop_level_reasoning, scientific_computing or "
                  "machine_learning, got '" +
                      m.track + "'");
  }
  if (m.track == "scientific_computing") {
    auto d = get_string(v, root, "dwarf");
    if (!d) return d.error();
    if (!is_lower_id(*d)) return v.fail("dwarf", "expected [a-z][a-z0-9_]*");
    m.dwarf = *d;
  } else if (root.contains("dwarf")) {
    return v.fail("dwarf", "only scientific_computing kernels have a dwarf");
  }
  if (!root.contains("level") || !root["level"].is_number_integer() ||
      root["level"].get<int64_t>() < 1 || root["level"].get<int64_t>() > 3) {
    return v.fail("level", "expected 1, 2 or 3");
  }
  m.level = root["level"].get<int>();
  if (root.contains("oracle")) {
    const json& o = root["oracle"];
    if (!o.is_string() ||
        std::find(kOracles.begin(), kOracles.end(), o.get<std::string>()) == kOracles.end()) {
      return v.fail("oracle", "expected \"c\" or \"numpy\", got " + o.dump());
    }
    m.oracle = o.get<std::string>();
  }
  return Ok{};
}

Status parse_tags(ManifestParse& p) {
  if (!p.root.contains("tags")) return Ok{};
  // Tags name kernel sets (`tag:llr-focus40`): lowercase words, so a selector never depends
  // on case or quoting; a duplicate is a typo, not a no-op.
  static const std::regex tag_re("[a-z0-9][a-z0-9_-]*");
  const json& t = p.root["tags"];
  if (!t.is_array()) return p.v.fail("tags", "expected an array of strings, got " + kind_of(t));
  for (const auto& e : t) {
    if (!e.is_string() || !std::regex_match(e.get<std::string>(), tag_re)) {
      return p.v.fail("tags", "expected tags matching [a-z0-9][a-z0-9_-]*, got " + e.dump());
    }
    if (p.m.has_tag(e.get<std::string>())) return p.v.fail("tags", "duplicate " + e.dump());
    p.m.tags.push_back(e.get<std::string>());
  }
  return Ok{};
}

Status parse_precisions(ManifestParse& p) {
  const json& root = p.root;
  if (!root.contains("precisions") || !root["precisions"].is_array() ||
      root["precisions"].empty()) {
    return p.v.fail("precisions", "expected a non-empty array of \"fp64\"/\"fp32\"");
  }
  for (const auto& e : root["precisions"]) {
    auto parsed = e.is_string() ? parse_precision(e.get<std::string>()) : std::nullopt;
    if (!parsed) return p.v.fail("precisions", "expected \"fp64\" or \"fp32\", got " + e.dump());
    if (p.m.supports(*parsed)) return p.v.fail("precisions", "duplicate " + e.dump());
    p.m.precisions.push_back(*parsed);
  }
  return Ok{};
}

// One preset of "sizes": symbol -> positive integer.
Result<SymbolTable> parse_preset(const Validator& v, const std::string& field, const json& preset) {
  SymbolTable table;
  for (const auto& [sym, val] : preset.items()) {
    if (!valid_identifier(sym) || reserved_name(sym)) {
      return v.fail(field + "." + sym, "not a valid size symbol name");
    }
    if (!val.is_number_integer() || val.get<int64_t>() < 1) {
      return v.fail(field + "." + sym, "expected a positive integer, got " + val.dump());
    }
    table[sym] = val.get<int64_t>();
  }
  return table;
}

// "sizes": presets S, M, L and XL, each defining the same symbols; S fixes m.size_symbols.
Status parse_sizes(ManifestParse& p) {
  const Validator& v = p.v;
  Manifest& m = p.m;
  if (!p.root.contains("sizes") || !p.root["sizes"].is_object()) {
    return v.fail("sizes", "expected an object with presets S, M, L, XL");
  }
  const json& sizes = p.root["sizes"];
  if (auto st = check_keys(v, "sizes", sizes, {"S", "M", "L", "XL"}); !st) return st.error();
  for (const char* preset : kPresetNames) {
    std::string field = std::string("sizes.") + preset;
    if (!sizes.contains(preset) || !sizes[preset].is_object() || sizes[preset].empty()) {
      return v.fail(field, "missing or empty (expected symbol -> positive integer)");
    }
    auto table = parse_preset(v, field, sizes[preset]);
    if (!table) return table.error();
    std::vector<std::string> syms;
    for (const auto& [sym, _] : *table) syms.push_back(sym);
    if (m.size_symbols.empty()) {
      m.size_symbols = std::move(syms);
    } else if (syms != m.size_symbols) {
      return v.fail(field, "every preset must define the same size symbols as S");
    }
    m.presets[preset] = std::move(*table);
  }
  return Ok{};
}

// One "fuzzed" entry: [lo, hi] or {"one_of": [v, ...]}.
Result<FuzzRange> parse_fuzz_range(const Validator& v, const std::string& field,
                                   const json& range) {
  FuzzRange f;
  if (range.is_object()) {
    if (auto st = check_keys(v, field, range, {"one_of"}); !st) return st.error();
    const json* set = range.contains("one_of") ? &range["one_of"] : nullptr;
    if (!set || !set->is_array() || set->empty()) {
      return v.fail(field + ".one_of", "expected a non-empty list of positive integers");
    }
    for (const auto& e : *set) {
      if (!e.is_number_integer() || e.get<int64_t>() < 1) {
        return v.fail(field + ".one_of", "expected positive integers, got " + e.dump());
      }
      if (std::find(f.values.begin(), f.values.end(), e.get<int64_t>()) != f.values.end()) {
        return v.fail(field + ".one_of", "duplicate " + e.dump());
      }
      f.values.push_back(e.get<int64_t>());
    }
    f.lo = *std::min_element(f.values.begin(), f.values.end());
    f.hi = *std::max_element(f.values.begin(), f.values.end());
  } else if (range.is_array() && range.size() == 2 && range[0].is_number_integer() &&
             range[1].is_number_integer() && range[0].get<int64_t>() >= 1 &&
             range[0].get<int64_t>() <= range[1].get<int64_t>()) {
    f.lo = range[0].get<int64_t>();
    f.hi = range[1].get<int64_t>();
  } else {
    return v.fail(field, "expected [lo, hi] with 1 <= lo <= hi, or {\"one_of\": [values]}");
  }
  return f;
}

Status parse_fuzzed(ManifestParse& p) {
  if (!p.root.contains("fuzzed")) return Ok{};
  if (!p.root["fuzzed"].is_object()) {
    return p.v.fail("fuzzed", "expected symbol -> [lo, hi] or {\"one_of\": [values]}");
  }
  const auto& symbols = p.m.size_symbols;
  for (const auto& [sym, range] : p.root["fuzzed"].items()) {
    std::string field = "fuzzed." + sym;
    if (std::find(symbols.begin(), symbols.end(), sym) == symbols.end()) {
      return p.v.fail(field, "not a size symbol of the presets");
    }
    auto f = parse_fuzz_range(p.v, field, range);
    if (!f) return f.error();
    p.m.fuzzed[sym] = std::move(*f);
  }
  return Ok{};
}

// A new ABI name (scalar or array): a valid identifier not used before.
Status claim_name(ManifestParse& p, const std::string& field, const std::string& name) {
  if (!valid_identifier(name) || reserved_name(name)) return p.v.fail(field, "invalid name");
  if (!p.names.insert(name).second) return p.v.fail(field, "name already used");
  return Ok{};
}

// "scalars": name -> {"dtype": "real" | "int64", "value"}; int64 scalars join expr_symbols.
Status parse_scalars(ManifestParse& p) {
  const Validator& v = p.v;
  if (!p.root.contains("scalars")) return Ok{};
  if (!p.root["scalars"].is_object()) return v.fail("scalars", "expected name -> scalar spec");
  for (const auto& [name, spec] : p.root["scalars"].items()) {
    std::string field = "scalars." + name;
    if (auto st = claim_name(p, field, name); !st) return st.error();
    if (!spec.is_object()) return v.fail(field, "expected {\"dtype\", \"value\"}");
    if (auto st = check_keys(v, field, spec, {"dtype", "value"}); !st) return st.error();
    auto dt = get_string(v, spec, "dtype", field);
    if (!dt) return dt.error();
    ScalarSpec s;
    s.name = name;
    if (!spec.contains("value")) return v.fail(field + ".value", "missing");
    const json& val = spec["value"];
    if (*dt == "real") {
      if (!val.is_number()) return v.fail(field + ".value", "expected a number");
      s.real_value = val.get<double>();
    } else if (*dt == "int64") {
      if (!val.is_number_integer()) return v.fail(field + ".value", "expected an integer");
      s.is_real = false;
      s.int_value = val.get<int64_t>();
      p.expr_symbols.insert(name);
    } else {
      return v.fail(field + ".dtype", "expected \"real\" or \"int64\"");
    }
    p.m.scalars.push_back(s);
  }
  return Ok{};
}

// An array's "dtype" ("real" follows the precision, anything else is fixed) and "intent".
Status parse_array_type(const Validator& v, const std::string& field, const json& spec,
                        ArraySpec& a) {
  auto dt = get_string(v, spec, "dtype", field);
  if (!dt) return dt.error();
  if (*dt != "real") {
    auto fixed = parse_dtype(*dt);
    if (!fixed) {
      return v.fail(field + ".dtype",
                    "expected real, float64, float32, int64, int32, uint16, "
                    "uint8, int8 or bool, got '" +
                        *dt + "'");
    }
    a.fixed_dtype = fixed;
  }
  auto intent = get_string(v, spec, "intent", field);
  if (!intent) return intent.error();
  if (*intent == "in") {
    a.intent = Intent::kIn;
  } else if (*intent == "out") {
    a.intent = Intent::kOut;
  } else if (*intent == "inout") {
    a.intent = Intent::kInout;
  } else {
    return v.fail(field + ".intent", "expected \"in\", \"out\" or \"inout\"");
  }
  return Ok{};
}

// An array's optional "domain" (real arrays) and "range" (integer arrays).
Status parse_array_values(const ManifestParse& p, const std::string& field, const json& spec,
                          ArraySpec& a) {
  const Validator& v = p.v;
  bool is_float = !a.fixed_dtype || dtype_is_float(*a.fixed_dtype);
  if (spec.contains("domain")) {
    if (!is_float) return v.fail(field + ".domain", "only real arrays have a domain");
    auto d = parse_domain(v, field + ".domain", spec["domain"]);
    if (!d) return d.error();
    a.domain = *d;
  }
  if (spec.contains("range")) {
    if (is_float || *a.fixed_dtype == DType::kBool) {
      return v.fail(field + ".range", "only integer arrays have a range");
    }
    const json& r = spec["range"];
    if (!r.is_array() || r.size() != 2) return v.fail(field + ".range", "expected [lo, hi]");
    auto lo = parse_expr(v, field + ".range[0]", r[0], p.expr_symbols);
    if (!lo) return lo.error();
    auto hi = parse_expr(v, field + ".range[1]", r[1], p.expr_symbols);
    if (!hi) return hi.error();
    a.range_lo = *lo;
    a.range_hi = *hi;
  }
  return Ok{};
}

Result<ArraySpec> parse_array(ManifestParse& p, const std::string& name, const json& spec) {
  const Validator& v = p.v;
  std::string field = "arrays." + name;
  if (auto st = claim_name(p, field, name); !st) return st.error();
  if (!spec.is_object()) return v.fail(field, "expected an object");
  if (auto st = check_keys(v, field, spec,
                           {"shape", "dtype", "intent", "domain", "range", "graded_because"});
      !st) {
    return st.error();
  }
  ArraySpec a;
  a.name = name;
  if (!spec.contains("shape") || !spec["shape"].is_array()) {
    return v.fail(field + ".shape", "expected a list of size expressions");
  }
  for (std::size_t i = 0; i < spec["shape"].size(); ++i) {
    auto e = parse_expr(v, field + ".shape[" + std::to_string(i) + "]", spec["shape"][i],
                        p.expr_symbols);
    if (!e) return e.error();
    a.shape.push_back(*e);
  }
  if (auto st = parse_array_type(v, field, spec, a); !st) return st.error();
  if (auto st = parse_array_values(p, field, spec, a); !st) return st.error();
  if (spec.contains("graded_because")) {
    const json& g = spec["graded_because"];
    if (!g.is_string() || g.get<std::string>().empty()) {
      return v.fail(field + ".graded_because", "expected a non-empty string (the reason)");
    }
    if (!a.is_output()) {
      return v.fail(field + ".graded_because", "only an \"out\" or \"inout\" array is graded");
    }
    a.graded_because = g.get<std::string>();
  }
  return a;
}

// "arrays": at least one output, at least one of them upstream's result (no graded_because);
// arrays and scalars end up sorted by name.
Status parse_arrays(ManifestParse& p) {
  Manifest& m = p.m;
  const json& root = p.root;
  if (!root.contains("arrays") || !root["arrays"].is_object() || root["arrays"].empty()) {
    return p.v.fail("arrays", "expected a non-empty object name -> array spec");
  }
  bool any_output = false, any_upstream_output = false;
  for (const auto& [name, spec] : root["arrays"].items()) {
    auto a = parse_array(p, name, spec);
    if (!a) return a.error();
    any_output = any_output || a->is_output();
    any_upstream_output = any_upstream_output || (a->is_output() && a->graded_because.empty());
    m.arrays.push_back(std::move(*a));
  }
  if (!any_output) return p.v.fail("arrays", "at least one array must be \"out\" or \"inout\"");
  if (!any_upstream_output) {
    return p.v.fail("arrays",
                    "every output has a graded_because: at least one must be upstream's result");
  }
  std::sort(m.arrays.begin(), m.arrays.end(),
            [](const ArraySpec& x, const ArraySpec& y) { return x.name < y.name; });
  std::sort(m.scalars.begin(), m.scalars.end(),
            [](const ScalarSpec& x, const ScalarSpec& y) { return x.name < y.name; });
  return Ok{};
}

// Fortran is case-insensitive: two ABI names differing only in case cannot both be bound.
Status check_names_case_insensitively_unique(ManifestParse& p) {
  std::set<std::string> lowered;
  for (const auto& n : p.names) {
    if (!lowered.insert(lower(n)).second) {
      return p.v.fail_file("names '" + n +
                           "' and another differ only in case; Fortran bindings "
                           "need case-insensitively unique argument names");
    }
  }
  return Ok{};
}

// What an initializer's array must hold.
enum class Need { kReal, kIndex, kSortable, kByte };

// One entry of "initializers", read against the arrays already parsed; `covered` holds the
// arrays that earlier entries fill, since an array is filled by at most one initializer.
class InitializerParser {
 public:
  InitializerParser(const ManifestParse& p, std::set<std::string>& covered, const json& spec,
                    std::string field)
      : v_(p.v),
        m_(p.m),
        expr_symbols_(p.expr_symbols),
        covered_(covered),
        spec_(spec),
        field_(std::move(field)) {}

  Result<Initializer> parse() {
    if (!spec_.is_object()) return v_.fail(field_, "expected an object");
    auto kind = get_string(v_, spec_, "kind", field_);
    if (!kind) return kind.error();
    using Kind = Initializer::Kind;
    static const std::map<std::string, Kind, std::less<>> kKinds = {
        {"spd", Kind::kSpd},
        {"permutation", Kind::kPermutation},
        {"csr", Kind::kCsr},
        {"banded", Kind::kBanded},
        {"diag_dominant", Kind::kDiagDominant},
        {"orthogonal", Kind::kOrthogonal},
        {"graph", Kind::kGraph},
        {"sorted", Kind::kSorted},
        {"probability", Kind::kProbability},
        {"text", Kind::kText}};
    auto found = kKinds.find(*kind);
    if (found == kKinds.end()) {
      return v_.fail(field_ + ".kind",
                     "expected spd, diag_dominant, orthogonal, banded, permutation, sorted, "
                     "probability, text, csr or graph, got '" +
                         *kind + "'");
    }
    Initializer init;
    init.kind = found->second;
    Status st = Ok{};
    switch (init.kind) {
      case Kind::kSpd:
      case Kind::kDiagDominant:
      case Kind::kOrthogonal:
      case Kind::kProbability:
      case Kind::kPermutation:
      case Kind::kSorted:
        st = parse_one_array(*kind, init);
        break;
      case Kind::kBanded:
        st = parse_banded(init);
        break;
      case Kind::kText:
        st = parse_text(init);
        break;
      case Kind::kCsr:
        st = parse_csr(init);
        break;
      case Kind::kGraph:
        st = parse_graph(init);
        break;
    }
    if (!st) return st.error();
    return init;
  }

 private:
  using Kind = Initializer::Kind;

  Error fail(const std::string& key, const std::string& what) const {
    return v_.fail(key.empty() ? field_ : field_ + "." + key, what);
  }

  // The array named by `key`: an input of the type `need` asks for, filled by no other entry.
  Result<std::string> need_array(const std::string& key, Need need) {
    auto n = get_string(v_, spec_, key, field_);
    if (!n) return n.error();
    const ArraySpec* a = m_.array(*n);
    if (!a) return fail(key, "no array named '" + *n + "'");
    if (a->intent == Intent::kOut) {
      return fail(key, "'" + *n + "' is an output; initializers fill inputs");
    }
    const bool is_real = !a->fixed_dtype || dtype_is_float(*a->fixed_dtype);
    const std::optional<DType> t = a->fixed_dtype;
    const bool is_index = t && (*t == DType::kInt32 || *t == DType::kInt64);
    const bool is_byte = t && (*t == DType::kUint8 || *t == DType::kInt8);
    switch (need) {
      case Need::kReal:
        if (!is_real) return fail(key, "'" + *n + "' must be real");
        break;
      case Need::kIndex:
        if (!is_index) return fail(key, "'" + *n + "' must be int32 or int64");
        break;
      case Need::kSortable:
        if (t == DType::kBool) return fail(key, "'" + *n + "' is bool");
        break;
      case Need::kByte:
        if (!is_byte) return fail(key, "'" + *n + "' must be uint8 or int8");
        break;
    }
    if (!covered_.insert(*n).second) {
      return fail(key, "'" + *n + "' is filled by two initializers");
    }
    return n;
  }

  std::size_t rank_of(const std::string& n) const { return m_.array(n)->shape.size(); }

  Result<bool> get_bool(const std::string& key, bool dflt) const {
    if (!spec_.contains(key)) return dflt;
    if (!spec_[key].is_boolean()) {
      return fail(key, "expected true or false, got " + spec_[key].dump());
    }
    return spec_[key].get<bool>();
  }

  // Every named array must be 1-D.
  Status check_1d(const std::vector<std::string>& arrays) const {
    for (const auto& n : arrays) {
      if (rank_of(n) != 1) return fail("", "'" + n + "' must be 1-D");
    }
    return Ok{};
  }

  // spd, diag_dominant, orthogonal, probability, permutation and sorted: {"kind", "array"}.
  Status parse_one_array(const std::string& kind, Initializer& init) {
    if (auto st = check_keys(v_, field_, spec_, {"kind", "array"}); !st) return st.error();
    const Need need = init.kind == Kind::kPermutation ? Need::kIndex
                      : init.kind == Kind::kSorted    ? Need::kSortable
                                                      : Need::kReal;
    auto n = need_array("array", need);
    if (!n) return n.error();
    init.array = *n;
    const std::size_t rank = rank_of(*n);
    const bool square = init.kind == Kind::kSpd || init.kind == Kind::kDiagDominant ||
                        init.kind == Kind::kOrthogonal;
    if (square && rank != 2) return fail("array", kind + " needs a square 2-D array");
    if ((init.kind == Kind::kPermutation || init.kind == Kind::kSorted) && rank != 1) {
      return fail("array", kind + " needs a 1-D array");
    }
    if (init.kind == Kind::kProbability && rank == 0) {
      return fail("array", "probability needs an array with a last axis");
    }
    return Ok{};
  }

  Status parse_banded(Initializer& init) {
    if (auto st = check_keys(v_, field_, spec_, {"kind", "array", "lower", "upper", "dominant"});
        !st) {
      return st.error();
    }
    auto n = need_array("array", Need::kReal);
    if (!n) return n.error();
    init.array = *n;
    if (rank_of(*n) != 2) return fail("array", "banded needs a 2-D array");
    for (auto [key, dst] : {std::pair{"lower", &init.lower}, std::pair{"upper", &init.upper}}) {
      if (!spec_.contains(key)) return fail(key, "missing (a size expression, 0 for none)");
      auto e = parse_expr(v_, field_ + "." + key, spec_[key], expr_symbols_);
      if (!e) return e.error();
      *dst = *e;
    }
    auto dom = get_bool("dominant", false);
    if (!dom) return dom.error();
    init.dominant = *dom;
    return Ok{};
  }

  Status parse_text(Initializer& init) {
    if (auto st = check_keys(v_, field_, spec_, {"kind", "array", "alphabet"}); !st) {
      return st.error();
    }
    auto n = need_array("array", Need::kByte);
    if (!n) return n.error();
    init.array = *n;
    auto alpha = get_string(v_, spec_, "alphabet", field_);
    if (!alpha) return alpha.error();
    // ASCII only: a letter is one byte in uint8 and int8 alike.
    std::set<char> letters;
    for (char c : *alpha) {
      if (static_cast<unsigned char>(c) >= 0x80 || !letters.insert(c).second) {
        return fail("alphabet", "expected distinct ASCII characters, got \"" + *alpha + "\"");
      }
    }
    if (letters.empty()) return fail("alphabet", "must not be empty");
    init.alphabet = *alpha;
    return Ok{};
  }

  Status parse_csr(Initializer& init) {
    if (auto st = check_keys(v_, field_, spec_, {"kind", "indptr", "indices", "data", "cols"});
        !st) {
      return st.error();
    }
    auto p = need_array("indptr", Need::kIndex);
    if (!p) return p.error();
    auto ix = need_array("indices", Need::kIndex);
    if (!ix) return ix.error();
    auto d = need_array("data", Need::kReal);
    if (!d) return d.error();
    init.indptr = *p;
    init.indices = *ix;
    init.data = *d;
    if (auto st = check_1d({*p, *ix, *d}); !st) return st.error();
    if (!spec_.contains("cols")) return fail("cols", "missing");
    auto cols = parse_expr(v_, field_ + ".cols", spec_["cols"], expr_symbols_);
    if (!cols) return cols.error();
    init.cols = *cols;
    return Ok{};
  }

  Status parse_graph(Initializer& init) {
    if (auto st = check_keys(v_, field_, spec_,
                             {"kind", "indptr", "indices", "weights", "directed", "connected"});
        !st) {
      return st.error();
    }
    auto p = need_array("indptr", Need::kIndex);
    if (!p) return p.error();
    auto ix = need_array("indices", Need::kIndex);
    if (!ix) return ix.error();
    init.indptr = *p;
    init.indices = *ix;
    std::vector<std::string> one_d = {*p, *ix};
    if (spec_.contains("weights")) {
      auto w = need_array("weights", Need::kReal);
      if (!w) return w.error();
      if (m_.array(*w)->domain.kind != Domain::Kind::kInterval) {
        return fail("weights",
                    "'" + *w + "' needs an interval domain [lo, hi] (weights are uniform in it)");
      }
      init.data = *w;
      one_d.push_back(*w);
    }
    if (auto st = check_1d(one_d); !st) return st.error();
    auto dir = get_bool("directed", false);
    if (!dir) return dir.error();
    auto conn = get_bool("connected", true);
    if (!conn) return conn.error();
    init.directed = *dir;
    init.connected = *conn;
    return Ok{};
  }

  const Validator& v_;
  const Manifest& m_;
  const std::set<std::string>& expr_symbols_;
  std::set<std::string>& covered_;
  const json& spec_;
  const std::string field_;
};

Status parse_initializers(ManifestParse& p) {
  if (!p.root.contains("initializers")) return Ok{};
  const json& list = p.root["initializers"];
  if (!list.is_array()) return p.v.fail("initializers", "expected a list");
  std::set<std::string> covered;
  for (std::size_t i = 0; i < list.size(); ++i) {
    InitializerParser parser(p, covered, list[i], "initializers[" + std::to_string(i) + "]");
    auto init = parser.parse();
    if (!init) return init.error();
    p.m.initializers.push_back(std::move(*init));
  }
  return Ok{};
}

// "reduction_length", "bytes" and "flops"; the latter two may also name REAL_BYTES.
Status parse_size_expressions(ManifestParse& p) {
  Manifest& m = p.m;
  for (auto [key, dst] : {std::pair{"reduction_length", &m.reduction_length},
                          std::pair{"bytes", &m.bytes}, std::pair{"flops", &m.flops}}) {
    if (!p.root.contains(key)) continue;
    std::set<std::string> allowed = p.expr_symbols;
    if (std::string(key) != "reduction_length") allowed.insert("REAL_BYTES");
    auto e = parse_expr(p.v, key, p.root[key], allowed);
    if (!e) return e.error();
    *dst = *e;
  }
  return Ok{};
}

// "constraints": one comparison each, over size symbols and integer scalars.
Status parse_constraints(ManifestParse& p) {
  if (!p.root.contains("constraints")) return Ok{};
  const Validator& v = p.v;
  const json& c = p.root["constraints"];
  if (!c.is_array()) {
    return v.fail("constraints", "expected a list of comparisons like \"M >= N\"");
  }
  for (std::size_t i = 0; i < c.size(); ++i) {
    const std::string field = "constraints[" + std::to_string(i) + "]";
    if (!c[i].is_string()) return v.fail(field, "expected a string, got " + kind_of(c[i]));
    auto parsed = parse_constraint(c[i].get<std::string>());
    if (!parsed) return v.fail(field, parsed.error().message);
    for (const auto& sym : parsed->symbols()) {
      if (!p.expr_symbols.count(sym)) {
        return v.fail(field, "unknown symbol '" + sym + "' (size symbols and integer scalars)");
      }
    }
    p.m.constraints.push_back(std::move(*parsed));
  }
  return Ok{};
}

// "mpi": {"ranks": [1, 2, 4], "weak": {"NI": 1}, "distribution": {"A": {"block": 0},
// "x": "replicated"}} (docs/corpus.md "The mpi block").
Status parse_mpi_ranks(const Validator& v, const json& j, MpiSpec& out) {
  if (!j.contains("ranks") || !j["ranks"].is_array() || j["ranks"].empty()) {
    return v.fail("mpi.ranks", "expected a non-empty array of rank counts");
  }
  for (const auto& r : j["ranks"]) {
    if (!r.is_number_integer() || r.get<int64_t>() < 1 || r.get<int64_t>() > kMaxMpiRanks) {
      return v.fail("mpi.ranks", "expected integers in [1, " + std::to_string(kMaxMpiRanks) +
                                     "], got " + r.dump());
    }
    if (!out.ranks.empty() && r.get<int>() <= out.ranks.back()) {
      return v.fail("mpi.ranks", "expected ascending, distinct rank counts");
    }
    out.ranks.push_back(r.get<int>());
  }
  if (out.ranks.front() != 1) {
    return v.fail("mpi.ranks", "must start with 1: every efficiency is against one PE");
  }
  return Ok{};
}

Status parse_mpi_weak(const ManifestParse& p, const json& j, MpiSpec& out) {
  if (!j.contains("weak")) return Ok{};
  if (!j["weak"].is_object()) return p.v.fail("mpi.weak", "expected an object symbol -> k");
  for (const auto& [sym, k] : j["weak"].items()) {
    if (std::find(p.m.size_symbols.begin(), p.m.size_symbols.end(), sym) ==
        p.m.size_symbols.end()) {
      return p.v.fail("mpi.weak." + sym, "not a size symbol");
    }
    if (!k.is_number_integer() || k.get<int64_t>() < 1 || k.get<int64_t>() > kMaxWeakRoot) {
      return p.v.fail("mpi.weak." + sym, "expected the root k, an integer in [1, " +
                                             std::to_string(kMaxWeakRoot) + "]");
    }
    out.weak[sym] = k.get<int>();
  }
  return Ok{};
}

Result<MpiDistribution> parse_mpi_distribution(const Validator& v, const std::string& field,
                                               const ArraySpec& a, const json& d) {
  MpiDistribution out;
  if (d.is_string() && d.get<std::string>() == "replicated") return out;
  if (!d.is_object() || d.size() != 1 || !d.contains("block") || !d["block"].is_number_integer()) {
    return v.fail(field, "expected \"replicated\" or {\"block\": axis}, got " + d.dump());
  }
  const int64_t axis = d["block"].get<int64_t>();
  if (axis < 0 || axis >= static_cast<int64_t>(a.shape.size())) {
    return v.fail(field, "axis " + std::to_string(axis) + " is not an axis of '" + a.name + "' (" +
                             std::to_string(a.shape.size()) + " axes)");
  }
  out.kind = MpiDistribution::Kind::kBlock;
  out.axis = static_cast<int>(axis);
  return out;
}

Status parse_mpi(ManifestParse& p) {
  if (!p.root.contains("mpi")) return Ok{};
  const json& j = p.root["mpi"];
  if (!j.is_object()) return p.v.fail("mpi", "expected an object, got " + kind_of(j));
  if (auto st = check_keys(p.v, "mpi", j, {"ranks", "weak", "distribution"}); !st) return st;
  MpiSpec spec;
  if (auto st = parse_mpi_ranks(p.v, j, spec); !st) return st;
  if (auto st = parse_mpi_weak(p, j, spec); !st) return st;
  if (!j.contains("distribution") || !j["distribution"].is_object()) {
    return p.v.fail("mpi.distribution", "expected an object array -> distribution");
  }
  bool any_block = false;
  for (const auto& [name, d] : j["distribution"].items()) {
    const ArraySpec* a = p.m.array(name);
    if (a == nullptr) return p.v.fail("mpi.distribution." + name, "not an array of the kernel");
    auto dist = parse_mpi_distribution(p.v, "mpi.distribution." + name, *a, d);
    if (!dist) return dist.error();
    any_block = any_block || dist->kind == MpiDistribution::Kind::kBlock;
    spec.distribution[name] = *dist;
  }
  if (!any_block) {
    return p.v.fail("mpi.distribution", "at least one array must be split in blocks");
  }
  p.m.mpi = std::move(spec);
  return Ok{};
}

Status check_constraints_at(const Validator& v, const Manifest& m, const char* preset,
                            const SymbolTable& syms) {
  for (std::size_t i = 0; i < m.constraints.size(); ++i) {
    auto h = m.constraints[i].holds(syms);
    if (!h || !*h) {
      std::string at;
      for (const auto& [sym, val] : m.presets.at(preset)) {
        at += (at.empty() ? "" : ", ") + sym + "=" + std::to_string(val);
      }
      return v.fail("constraints[" + std::to_string(i) + "]",
                    "'" + m.constraints[i].text + "' does not hold at preset " + preset + " (" +
                        at + (h ? ")" : "): " + h.error().message));
    }
  }
  return Ok{};
}

Status check_arrays_at(const Validator& v, const Manifest& m, const char* preset,
                       const SymbolTable& syms) {
  for (const auto& a : m.arrays) {
    for (const auto& d : a.shape) {
      auto val = d.eval(syms);
      if (!val) return v.fail(std::string("arrays.") + a.name + ".shape", val.error().message);
      if (*val < 0) {
        return v.fail(std::string("arrays.") + a.name + ".shape",
                      std::string("negative extent at preset ") + preset);
      }
    }
    if (a.range_lo) {
      auto lo = a.range_lo->eval(syms);
      auto hi = a.range_hi->eval(syms);
      if (!lo || !hi || *lo > *hi) {
        return v.fail(std::string("arrays.") + a.name + ".range",
                      std::string("empty or invalid at preset ") + preset);
      }
    }
  }
  return Ok{};
}

// A preset must satisfy the constraints and produce valid initializer structure, shapes and
// ranges; XL must also fit `max_xl_bytes`.
Status check_preset(const Validator& v, const Manifest& m, const char* preset,
                    uint64_t max_xl_bytes) {
  SymbolTable syms = m.symbols(m.presets.at(preset));
  if (auto st = check_constraints_at(v, m, preset, syms); !st) return st.error();
  for (std::size_t i = 0; i < m.initializers.size(); ++i) {
    if (auto why = initializer_shortfall(m, m.initializers[i], syms)) {
      return v.fail("initializers[" + std::to_string(i) + "]",
                    *why + " at preset " + std::string(preset));
    }
  }
  if (auto st = check_arrays_at(v, m, preset, syms); !st) return st.error();
  if (preset == std::string("XL")) {
    auto bytes = data_bytes(m, m.presets.at(preset), Precision::kFp64);
    if (!bytes) return v.fail("sizes.XL", bytes.error().message);
    if (*bytes > max_xl_bytes) {
      return v.fail("sizes.XL", "data is " + std::to_string(*bytes) + " bytes, over the " +
                                    std::to_string(max_xl_bytes) + "-byte limit");
    }
  }
  return Ok{};
}

// Fuzzed draws redraw until the constraints hold (fuzzed_sizes_drawn); ranges they reject
// almost everywhere are a manifest mistake, caught here with a few fixed seeds.
Status check_fuzzed_draws(const Validator& v, const Manifest& m) {
  if (m.constraints.empty() || m.fuzzed.empty()) return Ok{};
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    if (!fuzzed_sizes_drawn(m, seed)) {
      return v.fail("fuzzed", "the constraints reject all " + std::to_string(kFuzzAttempts) +
                                  " attempts of a fuzzed draw (seed " + std::to_string(seed) +
                                  "); narrow the ranges or use a set");
    }
  }
  return Ok{};
}

Result<json> read_json(const Validator& v, const fs::path& file) {
  std::ifstream in(file);
  if (!in) return v.fail_file("cannot open");
  try {
    return json::parse(in);
  } catch (const json::parse_error& e) {
    return v.fail_file(std::string("invalid JSON: ") + e.what());
  }
}

}  // namespace

Result<Manifest> load_manifest(const fs::path& dir_or_file, uint64_t max_xl_bytes) {
  fs::path file = dir_or_file;
  std::error_code ec;
  if (fs::is_directory(file, ec)) file /= "kernel.json";
  Validator v(file.string());
  auto root = read_json(v, file);
  if (!root) return root.error();
  if (!root->is_object()) return v.fail_file("expected a JSON object at the top level");

  Manifest m;
  m.dir = file.parent_path();
  ManifestParse p{v, *root, m, {}, {}};
  // Sizes come first: every later section names size symbols. Scalars precede arrays, whose
  // shapes may name integer scalars, and arrays precede the initializers that fill them.
  for (auto* section : {check_top_level_keys, parse_identity, parse_tags, parse_precisions,
                        parse_sizes, parse_fuzzed}) {
    if (auto st = section(p); !st) return st.error();
  }
  p.names.insert(m.size_symbols.begin(), m.size_symbols.end());
  p.expr_symbols = p.names;
  for (auto* section : {parse_scalars, parse_arrays, check_names_case_insensitively_unique,
                        parse_initializers, parse_size_expressions, parse_constraints, parse_mpi}) {
    if (auto st = section(p); !st) return st.error();
  }
  for (const char* preset : kPresetNames) {
    if (auto st = check_preset(v, m, preset, max_xl_bytes); !st) return st.error();
  }
  if (auto st = check_fuzzed_draws(v, m); !st) return st.error();
  return m;
}

namespace {

Result<uint64_t> array_bytes(const Manifest& m, const SymbolTable& sizes, Precision p,
                             bool outputs_only) {
  SymbolTable syms = m.symbols(sizes);
  uint64_t total = 0;
  for (const auto& a : m.arrays) {
    if (outputs_only && !a.is_output()) continue;
    uint64_t n = dtype_size(a.dtype(p));
    for (const auto& d : a.shape) {
      auto val = d.eval(syms);
      if (!val) return val.error();
      if (*val < 0 || __builtin_mul_overflow(n, static_cast<uint64_t>(*val), &n)) {
        return Error{"array '" + a.name + "' size overflows"};
      }
    }
    total += n;
  }
  return total;
}

// "8 KiB", "1.5 GiB": one decimal in the largest binary unit that keeps the value at least 1;
// `round_up` so that an amount just over a limit never prints as equal to it.
std::string binary_size(uint64_t bytes, bool round_up) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  std::size_t u = 0;
  double v = static_cast<double>(bytes);
  while (v >= 1024 && u + 1 < std::size(units)) {
    v /= 1024;
    ++u;
  }
  v = (round_up ? std::ceil(v * 10) : std::round(v * 10)) / 10;
  char text[32];
  std::snprintf(text, sizeof text, v == std::floor(v) ? "%.0f %s" : "%.1f %s", v, units[u]);
  return text;
}

}  // namespace

Result<uint64_t> data_bytes(const Manifest& m, const SymbolTable& sizes, Precision p) {
  return array_bytes(m, sizes, p, /*outputs_only=*/false);
}

Result<uint64_t> output_bytes(const Manifest& m, const SymbolTable& sizes, Precision p) {
  return array_bytes(m, sizes, p, /*outputs_only=*/true);
}

std::optional<std::string> memory_shortfall(const Manifest& m, const SymbolTable& sizes,
                                            Precision p, uint64_t memory_bytes) {
  auto bytes = data_bytes(m, sizes, p);
  if (!bytes) return bytes.error().message;
  const uint64_t budget = data_budget(memory_bytes);
  if (*bytes <= budget) return std::nullopt;
  return binary_size(*bytes, /*round_up=*/true) + " of data at " + std::string(precision_name(p)) +
         ", more than " + binary_size(budget, false) + " (a quarter of the " +
         binary_size(memory_bytes, false) + " memory limit)";
}

Status check_kernel_files(const Manifest& m) {
  if (!m.has_reference_py()) {
    return Error{"kernel '" + m.id + "' has no reference.py in " + m.dir.string() +
                     " (the NumPy specification every kernel needs)",
                 Errc::kInvalid};
  }
  if (m.oracle == "c" && !m.has_reference_c()) {
    return Error{"kernel '" + m.id + "' declares \"oracle\": \"c\" but has no reference.c in " +
                     m.dir.string(),
                 Errc::kInvalid};
  }
  return Ok{};
}

Result<std::vector<Manifest>> load_corpus(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    return Error{"corpus directory '" + root.string() + "' not found"};
  std::vector<Manifest> out;
  std::map<std::string, fs::path> seen;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (it->path().filename() != "kernel.json") continue;
    auto m = load_manifest(it->path());
    if (!m) return m.error();
    fs::path rel = fs::relative(m->dir, root);
    std::vector<std::string> parts;
    for (const auto& p : rel) parts.push_back(p.string());
    std::vector<std::string> expected = {m->track};
    if (!m->dwarf.empty()) expected.push_back(m->dwarf);
    expected.push_back(m->id);
    if (parts != expected) {
      std::string want;
      for (const auto& p : expected) want += (want.empty() ? "" : "/") + p;
      return Error{it->path().string() + ": kernel folder must be '" + want +
                   "' under the corpus root (track/[dwarf/]id)"};
    }
    if (auto st = check_kernel_files(*m); !st) return st.error();
    if (auto [pos, fresh] = seen.emplace(m->id, m->dir); !fresh) {
      return Error{"kernel id '" + m->id + "' is defined twice: " + pos->second.string() + " and " +
                   m->dir.string()};
    }
    out.push_back(std::move(*m));
  }
  if (ec) return Error{"scanning '" + root.string() + "': " + ec.message()};
  std::sort(out.begin(), out.end(),
            [](const Manifest& a, const Manifest& b) { return a.id < b.id; });
  return out;
}

}  // namespace hpcab
