// End to end: a Python arm (LANGUAGE=python) of the built-in numba-jit on machine-learning
// kernels, run by the harness daemon against a real judge: every episode ends submitted with an
// ok verdict, and the judge recorded Python submissions by numba-jit: reference.py rebound to
// numba.njit where Numba compiles it (relu, elu), the NumPy reference unchanged where it does
// not (softmax's keepdims reductions).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "harness/arm.h"
#include "harness/builtin.h"
#include "harness/daemon.h"
#include "harness/episode_db.h"
#include "tests/judge/judge_process.h"

namespace hpcab::harness {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using judge::test::Judge;
using judge::test::slurp;

const std::string kMl = std::string(HPCAB_SOURCE_DIR) + "/corpus/machine_learning/";

TEST(PythonArmE2E, NumbaJitArmOnMlKernelsEndsOkWithPythonSubmissions) {
  if (std::system("/usr/bin/python3 -c 'import numba' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 has no numba";
  }
  std::string tmpl = (fs::temp_directory_path() / "hpcab-python-arm-XXXXXX").string();
  const fs::path dir = mkdtemp(tmpl.data());
  // The machine-learning track is credited against NumPy; no reported baselines, one hidden
  // variant: the grades stay short.
  Judge j(json{{"report_baselines", ""}, {"hidden_variants", 1}, {"submit_fuzzed_configs", 0}});
  std::ofstream(dir / "arm.env") << "NAME=py-numba\nKERNELS=relu,elu,softmax\nLANGUAGE=python\n"
                                    "AGENT=numba-jit\nSUBMISSION_POLICY=single\n"
                                    "WALL_BUDGET_S=300\nJUDGE_URLS="
                                 << j.url() << "\nSTATE_DB=" << (dir / "harness.db").string()
                                 << "\n";
  auto arm = load_arm(dir / "arm.env");
  ASSERT_TRUE(arm) << arm.error().message;
  EXPECT_EQ(arm->language, "python");

  std::ostringstream log;
  DaemonOptions o;
  o.workspace_root = dir / "ws";
  o.tool_path = std::string(HPCAB_BINARY_DIR) + "/hpcab-tool";
  o.corpus_dir = default_corpus_dir();
  o.term_grace_s = 0.5;
  o.judge_timeout_s = 20;
  o.log = &log;
  auto run = run_arm(*arm, o);
  ASSERT_TRUE(run) << run.error().message << "\n" << log.str();

  auto db = EpisodeDb::open((dir / "harness.db").string());
  ASSERT_TRUE(db);
  auto rows = (*db)->list("py-numba");
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 3u) << log.str();
  auto store = j.store();
  std::map<std::string, std::string> sources;
  for (const auto& r : *rows) {
    EXPECT_EQ(r.exit_reason, "submitted") << r.kernel << "\n" << log.str();
    EXPECT_EQ(r.final_verdict, "ok") << r.kernel << "\n" << log.str();
    ASSERT_TRUE(r.final_submission_id.has_value()) << r.kernel;
    auto rec = store->get_submission(*r.final_submission_id);
    ASSERT_TRUE(rec.ok() && rec->has_value()) << r.kernel;
    const auto& s = **rec;
    EXPECT_EQ(s.kernel, r.kernel);
    EXPECT_EQ(s.language, "python") << r.kernel;
    EXPECT_EQ(s.optimizer, "numba-jit") << r.kernel;
    EXPECT_EQ(s.route, "submit") << r.kernel;
    EXPECT_EQ(s.verdict, "ok") << r.kernel << ": " << s.detail;
    sources[r.kernel] = s.source;
  }
  for (const char* k : {"relu", "elu"}) {
    EXPECT_EQ(sources[k], numba_jit_module(slurp(kMl + k + "/reference.py"), k)) << k;
  }
  EXPECT_EQ(sources["softmax"], slurp(kMl + "softmax/reference.py"));
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace
}  // namespace hpcab::harness
