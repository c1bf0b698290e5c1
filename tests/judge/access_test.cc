// Access control (judge/http/access.h): token files, roles, the per-request decision, and the
// configuration checks around secrets. The end-to-end version (a real judge over HTTPS) is
// AccessE2E in judge_e2e_test.cc.
#include "judge/http/access.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "judge/config/config.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;

const std::string kAgent = "agent-token-0123456789abcdef";
const std::string kAdmin = "admin-token-fedcba9876543210";

class AccessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-access-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text, mode_t mode = 0600) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    EXPECT_EQ(chmod(path.c_str(), mode), 0);
    return path;
  }

  fs::path dir_;
};

std::map<std::string, std::string> Bearer(const std::string& token) {
  return {{"authorization", "Bearer " + token}};
}

// The stable code of an error body (docs/api.md "Error codes"); "" when the body has none.
std::string CodeOf(const HttpResponse& r) {
  auto j = nlohmann::json::parse(r.body, nullptr, false);
  return j.is_object() && j.contains("code") ? j["code"].get<std::string>() : "";
}

std::string HeaderOf(const HttpResponse& r, const std::string& name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return "";
}

TEST_F(AccessTest, TokenFileSkipsCommentsBlankLinesAndSpaces) {
  auto tokens = read_token_file(
      Write("agents", "# agents of run 7\n\n  " + kAgent + "  \r\n# retired: x\n" + kAdmin + "\n"));
  ASSERT_TRUE(tokens.ok()) << tokens.error().message;
  EXPECT_EQ(*tokens, (std::vector<std::string>{kAgent, kAdmin}));
}

TEST_F(AccessTest, GroupOrWorldAccessibleTokenFileIsRefused) {
  for (mode_t mode : {0640, 0604, 0660, 0620}) {
    const std::string path = Write("tokens", kAgent + "\n", mode);
    auto tokens = read_token_file(path);
    ASSERT_FALSE(tokens.ok()) << std::oct << mode;
    EXPECT_NE(tokens.error().message.find("chmod 600 " + path), std::string::npos)
        << tokens.error().message;
    EXPECT_NE(tokens.error().message.find("refusing to start"), std::string::npos);
  }
  EXPECT_TRUE(read_token_file(Write("tokens", kAgent + "\n", 0400)).ok());
}

TEST_F(AccessTest, BadTokenFilesAreRefusedWithoutQuotingTheToken) {
  const std::string short_token = "abc123";
  auto short_result = read_token_file(Write("short", "# c\n" + short_token + "\n"));
  ASSERT_FALSE(short_result.ok());
  EXPECT_NE(short_result.error().message.find("line 2"), std::string::npos);
  EXPECT_EQ(short_result.error().message.find(short_token), std::string::npos);

  const std::string spaced = "two words-0123456789abcdef";
  auto bad = read_token_file(Write("spaced", spaced + "\n"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message.find(spaced), std::string::npos) << bad.error().message;

  auto empty = read_token_file(Write("empty", "# nothing yet\n\n"));
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("no token"), std::string::npos);

  EXPECT_FALSE(read_token_file((dir_ / "missing").string()).ok());
  EXPECT_FALSE(read_token_file(dir_.string()).ok());  // a directory
}

TEST_F(AccessTest, LoadNamesTheSettingThatFailed) {
  auto a = Access::load(Write("agents", kAgent + "\n", 0644), "");
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().message.rfind("agent_tokens_file: ", 0), 0u) << a.error().message;
  auto b = Access::load("", Write("admins", "x\n"));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().message.rfind("admin_tokens_file: ", 0), 0u) << b.error().message;
  auto ok = Access::load(Write("agents2", kAgent + "\n"), Write("admins2", kAdmin + "\n"));
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_TRUE(ok->enabled());
  EXPECT_TRUE(ok->admin_enabled());
  EXPECT_EQ(ok->role_of("Bearer " + kAdmin), Role::kAdmin);
}

