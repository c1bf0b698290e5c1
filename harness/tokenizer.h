// Token counts the metering proxy makes itself when an inference server's response carries no
// usage (docs/harness.md "Tokens without usage counts"): a byte-pair-encoding tokenizer loaded
// from the vocabulary file an arm names (TOKENIZER), and an estimate when there is none.
//
// Vocabulary: the tiktoken format (OpenAI's cl100k_base.tiktoken, o200k_base.tiktoken): one
// `<base64 of the token's bytes> <rank>` per line; lower ranks merge first. Encoding follows
// tiktoken's: the text is cut into pieces (pretokenize(), an approximation of cl100k_base's
// split pattern), each piece starts as its bytes, and the adjacent pair whose concatenation has
// the lowest rank (the leftmost of equals) is merged until no adjacent pair is a token. The
// count is the number of parts left (a byte missing from the vocabulary still counts one).
// Special tokens (<|endoftext|>, ...) are not recognised: their text is encoded as text.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/result.h"

namespace hpcab::harness {

// Where a request's token counts came from. kReported: the server's usage object;
// kCounted: the proxy's tokenizer; kEstimated: the proxy's estimate (estimate_tokens);
// kNone: nothing to count (the proxy answered by itself, or a route that generates nothing).
enum class TokenSource { kNone, kReported, kCounted, kEstimated };
// "none", "reported", "counted", "estimated" (the episode database's requests.tokens_source).
const char* token_source_name(TokenSource s);

// The estimate without a tokenizer: ceil(UTF-8 bytes / 4), OpenAI's rule of thumb for English
// text and code. 0 for empty text.
std::int64_t estimate_tokens(std::string_view text);

// The pieces BPE encodes separately, an approximation of cl100k_base's split pattern with byte
// classes instead of Unicode ones (every byte >= 0x80 counts as a letter, so UTF-8 words stay
// whole): a letter run with at most one leading non-letter, non-digit, non-newline byte (" the",
// ".h"); 1 to 3 digits; a run of other bytes with at most one leading space and its trailing
// newlines (" {\n"); a whitespace run, less its last byte when that is not a newline and a
// non-whitespace byte follows (the last space then leads the next piece). Concatenated, the
// pieces are the text.
std::vector<std::string_view> pretokenize(std::string_view text);

class BpeTokenizer {
 public:
  // Reads a tiktoken vocabulary file. Errors name the file and line: a line that is not
  // `<base64> <rank>`, bad base64, a rank or token given twice, an empty file.
  static Result<std::shared_ptr<const BpeTokenizer>> load(const std::filesystem::path& file);
  // The same from text; `label` names it in errors.
  static Result<std::shared_ptr<const BpeTokenizer>> parse(std::string_view text,
                                                           const std::string& label);

  // The ranks of the tokens of `text` (a byte missing from the vocabulary: kUnknown).
  std::vector<std::uint32_t> encode(std::string_view text) const;
  // encode(text).size(), without building the list.
  std::int64_t count(std::string_view text) const;
  std::size_t size() const { return ranks_.size(); }

  static constexpr std::uint32_t kUnknown = 0xffffffffu;

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::uint32_t rank(std::string_view bytes) const;
  // The parts of one piece after merging, as [begin, end) offsets into it.
  std::vector<std::pair<std::size_t, std::size_t>> merge(std::string_view piece) const;

  std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> ranks_;
};

// What the proxy counts with: the arm's tokenizer (counts are kCounted) or, without one, the
// estimate (kEstimated).
class TokenCounter {
 public:
  explicit TokenCounter(std::shared_ptr<const BpeTokenizer> tokenizer = nullptr)
      : tokenizer_(std::move(tokenizer)) {}
  std::int64_t count(std::string_view text) const {
    return tokenizer_ ? tokenizer_->count(text) : estimate_tokens(text);
  }
  TokenSource source() const {
    return tokenizer_ ? TokenSource::kCounted : TokenSource::kEstimated;
  }

 private:
  std::shared_ptr<const BpeTokenizer> tokenizer_;
};

}  // namespace hpcab::harness
