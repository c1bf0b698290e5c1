// Faults of the judge's own machinery, injected for real ("fault attribution"): a
// scratch filesystem that fills up mid-grade (a small tmpfs), a read-only build cache (a
// read-only bind mount), a runner binary that vanished. Each grade must be `judge_error` with
// `harness_fault` and the resource named, never recorded as the candidate's answer, and the
// judge keeps serving. Mounting needs root; without it the tests skip (and fail under CI=true).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <set>
#include <thread>

#include "common/process.h"
#include "tests/judge/judge_process.h"

namespace hpcab::judge::test {
namespace {

const std::string kReference =
    std::string(HPCAB_SOURCE_DIR) + "/tests/solutions/tsvc_2_s000_reference.c";

bool can_mount() { return geteuid() == 0; }

#define REQUIRE_ROOT()                                                                 \
  do {                                                                                 \
    if (!can_mount()) {                                                                \
      const char* ci = std::getenv("CI");                                              \
      if (ci && std::string(ci) == "true") FAIL() << "CI=true: these tests need root"; \
      GTEST_SKIP() << "needs root to mount a tmpfs / a read-only bind mount";          \
    }                                                                                  \
  } while (0)

// A mount undone however the test ends.
class Mounted {
 public:
  Mounted(const std::string& target, bool ok) : target_(target), ok_(ok) {}
  ~Mounted() {
    if (ok_) umount2(target_.c_str(), MNT_DETACH);
  }
  bool ok() const { return ok_; }

