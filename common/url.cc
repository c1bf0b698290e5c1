#include "common/url.h"

#include <algorithm>
#include <string_view>

namespace hpcab {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// Splits host[:port] (or [v6][:port]) into `u`; an error text, or "".
std::string split_authority(const std::string& authority, Url& u) {
  std::string port_text;
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string::npos) return "unterminated IPv6 address";
    u.host = authority.substr(1, close - 1);
    const std::string after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return "junk after the IPv6 address";
      port_text = after.substr(1);
      if (port_text.empty()) return "empty port";
    }
  } else {
    const std::size_t colon = authority.find(':');
    u.host = authority.substr(0, colon);
    if (colon != std::string::npos) {
      port_text = authority.substr(colon + 1);
      if (port_text.empty()) return "empty port";
    }
  }
  if (u.host.empty()) return "missing host";
  if (port_text.empty()) port_text = u.tls ? "443" : "80";
  if (port_text.size() > 5 ||
      !std::all_of(port_text.begin(), port_text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return "port is not a number";
  const int port = std::stoi(port_text);
  if (port < 1 || port > 65535) return "port out of range";
  u.port = std::to_string(port);
  return "";
}

}  // namespace

std::string Url::origin() const { return (tls ? "https://" : "http://") + authority; }

std::string Url::target() const { return query.empty() ? path : path + "?" + query; }

Result<Url> parse_url(const std::string& url) {
  auto bad = [&url](const std::string& why) {
    return Error{"bad URL '" + url + "': " + why + " (expected http[s]://host[:port][/path])"};
  };
  Url out;
  std::string_view scheme = "http://";
  if (lower(url.substr(0, 8)) == "https://") {
    scheme = "https://";
    out.tls = true;
  } else if (url.size() < scheme.size() || lower(url.substr(0, scheme.size())) != scheme) {
    return bad("only http:// and https:// URLs are supported");
  }
  for (unsigned char c : url) {
    if (c <= 0x20 || c == 0x7f) return bad("spaces and control characters are not allowed");
  }
  if (url.find('#') != std::string::npos) return bad("fragments are not allowed");
  const std::string rest = url.substr(scheme.size());
  const std::size_t authority_end = rest.find_first_of("/?");
  out.authority = rest.substr(0, authority_end);
  if (out.authority.find('@') != std::string::npos) return bad("user information is not allowed");
  const std::string target = authority_end == std::string::npos ? "" : rest.substr(authority_end);
  const std::size_t q = target.find('?');
  out.path = target.substr(0, q);
  if (out.path.empty()) out.path = "/";
  if (q != std::string::npos) out.query = target.substr(q + 1);
  if (std::string why = split_authority(out.authority, out); !why.empty()) return bad(why);
  return out;
}

std::string percent_encode(std::string_view s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace hpcab