TEST(AccessRoles, BearerHeaderGivesTheTokensRole) {
  const Access a = Access::from_tokens({kAgent}, {kAdmin});
  EXPECT_EQ(a.role_of("Bearer " + kAgent), Role::kAgent);
  EXPECT_EQ(a.role_of("Bearer " + kAdmin), Role::kAdmin);
  EXPECT_EQ(a.role_of("bearer   " + kAgent + " "), Role::kAgent);  // scheme case, spaces
  EXPECT_EQ(a.role_of("BEARER " + kAgent), Role::kAgent);
  EXPECT_EQ(a.role_of(""), Role::kNone);
  EXPECT_EQ(a.role_of("Bearer"), Role::kNone);
  EXPECT_EQ(a.role_of("Bearer "), Role::kNone);
  EXPECT_EQ(a.role_of(kAgent), Role::kNone);                        // no scheme
  EXPECT_EQ(a.role_of("Basic " + kAgent), Role::kNone);             // another scheme
  EXPECT_EQ(a.role_of("Bearer" + kAgent), Role::kNone);             // no separator
  EXPECT_EQ(a.role_of("Bearer " + kAgent.substr(1)), Role::kNone);  // a prefix or suffix
  EXPECT_EQ(a.role_of("Bearer " + kAgent.substr(0, kAgent.size() - 1)), Role::kNone);
  EXPECT_EQ(a.role_of("Bearer " + kAgent + "x"), Role::kNone);
  EXPECT_EQ(a.role_of("Bearer " + kAgent + " " + kAdmin), Role::kNone);
  // A token in both files counts as the stronger role.
  EXPECT_EQ(Access::from_tokens({kAdmin}, {kAdmin}).role_of("Bearer " + kAdmin), Role::kAdmin);
}

TEST(AccessRoles, MissingOrWrongTokenIs401WithChallenge) {
  const Access a = Access::from_tokens({kAgent}, {kAdmin});
  for (const std::string path : {"/task/gemm", "/score", "/submit", "/metrics", "/nothing",
                                 "/admin/submissions", "/health/x", "/"}) {
    auto none = a.check(path, {});
    ASSERT_TRUE(none.has_value()) << path;
    EXPECT_EQ(none->status, 401) << path;
    EXPECT_EQ(HeaderOf(*none, "WWW-Authenticate"), "Bearer realm=\"hpcab-judge\"");
    EXPECT_EQ(CodeOf(*none), "unauthorized");

    auto wrong = a.check(path, Bearer("not-a-known-token-0123456789"));
    ASSERT_TRUE(wrong.has_value()) << path;
    EXPECT_EQ(wrong->status, 401) << path;
    EXPECT_EQ(CodeOf(*wrong), "unauthorized") << path;
    EXPECT_NE(HeaderOf(*wrong, "WWW-Authenticate").find("error=\"invalid_token\""),
              std::string::npos);
    EXPECT_EQ(wrong->body.find("not-a-known-token"), std::string::npos);
  }
  EXPECT_FALSE(a.check("/health", {}).has_value());  // the one open route
}

TEST(AccessRoles, AgentTokenOnAdminRouteIs403AdminTokenPasses) {
  const Access a = Access::from_tokens({kAgent}, {kAdmin});
  for (const std::string path :
       {"/task/gemm", "/baseline/gemm", "/score", "/submit", "/oracle", "/metrics"}) {
    EXPECT_FALSE(a.check(path, Bearer(kAgent)).has_value()) << path;
    EXPECT_FALSE(a.check(path, Bearer(kAdmin)).has_value()) << path;
  }
  for (const std::string path : {"/admin/submissions", "/admin/submissions/1", "/admin"}) {
    auto agent = a.check(path, Bearer(kAgent));
    ASSERT_TRUE(agent.has_value()) << path;
    EXPECT_EQ(agent->status, 403) << path;
    EXPECT_EQ(CodeOf(*agent), "forbidden") << path;
    EXPECT_NE(HeaderOf(*agent, "WWW-Authenticate").find("insufficient_scope"), std::string::npos);
    EXPECT_FALSE(a.check(path, Bearer(kAdmin)).has_value()) << path;
  }
}

