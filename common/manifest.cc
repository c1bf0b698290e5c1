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
    if (seg.empty() || seg.size() > 64 || seg[0] < 'a' || seg[0] > 'z') return false;
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

Result<Manifest> load_manifest(const fs::path& dir_or_file, uint64_t max_xl_bytes) {
  fs::path file = dir_or_file;
  std::error_code ec;
  if (fs::is_directory(file, ec)) file /= "kernel.json";
  Validator v(file.string());
  std::ifstream in(file);
  if (!in) return v.fail_file("cannot open");
  json root;
  try {
    root = json::parse(in);
  } catch (const json::parse_error& e) {
    return v.fail_file(std::string("invalid JSON: ") + e.what());
  }
  if (!root.is_object()) return v.fail_file("expected a JSON object at the top level");
  if (auto st = check_keys(v, "", root,
                           {"id", "name", "track", "dwarf", "level", "description", "precisions",
                            "sizes", "fuzzed", "constraints", "scalars", "arrays", "initializers",
                            "reduction_length", "bytes", "flops", "oracle", "tags"});
      !st) {
    return st.error();
  }

  Manifest m;
  m.dir = file.parent_path();
  for (auto [key, dst] : {std::pair{"id", &m.id}, std::pair{"name", &m.name},
                          std::pair{"track", &m.track}, std::pair{"description", &m.description}}) {
    auto s = get_string(v, root, key);
    if (!s) return s.error();
    *dst = *s;
  }
  static const std::regex id_re("[a-z][a-z0-9_]*");
  if (!std::regex_match(m.id, id_re)) {
    return v.fail("id", "expected [a-z][a-z0-9_]*, got '" + m.id + "'");
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
    if (!std::regex_match(*d, id_re)) return v.fail("dwarf", "expected [a-z][a-z0-9_]*");
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
  if (root.contains("tags")) {
    // Tags name kernel sets (`tag:llr-focus40`): lowercase words, so a selector never depends
    // on case or quoting; a duplicate is a typo, not a no-op.
    static const std::regex tag_re("[a-z0-9][a-z0-9_-]*");
    const json& t = root["tags"];
    if (!t.is_array()) return v.fail("tags", "expected an array of strings, got " + kind_of(t));
    for (const auto& e : t) {
      if (!e.is_string() || !std::regex_match(e.get<std::string>(), tag_re)) {
        return v.fail("tags", "expected tags matching [a-z0-9][a-z0-9_-]*, got " + e.dump());
      }
      if (m.has_tag(e.get<std::string>())) return v.fail("tags", "duplicate " + e.dump());
      m.tags.push_back(e.get<std::string>());
    }
  }

  // precisions
  if (!root.contains("precisions") || !root["precisions"].is_array() ||
      root["precisions"].empty()) {
    return v.fail("precisions", "expected a non-empty array of \"fp64\"/\"fp32\"");
  }
  for (const auto& p : root["precisions"]) {
    auto parsed = p.is_string() ? parse_precision(p.get<std::string>()) : std::nullopt;
    if (!parsed) return v.fail("precisions", "expected \"fp64\" or \"fp32\", got " + p.dump());
    if (m.supports(*parsed)) return v.fail("precisions", "duplicate " + p.dump());
    m.precisions.push_back(*parsed);
  }

  // sizes
  if (!root.contains("sizes") || !root["sizes"].is_object()) {
    return v.fail("sizes", "expected an object with presets S, M, L, XL");
  }
  const json& sizes = root["sizes"];
  if (auto st = check_keys(v, "sizes", sizes, {"S", "M", "L", "XL"}); !st) return st.error();
  for (const char* preset : kPresetNames) {
    std::string field = std::string("sizes.") + preset;
    if (!sizes.contains(preset) || !sizes[preset].is_object() || sizes[preset].empty()) {
      return v.fail(field, "missing or empty (expected symbol -> positive integer)");
    }
    SymbolTable table;
    for (const auto& [sym, val] : sizes[preset].items()) {
      if (!valid_identifier(sym) || reserved_name(sym)) {
        return v.fail(field + "." + sym, "not a valid size symbol name");
      }
      if (!val.is_number_integer() || val.get<int64_t>() < 1) {
        return v.fail(field + "." + sym, "expected a positive integer, got " + val.dump());
      }
      table[sym] = val.get<int64_t>();
    }
    if (m.size_symbols.empty()) {
      for (const auto& [sym, _] : table) m.size_symbols.push_back(sym);
    } else {
      std::vector<std::string> syms;
      for (const auto& [sym, _] : table) syms.push_back(sym);
      if (syms != m.size_symbols) {
        return v.fail(field, "every preset must define the same size symbols as S");
      }
    }
    m.presets[preset] = std::move(table);
  }

  // fuzzed: [lo, hi] or {"one_of": [v, ...]}
  if (root.contains("fuzzed")) {
    if (!root["fuzzed"].is_object()) {
      return v.fail("fuzzed", "expected symbol -> [lo, hi] or {\"one_of\": [values]}");
    }
    for (const auto& [sym, range] : root["fuzzed"].items()) {
      std::string field = "fuzzed." + sym;
      if (std::find(m.size_symbols.begin(), m.size_symbols.end(), sym) == m.size_symbols.end()) {
        return v.fail(field, "not a size symbol of the presets");
      }
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
      m.fuzzed[sym] = std::move(f);
    }
  }

  // scalars
  std::set<std::string> names(m.size_symbols.begin(), m.size_symbols.end());
  std::set<std::string> expr_symbols = names;
  if (root.contains("scalars")) {
    if (!root["scalars"].is_object()) return v.fail("scalars", "expected name -> scalar spec");
    for (const auto& [name, spec] : root["scalars"].items()) {
      std::string field = "scalars." + name;
      if (!valid_identifier(name) || reserved_name(name)) return v.fail(field, "invalid name");
      if (!names.insert(name).second) return v.fail(field, "name already used");
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
        expr_symbols.insert(name);
      } else {
        return v.fail(field + ".dtype", "expected \"real\" or \"int64\"");
      }
      m.scalars.push_back(s);
    }
  }

  // arrays
  if (!root.contains("arrays") || !root["arrays"].is_object() || root["arrays"].empty()) {
    return v.fail("arrays", "expected a non-empty object name -> array spec");
  }
  bool any_output = false;
  for (const auto& [name, spec] : root["arrays"].items()) {
    std::string field = "arrays." + name;
    if (!valid_identifier(name) || reserved_name(name)) return v.fail(field, "invalid name");
    if (!names.insert(name).second) return v.fail(field, "name already used");
    if (!spec.is_object()) return v.fail(field, "expected an object");
    if (auto st = check_keys(v, field, spec, {"shape", "dtype", "intent", "domain", "range"});
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
                          expr_symbols);
      if (!e) return e.error();
      a.shape.push_back(*e);
    }
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
    any_output = any_output || a.is_output();
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
      auto lo = parse_expr(v, field + ".range[0]", r[0], expr_symbols);
      if (!lo) return lo.error();
      auto hi = parse_expr(v, field + ".range[1]", r[1], expr_symbols);
      if (!hi) return hi.error();
      a.range_lo = *lo;
      a.range_hi = *hi;
    }
    m.arrays.push_back(std::move(a));
  }
  if (!any_output) return v.fail("arrays", "at least one array must be \"out\" or \"inout\"");
  std::sort(m.arrays.begin(), m.arrays.end(),
            [](const ArraySpec& x, const ArraySpec& y) { return x.name < y.name; });
  std::sort(m.scalars.begin(), m.scalars.end(),
            [](const ScalarSpec& x, const ScalarSpec& y) { return x.name < y.name; });
  // Fortran is case-insensitive: two ABI names differing only in case cannot both be bound.
  {
    std::set<std::string> lowered;
    for (const auto& n : names) {
      if (!lowered.insert(lower(n)).second) {
        return v.fail_file("names '" + n +
                           "' and another differ only in case; Fortran bindings "
                           "need case-insensitively unique argument names");
      }
    }
  }

  // initializers
  if (root.contains("initializers")) {
    if (!root["initializers"].is_array()) return v.fail("initializers", "expected a list");
    std::set<std::string> covered;
    for (std::size_t i = 0; i < root["initializers"].size(); ++i) {
      const json& spec = root["initializers"][i];
      std::string field = "initializers[" + std::to_string(i) + "]";
      if (!spec.is_object()) return v.fail(field, "expected an object");
      auto kind = get_string(v, spec, "kind", field);
      if (!kind) return kind.error();
      Initializer init;
      // What an initializer's array must hold.
      enum class Need { kReal, kIndex, kSortable, kByte };
      auto need_array = [&](const std::string& key, Need need) -> Result<std::string> {
        auto n = get_string(v, spec, key, field);
        if (!n) return n.error();
        const ArraySpec* a = m.array(*n);
        if (!a) return v.fail(field + "." + key, "no array named '" + *n + "'");
        if (a->intent == Intent::kOut) {
          return v.fail(field + "." + key, "'" + *n + "' is an output; initializers fill inputs");
        }
        const bool is_real = !a->fixed_dtype || dtype_is_float(*a->fixed_dtype);
        const std::optional<DType> t = a->fixed_dtype;
        const bool is_index = t && (*t == DType::kInt32 || *t == DType::kInt64);
        const bool is_byte = t && (*t == DType::kUint8 || *t == DType::kInt8);
        switch (need) {
          case Need::kReal:
            if (!is_real) return v.fail(field + "." + key, "'" + *n + "' must be real");
            break;
          case Need::kIndex:
            if (!is_index) return v.fail(field + "." + key, "'" + *n + "' must be int32 or int64");
            break;
          case Need::kSortable:
            if (t == DType::kBool) return v.fail(field + "." + key, "'" + *n + "' is bool");
            break;
          case Need::kByte:
            if (!is_byte) return v.fail(field + "." + key, "'" + *n + "' must be uint8 or int8");
            break;
        }
        if (!covered.insert(*n).second) {
          return v.fail(field + "." + key, "'" + *n + "' is filled by two initializers");
        }
        return n;
      };
      auto rank_of = [&](const std::string& n) { return m.array(n)->shape.size(); };
      auto get_bool = [&](const std::string& key, bool dflt) -> Result<bool> {
        if (!spec.contains(key)) return dflt;
        if (!spec[key].is_boolean()) {
          return v.fail(field + "." + key, "expected true or false, got " + spec[key].dump());
        }
        return spec[key].get<bool>();
      };
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
        return v.fail(field + ".kind",
                      "expected spd, diag_dominant, orthogonal, banded, permutation, sorted, "
                      "probability, text, csr or graph, got '" +
                          *kind + "'");
      }
      init.kind = found->second;
      switch (init.kind) {
        case Kind::kSpd:
        case Kind::kDiagDominant:
        case Kind::kOrthogonal:
        case Kind::kProbability:
        case Kind::kPermutation:
        case Kind::kSorted: {
          if (auto st = check_keys(v, field, spec, {"kind", "array"}); !st) return st.error();
          const Need need = init.kind == Kind::kPermutation ? Need::kIndex
                            : init.kind == Kind::kSorted    ? Need::kSortable
                                                            : Need::kReal;
          auto n = need_array("array", need);
          if (!n) return n.error();
          init.array = *n;
          const std::size_t rank = rank_of(*n);
          const bool square = init.kind == Kind::kSpd || init.kind == Kind::kDiagDominant ||
                              init.kind == Kind::kOrthogonal;
          if (square && rank != 2) {
            return v.fail(field + ".array", *kind + " needs a square 2-D array");
          }
          if ((init.kind == Kind::kPermutation || init.kind == Kind::kSorted) && rank != 1) {
            return v.fail(field + ".array", *kind + " needs a 1-D array");
          }
          if (init.kind == Kind::kProbability && rank == 0) {
            return v.fail(field + ".array", "probability needs an array with a last axis");
          }
          break;
        }
        case Kind::kBanded: {
          if (auto st = check_keys(v, field, spec, {"kind", "array", "lower", "upper", "dominant"});
              !st) {
            return st.error();
          }
          auto n = need_array("array", Need::kReal);
          if (!n) return n.error();
          init.array = *n;
          if (rank_of(*n) != 2) return v.fail(field + ".array", "banded needs a 2-D array");
          for (auto [key, dst] :
               {std::pair{"lower", &init.lower}, std::pair{"upper", &init.upper}}) {
            if (!spec.contains(key)) {
              return v.fail(field + "." + key, "missing (a size expression, 0 for none)");
            }
            auto e = parse_expr(v, field + "." + key, spec[key], expr_symbols);
            if (!e) return e.error();
            *dst = *e;
          }
          auto dom = get_bool("dominant", false);
          if (!dom) return dom.error();
          init.dominant = *dom;
          break;
        }
        case Kind::kText: {
          if (auto st = check_keys(v, field, spec, {"kind", "array", "alphabet"}); !st) {
            return st.error();
          }
          auto n = need_array("array", Need::kByte);
          if (!n) return n.error();
          init.array = *n;
          auto alpha = get_string(v, spec, "alphabet", field);
          if (!alpha) return alpha.error();
          // ASCII only: a letter is one byte in uint8 and int8 alike.
          std::set<char> letters;
          for (char c : *alpha) {
            if (static_cast<unsigned char>(c) >= 0x80 || !letters.insert(c).second) {
              return v.fail(field + ".alphabet",
                            "expected distinct ASCII characters, got \"" + *alpha + "\"");
            }
          }
          if (letters.empty()) return v.fail(field + ".alphabet", "must not be empty");
          init.alphabet = *alpha;
          break;
        }
        case Kind::kCsr: {
          if (auto st = check_keys(v, field, spec, {"kind", "indptr", "indices", "data", "cols"});
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
          for (const auto& n : {*p, *ix, *d}) {
            if (rank_of(n) != 1) return v.fail(field, "'" + n + "' must be 1-D");
          }
          if (!spec.contains("cols")) return v.fail(field + ".cols", "missing");
          auto cols = parse_expr(v, field + ".cols", spec["cols"], expr_symbols);
          if (!cols) return cols.error();
          init.cols = *cols;
          break;
        }
        case Kind::kGraph: {
          if (auto st =
                  check_keys(v, field, spec,
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
          if (spec.contains("weights")) {
            auto w = need_array("weights", Need::kReal);
            if (!w) return w.error();
            if (m.array(*w)->domain.kind != Domain::Kind::kInterval) {
              return v.fail(
                  field + ".weights",
                  "'" + *w + "' needs an interval domain [lo, hi] (weights are uniform in it)");
            }
            init.data = *w;
            one_d.push_back(*w);
          }
          for (const auto& n : one_d) {
            if (rank_of(n) != 1) return v.fail(field, "'" + n + "' must be 1-D");
          }
          auto dir = get_bool("directed", false);
          if (!dir) return dir.error();
          auto conn = get_bool("connected", true);
          if (!conn) return conn.error();
          init.directed = *dir;
          init.connected = *conn;
          break;
        }
      }
      m.initializers.push_back(std::move(init));
    }
  }

  // expressions over sizes
  for (auto [key, dst] : {std::pair{"reduction_length", &m.reduction_length},
                          std::pair{"bytes", &m.bytes}, std::pair{"flops", &m.flops}}) {
    if (!root.contains(key)) continue;
    std::set<std::string> allowed = expr_symbols;
    if (std::string(key) != "reduction_length") allowed.insert("REAL_BYTES");
    auto e = parse_expr(v, key, root[key], allowed);
    if (!e) return e.error();
    *dst = *e;
  }

  // constraints: one comparison each, over size symbols and integer scalars
  if (root.contains("constraints")) {
    const json& c = root["constraints"];
    if (!c.is_array()) {
      return v.fail("constraints", "expected a list of comparisons like \"M >= N\"");
    }
    for (std::size_t i = 0; i < c.size(); ++i) {
      const std::string field = "constraints[" + std::to_string(i) + "]";
      if (!c[i].is_string()) return v.fail(field, "expected a string, got " + kind_of(c[i]));
      auto parsed = parse_constraint(c[i].get<std::string>());
      if (!parsed) return v.fail(field, parsed.error().message);
      for (const auto& sym : parsed->symbols()) {
        if (!expr_symbols.count(sym)) {
          return v.fail(field, "unknown symbol '" + sym + "' (size symbols and integer scalars)");
        }
      }
      m.constraints.push_back(std::move(*parsed));
    }
  }

  // Every preset must produce valid shapes, ranges and initializer structure, and satisfy the
  // constraints.
  for (const char* preset : kPresetNames) {
    SymbolTable syms = m.symbols(m.presets[preset]);
    for (std::size_t i = 0; i < m.constraints.size(); ++i) {
      auto h = m.constraints[i].holds(syms);
      if (!h || !*h) {
        std::string at;
        for (const auto& [sym, val] : m.presets[preset]) {
          at += (at.empty() ? "" : ", ") + sym + "=" + std::to_string(val);
        }
        return v.fail("constraints[" + std::to_string(i) + "]",
                      "'" + m.constraints[i].text + "' does not hold at preset " + preset + " (" +
                          at + (h ? ")" : "): " + h.error().message));
      }
    }
    for (std::size_t i = 0; i < m.initializers.size(); ++i) {
      if (auto why = initializer_shortfall(m, m.initializers[i], syms)) {
        return v.fail("initializers[" + std::to_string(i) + "]",
                      *why + " at preset " + std::string(preset));
      }
    }
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
    if (preset == std::string("XL")) {
      auto bytes = data_bytes(m, m.presets[preset], Precision::kFp64);
      if (!bytes) return v.fail("sizes.XL", bytes.error().message);
      if (*bytes > max_xl_bytes) {
        return v.fail("sizes.XL", "data is " + std::to_string(*bytes) + " bytes, over the " +
                                      std::to_string(max_xl_bytes) + "-byte limit");
      }
    }
  }
  // Fuzzed draws redraw until the constraints hold (fuzzed_sizes_drawn); ranges they reject
  // almost everywhere are a manifest mistake, caught here with a few fixed seeds.
  if (!m.constraints.empty() && !m.fuzzed.empty()) {
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      if (!fuzzed_sizes_drawn(m, seed)) {
        return v.fail("fuzzed", "the constraints reject all " + std::to_string(kFuzzAttempts) +
                                    " attempts of a fuzzed draw (seed " + std::to_string(seed) +
                                    "); narrow the ranges or use a set");
      }
    }
  }
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
