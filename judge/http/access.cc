#include "judge/http/access.h"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string_view>

#include "judge/http/http_errors.h"

namespace hpcab::judge {
namespace {

constexpr char kRealm[] = "Bearer realm=\"hpcab-judge\"";

std::string octal_mode(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

// Opens `path` for reading and checks it is a regular file owned by us (or root) that nobody
// else may access beyond `allowed` permission bits. The checks run on the open descriptor, so
// the file checked is the file read.
Result<int> open_private(const std::string& path, const std::string& what, mode_t allowed) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Error{"cannot read " + what + " " + path + ": " + std::strerror(errno)};
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Error{what + " " + path + " is not a regular file"};
  }
  const mode_t extra = st.st_mode & 077 & ~allowed;
  if (extra != 0) {
    ::close(fd);
    return Error{what + " " + path + " has mode " + octal_mode(st.st_mode) +
                 ", which lets other users read or change it; refusing to start. Run: chmod " +
                 (allowed == 0 ? "600 " : "640 ") + path};
  }
  if (st.st_uid != geteuid() && st.st_uid != 0) {
    ::close(fd);
    return Error{what + " " + path + " is owned by uid " + std::to_string(st.st_uid) +
                 ", neither this user nor root; refusing to start"};
  }
  return fd;
}

bool is_b64token(std::string_view t) {
  // RFC 6750 §2.1: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
  std::size_t i = 0;
  for (; i < t.size(); ++i) {
    const char c = t[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("-._~+/").find(c) != std::string_view::npos;
    if (!ok) break;
  }
  if (i == 0) return false;
  for (; i < t.size(); ++i) {
    if (t[i] != '=') return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

HttpResponse unauthorized(const std::string& message, const std::string& challenge) {
  return error_response(
      ApiError{ErrorCode::kUnauthorized, message, nullptr, 0, {{"WWW-Authenticate", challenge}}});
}

}  // namespace

Result<std::vector<std::string>> read_token_file(const std::string& path) {
  const std::string what = "token file";
  auto fd = open_private(path, what, 0);
  if (!fd) return fd.error();
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(*fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = std::strerror(errno);
      ::close(*fd);
      return Error{"cannot read " + what + " " + path + ": " + why};
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > (1u << 20)) {
      ::close(*fd);
      return Error{what + " " + path + " is larger than 1 MiB; is it the right file?"};
    }
  }
  ::close(*fd);

  std::vector<std::string> tokens;
  std::istringstream lines(text);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const std::string_view t = trim(line);
    if (t.empty() || t.front() == '#') continue;
    // The token itself is never quoted in a message: the log may be less private than the file.
    const std::string where = what + " " + path + " line " + std::to_string(number);
    if (!is_b64token(t)) {
      return Error{where +
                   ": not a bearer token (letters, digits and -._~+/ only, then optional '='); "
                   "generate one with: openssl rand -hex 32"};
    }
    if (t.size() < kMinTokenLength) {
      return Error{where + ": token shorter than " + std::to_string(kMinTokenLength) +
                   " characters; generate one with: openssl rand -hex 32"};
    }
    tokens.emplace_back(t);
  }
  if (tokens.empty()) {
    return Error{what + " " + path +
                 " holds no token (one per line; '#' comments); nobody could use the judge"};
  }
  return tokens;
}

Status check_private_file(const std::string& path, const std::string& what) {
  auto fd = open_private(path, what, S_IRGRP);
  if (!fd) return fd.error();
  ::close(*fd);
  return Ok{};
}

Result<Access> Access::load(const std::string& agent_tokens_file,
                            const std::string& admin_tokens_file) {
  std::vector<std::string> agent, admin;
  if (!agent_tokens_file.empty()) {
    auto t = read_token_file(agent_tokens_file);
    if (!t) return Error{"agent_tokens_file: " + t.error().message};
    agent = std::move(*t);
  }
  if (!admin_tokens_file.empty()) {
    auto t = read_token_file(admin_tokens_file);
    if (!t) return Error{"admin_tokens_file: " + t.error().message};
    admin = std::move(*t);
  }
  return from_tokens(agent, admin);
}

Access Access::from_tokens(const std::vector<std::string>& agent,
                           const std::vector<std::string>& admin) {
  Access a;
  auto add = [&a](const std::string& token, Role role) {
    Digest d{};
    SHA256(reinterpret_cast<const unsigned char*>(token.data()), token.size(), d.data());
    a.tokens_.emplace_back(d, role);
  };
  for (const auto& t : agent) add(t, Role::kAgent);
  for (const auto& t : admin) add(t, Role::kAdmin);
  a.enabled_ = !agent.empty() || !admin.empty();
  a.admin_enabled_ = !admin.empty();
  return a;
}

Role Access::role_of(const std::string& authorization) const {
  // "Bearer" is case-insensitive (RFC 9110 §11.1), followed by one or more spaces.
  constexpr std::string_view kScheme = "bearer";
  std::string_view v = trim(authorization);
  if (v.size() <= kScheme.size()) return Role::kNone;
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    const char c = v[i];
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != kScheme[i]) {
      return Role::kNone;
    }
  }
  if (v[kScheme.size()] != ' ') return Role::kNone;
  const std::string_view token = trim(v.substr(kScheme.size()));
  if (token.empty()) return Role::kNone;

  Digest d{};
  SHA256(reinterpret_cast<const unsigned char*>(token.data()), token.size(), d.data());
  // Every digest is compared, matching or not, so the time does not depend on which one
  // matched; the digests have a fixed length, so neither does it depend on the token's.
  int role = static_cast<int>(Role::kNone);
  for (const auto& [known, r] : tokens_) {
    const int match = CRYPTO_memcmp(known.data(), d.data(), d.size()) == 0;
    const int candidate = static_cast<int>(r) * match;
    role = candidate > role ? candidate : role;
  }
  return static_cast<Role>(role);
}

