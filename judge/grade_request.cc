#include "judge/grade_request.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <system_error>

#include "common/compare.h"
#include "common/expr.h"
#include "judge/request.h"

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
    return bad_request("missing 'rank' (this judge serves rank " + std::to_string(own) + ")");
  }
  if (!rank) return bad_request("'rank' must be a non-negative ASCII integer");
  if (*rank != own) {
    return ApiError{ErrorKind::kMisdirected,
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

ApiResult<ParsedGrade> parse_grade_body(std::string_view text, const std::string& route,
                                        const GradeBodyRules& rules, const KernelLookup& lookup) {
  auto parsed = parse_json_body(text, rules.max_json_depth);
  if (!parsed) return bad_request(parsed.error().message);
  const json body = std::move(*parsed);
  if (!body.is_object()) return bad_request("body must be a JSON object");
  // A field that is absent or null counts as not given.
  auto given = [&body](const char* k) { return body.contains(k) && !body.at(k).is_null(); };

  // rank: an integer, or a string of ASCII digits.
  std::optional<int> rank;
  const bool has_rank = given("rank");
  if (has_rank) rank = parse_rank_json(body.at("rank"));
  if (auto bad = check_rank(rank, has_rank, rules.rank)) return *bad;

  auto str_field = [&](const char* k, std::string def) -> std::optional<std::string> {
    if (!given(k)) return def;
    if (!body.at(k).is_string()) return std::nullopt;
    return body.at(k).get<std::string>();
  };
  ParsedGrade out;
  GradeRequest& g = out.request;
  g.route = route;
  g.rank = *rank;
  auto kernel = str_field("kernel", "");
  if (!kernel || kernel->empty()) return bad_request("'kernel' must be a string");
  const Manifest* m = valid_kernel_name(*kernel) ? lookup(*kernel) : nullptr;
  if (!m) return ApiError{ErrorKind::kNotFound, "unknown kernel '" + *kernel + "'"};
  g.kernel = m->id;
  auto language = str_field("language", "c");
  if (!language || !known_language(*language)) {
    return bad_request(std::string("'language' must be ") + language_list());
  }
  g.language = *language;
  auto residency = str_field("residency", "host");
  if (!residency || (*residency != "host" && *residency != "device")) {
    return bad_request("'residency' must be \"host\" or \"device\"");
  }
  if (*residency == "device" && !gpu_language(g.language)) {
    return bad_request("'residency' \"device\" is for GPU languages (cuda, hip); language '" +
                       g.language + "' runs on the host: omit 'residency' or give \"host\"");
  }
  g.residency = *residency;
  auto precision = str_field("precision", "fp64");
  auto p = precision ? parse_precision(*precision) : std::nullopt;
  if (!p || !m->supports(*p)) {
    return bad_request("'precision' must be one of the kernel's precisions");
  }
  g.precision = *precision;

  int sources = 0;
  for (const char* k : {"source", "source_file", "library"}) sources += given(k) ? 1 : 0;
  if (sources != 1) return bad_request("give exactly one of 'source', 'source_file' or 'library'");
  const bool sources_ok = rules.input_mode == "source" || rules.input_mode == "any";
  const bool libraries_ok = rules.input_mode == "library" || rules.input_mode == "any";
  if (given("source")) {
    if (!body.at("source").is_string()) return bad_request("'source' must be a string");
    if (!sources_ok) {
      return bad_request("this judge runs with input mode '" + rules.input_mode +
                         "': source submissions are not accepted");
    }
    g.source = body.at("source").get<std::string>();
  } else {
    const bool is_library = given("library");
    const std::string field = is_library ? "library" : "source_file";
    if (!body.at(field).is_string()) return bad_request("'" + field + "' must be a string");
    if (!rules.has_shared_dir) {
      return bad_request("'" + field + "' needs a judge started with --shared-dir");
    }
    if (is_library ? !libraries_ok : !sources_ok) {
      return bad_request("this judge runs with input mode '" + rules.input_mode + "': '" + field +
                         "' is not accepted");
    }
    out.shared_file = is_library ? SharedFile::kLibrary : SharedFile::kSourceFile;
    out.shared_path = body.at(field).get<std::string>();
  }
  // A Python submission is a module the judge imports, never a prebuilt artifact, and nothing
  // is compiled for it.
  if (g.language == "python" && given("library")) {
    return bad_request(
        "'library' is a shared library: a Python submission gives 'source' or "
        "'source_file' (a .py module)");
  }
  // An empty list is no tokens, as for any language (clients send `"build": []` by default).
  const bool has_tokens =
      given("build") && !(body.at("build").is_array() && body.at("build").empty());
  if (g.language == "python" && has_tokens) {
    return bad_request("'build' tokens are compiler flags: a Python submission takes none");
  }
  if (g.source && g.source->size() > rules.max_source_bytes) {
    return ApiError{ErrorKind::kPayloadTooLarge,
                    "source is larger than " + std::to_string(rules.max_source_bytes) + " bytes"};
  }
  if (given("build")) {
    if (!body.at("build").is_array()) return bad_request("'build' must be a list");
    for (const auto& t : body.at("build")) {
      if (!t.is_string()) return bad_request("'build' must be a list of strings");
      g.build_tokens.push_back(t.get<std::string>());
    }
    if (auto st = validate_build_tokens(g.build_tokens); !st) {
      return bad_request(st.error().message);
    }
  }
  if (given("workspace_bytes")) {
    const json& w = body.at("workspace_bytes");
    std::string expr;
    if (w.is_number_unsigned()) {
      expr = std::to_string(w.get<uint64_t>());
    } else if (w.is_string()) {
      expr = w.get<std::string>();
    } else {
      return bad_request("'workspace_bytes' must be a non-negative integer or a size expression");
    }
    auto e = Expr::parse(expr);
    if (!e) return bad_request("'workspace_bytes': " + e.error().message);
    // Every kernel has preset S (the manifest loader checks); without it the size is unknown.
    auto s = m->presets.find("S");
    auto v = s == m->presets.end() ? Result<int64_t>(Error{"the kernel has no preset S"})
                                   : e->eval(m->symbols(s->second));
    if (!v) return bad_request("'workspace_bytes': " + v.error().message);
    if (*v < 0 || *v > kMaxWorkspaceBytes) {
      return bad_request("'workspace_bytes' is " + std::to_string(*v) +
                         " bytes at preset S; it must be between 0 and " +
                         std::to_string(kMaxWorkspaceBytes));
    }
    g.workspace_bytes = expr;
  }
  if (given("preset")) {
    if (!body.at("preset").is_string() || !m->presets.count(body.at("preset").get<std::string>())) {
      return bad_request("'preset' must be S, M, L or XL");
    }
    g.preset = body.at("preset").get<std::string>();
  }
  {
    const std::string preset = g.preset.value_or(rules.default_preset);
    auto sizes = m->presets.find(preset);
    if (sizes != m->presets.end()) {
      if (auto why = ungradeable_reason(*m, *p, sizes->second)) {
        return bad_request("preset " + preset + " of '" + m->id + "' cannot be graded at " +
                           g.precision + " (" + *why + "): choose a smaller preset");
      }
      if (auto why = memory_shortfall(*m, sizes->second, *p, rules.memory_bytes)) {
        return bad_request("preset " + preset + " of '" + m->id +
                           "' does not fit this judge's memory limit (" + *why +
                           "): choose a smaller preset");
      }
    }
  }
  auto run_id = str_field("run_id", "");
  auto optimizer = str_field("optimizer", "");
  if (!run_id || !optimizer) return bad_request("'run_id' and 'optimizer' must be strings");
  g.run_id = *run_id;
  g.optimizer = *optimizer;
  if (given("tokens")) {
    // An unsigned value above INT64_MAX is out of range too (it would wrap negative).
    const json& t = body.at("tokens");
    if (!t.is_number_integer() ||
        (t.is_number_unsigned() ? t.get<uint64_t>() > uint64_t{INT64_MAX} : t.get<int64_t>() < 0)) {
      return bad_request("'tokens' must be a non-negative integer or null");
    }
    g.tokens = t.get<int64_t>();
  }
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
    return bad_request("the Idempotency-Key header must be 1 to " +
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
    return bad_request("'" + field +
                       "' must name an existing file inside the judge's shared directory; refused");
  }
  if (is_library) {
    g.library_path = path->string();
    return g;
  }
  // Checked before reading: the file may be far larger than the judge's memory.
  std::error_code size_ec;
  if (fs::file_size(*path, size_ec) > max_source_bytes || size_ec) {
    return ApiError{ErrorKind::kPayloadTooLarge,
                    "'source_file' is larger than " + std::to_string(max_source_bytes) + " bytes"};
  }
  g.source = read_text(*path);
  // The file may have grown between the size check and the read.
  if (g.source->size() > max_source_bytes) {
    return ApiError{ErrorKind::kPayloadTooLarge,
                    "source is larger than " + std::to_string(max_source_bytes) + " bytes"};
  }
  return g;
}

}  // namespace hpcab::judge
