// The judge's first look at client bytes, as pure functions: request-target splitting, UTF-8,
// rank and kernel-name syntax, and depth-limited JSON parsing. The routes call them before any
// lookup or grading; the libFuzzer target (tests/fuzz/request_fuzz.cc) calls the same ones, so
// they must not touch files, the corpus or the network.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace hpcab::judge {

// Largest workspace a request may ask for (1 TiB), the grader's own bound.
inline constexpr int64_t kMaxWorkspaceBytes = int64_t{1} << 40;

struct RequestTarget {
  std::string path;                          // percent-decoded
  std::map<std::string, std::string> query;  // percent-decoded; '+' is a space
};

// "/task/gemm?rank=0&language=c" -> {"/task/gemm", {rank: 0, language: c}}. Never fails: what
// is not a valid escape is kept as it is. The decoded bytes may be anything (NUL, invalid
// UTF-8); callers check them.
RequestTarget split_target(std::string_view target);

// True when `s` is well-formed UTF-8 (no overlong forms, surrogates or code points above
// U+10FFFF). Otherwise `bad_offset`, when given, receives the offset of the first bad byte.
bool valid_utf8(std::string_view s, std::size_t* bad_offset = nullptr);

// A rank in a query string: non-negative ASCII decimal that fits an int, else nullopt.
std::optional<int> parse_rank_text(std::string_view s);
// A rank in a JSON body: such a string, or a non-negative integer below 10^9.
std::optional<int> parse_rank_json(const nlohmann::json& value);

// Kernel names a client may send: a corpus id ([a-z][a-z0-9_]{0,63}) or the original judge's
// path-style key of such names ("loop_level_reasoning/tsvc_2_s000", common/manifest.h
// valid_kernel_key). Anything else (dots, "..", empty segments, NUL) names no kernel.
bool valid_kernel_name(std::string_view s);

// Submission languages: c, cpp, fortran, python, cuda, hip.
bool known_language(const std::string& language);
// The GPU languages (cuda, hip): built with a GPU toolchain for the judge's GPU targets, run
// only by a judge with a GPU, and the only ones a `residency` of "device" applies to.
bool gpu_language(const std::string& language);
// The languages as a client reads them in an error message: "c, cpp, fortran, python, cuda or
// hip".
const char* language_list();

// Only -I<dir>, -D<name>[=value], -l<name> and -L<dir> (SPEC §4); anything else, optimization and
// math flags above all, is refused with a message naming the token.
Status validate_build_tokens(const std::vector<std::string>& tokens);

// Error when JSON `text` nests arrays/objects deeper than `max_depth` (brackets inside strings
// do not count). A linear scan that runs before the parser, so no parser or destructor ever
// sees a deeply nested document.
Status check_json_depth(std::string_view text, int max_depth);

// A request body as JSON: valid UTF-8, at most `max_depth` levels, then nlohmann's parser.
// Every failure is an Error whose message says what is wrong with the body.
Result<nlohmann::json> parse_json_body(std::string_view text, int max_depth);

}  // namespace hpcab::judge
