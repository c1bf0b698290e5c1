// End to end: `hpcab-harness experiment` derives a treatment arm from a
// control of built-in optimizers (identity vs autopar-gcc), runs both against a real judge, and
// `hpcab report compare EXPERIMENT` reports the intervention's efficacy from their databases
// without pairing flags. Also: the real hpcab-tool refuses a tool outside HPCAB_TOOLS.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/judge/judge_process.h"

namespace hpcab::harness {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using judge::test::Judge;
using judge::test::slurp;

const std::string kBin = HPCAB_BINARY_DIR;

using Shell = judge::test::ShellResult;
constexpr auto sh = judge::test::run_shell;

bool have(const char* program) {
  return std::system((std::string("command -v ") + program + " >/dev/null 2>&1").c_str()) == 0;
}

// The judge's state folder, from its command line (--state-dir), where judge.db lives.
fs::path judge_db(const Judge& j) {
  std::ifstream in("/proc/" + std::to_string(j.pid()) + "/cmdline", std::ios::binary);
  std::string all(std::istreambuf_iterator<char>(in), {});
  std::vector<std::string> args;
  for (size_t b = 0, e; b < all.size(); b = e + 1) {
    e = all.find('\0', b);
    if (e == std::string::npos) e = all.size();
    args.push_back(all.substr(b, e - b));
  }
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--state-dir") return fs::path(args[i + 1]) / "judge.db";
  }
  return {};
}