std::optional<HttpResponse> Access::check(const std::string& path,
                                          const std::map<std::string, std::string>& headers) const {
  if (path == "/health") return std::nullopt;
  const bool admin_route = is_admin_path(path);
  // The results page shows every agent's submissions and links their sources: on a judge with
  // tokens only an admin may read it; on an open judge (no token files) it is open like the rest.
  const bool results_route = is_results_path(path);
  const auto disabled = [results_route] {
    return error_response(
        ApiError{ErrorCode::kRouteOff,
                 results_route
                     ? "the results page needs an admin token on a judge with token files: start "
                       "the judge with an admin token file (admin_tokens_file, --admin-tokens-file)"
                     : "the admin routes are disabled: start the judge with an admin token "
                       "file (admin_tokens_file, --admin-tokens-file) to enable them"});
  };
  if (!enabled_) {
    if (admin_route) return disabled();
    return std::nullopt;
  }
  const auto it = headers.find("authorization");
  if (it == headers.end()) {
    return unauthorized("this judge requires a bearer token: send 'Authorization: Bearer <token>'",
                        kRealm);
  }
  const Role role = role_of(it->second);
  if (role == Role::kNone) {
    return unauthorized("the bearer token is not valid for this judge",
                        std::string(kRealm) + ", error=\"invalid_token\"");
  }
  if (admin_route || results_route) {
    if (!admin_enabled_) return disabled();
    if (role != Role::kAdmin) {
      return error_response(
          ApiError{ErrorCode::kForbidden,
                   "this route needs an admin token",
                   nullptr,
                   0,
                   {{"WWW-Authenticate", std::string(kRealm) + ", error=\"insufficient_scope\""}}});
    }
  }
  return std::nullopt;
}

bool is_admin_path(const std::string& path) {
  return path == "/admin" || path.rfind("/admin/", 0) == 0;
}

bool is_results_path(const std::string& path) {
  return path == "/" || path == "/results" || path.rfind("/results/", 0) == 0;
}

}  // namespace hpcab::judge
