// End to end: a harness run against a real judge produces the databases; the real
// `hpcab report extract|summary|compare|figures` commands turn them into the observations CSV,
// the summary and comparison tables and the figures.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/reference_build.h"
#include "harness/arm.h"
#include "harness/daemon.h"
#include "harness/episode_db.h"
#include "harness/plan.h"
#include "report/csv.h"
#include "report/observations.h"
#include "tests/harness/fake_llm.h"
#include "tests/judge/judge_process.h"

namespace hpcab::report {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using judge::test::Judge;
using judge::test::slurp;

const std::string kBin = HPCAB_BINARY_DIR;

using Outcome = judge::test::ShellResult;
constexpr auto run = judge::test::run_shell;

// Reads figures.json (what plot-report.py counted) and checks that every arm's solved count
// equals the summary CSV's; returns the JSON.
json expect_figures_agree(const fs::path& figures_json, const fs::path& summary_csv) {
  const json counted = json::parse(slurp(figures_json), nullptr, false);
  EXPECT_TRUE(counted.is_object()) << figures_json;
  auto summary = parse_csv_table(slurp(summary_csv), summary_csv.string());
  EXPECT_TRUE(summary);
  if (!counted.is_object() || !summary) return counted;
  EXPECT_EQ(counted["arms"].size(), summary->rows.size());
  for (const auto& arm : counted["arms"]) {
    bool found = false;
    for (const auto& row : summary->rows) {
      if (row[summary->column("arm")] != arm["arm"].get<std::string>()) continue;
      found = true;
      EXPECT_EQ(std::to_string(arm["solved"].get<int>()), row[summary->column("solved")])
          << arm.dump();
      EXPECT_EQ(std::to_string(arm["credited"].get<int>()), row[summary->column("speedups")])
          << arm.dump();
      EXPECT_EQ(std::to_string(arm["episodes"].get<int>()), row[summary->column("episodes")]);
    }
    EXPECT_TRUE(found) << arm.dump();
  }
  return counted;
}

TEST(ReportE2E, FromAHarnessRunToTablesAndFigures) {
  std::string tmpl = (fs::temp_directory_path() / "hpcab-report-XXXXXX").string();
  const fs::path dir = mkdtemp(tmpl.data());
  Judge j;
  test::FakeLlm model;
  model.start();

  // Control: the identity optimizer. Treatment: one model call, then the prepared faster
  // solutions of tests/solutions (replay).
  std::ofstream(dir / "llm.py") << R"PY(
import json, os, urllib.request
req = urllib.request.Request(os.environ["MODEL_URL"] + "/v1/chat/completions",
    data=json.dumps({"model": "m", "messages": [{"role": "user", "content": "go"}]}).encode(),
    headers={"Content-Type": "application/json"})
urllib.request.urlopen(req, timeout=30).read()
)PY";
  const fs::path db = dir / "harness.db";
  auto write_arm = [&](const std::string& name, const std::string& body) {
    fs::path p = dir / (name + ".env");
    std::ofstream(p) << "NAME=" << name << "\nKERNELS=jacobi_2d,tsvc_2_s000\nWALL_BUDGET_S=300\n"
                     << "JUDGE_URLS=" << j.url() << "\nSTATE_DB=" << db.string() << "\n"
                     << body;
    auto arm = harness::load_arm(p);
    EXPECT_TRUE(arm) << (arm ? "" : arm.error().message);
    return *arm;
  };
  harness::DaemonOptions o;
  o.workspace_root = dir / "ws";
  o.tool_path = kBin + "/hpcab-tool";
  o.corpus_dir = harness::default_corpus_dir();
  auto ctl = write_arm("ctl", "AGENT=identity\n");
  auto trt = write_arm("trt", "AGENT=command\nMODEL=m\nINFERENCE_URLS=" + model.url() +
                                  "\nAGENT_COMMAND=python3 " + (dir / "llm.py").string() +
                                  " && hpcab-tool builtin replay --dir " +
                                  std::string(HPCAB_TEST_SOLUTIONS) + "\n");
  ASSERT_TRUE(harness::run_arm(ctl, o));
  ASSERT_TRUE(harness::run_arm(trt, o));

  // One /score under a control episode's run id after its submit: its history shows both, in
  // the order the judge finished them.
  const std::string ref_c = reference_as_submission(
      slurp(harness::default_corpus_dir() / "loop_level_reasoning/tsvc_2_s000/reference.c"),
      Precision::kFp64);
  auto scored = j.post("/score", {{"kernel", "tsvc_2_s000"},
                                  {"rank", 0},
                                  {"language", "c"},
                                  {"source", ref_c},
                                  {"run_id", "ctl/tsvc_2_s000/0#1"}});
  ASSERT_EQ(scored.status, 200) << scored.body;

