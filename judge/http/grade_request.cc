#include "judge/http/grade_request.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <system_error>

#include "common/compare.h"
#include "common/expr.h"
#include "judge/http/request.h"

namespace hpcab::judge {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// Resolves `rel` inside `root`; nullopt when it escapes (.., symlinks) or does not exist.
std::optional<fs::path> inside_dir(const std::string& root, const std::string& rel) {
  std::error_code ec;
  fs::path base = fs::canonical(root, ec);
  if (ec) return std::nullopt;
  // The OS would read a path only up to a NUL byte; refuse it rather than resolve a prefix.
  if (rel.empty() || rel.find('\0') != std::string::npos) return std::nullopt;
  fs::path p = fs::path(rel).is_absolute() ? fs::path(rel) : base / rel;
  fs::path real = fs::canonical(p, ec);
  if (ec) return std::nullopt;
  auto [b, r] = std::mismatch(base.begin(), base.end(), real.begin(), real.end());
  if (b != base.end()) return std::nullopt;
  if (!fs::is_regular_file(real, ec)) return std::nullopt;
  return real;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

std::optional<ApiError> check_rank(const std::optional<int>& rank, bool present, int own) {
  if (!present) {
    return bad_request(ErrorCode::kMissingRank,
                       "missing 'rank' (this judge serves rank " + std::to_string(own) + ")");
  }
  if (!rank) return bad_request(ErrorCode::kBadRank, "'rank' must be a non-negative ASCII integer");
  if (*rank != own) {
    return ApiError{ErrorCode::kMisdirected,
                    "misdirected request: this judge serves rank " + std::to_string(own) +
                        ", the request names rank " + std::to_string(*rank),
                    {{"rank", own}, {"requested_rank", *rank}}};
  }
  return std::nullopt;
}

std::optional<ApiError> check_query_rank(const std::map<std::string, std::string>& q, int own) {
  auto it = q.find("rank");
  return check_rank(it == q.end() ? std::nullopt : parse_rank_text(it->second), it != q.end(), own);
}

namespace {

// A body's fields: one absent or null counts as not given.
class Fields {
 public:
  explicit Fields(const json& body) : body_(body) {}
  bool given(const char* k) const { return body_.contains(k) && !body_.at(k).is_null(); }
  const json& at(const std::string& k) const { return body_.at(k); }
  // The string field `k`, `def` when not given, nullopt when it is not a string.
  std::optional<std::string> str(const char* k, std::string def) const {
    if (!given(k)) return def;
    if (!body_.at(k).is_string()) return std::nullopt;
    return body_.at(k).get<std::string>();
  }

 private:
  const json& body_;
};

using Refusal = std::optional<ApiError>;

// language, residency and precision, checked against the kernel.
Refusal language_fields(const Fields& f, const Manifest& m, GradeRequest& g, Precision& p) {
  auto language = f.str("language", "c");
  if (!language || !known_language(*language)) {
    return bad_request(ErrorCode::kUnknownLanguage,
                       std::string("'language' must be ") + language_list());
  }
  g.language = *language;
  auto residency = f.str("residency", "host");
  if (residency && *residency == "distributed") {
    // The MPI entry's stubs exist (/task?residency=distributed) but nothing launches ranks
    // yet, so a request for it is refused rather than graded as a single-node answer.
    return bad_request(ErrorCode::kBadResidency,
                       "'residency' \"distributed\" is not graded yet (docs/grading.md, "
                       "\"Distributed residency\")");
  }
  if (!residency || (*residency != "host" && *residency != "device")) {
    return bad_request(ErrorCode::kBadResidency, "'residency' must be \"host\" or \"device\"");
  }
  if (*residency == "device" && !gpu_language(g.language)) {
    return bad_request(ErrorCode::kBadResidency,
                       "'residency' \"device\" is for GPU languages (cuda, hip); language '" +
                           g.language + "' runs on the host: omit 'residency' or give \"host\"");
  }
  g.residency = *residency;
  auto precision = f.str("precision", "fp64");
  auto parsed = precision ? parse_precision(*precision) : std::nullopt;
  if (!parsed || !m.supports(*parsed)) {
    return bad_request(ErrorCode::kBadPrecision,
                       "'precision' must be one of the kernel's precisions");
  }
  g.precision = *precision;
  p = *parsed;
  return std::nullopt;
}

// Exactly one of source, source_file and library, as the input mode allows.
Refusal source_fields(const Fields& f, const GradeBodyRules& rules, ParsedGrade& out) {
  int sources = 0;
  for (const char* k : {"source", "source_file", "library"}) sources += f.given(k) ? 1 : 0;
  if (sources != 1) {
    return bad_request(ErrorCode::kSourceCount,
                       "give exactly one of 'source', 'source_file' or 'library'");
  }
  const bool sources_ok = rules.input_mode == "source" || rules.input_mode == "any";
  const bool libraries_ok = rules.input_mode == "library" || rules.input_mode == "any";
  if (f.given("source")) {
    if (!f.at("source").is_string()) {
      return bad_request(ErrorCode::kBadField, "'source' must be a string");
    }
    if (!sources_ok) {
      return bad_request(ErrorCode::kInputMode, "this judge runs with input mode '" +
                                                    rules.input_mode +
                                                    "': source submissions are not accepted");
    }
    out.request.source = f.at("source").get<std::string>();
    return std::nullopt;
  }
  const bool is_library = f.given("library");
  const std::string field = is_library ? "library" : "source_file";
  if (!f.at(field).is_string()) {
    return bad_request(ErrorCode::kBadField, "'" + field + "' must be a string");
  }
  if (!rules.has_shared_dir) {
    return bad_request(ErrorCode::kNoSharedDir,
                       "'" + field + "' needs a judge started with --shared-dir");
  }
  if (is_library ? !libraries_ok : !sources_ok) {
    return bad_request(ErrorCode::kInputMode, "this judge runs with input mode '" +
                                                  rules.input_mode + "': '" + field +
                                                  "' is not accepted");
  }
  out.shared_file = is_library ? SharedFile::kLibrary : SharedFile::kSourceFile;
  out.shared_path = f.at(field).get<std::string>();
  return std::nullopt;
}

// What a Python submission may not give, the source's size and the build tokens.
Refusal build_fields(const Fields& f, const GradeBodyRules& rules, GradeRequest& g) {
  // A Python submission is a module the judge imports, never a prebuilt artifact, and nothing
  // is compiled for it.
  if (g.language == "python" && f.given("library")) {
    return bad_request(ErrorCode::kNotForPython,
                       "'library' is a shared library: a Python submission gives 'source' or "
                       "'source_file' (a .py module)");
  }
  // An empty list is no tokens, as for any language (clients send `"build": []` by default).
  const bool has_tokens = f.given("build") && !(f.at("build").is_array() && f.at("build").empty());
  if (g.language == "python" && has_tokens) {
    return bad_request(ErrorCode::kNotForPython,
                       "'build' tokens are compiler flags: a Python submission takes none");
  }
  if (g.source && g.source->size() > rules.max_source_bytes) {
    return ApiError{ErrorCode::kSourceTooLarge,
                    "source is larger than " + std::to_string(rules.max_source_bytes) + " bytes"};
  }
  if (!f.given("build")) return std::nullopt;
  if (!f.at("build").is_array()) return bad_request(ErrorCode::kBadField, "'build' must be a list");
  for (const auto& t : f.at("build")) {
    if (!t.is_string()) {
      return bad_request(ErrorCode::kBadField, "'build' must be a list of strings");
    }
    g.build_tokens.push_back(t.get<std::string>());
  }
  if (auto st = validate_build_tokens(g.build_tokens); !st) {
    return bad_request(ErrorCode::kBadBuildToken, st.error().message);
  }
  return std::nullopt;
}

// workspace_bytes: an integer or a size expression, in range at preset S.
Refusal workspace_field(const Fields& f, const Manifest& m, GradeRequest& g) {
  if (!f.given("workspace_bytes")) return std::nullopt;
  const json& w = f.at("workspace_bytes");
  std::string expr;
  if (w.is_number_unsigned()) {
    expr = std::to_string(w.get<uint64_t>());
  } else if (w.is_string()) {
    expr = w.get<std::string>();
  } else {
    return bad_request(ErrorCode::kBadWorkspace,
                       "'workspace_bytes' must be a non-negative integer or a size expression");
  }
  auto e = Expr::parse(expr);
  if (!e) return bad_request(ErrorCode::kBadWorkspace, "'workspace_bytes': " + e.error().message);
  // Every kernel has preset S (the manifest loader checks); without it the size is unknown.
  auto s = m.presets.find("S");
  auto v = s == m.presets.end() ? Result<int64_t>(Error{"the kernel has no preset S"})
                                : e->eval(m.symbols(s->second));
  if (!v) return bad_request(ErrorCode::kBadWorkspace, "'workspace_bytes': " + v.error().message);
  if (*v < 0 || *v > kMaxWorkspaceBytes) {
    return bad_request(ErrorCode::kBadWorkspace, "'workspace_bytes' is " + std::to_string(*v) +
                                                     " bytes at preset S; it must be between 0 "
                                                     "and " +
                                                     std::to_string(kMaxWorkspaceBytes));
  }
  g.workspace_bytes = expr;
  return std::nullopt;
}

// preset: one of the kernel's, and (given or the default) gradeable on this judge.
Refusal preset_field(const Fields& f, const GradeBodyRules& rules, const Manifest& m, Precision p,
                     GradeRequest& g) {
  if (f.given("preset")) {
    if (!f.at("preset").is_string() || !m.presets.count(f.at("preset").get<std::string>())) {
      return bad_request(ErrorCode::kUnknownPreset, "'preset' must be S, M, L or XL");
    }
    g.preset = f.at("preset").get<std::string>();
  }
  const std::string preset = g.preset.value_or(rules.default_preset);
  auto sizes = m.presets.find(preset);
  if (sizes == m.presets.end()) return std::nullopt;
  if (auto why = ungradeable_reason(m, p, sizes->second)) {
    return bad_request(ErrorCode::kPresetTooLarge, "preset " + preset + " of '" + m.id +
                                                       "' cannot be graded at " + g.precision +
                                                       " (" + *why + "): choose a smaller preset");
  }
  if (auto why = memory_shortfall(m, sizes->second, p, rules.memory_bytes)) {
    return bad_request(ErrorCode::kPresetTooLarge,
                       "preset " + preset + " of '" + m.id +
                           "' does not fit this judge's memory limit (" + *why +
                           "): choose a smaller preset");
  }
  return std::nullopt;
}

// run_id, optimizer and tokens: who is asking, for the record.
Refusal identity_fields(const Fields& f, GradeRequest& g) {
  auto run_id = f.str("run_id", "");
  auto optimizer = f.str("optimizer", "");
  if (!run_id || !optimizer) {
    return bad_request(ErrorCode::kBadField, "'run_id' and 'optimizer' must be strings");
  }
  g.run_id = *run_id;
  g.optimizer = *optimizer;
  if (!f.given("tokens")) return std::nullopt;
  // An unsigned value above INT64_MAX is out of range too (it would wrap negative).
  const json& t = f.at("tokens");
  if (!t.is_number_integer() ||
      (t.is_number_unsigned() ? t.get<uint64_t>() > uint64_t{INT64_MAX} : t.get<int64_t>() < 0)) {
    return bad_request(ErrorCode::kBadField, "'tokens' must be a non-negative integer or null");
  }
  g.tokens = t.get<int64_t>();
  return std::nullopt;
}

}  // namespace

ApiResult<ParsedGrade> parse_grade_body(std::string_view text, const std::string& route,
                                        const GradeBodyRules& rules, const KernelLookup& lookup) {
  auto parsed = parse_json_body(text, rules.max_json_depth);
  if (!parsed) return bad_request(ErrorCode::kBadJson, parsed.error().message);
  const json body = std::move(*parsed);
  if (!body.is_object()) return bad_request(ErrorCode::kBadJson, "body must be a JSON object");
  const Fields f(body);
  // rank: an integer, or a string of ASCII digits.
  std::optional<int> rank;
  const bool has_rank = f.given("rank");
  if (has_rank) rank = parse_rank_json(body.at("rank"));
  if (auto bad = check_rank(rank, has_rank, rules.rank)) return *bad;

  ParsedGrade out;
  GradeRequest& g = out.request;
  g.route = route;
  g.rank = *rank;
  auto kernel = f.str("kernel", "");
  if (!kernel || kernel->empty()) {
    return bad_request(ErrorCode::kBadField, "'kernel' must be a string");
  }
  const Manifest* m = valid_kernel_name(*kernel) ? lookup(*kernel) : nullptr;
  if (!m) return ApiError{ErrorCode::kUnknownKernel, "unknown kernel '" + *kernel + "'"};
  g.kernel = m->id;
  Precision p = Precision::kFp64;
  if (auto r = language_fields(f, *m, g, p)) return *r;
  if (auto r = source_fields(f, rules, out)) return *r;
  if (auto r = build_fields(f, rules, g)) return *r;
  if (auto r = workspace_field(f, *m, g)) return *r;
  if (auto r = preset_field(f, rules, *m, p, g)) return *r;
  if (auto r = identity_fields(f, g)) return *r;
  return out;
}

ApiResult<std::optional<std::string>> parse_idempotency_key(
    const std::map<std::string, std::string>& headers) {
  auto it = headers.find("idempotency-key");
  if (it == headers.end()) return std::optional<std::string>();
  const std::string& key = it->second;
  auto allowed = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == ':' || c == '-';
  };
  if (key.empty() || key.size() > kMaxIdempotencyKeyBytes ||
      !std::all_of(key.begin(), key.end(), allowed)) {
    // The key itself is not quoted back: it may be any bytes, and a refusal needs none of them.
    return bad_request(ErrorCode::kBadIdempotencyKey,
                       "the Idempotency-Key header must be 1 to " +
                           std::to_string(kMaxIdempotencyKeyBytes) +
                           " characters of A-Z, a-z, 0-9, '.', '_', ':' and '-', sent once (got " +
                           std::to_string(key.size()) + " bytes)");
  }
  return std::optional<std::string>(key);
}

ApiResult<GradeRequest> resolve_shared_file(ParsedGrade parsed, const std::string& shared_dir,
                                            std::size_t max_source_bytes) {
  GradeRequest g = std::move(parsed.request);
  if (parsed.shared_file == SharedFile::kNone) return g;
  const bool is_library = parsed.shared_file == SharedFile::kLibrary;
  const std::string field = is_library ? "library" : "source_file";
  auto path = inside_dir(shared_dir, parsed.shared_path);
  if (!path) {
    return bad_request(
        ErrorCode::kBadSharedFile,
        "'" + field + "' must name an existing file inside the judge's shared directory; refused");
  }
  if (is_library) {
    g.library_path = path->string();
    return g;
  }
  // Checked before reading: the file may be far larger than the judge's memory.
  std::error_code size_ec;
  if (fs::file_size(*path, size_ec) > max_source_bytes || size_ec) {
    return ApiError{ErrorCode::kSourceTooLarge,
                    "'source_file' is larger than " + std::to_string(max_source_bytes) + " bytes"};
  }
  g.source = read_text(*path);
  // The file may have grown between the size check and the read.
  if (g.source->size() > max_source_bytes) {
    return ApiError{ErrorCode::kSourceTooLarge,
                    "source is larger than " + std::to_string(max_source_bytes) + " bytes"};
  }
  return g;
}

}  // namespace hpcab::judge
