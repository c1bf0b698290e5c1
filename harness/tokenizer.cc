#include "harness/tokenizer.h"

#include <fstream>
#include <queue>
#include <sstream>
#include <tuple>

namespace hpcab::harness {
namespace {

enum class Cls { kLetter, kDigit, kNewline, kSpace, kOther };

Cls ClassOf(unsigned char c) {
  if (c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return Cls::kLetter;
  if (c >= '0' && c <= '9') return Cls::kDigit;
  if (c == '\n' || c == '\r') return Cls::kNewline;
  if (c == ' ' || c == '\t' || c == '\v' || c == '\f') return Cls::kSpace;
  return Cls::kOther;
}

bool IsWhite(Cls c) { return c == Cls::kNewline || c == Cls::kSpace; }

// 0-63 for a base64 digit, -1 otherwise.
int Base64Digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Standard base64 with '=' padding (padding optional); false on any other character.
bool DecodeBase64(std::string_view in, std::string& out) {
  out.clear();
  while (!in.empty() && in.back() == '=') in.remove_suffix(1);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    const int d = Base64Digit(c);
    if (d < 0) return false;
    acc = (acc << 6) | static_cast<std::uint32_t>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return bits < 6;  // a lone trailing digit carries no whole byte
}

// The end of the run of bytes of class `c` from `i`.
std::size_t RunEnd(std::string_view t, std::size_t i, Cls c) {
  while (i < t.size() && ClassOf(static_cast<unsigned char>(t[i])) == c) ++i;
  return i;
}

// The end of the piece that starts at `i` (pretokenize's rules).
std::size_t PieceEnd(std::string_view t, std::size_t i) {
  const std::size_t n = t.size();
  const Cls c = ClassOf(static_cast<unsigned char>(t[i]));
  const Cls next = i + 1 < n ? ClassOf(static_cast<unsigned char>(t[i + 1])) : Cls::kNewline;
  if (c == Cls::kLetter) return RunEnd(t, i, Cls::kLetter);
  if (c == Cls::kDigit) return std::min(RunEnd(t, i, Cls::kDigit), i + 3);
  if ((c == Cls::kOther || c == Cls::kSpace) && next == Cls::kLetter)
    return RunEnd(t, i + 1, Cls::kLetter);
  if (c == Cls::kOther || (t[i] == ' ' && next == Cls::kOther)) {
    const std::size_t j = RunEnd(t, c == Cls::kOther ? i : i + 1, Cls::kOther);
    return RunEnd(t, j, Cls::kNewline);
  }
  std::size_t j = i;
  while (j < n && IsWhite(ClassOf(static_cast<unsigned char>(t[j])))) ++j;
  if (j < n && j - i >= 2 && ClassOf(static_cast<unsigned char>(t[j - 1])) == Cls::kSpace) --j;
  return j;
}

}  // namespace

const char* token_source_name(TokenSource s) {
  switch (s) {
    case TokenSource::kReported:
      return "reported";
    case TokenSource::kCounted:
      return "counted";
    case TokenSource::kEstimated:
      return "estimated";
    case TokenSource::kNone:
      break;
  }
  return "none";
}

std::int64_t estimate_tokens(std::string_view text) {
  return static_cast<std::int64_t>((text.size() + 3) / 4);
}

std::vector<std::string_view> pretokenize(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t j = PieceEnd(text, i);
    out.push_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

Result<std::shared_ptr<const BpeTokenizer>> BpeTokenizer::load(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Error{"tokenizer " + file.string() + ": cannot read the file"};
  std::stringstream buf;
  buf << in.rdbuf();
  return parse(buf.str(), "tokenizer " + file.string());
}

Result<std::shared_ptr<const BpeTokenizer>> BpeTokenizer::parse(std::string_view text,
                                                                const std::string& label) {
  auto tok = std::make_shared<BpeTokenizer>();
  std::unordered_map<std::uint32_t, int> rank_line;
  std::string bytes;
  int line_no = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    const std::string where = label + ":" + std::to_string(line_no);
    const std::size_t sp = line.find(' ');
    const std::string_view num = sp == std::string_view::npos ? "" : line.substr(sp + 1);
    std::uint64_t rank = 0;
    bool ok = !num.empty() && num.size() <= 10;
    for (char c : num) {
      ok = ok && c >= '0' && c <= '9';
      rank = rank * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (!ok || rank >= kUnknown) return Error{where + ": expected '<base64 token> <rank>'"};
    if (!DecodeBase64(line.substr(0, sp), bytes) || bytes.empty())
      return Error{where + ": the token is not base64 of at least one byte"};
    const auto r = static_cast<std::uint32_t>(rank);
    if (auto [it, fresh] = rank_line.emplace(r, line_no); !fresh)
      return Error{where + ": rank " + std::to_string(r) + " was given on line " +
                   std::to_string(it->second)};
    if (!tok->ranks_.emplace(bytes, r).second)
      return Error{where + ": the token was given before with another rank"};
  }
  if (tok->ranks_.empty()) return Error{label + ": no tokens"};
  return std::shared_ptr<const BpeTokenizer>(std::move(tok));
}

std::uint32_t BpeTokenizer::rank(std::string_view bytes) const {
  auto it = ranks_.find(bytes);
  return it == ranks_.end() ? kUnknown : it->second;
}

// Merges with a heap of candidate pairs ordered by (rank, position), the same order as
// tiktoken's repeated scan for the lowest-ranked pair but O(n log n) for long pieces. A part
// keeps its start; merging (a, b) extends a and retires b. A candidate is stale once either of
// its parts changed, which the ends recorded with it show.
std::vector<std::pair<std::size_t, std::size_t>> BpeTokenizer::merge(std::string_view p) const {
  const std::size_t n = p.size();
  std::vector<std::size_t> end(n), next(n), prev(n);
  std::vector<bool> alive(n, true);
  for (std::size_t i = 0; i < n; ++i) {
    end[i] = i + 1;
    next[i] = i + 1;  // n: none
    prev[i] = i == 0 ? n : i - 1;
  }
  using Cand = std::tuple<std::uint32_t, std::size_t, std::size_t, std::size_t>;  // rank, a, ends
  std::priority_queue<Cand, std::vector<Cand>, std::greater<>> heap;
  auto offer = [&](std::size_t a) {
    if (a >= n || next[a] >= n) return;
    const std::size_t b = next[a];
    const std::uint32_t r = rank(p.substr(a, end[b] - a));
    if (r != kUnknown) heap.emplace(r, a, end[a], end[b]);
  };
  for (std::size_t i = 0; i + 1 < n; ++i) offer(i);
  while (!heap.empty()) {
    const auto [r, a, a_end, b_end] = heap.top();
    heap.pop();
    if (!alive[a] || end[a] != a_end || next[a] >= n || end[next[a]] != b_end) continue;
    const std::size_t b = next[a];
    end[a] = end[b];
    alive[b] = false;
    next[a] = next[b];
    if (next[b] < n) prev[next[b]] = a;
    offer(a);
    if (prev[a] < n) offer(prev[a]);
  }
  std::vector<std::pair<std::size_t, std::size_t>> parts;
  for (std::size_t i = 0; i < n; i = next[i]) parts.emplace_back(i, end[i]);
  return parts;
}

std::vector<std::uint32_t> BpeTokenizer::encode(std::string_view text) const {
  std::vector<std::uint32_t> out;
  for (std::string_view piece : pretokenize(text)) {
    if (const std::uint32_t whole = rank(piece); whole != kUnknown) {
      out.push_back(whole);
      continue;
    }
    for (const auto& [b, e] : merge(piece)) out.push_back(rank(piece.substr(b, e - b)));
  }
  return out;
}

std::int64_t BpeTokenizer::count(std::string_view text) const {
  std::int64_t n = 0;
  for (std::string_view piece : pretokenize(text)) {
    n += rank(piece) != kUnknown ? 1 : static_cast<std::int64_t>(merge(piece).size());
  }
  return n;
}

}  // namespace hpcab::harness
