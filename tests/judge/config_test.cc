// The judge's settings file (judge/config/config.h): every setting read into its field, the
// server block, the two forms of gpu_devices, and the refusals (unknown name, wrong type, a
// value out of range) as errors, never a judge that starts with a setting ignored.
#include "judge/config/config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "common/build_info.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;

JudgeConfig Applied(const std::string& text) {
  JudgeConfig c;
  auto st = apply_config_json(c, text, "test.json");
  EXPECT_TRUE(st.ok()) << text << ": " << (st ? "" : st.error().message);
  return c;
}

bool Refused(const std::string& text) {
  JudgeConfig c;
  return !apply_config_json(c, text, "test.json").ok();
}

TEST(JudgeConfigTest, SettingsAreReadIntoTheirFields) {
  const JudgeConfig c = Applied(
      R"({"port": 9000, "rank": 2, "timed_calls": 7, "alpha": 0.01, "input_mode": "library",
          "score_paired": false, "slots": [[0], [1]], "track_baseline": {"t": "c"},
          "hidden_presets": ["M"], "slot_retries": 4, "memory_bytes": 12345})");
  EXPECT_EQ(c.port, 9000);
  EXPECT_EQ(c.rank, 2);
  EXPECT_EQ(c.timed_calls, 7);
  EXPECT_DOUBLE_EQ(c.alpha, 0.01);
  EXPECT_EQ(c.input_mode, "library");
  EXPECT_FALSE(c.score_paired);
  EXPECT_EQ(c.slots, (std::vector<std::vector<int>>{{0}, {1}}));
  EXPECT_EQ(c.track_baseline.at("t"), "c");
  EXPECT_EQ(c.hidden_presets, std::vector<std::string>{"M"});
  EXPECT_EQ(c.slot_retries, 4);
  EXPECT_EQ(c.memory_bytes, 12345u);
  // What the file leaves out keeps its default.
  EXPECT_EQ(c.warmup_calls, JudgeConfig{}.warmup_calls);
}

TEST(JudgeConfigTest, TheServerBlockAndGpuDevicesInBothForms) {
  const JudgeConfig c =
      Applied(R"({"server": {"max_body_bytes": 2048, "io_threads": 3}, "gpu_devices": "a,b"})");
  EXPECT_EQ(c.server.max_body_bytes, 2048u);
  EXPECT_EQ(c.server.io_threads, 3);
  EXPECT_EQ(c.server.max_header_bytes, ServerLimits{}.max_header_bytes);
  EXPECT_EQ(c.gpu_devices, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(Applied(R"({"gpu_devices": ["x"]})").gpu_devices, std::vector<std::string>{"x"});
}

TEST(JudgeConfigTest, UnknownNamesWrongTypesAndBadFilesAreRefused) {
  EXPECT_TRUE(Refused(R"({"timed_call": 7})"));
  EXPECT_TRUE(Refused(R"({"timed_calls": "seven"})"));
  EXPECT_TRUE(Refused(R"({"server": 1})"));
  EXPECT_TRUE(Refused(R"({"server": {"max_body_bytes": "big"}})"));
  EXPECT_TRUE(Refused(R"({"gpu_devices": 3})"));
  EXPECT_TRUE(Refused("[1]"));
  EXPECT_TRUE(Refused("{not json"));
  EXPECT_FALSE(Refused("{}"));
}

class FinalizeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hpcab-config-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // `text` applied to a config whose state and scratch are private to the test.
  Status Finalized(const std::string& text, JudgeConfig* out = nullptr) {
    JudgeConfig c;
    c.state_dir = (dir_ / "state").string();
    c.scratch_dir = (dir_ / "scratch").string();
    c.gpu_devices = {"none"};
    if (auto st = apply_config_json(c, text, "test.json"); !st) return st;
    auto st = c.finalize(dir_.string());
    if (out) *out = c;
    return st;
  }
  fs::path dir_;
};

TEST_F(FinalizeTest, AnImageDigestIsNormalizedAndABadOneRefused) {
  const std::string hex(64, 'a');
  JudgeConfig c;
  ASSERT_TRUE(Finalized(R"({"image": "localhost/hpcab-judge", "image_digest": ")" +
                            std::string(64, 'A') + "\"}",
                        &c)
                  .ok());
  EXPECT_EQ(c.image_digest, "sha256:" + hex);
  EXPECT_EQ(c.image, "localhost/hpcab-judge");
  ASSERT_TRUE(Finalized(R"({"image_digest": "sha256:)" + hex + "\"}", &c).ok());
  EXPECT_EQ(c.image_digest, "sha256:" + hex);
  for (const std::string& bad :
       std::vector<std::string>{"sha256:abc", "md5:" + hex, hex + "0", std::string(64, 'g')}) {
    EXPECT_FALSE(Finalized(R"({"image_digest": ")" + bad + "\"}").ok()) << bad;
  }
}