 private:
  std::string target_;
  bool ok_;
};

void ExpectJudgeFault(Judge& judge, const json& r, const std::string& resource) {
  EXPECT_EQ(r.value("verdict", ""), "judge_error") << r.dump();
  EXPECT_TRUE(r.value("harness_fault", false)) << r.dump();
  EXPECT_EQ(r.value("fault", ""), resource) << r.dump();
  EXPECT_FALSE(r.contains("submission_id")) << "a judge fault was recorded as an answer";
  EXPECT_TRUE(r["speedup"].is_null());
  // The judge is still there, and counted the fault.
  EXPECT_EQ(judge.get("/health").status, 200);
  const std::string metrics = judge.get("/metrics").body;
  EXPECT_NE(metrics.find("verdict=\"judge_error\""), std::string::npos) << metrics;
}

TEST(JudgeFaultsE2E, ScratchFilesystemFullMidGradeIsTheJudgesFault) {
  REQUIRE_ROOT();
  std::string tmpl = (fs::temp_directory_path() / "hpcab-tmpfs-XXXXXX").string();
  const std::string dir = mkdtemp(tmpl.data());
  // Room for the judge's copies of the runners and the builds, not for one timing part's saved
  // outputs (jacobi_2d at S saves 351 KiB per call and side, 4 calls per part and side here;
  // saved outputs go when their part ends, so a kernel with small outputs never fills it).
  const auto runner = fs::file_size(std::string(HPCAB_BINARY_DIR) + "/hpcab-runner") +
                      fs::file_size(std::string(HPCAB_BINARY_DIR) + "/hpcab-pyrunner");
  const std::string opts = "size=" + std::to_string(runner + (1536 << 10)) + ",mode=0711";
  {
    Mounted tmpfs(dir, mount("tmpfs", dir.c_str(), "tmpfs", 0, opts.c_str()) == 0);
    ASSERT_TRUE(tmpfs.ok()) << "mount tmpfs: " << std::strerror(errno);
    const std::string source =
        std::string(HPCAB_SOURCE_DIR) +
        "/corpus/scientific_computing/structured_grids/jacobi_2d/reference.c";
    {
      // Outputs in memory (the default) are read from the runners, never saved: the same
      // scratch space is plenty.
      Judge judge({{"scratch_dir", dir},
                   {"timed_calls", 8},
                   {"track_baseline", {{"scientific_computing", "c"}}}});
      json r = judge.grade("submit", "jacobi_2d", source);
      EXPECT_EQ(r["verdict"], "ok") << r.dump();
    }
    // Saved outputs (as beyond output_memory_bytes, or where only some calls are checked).
    Judge judge({{"scratch_dir", dir},
                 {"timed_calls", 8},
                 {"output_memory_bytes", 0},
                 {"track_baseline", {{"scientific_computing", "c"}}}});
    json r = judge.grade("submit", "jacobi_2d", source);
    ExpectJudgeFault(judge, r, "scratch");
    // It filled up while a runner saved a call's outputs (the candidate's or the baseline's,
    // whichever came first), the case that used to be charged to the candidate as build_error.
    EXPECT_NE(r.value("detail", "").find("scratch filesystem refused the"), std::string::npos)
        << r.dump();
  }
  std::error_code ec;
  fs::remove(dir, ec);
}

TEST(JudgeFaultsE2E, ReadOnlyBuildCacheIsTheJudgesFault) {
  REQUIRE_ROOT();
  Judge judge;
  const fs::path cache = judge.root() / "state" / "builds";
  fs::create_directories(cache);
  Mounted bind(cache.string(), mount(cache.c_str(), cache.c_str(), nullptr, MS_BIND, nullptr) == 0);
  ASSERT_TRUE(bind.ok()) << std::strerror(errno);
  ASSERT_EQ(mount(nullptr, cache.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr), 0)
      << std::strerror(errno);
  // A source no earlier test built, so the cache must be written.
  const fs::path src = judge.root() / "fresh.c";
  std::ofstream(src) << slurp(kReference) << "\n/* " << std::random_device{}() << " */\n";
  json r = judge.grade("submit", "tsvc_2_s000", src.string());
  ExpectJudgeFault(judge, r, "state");
}

TEST(JudgeFaultsE2E, MissingRunnerIsTheJudgesFault) {
  Judge judge;
  int removed = 0;
  for (const auto& e : fs::directory_iterator(judge.root() / "scratch")) {
    const fs::path bin = e.path() / "bin" / "hpcab-runner";
    if (fs::exists(bin)) removed += fs::remove(bin) ? 1 : 0;
  }
  ASSERT_EQ(removed, 1);
  json r = judge.grade("submit", "tsvc_2_s000", kReference);
  ExpectJudgeFault(judge, r, "runner");
}

// Processes that keep every CPU busy until the object goes: the "other process using the slot's
// CPUs" the slot watch must see.
class Spinners {
 public:
  explicit Spinners(unsigned n) {
    for (unsigned i = 0; i < n; ++i) {
      pid_t pid = fork();
      if (pid == 0) {
        volatile unsigned long x = 0;
        for (;;) x = x + 1;
      }
      if (pid > 0) pids_.push_back(pid);
    }
  }
  ~Spinners() {
    for (pid_t p : pids_) {
      kill(p, SIGKILL);
      waitpid(p, nullptr, 0);
    }
  }
  std::size_t size() const { return pids_.size(); }

