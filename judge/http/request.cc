#include "judge/http/request.h"

#include "common/manifest.h"

namespace hpcab::judge {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string url_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      i += 2;
    } else if (s[i] == '+') {
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

RequestTarget split_target(std::string_view target) {
  RequestTarget out;
  const auto q = target.find('?');
  out.path = url_decode(target.substr(0, q));
  if (q == std::string_view::npos) return out;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const auto amp = rest.find('&');
    const std::string_view item = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    if (item.empty()) continue;
    const auto eq = item.find('=');
    out.query[url_decode(item.substr(0, eq))] =
        eq == std::string_view::npos ? "" : url_decode(item.substr(eq + 1));
  }
  return out;
}

bool valid_utf8(std::string_view s, std::size_t* bad_offset) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  std::size_t i = 0;
  auto fail = [&] {
    if (bad_offset) *bad_offset = i;
    return false;
  };
  auto cont = [&](std::size_t k) { return i + k < n && (p[i + k] & 0xC0) == 0x80; };
  while (i < n) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // UTF-16 surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
    } else {
      return fail();
    }
    if (i + 1 >= n || p[i + 1] < lo || p[i + 1] > hi) return fail();
    for (std::size_t k = 2; k < len; ++k) {
      if (!cont(k)) return fail();
    }
    i += len;
  }
  return true;
}

std::optional<int> parse_rank_text(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  int value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');  // at most 999999999: no overflow
  }
  return value;
}

std::optional<int> parse_rank_json(const nlohmann::json& value) {
  if (value.is_number_unsigned() && value.get<uint64_t>() < 1000000000) {
    return static_cast<int>(value.get<uint64_t>());
  }
  if (value.is_string()) return parse_rank_text(value.get_ref<const std::string&>());
  return std::nullopt;  // negative, fractional, 1e400, too large, or not a number
}

bool valid_kernel_name(std::string_view s) { return valid_kernel_key(s); }

Status check_json_depth(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, whatever it is, does not end the string
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        return Error{"body nests JSON arrays/objects deeper than " + std::to_string(max_depth) +
                     " levels"};
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return Ok{};
}

Result<nlohmann::json> parse_json_body(std::string_view text, int max_depth) {
  std::size_t bad = 0;
  if (!valid_utf8(text, &bad)) {
    return Error{"body is not valid UTF-8 (byte " + std::to_string(bad) +
                 "); JSON text must be UTF-8"};
  }
  if (auto depth = check_json_depth(text, max_depth); !depth) return depth.error();
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    return Error{std::string("body is not valid JSON: ") + e.what()};
  }
}

}  // namespace hpcab::judge