  const std::string hpcab = kBin + "/hpcab";
  const fs::path obs = dir / "observations.csv";
  Outcome ex = run(hpcab + " report extract --judge-db " + (j.state() / "judge.db").string() +
                   " --harness-db " + db.string() + " --out " + obs.string());
  ASSERT_EQ(ex.code, 0) << ex.out;
  EXPECT_NE(ex.out.find("ctl: 2 episodes (2 ended), 2 kernels"), std::string::npos) << ex.out;
  EXPECT_NE(ex.out.find("trt: 2 episodes (2 ended), 2 kernels"), std::string::npos) << ex.out;

  auto rows = parse_observations_csv(slurp(obs), obs.string());
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->size(), 4u);
  auto m = model.totals();
  int64_t input = 0, output = 0;
  for (const auto& r : *rows) {
    EXPECT_TRUE(r.solved) << r.arm << " " << r.kernel << " " << r.verdict;
    EXPECT_TRUE(r.speedup.has_value());
    EXPECT_EQ(r.track, r.kernel == "tsvc_2_s000" ? "loop_level_reasoning" : "scientific_computing");
    EXPECT_EQ(r.submissions, 1);
    ASSERT_TRUE(r.submission_id.has_value());
    EXPECT_EQ(r.run_id, r.arm + "/" + r.kernel + "/0#1");
    EXPECT_EQ(r.agent, r.arm == "ctl" ? "identity" : "command");
    if (r.arm == "ctl") {
      EXPECT_EQ(r.input_tokens + r.output_tokens, 0);
    }
    // The fake model reports usage; the built-in optimizer asks no model.
    EXPECT_EQ(r.tokens_source, r.arm == "ctl" ? "none" : "reported") << r.arm;
    input += r.input_tokens;
    output += r.output_tokens;
    // One submission: the best is the final; the history lists it (and the /score above).
    EXPECT_EQ(r.best_submission_id, r.submission_id);
    EXPECT_EQ(r.best_speedup, r.speedup);
    const bool scored_here = r.arm == "ctl" && r.kernel == "tsvc_2_s000";
    ASSERT_EQ(r.history.size(), scored_here ? 2u : 1u) << format_history(r.history);
    EXPECT_EQ(r.history[0], (Candidate{1, "submit", "ok", r.speedup})) << format_history(r.history);
    if (scored_here) {
      EXPECT_EQ(r.history[1].route, "score");
      EXPECT_EQ(r.history[1].verdict, "ok");
      EXPECT_TRUE(r.history[1].speedup.has_value());
    }
  }
  EXPECT_EQ(input, m.input);
  EXPECT_EQ(output, m.output);

  Outcome su =
      run(hpcab + " report summary " + obs.string() + " --out " + (dir / "summary.csv").string() +
          " --resamples 1000 --by track --breakdown-out " + (dir / "breakdown.csv").string());
  ASSERT_EQ(su.code, 0) << su.out;
  EXPECT_NE(su.out.find("answer per episode: its final submission"), std::string::npos) << su.out;
  EXPECT_NE(su.out.find("kernels 2, episodes 2, solved 2 (100.0%)"), std::string::npos) << su.out;
  EXPECT_NE(su.out.find("suite score "), std::string::npos) << su.out;
  EXPECT_NE(su.out.find("ctl by track:"), std::string::npos) << su.out;
  auto breakdown = parse_csv_table(slurp(dir / "breakdown.csv"), "breakdown.csv");
  ASSERT_TRUE(breakdown);
  // Per arm: 2 tracks, 2 dwarfs, 1 or 2 levels; every kernel once per dimension.
  int track_rows = 0;
  for (const auto& row : breakdown->rows) {
    if (row[breakdown->column("by")] == "track") {
      ++track_rows;
      EXPECT_EQ(row[breakdown->column("episodes")], "1");
    }
  }
  EXPECT_EQ(track_rows, 4);
  Outcome best = run(hpcab + " report summary " + obs.string() + " --pick best --resamples 100");
  ASSERT_EQ(best.code, 0) << best.out;
  EXPECT_NE(best.out.find("answer per episode: its best submission"), std::string::npos);
  Outcome bad_pick = run(hpcab + " report summary " + obs.string() + " --pick max");
  EXPECT_NE(bad_pick.code, 0);
  EXPECT_NE(bad_pick.out.find("--pick"), std::string::npos) << bad_pick.out;
  EXPECT_EQ(run(hpcab + " report summary " + obs.string() + " --by model").code, 2);
  auto summary = parse_csv_table(slurp(dir / "summary.csv"), "summary.csv");
  ASSERT_TRUE(summary);
  ASSERT_EQ(summary->rows.size(), 2u);
  EXPECT_EQ(summary->rows[0][summary->column("arm")], "ctl");
  EXPECT_EQ(summary->rows[1][summary->column("input_tokens")], std::to_string(m.input));

  Outcome co = run(hpcab + " report compare " + obs.string() +
                   " --control ctl --treatment trt --out " + (dir / "compare.csv").string());
  ASSERT_EQ(co.code, 0) << co.out;
  EXPECT_NE(co.out.find("trt vs ctl: 2 pairs"), std::string::npos) << co.out;
  EXPECT_NE(co.out.find("no interval below 6 pairs"), std::string::npos) << co.out;
  auto cmp = parse_csv_table(slurp(dir / "compare.csv"), "compare.csv");
  ASSERT_TRUE(cmp);
  ASSERT_EQ(cmp->rows.size(), 1u);
  EXPECT_EQ(cmp->rows[0][cmp->column("pairs")], "2");
  EXPECT_EQ(cmp->rows[0][cmp->column("speedup_pairs")], "2");
  EXPECT_EQ(cmp->rows[0][cmp->column("speedup_ratio_ci_lo")], "");
  Outcome bad = run(hpcab + " report compare " + obs.string() + " --control nope --treatment trt");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("arm 'nope' is not in the observations (arms: ctl, trt)"),
            std::string::npos)
      << bad.out;

  Outcome fig = run(hpcab + " report figures " + obs.string() + " --out " + (dir / "fig").string());
  ASSERT_EQ(fig.code, 0) << fig.out;
  for (const char* name : {"speedup_by_arm", "spend_by_arm", "speedup_vs_cost", "token_breakdown",
                           "candidate_history"}) {
    const fs::path base = dir / "fig" / name;
    EXPECT_NE(slurp(base.string() + ".svg").find("<svg"), std::string::npos) << name;
    EXPECT_EQ(slurp(base.string() + ".png").substr(1, 3), "PNG") << name;
    auto table = parse_csv_table(slurp(base.string() + ".csv"), name);
    ASSERT_TRUE(table) << name;
    EXPECT_FALSE(table->rows.empty()) << name;
  }
  auto tokens = parse_csv_table(slurp((dir / "fig" / "token_breakdown.csv").string()), "t");
  EXPECT_EQ(tokens->rows[1][tokens->column("input_tokens")], std::to_string(m.input));
  auto history = parse_csv_table(slurp((dir / "fig" / "candidate_history.csv").string()), "h");
  ASSERT_TRUE(history);
  EXPECT_EQ(history->rows.size(), 5u);  // 4 submits and the /score
  expect_figures_agree(dir / "fig" / "figures.json", dir / "summary.csv");

  // The judge's results page shows each run's submissions in order.
  auto page = j.get("/results");
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<table id=\"runs\">"), std::string::npos);
  EXPECT_NE(page.body.find(">ctl/tsvc_2_s000/0#1</td>"), std::string::npos);
  fs::remove_all(dir);
}