TEST_F(FinalizeTest, ThePlatformIsThisHosts) {
  JudgeConfig c;
  ASSERT_TRUE(Finalized("{}", &c).ok());
  EXPECT_FALSE(c.platform.arch.empty());
  if (c.platform.arch == "x86_64") {
    EXPECT_GE(isa_level_rank(c.platform.isa_level), 0);
  }
  EXPECT_TRUE(c.platform.gpu_vendors.empty());  // gpu_devices none
}

TEST(ContainerEnv, PodmansRecordNamesTheImage) {
  const std::string id(64, 'b');
  auto found = parse_containerenv(
      "engine=\"podman-4.3.1\"\nname=\"j\"\nid=\"" + std::string(64, 'c') +
      "\"\nimage=\"localhost/hpcab-judge:" + "latest\"\nimageid=\"" + id + "\"\nrootless=0\n");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->name, "localhost/hpcab-judge:latest");
  EXPECT_EQ(found->digest, "sha256:" + id);
  EXPECT_FALSE(parse_containerenv("engine=\"podman\"\nimage=\"x\"\n").has_value());
  EXPECT_FALSE(parse_containerenv("imageid=\"not-hex\"\n").has_value());
  EXPECT_FALSE(parse_containerenv("").has_value());
}

TEST_F(FinalizeTest, DefaultsAreFilledInAndOutOfRangeValuesRefused) {
  JudgeConfig c;
  ASSERT_TRUE(Finalized("{}", &c).ok());
  EXPECT_EQ(c.db_path, (dir_ / "state" / "judge.db").string());
  EXPECT_EQ(c.runner_path, (dir_ / "hpcab-runner").string());
  ASSERT_EQ(c.slots.size(), 1u);
  EXPECT_FALSE(c.slots.front().empty());
  for (const char* bad :
       {R"({"timed_calls": 2})", R"({"alpha": 0.5})", R"({"input_mode": "any2"})",
        R"({"default_preset": "XXL"})", R"({"slot_retries": 11})", R"({"slot_wait_max": 1})",
        R"({"selfcheck_tolerance": 0})", R"({"min_call_ms": -1})", R"({"slots": [[]]})",
        R"({"track_oracle": {"t": "fortran"}})", R"({"hidden_presets": ["XXL"]})",
        R"({"tls_cert_file": "/x.pem"})", R"({"thread_settle_wall_s": 0.001})"}) {
    EXPECT_FALSE(Finalized(bad).ok()) << bad;
  }
}

TEST_F(FinalizeTest, SecretsInsideWhatAgentsCanReadAreRefused) {
  const std::string key = (dir_ / "scratch" / "k").string();
  EXPECT_FALSE(Finalized(R"({"key_file": ")" + key + "\"}").ok());
  EXPECT_FALSE(Finalized(R"({"agent_tokens_file": ")" + key + "\"}").ok());
  EXPECT_FALSE(Finalized(R"({"state_dir": ")" + (dir_ / "scratch" / "s").string() + "\"}").ok());
}

// The settings table of docs/operations.md ("Config file") lists every key a config file may
// hold and nothing else: a setting added to the reader without its documentation, or a row left
// behind by a removed one, fails here.
TEST(JudgeConfigTest, OperationsDocListsExactlyTheSettings) {
  std::ifstream doc(fs::path(::hpcab::source_dir()) / "docs" / "operations.md");
  ASSERT_TRUE(doc) << "docs/operations.md";
  std::set<std::string> documented;
  const std::regex row(R"(^\| `([a-z_.]+)` \|)");
  bool in_table = false;
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("### ", 0) == 0) in_table = line.rfind("### Config file", 0) == 0;
    std::smatch m;
    if (in_table && std::regex_search(line, m, row)) documented.insert(m[1]);
  }
  std::set<std::string> read;
  for (const auto& name : config_setting_names()) {
    EXPECT_TRUE(read.insert(name).second) << name << " is read twice";
    EXPECT_EQ(documented.count(name), 1u) << name << " is not in docs/operations.md";
  }
  for (const auto& name : documented) {
    EXPECT_EQ(read.count(name), 1u) << name << " is documented but not a setting";
  }
}

}  // namespace
}  // namespace hpcab::judge
