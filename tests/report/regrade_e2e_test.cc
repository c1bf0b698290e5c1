// The regrade path end to end on this host (docs/regrade.md): two real judges whose fingerprints
// differ (B runs on one CPU and names an image), built-in optimizer arms against A, `hpcab
// regrade` to B stopped halfway and resumed, the table printed and drawn by `hpcab report
// regrade`. Assertions are on the rules (what is skipped, nothing lost or graded twice, the
// correlation equal to scipy's on the same numbers), never on timing values.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/portability.h"
#include "common/reference_build.h"
#include "harness/arm.h"
#include "harness/daemon.h"
#include "tests/judge/judge_process.h"

namespace hpcab::report {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using judge::test::Judge;
using judge::test::slurp;

const std::string kBin = HPCAB_BINARY_DIR;
constexpr auto run = judge::test::run_shell;

// Rows of B's database that a regrade labelled `label` recorded.
int regraded_rows(const fs::path& db, const std::string& label) {
  auto r = run("sqlite3 " + db.string() +
               " \"SELECT count(*) FROM submissions WHERE run_id LIKE '" + label + "/%'\"");
  return r.code == 0 ? std::stoi(r.out) : -1;
}

// scipy.stats.spearmanr over the pairs' geometric-mean speedups, computed from regrade.csv
// exactly as the table defines them; prints "r p n" ("nan nan n" when undefined).
std::string scipy_spearman(const fs::path& csv) {
  const fs::path script = csv.parent_path() / "spearman.py";
  std::ofstream(script) << R"PY(
import csv, math, sys
from collections import defaultdict
import scipy.stats
logs = defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    if r["status"] == "graded" and r["verdict_a"] == "ok" and r["verdict_b"] == "ok" \
            and r["speedup_a"] and r["speedup_b"]:
        logs[(r["kernel"], r["language"])].append((math.log(float(r["speedup_a"])),
                                                   math.log(float(r["speedup_b"]))))
a = [math.exp(sum(x for x, _ in v) / len(v)) for _, v in sorted(logs.items())]
b = [math.exp(sum(y for _, y in v) / len(v)) for _, v in sorted(logs.items())]
if len(a) < 3:
    print("nan nan", len(a))
else:
    s = scipy.stats.spearmanr(a, b)
    print(s.statistic if hasattr(s, "statistic") else s.correlation, s.pvalue, len(a))
)PY";
  return run("/usr/bin/python3 " + script.string() + " " + csv.string()).out;
}