// The figures and the summary count "solved" by one rule. An episode whose
// final grade is ok but suspect (no credited speedup) is solved in both, and the figure says
// how many of the solved have a credited speedup.
TEST(ReportE2E, FiguresAndSummaryAgreeOnSolvedWithASuspectGrade) {
  std::string tmpl = (fs::temp_directory_path() / "hpcab-report-XXXXXX").string();
  const fs::path dir = mkdtemp(tmpl.data());
  auto ep = [](const std::string& kernel, bool solved, const std::string& speedup, bool suspect) {
    Observation o;
    o.arm = "demo";
    o.kernel = kernel;
    o.agent = "identity";
    o.status = "finished";
    o.attempts = 1;
    o.solved = o.best_solved = solved;
    o.verdict = o.best_verdict = solved ? "ok" : "incorrect";
    if (!speedup.empty()) o.speedup = o.best_speedup = std::stod(speedup);
    o.suspect = suspect;
    o.history = {{1, "score", o.verdict, o.speedup}, {1, "submit", o.verdict, o.speedup}};
    return o;
  };
  const fs::path obs = dir / "observations.csv";
  std::ofstream(obs) << observations_csv(
      {ep("gemm", true, "2.5", false), ep("softmax", true, "", true),  // ok, suspect
       ep("jacobi_2d", true, "0.8", false), ep("tsvc_2_s000", false, "", false)});
  const std::string hpcab = kBin + "/hpcab";
  Outcome su = run(hpcab + " report summary " + obs.string() + " --resamples 100 --out " +
                   (dir / "summary.csv").string());
  ASSERT_EQ(su.code, 0) << su.out;
  EXPECT_NE(su.out.find("solved 3 (75.0%)"), std::string::npos) << su.out;
  Outcome fig = run(hpcab + " report figures " + obs.string() + " --out " + (dir / "fig").string());
  ASSERT_EQ(fig.code, 0) << fig.out;
  const json counted = expect_figures_agree(dir / "fig" / "figures.json", dir / "summary.csv");
  ASSERT_EQ(counted["arms"].size(), 1u);
  EXPECT_EQ(counted["arms"][0]["solved"], 3);
  EXPECT_EQ(counted["arms"][0]["credited"], 2);
  EXPECT_EQ(counted["pick"], "final");
  // The figure says so in words, and its speedup axis reads in multiples (0.75x, 1x, 2x...).
  const std::string svg = slurp(dir / "fig" / "speedup_by_arm.svg");
  EXPECT_NE(svg.find("3/4 solved"), std::string::npos);
  EXPECT_NE(svg.find("(2 credited)"), std::string::npos);
  EXPECT_NE(svg.find("1×"), std::string::npos);
  EXPECT_NE(svg.find("2×"), std::string::npos);
  EXPECT_EQ(svg.find("10^"), std::string::npos);
  fs::remove_all(dir);
}