TEST(AccessRoles, AdminRoutesAreDisabledWithoutAnAdminTokenFile) {
  const Access open;  // no token file at all: the original judge's open API, but no /admin
  EXPECT_FALSE(open.enabled());
  EXPECT_FALSE(open.check("/task/gemm", {}).has_value());
  EXPECT_FALSE(open.check("/submit", {}).has_value());
  auto disabled = open.check("/admin/submissions", {});
  ASSERT_TRUE(disabled.has_value());
  EXPECT_EQ(disabled->status, 404);
  EXPECT_EQ(CodeOf(*disabled), "route_off");

  const Access agents_only = Access::from_tokens({kAgent}, {});
  EXPECT_FALSE(agents_only.admin_enabled());
  auto no_admin = agents_only.check("/admin/submissions", Bearer(kAgent));
  ASSERT_TRUE(no_admin.has_value());
  EXPECT_EQ(no_admin->status, 404);
  EXPECT_EQ(CodeOf(*no_admin), "route_off");
  EXPECT_EQ(agents_only.check("/admin/submissions", {})->status, 401);
}

TEST_F(AccessTest, TlsKeyReadableByOthersIsRefused) {
  EXPECT_TRUE(check_private_file(Write("key.pem", "k", 0600), "TLS private key").ok());
  EXPECT_TRUE(check_private_file(Write("key2.pem", "k", 0640), "TLS private key").ok());
  auto world = check_private_file(Write("key3.pem", "k", 0644), "TLS private key");
  ASSERT_FALSE(world.ok());
  EXPECT_NE(world.error().message.find("TLS private key"), std::string::npos);
}

TEST_F(AccessTest, ConfigRefusesHalfTlsAndSecretsAgentsCanRead) {
  JudgeConfig base;
  base.state_dir = (dir_ / "state").string();
  base.scratch_dir = (dir_ / "scratch").string();
  base.shared_dir = (dir_ / "shared").string();

  JudgeConfig half = base;
  half.tls_cert_file = (dir_ / "cert.pem").string();
  auto st = half.finalize(dir_.string());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("tls_key_file"), std::string::npos);

  JudgeConfig both = base;
  both.tls_cert_file = (dir_ / "cert.pem").string();
  both.tls_key_file = (dir_ / "key.pem").string();
  both.agent_tokens_file = (dir_ / "agents").string();
  EXPECT_TRUE(both.finalize(dir_.string()).ok());

  for (const char* setting : {"agent_tokens_file", "admin_tokens_file", "tls_key_file"}) {
    JudgeConfig c = base;
    const std::string inside_shared = (dir_ / "shared" / "tokens").string();
    if (std::string(setting) == "agent_tokens_file") c.agent_tokens_file = inside_shared;
    if (std::string(setting) == "admin_tokens_file") c.admin_tokens_file = inside_shared;
    if (std::string(setting) == "tls_key_file") {
      c.tls_cert_file = (dir_ / "cert.pem").string();
      c.tls_key_file = inside_shared;
    }
    auto r = c.finalize(dir_.string());
    ASSERT_FALSE(r.ok()) << setting;
    EXPECT_NE(r.error().message.find(setting), std::string::npos) << r.error().message;
  }
}

TEST(AccessConfig, SettingsComeFromJsonAndEnvironment) {
  JudgeConfig c;
  ASSERT_TRUE(apply_config_json(c,
                                R"({"agent_tokens_file": "/etc/a", "admin_tokens_file": "/etc/b",
                                    "tls_cert_file": "/etc/c", "tls_key_file": "/etc/d"})",
                                "test")
                  .ok());
  EXPECT_EQ(c.agent_tokens_file, "/etc/a");
  EXPECT_EQ(c.admin_tokens_file, "/etc/b");
  EXPECT_EQ(c.tls_cert_file, "/etc/c");
  EXPECT_EQ(c.tls_key_file, "/etc/d");
  ASSERT_TRUE(apply_config_env(c, {"HPCAB_AGENT_TOKENS_FILE=/x/a", "HPCAB_ADMIN_TOKENS_FILE=/x/b",
                                   "HPCAB_TLS_CERT_FILE=/x/c", "HPCAB_TLS_KEY_FILE=/x/d"})
                  .ok());
  EXPECT_EQ(c.agent_tokens_file, "/x/a");
  EXPECT_EQ(c.admin_tokens_file, "/x/b");
  EXPECT_EQ(c.tls_cert_file, "/x/c");
  EXPECT_EQ(c.tls_key_file, "/x/d");
}

}  // namespace
}  // namespace hpcab::judge
