// The portability screen (common/portability.h): a lexer that blanks comments and literals,
// a preprocessor-guard tracker, and one function per rule over the blanked text.
#include "common/portability.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

namespace hpcab {

namespace {

using std::string_view;

bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
bool starts_with(string_view s, string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(string_view s, string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

string_view trim(string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string lower(string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Lexer. The blanked text has the source's length and newlines, so an offset or a line number
// in it is one in the source.

// The identifier ending at `end` in `text`, whitespace before `end` skipped.
string_view word_before(string_view text, std::size_t end) {
  while (end > 0 && is_space(text[end - 1])) --end;
  std::size_t begin = end;
  while (begin > 0 && is_ident_char(text[begin - 1])) --begin;
  return text.substr(begin, end - begin);
}

// Whether a string literal opening at the end of `out` is an argument of `target(` or
// `target_clones(` (attribute or pragma): the rules read those strings.
bool in_target_args(string_view out) {
  int depth = 0;
  const std::size_t stop = out.size() > 400 ? out.size() - 400 : 0;
  for (std::size_t i = out.size(); i > stop; --i) {
    const char c = out[i - 1];
    if (c == ')') {
      ++depth;
    } else if (c == '(') {
      if (depth == 0) {
        const string_view w = word_before(out, i - 1);
        return w == "target" || w == "target_clones";
      }
      --depth;
    } else if (c == ';' || c == '{' || c == '}') {
      return false;
    }
  }
  return false;
}

// Whether the end of `out` is `#include` (or `#include_next`) on its line: the header rules
// read `#include "name.h"` like `#include <name.h>`.
bool in_include_directive(string_view out) {
  const std::size_t nl = out.rfind('\n');
  string_view line = trim(out.substr(nl == string_view::npos ? 0 : nl + 1));
  if (line.empty() || line.front() != '#') return false;
  line = trim(line.substr(1));
  return line == "include" || line == "include_next";
}

// Whether the quote at `i` is a C++14 digit separator (1'000): its token starts with a digit.
bool digit_separator(string_view src, std::size_t i) {
  std::size_t b = i;
  while (b > 0 && (is_ident_char(src[b - 1]) || src[b - 1] == '.' || src[b - 1] == '\'')) --b;
  return b < i && is_digit(src[b]);
}

// Whether the quote at `i` opens a raw string literal (R"delim( ... )delim").
bool raw_string_at(string_view src, std::size_t i) {
  std::size_t b = i;
  while (b > 0 && is_ident_char(src[b - 1])) --b;
  const string_view prefix = src.substr(b, i - b);
  return prefix == "R" || prefix == "LR" || prefix == "uR" || prefix == "UR" || prefix == "u8R";
}

void put(std::string& out, char c, bool keep) { out += (keep || c == '\n') ? c : ' '; }

// Copies (keep) or blanks a "..." or '...' literal from `i`; returns the offset after it. An
// unterminated literal ends at its line's end.
std::size_t scan_quoted(string_view src, std::size_t i, std::string& out, bool keep) {
  const char quote = src[i];
  put(out, src[i++], keep);
  while (i < src.size()) {
    const char c = src[i];
    if (c == '\\' && i + 1 < src.size()) {
      put(out, c, keep);
      put(out, src[i + 1], keep);
      i += 2;
      continue;
    }
    put(out, c, keep);
    ++i;
    if (c == quote || c == '\n') break;
  }
  return i;
}

std::size_t scan_raw_string(string_view src, std::size_t i, std::string& out) {
  const std::size_t open = src.find('(', i);
  if (open == string_view::npos) return scan_quoted(src, i, out, false);
  const std::string close = ")" + std::string(src.substr(i + 1, open - i - 1)) + "\"";
  const std::size_t found = src.find(close, open);
  const std::size_t end = found == string_view::npos ? src.size() : found + close.size();
  for (; i < end; ++i) put(out, src[i], false);
  return end;
}

// A // comment (continued by a backslash before its newline) up to its newline.
std::size_t scan_line_comment(string_view src, std::size_t i, std::string& out) {
  for (; i < src.size(); ++i) {
    if (src[i] == '\n' && !(i > 0 && src[i - 1] == '\\')) break;
    put(out, src[i], false);
  }
  return i;
}

std::size_t scan_block_comment(string_view src, std::size_t i, std::string& out) {
  const std::size_t found = src.find("*/", i + 2);
  const std::size_t end = found == string_view::npos ? src.size() : found + 2;
  for (; i < end; ++i) put(out, src[i], false);
  return end;
}

// C, C++, CUDA or HIP source with comments and literals blanked to spaces (newlines kept),
// except the strings of `target(...)`/`target_clones(...)` and of `#include "..."`.
std::string blank_c_source(string_view src) {
  std::string out;
  out.reserve(src.size());
  std::size_t i = 0;
  while (i < src.size()) {
    const char c = src[i];
    const char next = i + 1 < src.size() ? src[i + 1] : '\0';
    if (c == '/' && next == '/') {
      i = scan_line_comment(src, i, out);
    } else if (c == '/' && next == '*') {
      i = scan_block_comment(src, i, out);
    } else if (c == '"' && raw_string_at(src, i)) {
      i = scan_raw_string(src, i, out);
    } else if (c == '"') {
      i = scan_quoted(src, i, out, in_target_args(out) || in_include_directive(out));
    } else if (c == '\'' && !digit_separator(src, i)) {
      i = scan_quoted(src, i, out, false);
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Preprocessor guards. Each line gets the tags of the #if branches around it: code in a branch
// whose condition names a vendor's or an architecture's macro positively compiles only there.

constexpr unsigned kAmd = 1;     // __HIP_PLATFORM_AMD__, __AMDGCN__, __HIP_PLATFORM_HCC__
constexpr unsigned kNvidia = 2;  // __CUDA_ARCH__, __HIP_PLATFORM_NVIDIA__, __HIP_PLATFORM_NVCC__
constexpr unsigned kX86 = 4;     // __x86_64__, __i386__, __AVX2__, __SSE4_1__, ...
constexpr unsigned kArm = 8;     // __aarch64__, __arm__, __ARM_NEON, __ARM_FEATURE_SVE, ...
constexpr unsigned kDead = 16;   // #if 0
constexpr unsigned kVendor = kAmd | kNvidia;
constexpr unsigned kArch = kX86 | kArm;

unsigned macro_tag(string_view m) {
  if (m == "__HIP_PLATFORM_AMD__" || m == "__AMDGCN__" || m == "__HIP_PLATFORM_HCC__") return kAmd;
  if (m == "__CUDA_ARCH__" || m == "__HIP_PLATFORM_NVIDIA__" || m == "__HIP_PLATFORM_NVCC__" ||
      m == "__NVCC__") {
    return kNvidia;
  }
  if (m == "__x86_64__" || m == "__x86_64" || m == "__amd64__" || m == "__i386__" ||
      m == "_M_X64" || m == "_M_IX86" || starts_with(m, "__AVX") || starts_with(m, "__SSE") ||
      m == "__FMA__" || starts_with(m, "__BMI") || m == "__F16C__") {
    return kX86;
  }
  if (m == "__aarch64__" || m == "__arm__" || m == "_M_ARM64" || starts_with(m, "__ARM_")) {
    return kArm;
  }
  return 0;
}

// Tags a condition names positively (`defined(X)`, `X`) and negatively (`!defined(X)`, `!X`).
struct CondTags {
  unsigned pos = 0;
  unsigned neg = 0;
  // Tags of the code after this condition's branch (#elif, #else): the negated macros, and
  // the other GPU vendor for a vendor macro (HIP's #else of __HIP_PLATFORM_AMD__ is NVIDIA).
  unsigned other() const {
    const unsigned v = pos & kVendor;
    return neg | ((v & kAmd) ? kNvidia : 0) | ((v & kNvidia) ? kAmd : 0);
  }
};

bool negated_at(string_view cond, std::size_t i) {
  while (i > 0) {
    const char c = cond[i - 1];
    if (is_space(c) || c == '(') {
      --i;
    } else if (word_before(cond, i) == "defined") {
      i -= word_before(cond, i).size();
    } else {
      return c == '!';
    }
  }
  return false;
}

CondTags condition_tags(string_view cond) {
  CondTags t;
  if (trim(cond) == "0") t.pos = kDead;
  for (std::size_t i = 0; i < cond.size();) {
    if (!is_ident_char(cond[i])) {
      ++i;
      continue;
    }
    std::size_t e = i;
    while (e < cond.size() && is_ident_char(cond[e])) ++e;
    const unsigned tag = macro_tag(cond.substr(i, e - i));
    if (tag != 0) (negated_at(cond, i) ? t.neg : t.pos) |= tag;
    i = e;
  }
  return t;
}

struct GuardFrame {
  unsigned branch = 0;  // tags of the branch being read
  unsigned after = 0;   // tags of a later #elif/#else (CondTags::other of the conditions so far)
};

// Updates the #if stack for one directive (`name` and the text after it).
void apply_directive(string_view name, string_view rest, std::vector<GuardFrame>& stack) {
  CondTags t;
  if (name == "ifdef") {
    t.pos = macro_tag(trim(rest));
  } else if (name == "ifndef") {
    t.neg = macro_tag(trim(rest));
  } else if (name == "if" || name == "elif") {
    t = condition_tags(rest);
  }
  if (name == "if" || name == "ifdef" || name == "ifndef") {
    stack.push_back({t.pos, t.other()});
  } else if (name == "elif" && !stack.empty()) {
    stack.back().branch = t.pos | stack.back().after;
    stack.back().after |= t.other();
  } else if (name == "else" && !stack.empty()) {
    stack.back().branch = stack.back().after;
  } else if (name == "endif" && !stack.empty()) {
    stack.pop_back();
  }
}

// The blanked source and what each line is: its directive ("" for code) and its guard tags.
struct Source {
  std::string raw;
  std::string code;
  std::vector<std::size_t> line_start;  // offset of each line's first character
  std::vector<std::string> directive;   // per line: "include", "if", "pragma", ... or ""
  std::vector<unsigned> tags;           // per line

  int line_of(std::size_t offset) const {
    const auto it = std::upper_bound(line_start.begin(), line_start.end(), offset);
    return static_cast<int>(it - line_start.begin());
  }
  string_view line_text(int line) const {
    const std::size_t b = line_start[line - 1];
    const std::size_t e =
        static_cast<std::size_t>(line) < line_start.size() ? line_start[line] - 1 : code.size();
    return string_view(code).substr(b, e - b);
  }
  unsigned tags_at(std::size_t offset) const { return tags[line_of(offset) - 1]; }
};

// Splits a directive line into its name and the rest: "#  include <x>" -> ("include", "<x>").
std::pair<string_view, string_view> split_directive(string_view line) {
  line = trim(line);
  if (line.empty() || line.front() != '#') return {};
  line = trim(line.substr(1));
  std::size_t e = 0;
  while (e < line.size() && is_ident_char(line[e])) ++e;
  return {line.substr(0, e), line.substr(e)};
}

Source read_source(const std::string& raw) {
  Source s;
  s.raw = raw;
  s.code = blank_c_source(raw);
  s.line_start.push_back(0);
  for (std::size_t i = 0; i < s.code.size(); ++i) {
    if (s.code[i] == '\n') s.line_start.push_back(i + 1);
  }
  std::vector<GuardFrame> stack;
  std::string continued;  // the directive name a backslash carries onto the next line
  for (int line = 1; line <= static_cast<int>(s.line_start.size()); ++line) {
    unsigned tags = 0;
    for (const GuardFrame& f : stack) tags |= f.branch;
    s.tags.push_back(tags);
    const string_view text = s.line_text(line);
    if (!continued.empty()) {
      s.directive.push_back(continued);
    } else {
      const auto [name, rest] = split_directive(text);
      std::string joined(rest);
      for (int next = line; ends_with(trim(s.line_text(next)), "\\") &&
                            next < static_cast<int>(s.line_start.size());) {
        joined += " " + std::string(s.line_text(++next));
      }
      std::replace(joined.begin(), joined.end(), '\\', ' ');
      s.directive.emplace_back(name);
      apply_directive(name, joined, stack);
    }
    const bool continues = ends_with(trim(text), "\\") && !s.directive.back().empty();
    continued = continues ? s.directive.back() : "";
  }
  return s;
}

struct Ident {
  string_view name;
  std::size_t offset;
};

// Every identifier of the blanked code (numbers such as 1e5f are not identifiers).
std::vector<Ident> identifiers(string_view code) {
  std::vector<Ident> out;
  for (std::size_t i = 0; i < code.size();) {
    if (!is_ident_char(code[i])) {
      ++i;
      continue;
    }
    std::size_t e = i;
    while (e < code.size() && (is_ident_char(code[e]) || (is_digit(code[i]) && code[e] == '.'))) {
      ++e;
    }
    if (!is_digit(code[i])) out.push_back({code.substr(i, e - i), i});
    i = e;
  }
  return out;
}

// The first non-space character at or after `i` ('\0' at the end).
char next_char(string_view code, std::size_t i) {
  while (i < code.size() && is_space(code[i])) ++i;
  return i < code.size() ? code[i] : '\0';
}

// The offset after the parenthesis matching the '(' at `open` (the end when unmatched).
std::size_t matching_paren(string_view code, std::size_t open, char o = '(', char c = ')') {
  int depth = 0;
  for (std::size_t i = open; i < code.size(); ++i) {
    if (code[i] == o) ++depth;
    if (code[i] == c && --depth == 0) return i + 1;
  }
  return code.size();
}

// ---------------------------------------------------------------------------------------------
// Issues.

class Issues {
 public:
  // One issue per (code, line); a line-0 issue (build token, language) once per message.
  void add(const std::string& code, int line, const std::string& message) {
    for (const PortabilityIssue& i : list_) {
      if (i.code == code && i.line == line && (line > 0 || i.message == message)) return;
    }
    list_.push_back({code, message, line});
  }
  std::vector<PortabilityIssue> take() {
    std::stable_sort(list_.begin(), list_.end(),
                     [](const auto& a, const auto& b) { return a.line < b.line; });
    if (list_.size() > kMaxPortabilityIssues) list_.resize(kMaxPortabilityIssues);
    return std::move(list_);
  }

 private:
  std::vector<PortabilityIssue> list_;
};

std::string normal_arch(const std::string& arch) {
  const std::string a = lower(arch);
  if (a == "amd64" || a == "x86-64") return "x86_64";
  if (a == "arm64") return "aarch64";
  return a;
}

// The judge's GPUs as a message's tail: "the judge's GPUs: amd" or "the judge has no GPU".
std::string gpus_text(const Platform& to) {
  if (to.gpu_vendors.empty()) return "the judge has no GPU";
  std::string out = "the judge's GPUs: ";
  for (std::size_t i = 0; i < to.gpu_vendors.size(); ++i) {
    out += (i ? ", " : "") + to.gpu_vendors[i];
  }
  return out;
}

bool has_vendor(const Platform& to, const std::string& vendor) {
  for (const std::string& v : to.gpu_vendors) {
    if (lower(v) == vendor) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Rule vocabularies.

constexpr std::array<string_view, 19> kX86Headers = {
    "immintrin.h",     "xmmintrin.h", "emmintrin.h",  "pmmintrin.h", "tmmintrin.h",
    "smmintrin.h",     "nmmintrin.h", "wmmintrin.h",  "avxintrin.h", "avx2intrin.h",
    "avx512fintrin.h", "x86intrin.h", "ia32intrin.h", "cpuid.h",     "x86gprintrin.h",
    "mmintrin.h",      "ammintrin.h", "fmaintrin.h",  "mm_malloc.h"};
constexpr std::array<string_view, 6> kArmHeaders = {"arm_neon.h", "arm_sve.h",  "arm_acle.h",
                                                    "arm_fp16.h", "arm_bf16.h", "arm_sme.h"};

template <std::size_t N>
bool among(string_view s, const std::array<string_view, N>& list) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// x86 intrinsics, builtins and vector types: _mm_*, _mm256_*, _mm512_*, __builtin_ia32_*,
// __m128d, __m256i, __mmask16, ...
bool x86_intrinsic(string_view n) {
  return starts_with(n, "_mm_") || starts_with(n, "_mm256_") || starts_with(n, "_mm512_") ||
         starts_with(n, "__builtin_ia32_") || starts_with(n, "__m128") ||
         starts_with(n, "__m256") || starts_with(n, "__m512") || starts_with(n, "__mmask") ||
         n == "__m64";
}

// The element suffix of a NEON/SVE intrinsic name (vld1q_f64, svadd_f64_x, svwhilelt_b64).
bool arm_element_suffix(string_view name) {
  constexpr std::array<string_view, 20> kSuffixes = {
      "f16", "f32", "f64", "bf16", "s8",  "s16", "s32", "s64", "u8",  "u16",
      "u32", "u64", "p8",  "p16",  "p64", "b8",  "b16", "b32", "b64", "p128"};
  if (ends_with(name, "_m") || ends_with(name, "_x") || ends_with(name, "_z")) {
    name.remove_suffix(2);
  }
  const std::size_t u = name.rfind('_');
  return u != string_view::npos && among(name.substr(u + 1), kSuffixes);
}

// NEON/SVE vector types: float64x2_t, int32x4x2_t, svfloat64_t, svbool_t.
bool arm_vector_type(string_view n) {
  if (!ends_with(n, "_t")) return false;
  const bool sve = starts_with(n, "sv");
  if (sve) n.remove_prefix(2);
  if (sve && n == "bool_t") return true;
  constexpr std::array<string_view, 6> kTypes = {"float", "int",    "uint",
                                                 "poly",  "bfloat", "mfloat"};
  for (string_view t : kTypes) {
    if (!starts_with(n, t) || n.size() <= t.size() || !is_digit(n[t.size()])) continue;
    if (sve || n.find('x') != string_view::npos) return true;
  }
  return false;
}

// NEON/SVE types anywhere, and intrinsic calls (a name followed by '('): v<op>_<elem> for
// NEON, sv<op>_<elem> and svcnt[bhwd] for SVE. Calls only, so that a variable named like one
// (vec_f32) is not taken for it.
bool arm_intrinsic(string_view n, bool call) {
  if (arm_vector_type(n)) return true;
  if (!call) return false;
  if (n == "svcntb" || n == "svcnth" || n == "svcntw" || n == "svcntd") return true;
  const bool neon = n.size() > 1 && n[0] == 'v' && n[1] != '_';
  const bool sve = n.size() > 2 && starts_with(n, "sv") && n[2] != '_';
  return (neon || sve) && arm_element_suffix(n);
}

// The header an #include line names ("" when it names none): <a/b.h> or "a/b.h".
string_view included_header(string_view rest) {
  rest = trim(rest);
  if (rest.size() < 2 || (rest.front() != '<' && rest.front() != '"')) return {};
  const std::size_t close = rest.find(rest.front() == '<' ? '>' : '"', 1);
  return close == string_view::npos ? string_view() : rest.substr(1, close - 1);
}

// Offsets of inline assembly: `asm` [volatile|__volatile__|goto|inline]* '(' , __asm__, __asm.
std::vector<std::size_t> asm_statements(const std::vector<Ident>& ids, string_view code) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const string_view n = ids[k].name;
    if (n == "__asm__" || n == "__asm") {
      out.push_back(ids[k].offset);
      continue;
    }
    if (n != "asm") continue;
    std::size_t j = k + 1;
    std::size_t after = ids[k].offset + n.size();
    while (j < ids.size() &&
           (ids[j].name == "volatile" || ids[j].name == "__volatile__" || ids[j].name == "goto" ||
            ids[j].name == "inline") &&
           trim(code.substr(after, ids[j].offset - after)).empty()) {
      after = ids[j].offset + ids[j].name.size();
      ++j;
    }
    if (next_char(code, after) == '(') out.push_back(ids[k].offset);
  }
  return out;
}

// Whether the asm statement at `offset` (its original text) is PTX rather than GCN or CPU
// assembly: PTX names types and state spaces with dotted suffixes and special registers with %.
bool ptx_asm(const Source& s, std::size_t offset) {
  const std::size_t open = s.code.find('(', offset);
  if (open == std::string::npos) return false;
  const string_view text = string_view(s.raw).substr(open, matching_paren(s.code, open) - open);
  constexpr std::array<string_view, 16> kMarks = {
      ".u32", ".s32", ".u64",  ".s64", ".f32",    ".f64",    ".b32",    ".b64",
      ".u16", ".f16", ".pred", ".reg", ".global", ".shared", "%laneid", "%tid"};
  for (string_view m : kMarks) {
    if (text.find(m) != string_view::npos) return true;
  }
  return false;
}

// Whether the asm statement at `offset` has an empty template (`asm volatile("" ::: "memory")`,
// a compiler barrier): no instruction, so nothing of one arch.
bool empty_asm_template(const Source& s, std::size_t offset) {
  const std::size_t open = s.code.find('(', offset);
  if (open == std::string::npos) return false;
  std::size_t i = open + 1;
  bool any = false;
  for (;;) {
    while (i < s.raw.size() && is_space(s.raw[i])) ++i;
    if (s.raw.compare(i, 2, "\"\"") != 0) break;
    any = true;
    i += 2;
  }
  return any && i < s.raw.size() && (s.raw[i] == ':' || s.raw[i] == ')');
}

// [begin, end) offsets of CUDA/HIP device code: the bodies after __global__ or __device__.
std::vector<std::pair<std::size_t, std::size_t>> device_bodies(const std::vector<Ident>& ids,
                                                               string_view code) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (const Ident& id : ids) {
    if (id.name != "__global__" && id.name != "__device__") continue;
    if (!out.empty() && id.offset < out.back().second) continue;
    const std::size_t stop = code.find_first_of("{;", id.offset);
    if (stop == string_view::npos || code[stop] != '{') continue;
    out.emplace_back(stop, matching_paren(code, stop, '{', '}'));
  }
  return out;
}

bool inside(const std::vector<std::pair<std::size_t, std::size_t>>& ranges, std::size_t at) {
  for (const auto& [b, e] : ranges) {
    if (at >= b && at < e) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// ISA levels of target features and CPU names.

constexpr string_view kV2 = "x86-64-v2";
constexpr string_view kV3 = "x86-64-v3";
constexpr string_view kV4 = "x86-64-v4";

// The x86-64 level a target feature (GCC's names, as in -m<feature> and target("<feature>"))
// needs; "" when it is not an x86 feature this screen knows.
string_view feature_level(string_view f) {
  if (starts_with(f, "avx512") || starts_with(f, "avx10") || starts_with(f, "amx")) return kV4;
  constexpr std::array<string_view, 11> kV3Features = {
      "avx", "avx2", "fma", "bmi", "bmi2", "f16c", "lzcnt", "movbe", "abm", "xsave", "avxvnni"};
  constexpr std::array<string_view, 11> kV2Features = {"sse3",   "ssse3", "sse4",   "sse4.1",
                                                       "sse4.2", "sse4a", "popcnt", "cx16",
                                                       "sahf",   "aes",   "pclmul"};
  constexpr std::array<string_view, 4> kBaseFeatures = {"sse", "sse2", "mmx", "fxsr"};
  if (among(f, kV3Features)) return kV3;
  if (among(f, kV2Features)) return kV2;
  if (among(f, kBaseFeatures)) return "x86-64";
  return {};
}

// The level an x86 -march/arch= CPU name needs; `known` false for a name not in the table,
// which is taken to need x86-64-v4 (the highest: the screen must not pass what it cannot place).
string_view cpu_level(string_view cpu, bool& known) {
  known = true;
  if (cpu == "x86-64" || cpu == "x86-64-v2" || cpu == "x86-64-v3" || cpu == "x86-64-v4") {
    return cpu;
  }
  constexpr std::array<string_view, 14> kV4Cpus = {
      "skylake-avx512", "cascadelake",     "cooperlake", "cannonlake",     "icelake-client",
      "icelake-server", "tigerlake",       "rocketlake", "sapphirerapids", "emeraldrapids",
      "graniterapids",  "graniterapids-d", "znver4",     "znver5"};
  constexpr std::array<string_view, 17> kV3Cpus = {
      "haswell",   "broadwell",   "skylake",   "alderlake",   "raptorlake",   "meteorlake",
      "arrowlake", "arrowlake-s", "lunarlake", "pantherlake", "sierraforest", "grandridge",
      "znver1",    "znver2",      "znver3",    "bdver4",      "core-avx2"};
  constexpr std::array<string_view, 16> kV2Cpus = {
      "nehalem",  "westmere",      "sandybridge", "ivybridge", "silvermont", "slm",
      "goldmont", "goldmont-plus", "tremont",     "corei7",    "corei7-avx", "core-avx-i",
      "btver2",   "bdver1",        "bdver2",      "bdver3"};
  constexpr std::array<string_view, 9> kBaseCpus = {
      "k8", "opteron", "athlon64", "athlon-fx", "core2", "nocona", "bonnell", "atom", "btver1"};
  if (among(cpu, kV4Cpus)) return kV4;
  if (among(cpu, kV3Cpus)) return kV3;
  if (among(cpu, kV2Cpus)) return kV2;
  if (among(cpu, kBaseCpus)) return "x86-64";
  known = false;
  return kV4;
}

// The highest level a target("...") argument list needs and the item that needs it;
// level "" when it names no x86 feature (Arm targets such as "+sve", tune=, no-*, default).
struct Need {
  std::string level;
  bool known = true;  // false: an unknown arch= CPU name, taken to need x86-64-v4
};

Need target_need(string_view args) {
  std::string items;
  for (char c : args) {
    if (c != '"' && c != '(' && c != ')') items += c;
  }
  Need need;
  std::stringstream in(items);
  for (std::string item; std::getline(in, item, ',');) {
    const string_view f = trim(item);
    string_view level;
    bool known = true;
    if (starts_with(f, "arch=") && !starts_with(f, "arch=armv")) {
      level = cpu_level(f.substr(5), known);
    } else if (!starts_with(f, "arch=")) {
      level = feature_level(f);
    }
    if (!level.empty() && isa_level_rank(std::string(level)) > isa_level_rank(need.level)) {
      need = {std::string(level), known};
    }
  }
  return need;
}

// ---------------------------------------------------------------------------------------------
// Rules.

struct Scan {
  const std::string& language;
  const std::string from_arch;  // normalized; "" when unknown
  const std::string to_arch;
  const Platform& to;
  Issues& issues;
};

// An x86 construct needing `need`: an issue on a non-x86 judge, or on an x86 judge of a lower
// level. A judge that reports no arch, or an x86 judge that reports no level, is not screened.
void level_issue(const Scan& s, int line, const std::string& construct, const Need& need) {
  if (s.to_arch.empty() || need.level.empty()) return;
  const std::string unknown = need.known ? "" : " (unknown CPU name, taken to need the highest)";
  if (s.to_arch != "x86_64") {
    s.issues.add("isa_level", line,
                 construct + " is x86 (" + need.level + unknown + "); the judge is " + s.to_arch);
    return;
  }
  const int judge = isa_level_rank(s.to.isa_level);
  if (judge < 0 || isa_level_rank(need.level) <= judge) return;
  s.issues.add("isa_level", line,
               construct + " needs " + need.level + unknown + "; the judge is " + s.to.isa_level);
}

// -march=<cpu> and -m<feature> build tokens. -march=native and -mtune/-mcpu are portable: the
// judge builds for its own CPU.
void check_build_tokens(const Scan& s, const std::vector<std::string>& tokens) {
  for (const std::string& joined : tokens) {
    std::stringstream words(joined);
    for (std::string t; words >> t;) {
      if (starts_with(t, "-march=")) {
        const string_view cpu = string_view(t).substr(7);
        if (cpu == "native") continue;
        if (starts_with(cpu, "armv")) {
          if (!s.to_arch.empty() && s.to_arch != "aarch64") {
            s.issues.add("isa_level", 0, t + " is an Arm target; the judge is " + s.to_arch);
          }
          continue;
        }
        Need need;
        need.level = cpu_level(cpu, need.known);
        level_issue(s, 0, t, need);
      } else if (starts_with(t, "-m") && !starts_with(t, "-mno-")) {
        level_issue(s, 0, t, Need{std::string(feature_level(string_view(t).substr(2)))});
      }
    }
  }
}

// target("...") attributes and pragmas (target_clones is another identifier: it dispatches at
// run time, so it is fine).
void check_target_attributes(const Scan& s, const Source& src, const std::vector<Ident>& ids) {
  for (const Ident& id : ids) {
    if (id.name != "target" || next_char(src.code, id.offset + id.name.size()) != '(') continue;
    const std::size_t open = src.code.find('(', id.offset);
    const string_view args =
        string_view(src.code).substr(open, matching_paren(src.code, open) - open);
    const unsigned tags = src.tags_at(id.offset);
    if (args.find('"') == string_view::npos || (tags & kDead)) continue;
    if ((tags & kX86) && s.to_arch != "x86_64") continue;
    level_issue(s, src.line_of(id.offset), "target" + std::string(args), target_need(args));
  }
}

// x86 and Arm intrinsics headers on a judge of another arch.
void check_arch_headers(const Scan& s, const Source& src) {
  if (s.to_arch.empty()) return;
  for (int line = 1; line <= static_cast<int>(src.directive.size()); ++line) {
    if (src.directive[line - 1] != "include") continue;
    const unsigned tags = src.tags[line - 1];
    const std::string header(included_header(split_directive(src.line_text(line)).second));
    if (s.to_arch != "x86_64" && among(header, kX86Headers) && !(tags & (kX86 | kDead))) {
      s.issues.add("x86_intrinsics", line,
                   "#include <" + header + ">: x86 intrinsics header; the judge is " + s.to_arch);
    }
    if (s.to_arch != "aarch64" && among(header, kArmHeaders) && !(tags & (kArm | kDead))) {
      s.issues.add("arm_intrinsics", line,
                   "#include <" + header + ">: Arm intrinsics header; the judge is " + s.to_arch);
    }
  }
}

// x86 and Arm intrinsics, builtins and vector types in code (and #define bodies).
void check_arch_intrinsics(const Scan& s, const Source& src, const std::vector<Ident>& ids) {
  if (s.to_arch.empty()) return;
  for (const Ident& id : ids) {
    const int line = src.line_of(id.offset);
    const std::string& d = src.directive[line - 1];
    const unsigned tags = src.tags[line - 1];
    if ((!d.empty() && d != "define") || (tags & kDead)) continue;
    const std::string name(id.name);
    if (s.to_arch != "x86_64" && !(tags & kX86) && x86_intrinsic(id.name)) {
      s.issues.add("x86_intrinsics", line, name + ": x86 intrinsic; the judge is " + s.to_arch);
    }
    const bool call = next_char(src.code, id.offset + id.name.size()) == '(';
    if (s.to_arch != "aarch64" && !(tags & kArm) && arm_intrinsic(id.name, call)) {
      s.issues.add("arm_intrinsics", line,
                   name + ": Arm NEON/SVE intrinsic; the judge is " + s.to_arch);
    }
  }
}

// GPU vendor needs of one HIP construct at `line` ("amd" or "nvidia"), unless vendor-guarded.
void vendor_issue(const Scan& s, const Source& src, int line, const std::string& vendor,
                  const std::string& construct) {
  if (src.tags[line - 1] & (kVendor | kDead)) return;
  if (has_vendor(s.to, vendor)) return;
  const std::string guard =
      vendor == "amd" ? "__HIP_PLATFORM_AMD__/__AMDGCN__" : "__HIP_PLATFORM_NVIDIA__/__CUDA_ARCH__";
  s.issues.add("gpu_vendor_only", line,
               construct + " needs an " + (vendor == "amd" ? "AMD" : "NVIDIA") +
                   " GPU (not guarded by " + guard + "); " + gpus_text(s.to));
}

// Inline assembly. CPU asm needs the recording judge's arch (unless an arch guard encloses
// it); in CUDA/HIP device code it is PTX or GCN: a CUDA answer needs NVIDIA anyway (the
// language rule), a HIP answer's needs the vendor its text is for.
void check_inline_asm(const Scan& s, const Source& src, const std::vector<Ident>& ids) {
  const bool gpu = s.language == "cuda" || s.language == "hip";
  const auto device =
      gpu ? device_bodies(ids, src.code) : std::vector<std::pair<std::size_t, std::size_t>>{};
  for (std::size_t at : asm_statements(ids, src.code)) {
    const int line = src.line_of(at);
    const unsigned tags = src.tags[line - 1];
    if ((tags & (kDead | kArch)) || empty_asm_template(src, at)) continue;
    if (gpu && (inside(device, at) || (tags & kVendor))) {
      if (s.language == "hip") {
        const bool ptx = ptx_asm(src, at);
        vendor_issue(s, src, line, ptx ? "nvidia" : "amd",
                     ptx ? "inline PTX (asm in device code)" : "inline GCN asm in device code");
      }
      continue;
    }
    if (s.from_arch.empty() || s.to_arch.empty() || s.from_arch == s.to_arch) continue;
    std::size_t end = at;
    while (end < src.code.size() && is_ident_char(src.code[end])) ++end;
    s.issues.add("inline_asm", line,
                 "inline assembly (" + src.code.substr(at, end - at) + ") recorded on " +
                     s.from_arch + "; the judge is " + s.to_arch);
  }
}

bool amd_only_header(string_view h) {
  constexpr std::array<string_view, 9> kPrefixes = {
      "rocblas",        "rocprim", "rocwmma",   "rocfft",
      "rocsparse",      "rocrand", "rocsolver", "hipcub/backend/rocprim",
      "hip/amd_detail/"};
  return std::any_of(kPrefixes.begin(), kPrefixes.end(),
                     [&](string_view p) { return starts_with(h, p); });
}

bool nvidia_only_header(string_view h) {
  constexpr std::array<string_view, 14> kPrefixes = {"cuda.h",
                                                     "cuda_runtime",
                                                     "cuda_fp16.h",
                                                     "cuda_bf16.h",
                                                     "cuComplex.h",
                                                     "mma.h",
                                                     "cublas",
                                                     "cufft",
                                                     "cusparse",
                                                     "curand",
                                                     "cusolver",
                                                     "cub/",
                                                     "cooperative_groups",
                                                     "nvrtc.h"};
  return std::any_of(kPrefixes.begin(), kPrefixes.end(),
                     [&](string_view p) { return starts_with(h, p); });
}

bool amd_only_name(string_view n) {
  return starts_with(n, "__builtin_amdgcn_") || starts_with(n, "__ockl_") ||
         starts_with(n, "__ocml_") || starts_with(n, "hipExt");
}

// cuda* runtime calls and types, CUDA libraries' names (cublasDgemm, curand_init), __nv_*.
bool nvidia_only_name(string_view n) {
  if (starts_with(n, "__nv_") || starts_with(n, "__nvvm_")) return true;
  constexpr std::array<string_view, 6> kPrefixes = {"cuda",     "cublas", "cufft",
                                                    "cusparse", "curand", "cusolver"};
  for (string_view p : kPrefixes) {
    if (starts_with(n, p) && n.size() > p.size() &&
        ((n[p.size()] >= 'A' && n[p.size()] <= 'Z') || n[p.size()] == '_')) {
      return true;
    }
  }
  return false;
}

// HIP code that compiles for one GPU vendor only, outside that vendor's guard.
void check_hip_vendor_code(const Scan& s, const Source& src, const std::vector<Ident>& ids) {
  for (int line = 1; line <= static_cast<int>(src.directive.size()); ++line) {
    if (src.directive[line - 1] != "include") continue;
    const string_view h = included_header(split_directive(src.line_text(line)).second);
    const std::string construct = "#include <" + std::string(h) + ">";
    if (amd_only_header(h)) vendor_issue(s, src, line, "amd", construct);
    if (nvidia_only_header(h)) vendor_issue(s, src, line, "nvidia", construct);
  }
  for (const Ident& id : ids) {
    const int line = src.line_of(id.offset);
    const std::string& d = src.directive[line - 1];
    if (!d.empty() && d != "define") continue;
    if (amd_only_name(id.name)) vendor_issue(s, src, line, "amd", std::string(id.name));
    if (nvidia_only_name(id.name)) vendor_issue(s, src, line, "nvidia", std::string(id.name));
  }
}

// The language itself: CUDA needs an NVIDIA GPU, HIP a GPU of either vendor.
void check_gpu_language(const Scan& s) {
  if (s.language == "cuda" && !has_vendor(s.to, "nvidia")) {
    s.issues.add("gpu_vendor_only", 0, "CUDA needs an NVIDIA GPU; " + gpus_text(s.to));
  }
  if (s.language == "hip" && s.to.gpu_vendors.empty()) {
    s.issues.add("gpu_vendor_only", 0, "HIP needs an AMD or NVIDIA GPU; " + gpus_text(s.to));
  }
}

void check_c_source(const Scan& s, const std::string& text) {
  const Source src = read_source(text);
  const std::vector<Ident> ids = identifiers(src.code);
  check_arch_headers(s, src);
  check_arch_intrinsics(s, src, ids);
  check_inline_asm(s, src, ids);
  check_target_attributes(s, src, ids);
  if (s.language == "hip" && !s.to.gpu_vendors.empty()) check_hip_vendor_code(s, src, ids);
}

}  // namespace

std::vector<PortabilityIssue> portability_issues(const std::string& language,
                                                 const std::string& source,
                                                 const std::vector<std::string>& build_tokens,
                                                 const Platform& from, const Platform& to) {
  Issues issues;
  const std::string lang = lower(language);
  const Scan scan{lang, normal_arch(from.arch), normal_arch(to.arch), to, issues};
  check_gpu_language(scan);
  check_build_tokens(scan, build_tokens);
  // Python is interpreted and Fortran has no inline asm or intrinsics headers: their sources
  // have no rule but the build tokens'.
  if (lang != "python" && lang != "fortran") check_c_source(scan, source);
  return issues.take();
}

std::string x86_isa_level(const std::string& cpuinfo_flags) {
  std::set<std::string> flags;
  std::stringstream in(cpuinfo_flags);
  for (std::string f; in >> f;) flags.insert(f);
  const auto all = [&](std::initializer_list<const char*> names) {
    return std::all_of(names.begin(), names.end(), [&](const char* n) { return flags.count(n); });
  };
  const bool v2 = all({"cx16", "lahf_lm", "popcnt", "sse4_1", "sse4_2", "ssse3"});
  const bool v3 = v2 && all({"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "movbe", "xsave"}) &&
                  (flags.count("abm") || flags.count("lzcnt"));
  const bool v4 = v3 && all({"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"});
  return v4 ? "x86-64-v4" : v3 ? "x86-64-v3" : v2 ? "x86-64-v2" : "x86-64";
}

std::string cpuinfo_flags(const std::string& cpuinfo) {
  std::stringstream in(cpuinfo);
  for (std::string line; std::getline(in, line);) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    if (trim(string_view(line).substr(0, colon)) == "flags") {
      return std::string(trim(string_view(line).substr(colon + 1)));
    }
  }
  return "";
}

int isa_level_rank(const std::string& level) {
  constexpr std::array<string_view, 4> kLevels = {"x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"};
  const auto it = std::find(kLevels.begin(), kLevels.end(), level);
  return it == kLevels.end() ? -1 : static_cast<int>(it - kLevels.begin());
}

}  // namespace hpcab