// `extract` counts as unsolved only episodes whose agent ran; an episode the
// infrastructure ended before any grade (infra_failed), or that never ran to an end, is left
// out of the observations and counted on the arm's line instead, so an outage cannot rewrite an
// arm's success rate.
TEST(ReportE2E, ExtractLeavesOutEpisodesThatNeverReachedAGrade) {
  std::string tmpl = (fs::temp_directory_path() / "hpcab-report-XXXXXX").string();
  const fs::path dir = mkdtemp(tmpl.data());
  const fs::path db_path = dir / "harness.db";
  {
    std::ofstream(dir / "x.env") << "NAME=x\nKERNELS=tsvc_2_s000,tsvc_2_s111,tsvc_2_s212,tsvc_2_"
                                    "s231,tsvc_2_s271,tsvc_2_s311\n"
                                 << "AGENT=identity\nSTATE_DB=" << db_path.string() << "\n";
    auto arm = harness::load_arm(dir / "x.env");
    ASSERT_TRUE(arm) << arm.error().message;
    auto db = harness::EpisodeDb::open(db_path.string());
    ASSERT_TRUE(db);
    ASSERT_TRUE((*db)->enqueue(harness::plan_episodes(*arm)));
    const auto pin = harness::pin_worker(*arm, 0);
    auto take = [&] {
      auto c = (*db)->claim("x", pin, 1.0);
      EXPECT_TRUE(c && *c);
      return (**c).id;
    };
    ASSERT_TRUE((*db)->finish(take(), {"no_submission", 0, {}, ""}, 2.0));  // ran: unsolved
    ASSERT_TRUE((*db)->fail(take(), {"crash", 7, {}, ""}, 2.0));            // ran: unsolved
    ASSERT_TRUE((*db)->infra_fail(take(), {"judge_unreachable", -1, {}, ""}, 2.0));  // left out
    ASSERT_TRUE((*db)->fail(take(), {"task_unavailable", -1, {}, ""}, 2.0));         // never ran
    take();                                                                          // running
    // tsvc_2_s311 stays queued.
  }
  const fs::path obs = dir / "observations.csv";
  Outcome ex = run(kBin + "/hpcab report extract --harness-db " + db_path.string() + " --out " +
                   obs.string());
  ASSERT_EQ(ex.code, 0) << ex.out;
  EXPECT_NE(ex.out.find("x: 2 episodes (2 ended), 2 kernels, 0 solved; excluded 4 that never "
                        "reached a grade: 1 infrastructure, 3 not run"),
            std::string::npos)
      << ex.out;
  auto rows = parse_observations_csv(slurp(obs), obs.string());
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].exit_reason, "no_submission");
  EXPECT_EQ((*rows)[1].exit_reason, "crash");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hpcab::report