class TempRoot {
 public:
  TempRoot() {
    std::string t = (fs::temp_directory_path() / "hpcab-experiment-e2e-XXXXXX").string();
    path_ = mkdtemp(t.data());
  }
  ~TempRoot() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

TEST(ExperimentE2E, IdentityVsAutoparGccRunsAndCompareFindsThePair) {
  if (!have("gcc")) GTEST_SKIP() << "gcc not installed (autopar-gcc needs it)";
  TempRoot root;
  const fs::path shared = root.path() / "shared";
  fs::create_directories(shared / "libraries");
  // The sandbox's unprivileged uid must be able to reach the libraries.
  for (const fs::path& p : {root.path(), shared, shared / "libraries"}) {
    fs::permissions(p, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
  }
  // input_mode any: identity submits source, autopar a library. outside_cpu_ns as in
  // builtin_e2e_test (a loaded machine's libgomp worker).
  Judge judge(
      json{{"shared_dir", shared.string()}, {"input_mode", "any"}, {"outside_cpu_ns", 20e6}});
  const fs::path db = judge_db(judge);
  ASSERT_FALSE(db.empty());

  const fs::path control = root.path() / "arms" / "ctl.env";
  fs::create_directories(control.parent_path());
  std::ofstream(control) << "NAME=exp-ctl\nKERNELS=tsvc_2_s000,tsvc_2_s111\nAGENT=identity\n"
                         << "JUDGE_URLS=" << judge.url() << "\nWORKERS=1\nWALL_BUDGET_S=600\n"
                         << "STATE_DB=" << (root.path() / "harness.db").string() << "\n"
                         << "LIBRARY_DIR=" << (shared / "libraries").string() << "\n";
  const fs::path out = root.path() / "exp";
  const std::string base = kBin + "/hpcab-harness experiment " + control.string() +
                           " --vary AGENT=autopar-gcc --out " + out.string() + " --workspaces " +
                           (root.path() / "ws").string() + " --judge-db " + db.string();

  // --dry-run: the plan, nothing written or run.
  Shell dry = sh(base + " --dry-run");
  ASSERT_EQ(dry.code, 0) << dry.out;
  EXPECT_NE(dry.out.find("treatment exp-ctl.agent-autopar-gcc: AGENT=autopar-gcc"),
            std::string::npos)
      << dry.out;
  EXPECT_NE(dry.out.find("builtin autopar-gcc"), std::string::npos);
  EXPECT_FALSE(fs::exists(out));

  Shell run = sh(base + " --quiet");
  ASSERT_EQ(run.code, 0) << run.out << judge.log();
  const json e = json::parse(slurp(out / "experiment.json"));
  EXPECT_EQ(e["control"]["arm"], "exp-ctl");
  EXPECT_EQ(e["treatments"][0]["arm"], "exp-ctl.agent-autopar-gcc");
  EXPECT_EQ(e["treatments"][0]["vary"]["value"], "autopar-gcc");
  const std::string treatment_arm = slurp(out / "exp-ctl.agent-autopar-gcc.env");
  EXPECT_NE(treatment_arm.find("AGENT=autopar-gcc\n"), std::string::npos);
  EXPECT_NE(run.out.find("hpcab report compare " + (out / "experiment.json").string()),
            std::string::npos)
      << run.out;

  // Both arms ran to an end in the one episode database.
  for (const std::string& arm :
       {control.string(), (out / "exp-ctl.agent-autopar-gcc.env").string()}) {
    Shell st = sh(kBin + "/hpcab-harness status " + arm + " --brief");
    EXPECT_EQ(st.code, 0) << st.out;
    EXPECT_NE(st.out.find(": done 2 |"), std::string::npos) << st.out;
  }

  // No --control or --treatment: the experiment record names the pair and the databases.
  Shell cmp = sh(kBin + "/hpcab report compare " + (out / "experiment.json").string());
  ASSERT_EQ(cmp.code, 0) << cmp.out;
  EXPECT_NE(cmp.out.find("experiment exp-ctl.experiment: control exp-ctl; "
                         "exp-ctl.agent-autopar-gcc (AGENT=autopar-gcc)"),
            std::string::npos)
      << cmp.out;
  EXPECT_NE(cmp.out.find("exp-ctl.agent-autopar-gcc vs exp-ctl: 2 pairs"), std::string::npos)
      << cmp.out;
  // identity resubmits the reference: both of its episodes are solved.
  EXPECT_NE(cmp.out.find("solved: 2 -> "), std::string::npos) << cmp.out;
  EXPECT_NE(cmp.out.find("speedup ratio on "), std::string::npos) << cmp.out;

  std::cout << cmp.out;  // the report, for the log
  // From the record to the figures: the experiment's arms' observations, then the figures of
  // exactly those two arms.
  const fs::path figs = root.path() / "figures";
  Shell fig = sh(kBin + "/hpcab report figures " + (out / "experiment.json").string() + " --out " +
                 figs.string());
  ASSERT_EQ(fig.code, 0) << fig.out;
  EXPECT_TRUE(fs::exists(figs / "observations.csv")) << fig.out;
  EXPECT_TRUE(fs::exists(figs / "candidate_history.svg")) << fig.out;
  json counted = json::parse(slurp(figs / "figures.json"));
  ASSERT_EQ(counted["arms"].size(), 2u) << counted.dump();
  std::set<std::string> arms;
  for (const auto& a : counted["arms"]) {
    arms.insert(a["arm"].get<std::string>());
    EXPECT_EQ(a["episodes"], 2) << counted.dump();
  }
  EXPECT_EQ(arms, (std::set<std::string>{"exp-ctl", "exp-ctl.agent-autopar-gcc"}));
  // A record without a judge database says why instead of comparing without speedups.
  json no_db = e;
  no_db["judge_dbs"] = json::array();
  std::ofstream(root.path() / "nodb.json") << no_db.dump();
  Shell bad = sh(kBin + "/hpcab report compare " + (root.path() / "nodb.json").string());
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("no judge database"), std::string::npos) << bad.out;
}

TEST(ExperimentE2E, ToolOutsideHpcabToolsIsRefusedBeforeAnythingIsSent) {
  TempRoot root;
  std::ofstream(root.path() / "k.c") << "void f(void) {}\n";
  // Port 1: nothing listens, so any call that got through would fail differently (exit 3).
  const std::string env =
      "env -i PATH=/usr/bin:/bin JUDGE_URL=http://127.0.0.1:1 KERNEL=k "
      "HPCAB_OUTAGE_WAIT_S=0 HPCAB_TOOLS=";
  const std::string tool = kBin + "/hpcab-tool";
  const std::string file = (root.path() / "k.c").string();
  Shell score = sh(env + "task,baseline,submit " + tool + " score " + file);
  EXPECT_EQ(score.code, 6) << score.out;
  EXPECT_NE(score.out.find("tool 'score' is not available in this arm"), std::string::npos)
      << score.out;
  Shell profile = sh(env + "task,score " + tool + " profile " + file);
  EXPECT_EQ(profile.code, 6) << profile.out;
  EXPECT_NE(profile.out.find("tool 'profile' is not available in this arm"), std::string::npos)
      << profile.out;
  Shell builtin = sh(env + "task,score " + tool + " builtin identity");
  EXPECT_EQ(builtin.code, 6) << builtin.out;  // the built-ins submit
  Shell bad = sh(env + "task,nope " + tool + " task");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("unknown tool 'nope'"), std::string::npos) << bad.out;
  // An allowed tool goes through to the (absent) judge: exit 3, unreachable.
  Shell allowed = sh(env + "task,submit " + tool + " task");
  EXPECT_EQ(allowed.code, 3) << allowed.out;
}

}  // namespace
}  // namespace hpcab::harness
