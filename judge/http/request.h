// The judge's first look at client bytes, as pure functions (what a submission may say about
// its build, judge/build/languages.h, is checked by the same rules): request-target splitting,
// UTF-8, rank and kernel-name syntax, and depth-limited JSON parsing. The routes call them before
// any lookup or grading; the libFuzzer target (tests/fuzz/request_fuzz.cc) calls the same ones, so
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
#include "judge/build/languages.h"

namespace hpcab::judge {

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

// Error when JSON `text` nests arrays/objects deeper than `max_depth` (brackets inside strings
// do not count). A linear scan that runs before the parser, so no parser or destructor ever
// sees a deeply nested document.
Status check_json_depth(std::string_view text, int max_depth);

// A request body as JSON: valid UTF-8, at most `max_depth` levels, then nlohmann's parser.
// Every failure is an Error whose message says what is wrong with the body.
Result<nlohmann::json> parse_json_body(std::string_view text, int max_depth);

}  // namespace hpcab::judge
