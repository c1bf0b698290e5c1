// A POST /score, /submit or /oracle body into a GradeRequest, in two steps:
//   parse_grade_body()    pure: the body's bytes, the judge's rules and an in-memory kernel
//                         lookup in, a ParsedGrade or the typed error to answer out. No files,
//                         clock or network, so the libFuzzer target (tests/fuzz/request_fuzz.cc)
//                         runs it as it is.
//   resolve_shared_file() the filesystem step for "source_file" and "library": the path inside
//                         the judge's shared directory, and the source text read from it.
// Every field is checked before the filesystem is touched, so an invalid request never makes the
// judge resolve or read a path. Also the rank check that GET /task and /baseline share.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/manifest.h"
#include "judge/grade/request.h"
#include "judge/http/http_errors.h"

namespace hpcab::judge {

// The parts of JudgeConfig the body checks read.
struct GradeBodyRules {
  int rank = 0;                               // this judge's rank: another one is a 421
  int max_json_depth = 64;                    // deeper bodies are a 400
  std::string input_mode = "any";             // source | library | any
  bool has_shared_dir = false;                // "source_file" and "library" need one
  std::size_t max_source_bytes = 1 << 20;     // an inline source over this is a 413
  std::string default_preset = "S";           // the preset of a request that names none
  uint64_t memory_bytes = uint64_t{8} << 30;  // a runner's memory limit: the public preset fits it
};

// Kernel id -> its manifest, or nullptr. Called only with ids that pass valid_kernel_name.
using KernelLookup = std::function<const Manifest*(const std::string& id)>;

enum class SharedFile { kNone, kSourceFile, kLibrary };

struct ParsedGrade {
  // Every field but received_at (the caller stamps it) and, for a shared file, source or
  // library_path (resolve_shared_file fills them).
  GradeRequest request;
  SharedFile shared_file = SharedFile::kNone;
  std::string shared_path;  // the "source_file" / "library" value as the client sent it
};

// The body checks in the order docs/api.md lists them: JSON (UTF-8, depth, syntax), an object,
// rank (400 missing or malformed, 421 another judge's), kernel (400 not a string, 404 unknown),
// language, residency (host | device, device only for cuda and hip), precision, exactly one of
// source / source_file / library and the input mode, an inline source's size (413), build tokens,
// workspace_bytes (evaluated at preset S), preset (the public one, named or the default, must be
// gradeable at the precision and its arrays must fit the data budget of `memory_bytes`), run_id and
// optimizer, tokens. The first failing check is the answer. Never throws; a value is returned only
// when every check passed.
ApiResult<ParsedGrade> parse_grade_body(std::string_view body, const std::string& route,
                                        const GradeBodyRules& rules, const KernelLookup& kernel);

// Resolves a ParsedGrade's shared file inside `shared_dir` (no "..", symlink or absolute path
// may leave it; it must be an existing regular file: 400 otherwise), then for "source_file"
// checks its size before reading it (413 over `max_source_bytes`) and reads it. A request
// without a shared file passes through unchanged.
ApiResult<GradeRequest> resolve_shared_file(ParsedGrade parsed, const std::string& shared_dir,
                                            std::size_t max_source_bytes);

// The longest Idempotency-Key a /submit may carry.
inline constexpr std::size_t kMaxIdempotencyKeyBytes = 128;

// A /submit's (or /oracle's) `Idempotency-Key` header (docs/api.md "Retrying a /submit"):
// nullopt when absent; the key when it is 1..kMaxIdempotencyKeyBytes characters of
// [A-Za-z0-9._:-]; else a 400 saying what a key may be (a header sent twice arrives combined
// with ", " and is refused too). `headers` has lower-case names, as the server gives them. Pure,
// like parse_grade_body (the fuzz target runs it).
ApiResult<std::optional<std::string>> parse_idempotency_key(
    const std::map<std::string, std::string>& headers);

// The rank check (SPEC §4): 400 when missing (`present` false) or malformed (`rank` nullopt),
// 421 with `rank` and `requested_rank` fields when it names another judge.
std::optional<ApiError> check_rank(const std::optional<int>& rank, bool present, int own);
// The same for a query string's `rank` parameter (GET /task, /baseline).
std::optional<ApiError> check_query_rank(const std::map<std::string, std::string>& query, int own);

}  // namespace hpcab::judge
