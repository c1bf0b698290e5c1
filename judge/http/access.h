// Access control: optional bearer tokens with two roles, read from files.
//
// Roles: an agent token may use the grading routes (/task, /baseline, /score, /submit, /oracle,
// /metrics); an admin token may use those, /admin/* and the results page (/, /results,
// /results/*). With no token file configured the judge is open (as the original Python judge),
// results page included, except /admin/*, which needs an admin token file and is otherwise
// disabled, never open. With token files but no admin token file the results page is disabled
// too (agents must not read each other's sources). GET /health is always open (load balancers,
// `hpcab demo`).
//
// Tokens are kept only as SHA-256 digests and compared with CRYPTO_memcmp against every known
// digest, so neither the time taken nor the token's length tells a caller how close it came.
// A token is never logged, stored in the database or echoed in a response.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "judge/http/server.h"

namespace hpcab::judge {

enum class Role { kNone, kAgent, kAdmin };

// Reads a token file: one token per line, '#' starts a comment line, blank lines are ignored,
// surrounding spaces are trimmed. Refused (with a message naming the file and the fix): a file
// that cannot be read, is not a regular file, is readable or writable by group or others (as
// ssh refuses a private key), holds a token that is not an RFC 6750 b64token or is shorter than
// kMinTokenLength, or holds no token at all.
Result<std::vector<std::string>> read_token_file(const std::string& path);

// Refuses a secret file (a TLS private key) that others may read; group read is allowed (the
// Debian convention is 0640 root:ssl-cert).
Status check_private_file(const std::string& path, const std::string& what);

inline constexpr std::size_t kMinTokenLength = 16;

class Access {
 public:
  // Empty paths: that role has no tokens. Errors are startup errors (see read_token_file).
  static Result<Access> load(const std::string& agent_tokens_file,
                             const std::string& admin_tokens_file);
  // Tokens given directly (tests): as if read from files, an empty list standing for an unset
  // file.
  static Access from_tokens(const std::vector<std::string>& agent,
                            const std::vector<std::string>& admin);

  // Any token file configured: every route but /health needs a token.
  bool enabled() const { return enabled_; }
  bool admin_enabled() const { return admin_enabled_; }

  // The role of an `Authorization` header value ("Bearer <token>"); kNone when absent, not a
  // bearer credential, or unknown. Constant time in the number of known tokens.
  Role role_of(const std::string& authorization) const;

  // The access decision for one request, before routing: nullopt to proceed, else the 401, 403
  // or 404 to answer. `path` is the decoded path ("/admin/submissions").
  std::optional<HttpResponse> check(const std::string& path,
                                    const std::map<std::string, std::string>& headers) const;

 private:
  using Digest = std::array<unsigned char, 32>;
  std::vector<std::pair<Digest, Role>> tokens_;
  bool enabled_ = false;
  bool admin_enabled_ = false;
};

// /admin and everything below it.
bool is_admin_path(const std::string& path);
// The results page: "/", "/results" and everything below /results.
bool is_results_path(const std::string& path);

}  // namespace hpcab::judge