 private:
  std::vector<pid_t> pids_;
};

TEST(JudgeFaultsE2E, BusySlotIsTheJudgesFaultNotTheSubmissions) {
  Judge judge({{"slot_wait_max", 0.10},
               {"slot_steal_max", 0},
               {"slot_retries", 0},
               {"track_baseline", {{"scientific_computing", "c"}}}});
  // One spinner per CPU beside an OpenMP gemm: its threads share every CPU with a spinner, so
  // they wait about half of their runnable time, far past the 10 % limit on any host. (A serial
  // runner may find its CPU cleared of spinners by the scheduler, and calls of microseconds
  // barely wait, a woken runner preempting a spinner at once: neither is disturbed.)
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  Spinners busy(cpus);
  ASSERT_EQ(busy.size(), cpus);
  json r = judge.grade("score", "gemm", std::string(HPCAB_TEST_SOLUTIONS) + "/gemm.c");
  ExpectJudgeFault(judge, r, "slot");
  const std::string metrics = judge.get("/metrics").body;
  EXPECT_NE(metrics.find("hpcab_judge_faults_total{kind=\"slot\"} 1"), std::string::npos)
      << metrics;
}

// `hpcab-judge selfcheck` with the test judges' settings merged with `settings`: its exit code
// and the JSON report it printed on stdout.
std::pair<int, json> run_selfcheck(const json& settings) {
  std::string tmpl = (fs::temp_directory_path() / "hpcab-selfcheck-XXXXXX").string();
  const fs::path root = mkdtemp(tmpl.data());
  fs::permissions(root, fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);
  std::ofstream(root / "config.json") << test_judge_settings(settings).dump();
  ProcessOptions o;
  o.argv = {"/bin/sh", "-c",
            std::string(HPCAB_BINARY_DIR) + "/hpcab-judge selfcheck --config " +
                (root / "config.json").string() + " --state-dir " + (root / "state").string() +
                " --scratch-dir " + (root / "scratch").string() + " > " +
                (root / "report.json").string() + " 2> " + (root / "log").string()};
  o.timeout_s = 600;
  auto r = run_process(o);
  EXPECT_TRUE(r.ok());
  const std::string report = slurp(root / "report.json");
  const std::string log = slurp(root / "log");
  fs::remove_all(root);
  json j = json::parse(report, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << report << log;
  return {r.ok() ? r->exit_code : -1, j.is_discarded() ? json::object() : j};
}

std::string outcome_of(const json& report, const std::string& check) {
  for (const auto& c : report.value("checks", json::array())) {
    if (c.value("check", "") == check) return c.value("outcome", "");
  }
  return "(absent)";
}

TEST(SelfcheckE2E, ABusyHostIsUnfit) {
  Spinners busy(std::max(1u, std::thread::hardware_concurrency()));
  // Timed sizes of 1 ms calls: the self-check's gemm cases at preset S would take seconds each.
  auto [rc, report] = run_selfcheck(
      {{"slot_wait_max", 0.10}, {"slot_steal_max", 0}, {"slot_retries", 0}, {"min_call_ms", 1}});
  EXPECT_EQ(rc, 1) << report.dump();
  // Which serial case waits depends on where the scheduler puts the spinners (a runner alone on
  // its CPU is not disturbed, and is credited), but the parallel case has nowhere to go: its
  // threads share every CPU with a spinner. It never passes: either the slot watch refuses to
  // measure on the busy CPUs (failed), or, where its samples miss the spinners, the paired credit
  // disagrees with the direct timing (misjudged); both make the host unfit.
  if (std::thread::hardware_concurrency() >= 2) {
    const std::string parallel = outcome_of(report, "parallel");
    EXPECT_TRUE(parallel == "failed" || parallel == "misjudged") << report.dump();
  }
}

// At start, with a forced wrong setting: 1 MB/s of memory bandwidth makes every honest reference
// look faster than memory allows, so the host is reported unfit, the memory-bound case suspect.
TEST(SelfcheckE2E, AtStartAWrongBandwidthSettingIsReportedUnfitInHealth) {
  Judge judge(
      json{{"selfcheck_at_start", true}, {"memory_bandwidth_gbs", 0.001}, {"min_call_ms", 1}});
  json sc;
  for (int i = 0; i < 600; ++i) {
    sc = json::parse(judge.get("/health").body).value("selfcheck", json::object());
    const std::string state = sc.value("state", "");
    if (state == "fit" || state == "unfit" || state == "error") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  ASSERT_TRUE(sc.value("state", "") == "fit" || sc.value("state", "") == "unfit") << sc.dump();
  const json& checks = sc["report"]["checks"];
  ASSERT_GE(checks.size(), 2u) << sc.dump();
  const std::set<std::string> outcomes = {"pass", "misjudged", "suspect", "failed", "skipped"};
  for (const auto& c : checks) EXPECT_TRUE(outcomes.count(c.value("outcome", ""))) << c.dump();
  EXPECT_EQ(sc["state"], "unfit") << sc.dump();
  EXPECT_FALSE(sc["report"].value("fit", true));
  EXPECT_EQ(outcome_of(sc["report"], "memory-bound"), "suspect") << sc.dump();
}

}  // namespace
}  // namespace hpcab::judge::test