TEST(RegradeE2E, AnArmRegradedOnASecondJudgeResumesAndMatchesScipy) {
  std::string tmpl = (fs::temp_directory_path() / "hpcab-regrade-XXXXXX").string();
  const fs::path dir = mkdtemp(tmpl.data());
  Judge a;
  Judge b(json{{"slots", json::array({json::array({0})})},
               {"image", "localhost/hpcab-judge:e2e"},
               {"image_digest", "sha256:" + std::string(64, 'e')}});
  const json health_b = json::parse(b.get("/health").body);
  ASSERT_NE(json::parse(a.get("/health").body)["machine"], health_b["machine"]);

  // Arms of built-in optimizers on A: identity (the references) and replay (tests/solutions).
  harness::DaemonOptions o;
  o.workspace_root = dir / "ws";
  o.tool_path = kBin + "/hpcab-tool";
  o.corpus_dir = harness::default_corpus_dir();
  for (const auto& [name, agent] :
       {std::pair<std::string, std::string>{"ctl", "AGENT=identity\n"},
        {"trt", "AGENT=replay\nAGENT_COMMAND=" + std::string(HPCAB_TEST_SOLUTIONS) + "\n"}}) {
    const fs::path p = dir / (name + ".env");
    std::ofstream(p) << "NAME=" << name << "\nKERNELS=tsvc_2_s000,jacobi_2d,softmax\n"
                     << "WALL_BUDGET_S=300\nJUDGE_URLS=" << a.url()
                     << "\nSTATE_DB=" << (dir / "harness.db").string() << "\n"
                     << agent;
    auto arm = harness::load_arm(p);
    ASSERT_TRUE(arm) << arm.error().message;
    ASSERT_TRUE(harness::run_arm(*arm, o));
  }
  // An answer that needs AVX-512 (a target attribute on a function it never calls, so A runs
  // it whatever A's CPU): not portable to a B below x86-64-v4.
  const std::string ref = reference_as_submission(
      slurp(harness::default_corpus_dir() / "loop_level_reasoning/tsvc_2_s000/reference.c"),
      Precision::kFp64);
  auto avx = a.post("/submit", {{"kernel", "tsvc_2_s000"},
                                {"language", "c"},
                                {"rank", 0},
                                {"run_id", "manual/tsvc_2_s000/0#1"},
                                {"source", ref + "\n__attribute__((target(\"avx512f\"))) void "
                                                 "unused_avx512(double* x) { x[0] = 1; }\n"}});
  ASSERT_EQ(avx.status, 200) << avx.body;
  ASSERT_EQ(json::parse(avx.body)["verdict"], "ok") << avx.body;
  const json& level = health_b["platform"]["isa_level"];
  const bool b_has_avx512 =
      level.is_string() && isa_level_rank(level.get<std::string>()) >= isa_level_rank("x86-64-v4");

  // Stopped after two resubmissions (exit 3), then resumed to the end (exit 0).
  const fs::path out = dir / "regrade";
  const std::string cmd = kBin + "/hpcab regrade --from " + (a.state() / "judge.db").string() +
                          " --judge " + b.url() + " --out " + out.string() +
                          " --submit-timeout 300";
  auto first = run(cmd + " --max-submits 2");
  ASSERT_EQ(first.code, 3) << first.out;
  EXPECT_EQ(regraded_rows(b.state() / "judge.db", "regrade"), 2);
  auto second = run(cmd);
  ASSERT_EQ(second.code, 0) << second.out;
  EXPECT_NE(second.out.find("Spearman r_s"), std::string::npos) << second.out;
  const json summary = json::parse(slurp(out / "summary.json"));
  // Six episodes with one answer each (best = final), and the manual one.
  EXPECT_EQ(summary["selected"], 7);
  EXPECT_EQ(summary["failed"], 0);
  EXPECT_EQ(summary["skipped"], b_has_avx512 ? 0 : 1);
  EXPECT_EQ(summary["graded"], b_has_avx512 ? 7 : 6);
  const std::string csv = slurp(out / "regrade.csv");
  if (!b_has_avx512) {
    EXPECT_NE(csv.find(",skipped,isa_level,"), std::string::npos) << csv;
  }
  // Nothing graded twice: one row on B per graded answer, and a rerun whose journal lost its
  // last answer gets B's recorded answer back (Idempotency-Key) instead of a new grade.
  const int graded = summary["graded"];
  EXPECT_EQ(regraded_rows(b.state() / "judge.db", "regrade"), graded);
  std::string journal = slurp(out / "journal.jsonl");
  journal.erase(journal.rfind('\n', journal.size() - 2) + 1);
  std::ofstream(out / "journal.jsonl", std::ios::trunc) << journal;
  auto third = run(cmd);
  ASSERT_EQ(third.code, 0) << third.out;
  EXPECT_EQ(regraded_rows(b.state() / "judge.db", "regrade"), graded);

  // The table's correlation is scipy's on the same numbers.
  std::istringstream sp(scipy_spearman(out / "regrade.csv"));
  std::string r_text, p_text;
  int n = 0;
  sp >> r_text >> p_text >> n;
  const json& all = summary["summaries"].back();
  ASSERT_EQ(all["language"], "all");
  if (all["spearman"].is_null()) {
    EXPECT_TRUE(n < 3 || r_text == "nan") << r_text << " " << n;
  } else {
    EXPECT_EQ(all["spearman"]["n"], n);
    EXPECT_NEAR(all["spearman"]["r"].get<double>(), std::stod(r_text), 1e-9);
    EXPECT_NEAR(all["spearman"]["p"].get<double>(), std::stod(p_text), 1e-9);
  }

  auto drawn = run(kBin + "/hpcab report regrade " + out.string());
  ASSERT_EQ(drawn.code, 0) << drawn.out;
  EXPECT_TRUE(fs::exists(out / "regrade-speedups.svg"));
  EXPECT_TRUE(fs::exists(out / "regrade-speedups.png"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hpcab::report
