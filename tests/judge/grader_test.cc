// The grade pipeline's rules with fakes for every side effect (judge/grade/effects.h): a
// scripted runner that speaks the real line protocol (judge/runner/protocol.h), a compiler, a
// store, a clock, entropy and a scratch filesystem, all in memory. No bubblewrap, no compiler,
// no timing: each verdict path in milliseconds. The real end-to-end suites (judge_e2e,
// adversarial) sit on top of the same stages with the real effects.
#include "judge/grade/grader.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include "common/manifest.h"
#include "judge/config/config.h"
#include "judge/grade/effects.h"
#include "judge/grade/plan.h"
#include "judge/grade/real_effects.h"
#include "judge/grade/record.h"
#include "judge/grade/verdict.h"
#include "judge/host/gpu.h"
#include "judge/runner/protocol.h"
#include "judge/sandbox/affinity.h"

namespace hpcab::judge {
namespace {

namespace proto = runner_protocol;
using json = nlohmann::json;
namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Fakes

class FakeClock : public Clock {
 public:
  double now_unix() override { return 1.7e9; }
  int64_t monotonic_ns() override { return ns_; }
  void pause_us(int us) override { ns_ += std::max(us, 1) * 1000; }
  void advance(int64_t ns) { ns_ += ns; }
  void begin_watch() override {
    ++open_watches;
    ++watches;
  }
  void end_watch() override { --open_watches; }
  bool watch_boosted() const override { return boosted; }

  int open_watches = 0;  // begun and not yet ended
  int watches = 0;
  bool boosted = false;
  // Exchanges the judge times (go, ping) sent outside a watch, and others sent inside one.
  int unwatched_timed = 0;
  int watched_untimed = 0;

 private:
  int64_t ns_ = 1'000'000'000;
};

class FakeEntropy : public Entropy {
 public:
  void fill(void* out, std::size_t n) override {
    auto* p = static_cast<unsigned char*>(out);
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(counter_++ * 37 + 11);
  }

 private:
  unsigned counter_ = 0;
};

class FakeScratch : public ScratchFs {
 public:
  std::optional<Error> make_dir_error;
  int made = 0, removed = 0;
  Result<std::string> make_dir(const std::string& prefix) override {
    if (make_dir_error) return *make_dir_error;
    return "/fake/" + prefix + "-" + std::to_string(made++);
  }
  void remove(const std::string&) override { ++removed; }
  Result<std::string> read(const std::string& path) override { return "text of " + path; }
};

class FakeCompiler : public Compiler {
 public:
  bool submission_compiles = true;
  bool submission_times_out = false;
  std::optional<Error> fails;  // the toolchain itself cannot run
  bool reference_breaks = false;
  std::function<void()> hook;          // runs on every build (a test injects a throw here)
  std::vector<BuildRequest> requests;  // every build asked for, in order
  Result<BuildResult> build(const BuildRequest& r) override {
    requests.push_back(r);
    if (hook) hook();
    if (fails) return *fails;
    BuildResult b;
    b.hash = "hash-" + r.flavor;
    b.library = "lib-" + r.flavor + ".so";
    b.ok =
        r.flavor == "submission" ? submission_compiles && !submission_times_out : !reference_breaks;
    b.timed_out = r.flavor == "submission" && submission_times_out;
    b.log = b.ok ? "" : "kernel.c:1: error: expected ';'";
    return b;
  }
};

class FakeStore : public GradeStore {
 public:
  std::vector<SubmissionRecord> submissions;
  std::vector<ScoreCallRecord> calls;
  std::map<std::string, BaselineSamples> baselines;
  bool record_fails = false;
  Result<int64_t> record_submission(const SubmissionRecord& r) override {
    if (record_fails) return Error{"disk I/O error", Errc::kNoSpace};
    submissions.push_back(r);
    return static_cast<int64_t>(submissions.size());
  }
  Result<int64_t> record_score_call(const ScoreCallRecord& r) override {
    calls.push_back(r);
    return static_cast<int64_t>(calls.size());
  }
  static std::string k(const BaselineKey& key) {
    return key.kernel + "|" + key.precision + "|" + key.sizes_json + "|" + key.baseline;
  }
  Result<std::optional<BaselineSamples>> get_baseline(const BaselineKey& key) override {
    auto it = baselines.find(k(key));
    if (it == baselines.end()) return std::optional<BaselineSamples>();
    return std::optional<BaselineSamples>(it->second);
  }
  Status put_baseline(const BaselineKey& key, const BaselineSamples& s) override {
    baselines[k(key)] = s;
    return Ok{};
  }
  std::map<std::string, StoredCalibration> calibrations;
  Result<std::optional<StoredCalibration>> get_calibration(const CalibrationKey& key) override {
    auto it = calibrations.find(key.kernel + "|" + key.precision);
    if (it == calibrations.end()) return std::optional<StoredCalibration>();
    return std::optional<StoredCalibration>(it->second);
  }
  Status put_calibration(const CalibrationKey& key, const StoredCalibration& c) override {
    calibrations[key.kernel + "|" + key.precision] = c;
    return Ok{};
  }
};

// How one scripted runner behaves. Outputs are 4 doubles derived from the draw's seed, so the
// oracle and an honest candidate agree on every draw and differ between draws.
struct Script {
  int64_t call_ns = 1'000'000;             // what the runner reports per call
  int64_t view_extra_ns = 0;               // how much longer the judge sees each call take
  bool wrong = false;                      // every output off by one
  bool wrong_on_hidden = false;            // off by one on draws with an explicit distribution
  bool nondeterministic = false;           // the rerun of a draw differs
  std::optional<std::string> hello_error;  // "error <fault> <message>" instead of hello
  bool crash_on_go = false;                // segfault during the call
  bool hang_on_go = false;                 // never answers go
  bool oom_on_go = false;                  // allocation failure, then abort
  std::optional<std::string> post_reply;   // a post problem reported by the runner
  std::optional<std::string> go_reply;     // a forged reply to go
  bool io_error_on_save = false;           // the runner cannot save the outputs
  std::vector<std::string>* save_log = nullptr;  // the tags of the calls it saved
  // Outputs in memory: whether the judge may read this runner's memory, the tags it read
  // (in order), a read that fails (the submission unmapped its copy-out), and a layout reply
  // the judge must refuse.
  bool capture = false;
  std::vector<std::string>* capture_log = nullptr;
  bool capture_fails = false;
  bool bad_layout = false;
  int* go_count = nullptr;  // counts the calls it ran
  // Per runner: its saved tags when the judge discarded them (discard_outputs), in order.
  std::vector<std::vector<std::string>>* discard_log = nullptr;
  bool io_confirmed = true;      // ... and the filesystem is really full
  std::string extra_after_call;  // a process left running after the call
  // The CPUs the judge's calling thread may use, recorded at each go and each outputs read.
  std::vector<std::set<int>>* go_cpus = nullptr;
  std::vector<std::set<int>>* outputs_cpus = nullptr;
  bool busy_thread = false;  // a thread that never goes to sleep (and gets a CPU)
  // > 0: that many launches (counted down, shared by the launches of a test) die in
  // bubblewrap's own set-up, before the runner's first line.
  int* dies_before_boot = nullptr;
  // After each call a thread stays runnable this long without getting a CPU (a loaded host),
  // then sleeps.
  int64_t waits_for_cpu_ns = 0;
  int64_t cpu_during_prep_ns = 0;  // a helper computing while the draw is made
  int64_t cpu_on_resume_ns = 0;    // an OpenMP pool woken by SIGCONT going back to sleep
  double ns_per_element = 0;       // > 0: a call costs this times the product of sizes
  // The share of its runnable time the runner waited for a CPU (what sched() reports): another
  // process on the slot's CPUs.
  double runnable_wait = 0;
  // "<name> launch|hello|ping|prep|pause" in order, shared by the scripts of a test.
  std::vector<std::string>* events = nullptr;
  std::string name;
};

class FakeChannel : public RunnerChannel {
 public:
  FakeChannel(Script s, FakeClock* clock, const SymbolTable& sizes)
      : s_(std::move(s)), clock_(clock) {
    if (s_.ns_per_element > 0) {
      double n = 1;
      for (const auto& [k, v] : sizes) n *= static_cast<double>(v);
      s_.call_ns = std::max<int64_t>(1, static_cast<int64_t>(s_.ns_per_element * n));
    }
    if (s_.dies_before_boot && *s_.dies_before_boot > 0) {
      --*s_.dies_before_boot;
      die(0, "bwrap: Can't fork for pid 1: Resource temporarily unavailable\n");
      end_.exit_code = 1;
      note("launch");
      return;
    }
    replies_.push_back(proto::boot_reply());
    replies_.push_back(proto::layout_reply({{"a", 0x7f0000001000, s_.bad_layout ? 16u : 32u}}));
    if (s_.hello_error) {
      replies_.push_back(*s_.hello_error);
    } else {
      replies_.push_back(proto::hello_reply());
    }
    note("launch");
  }
  Status send(const std::string& line) override {
    if (closed_) return Error{"closed", Errc::kClosed};
    const proto::Command c = proto::parse_command(line);
    const bool timed = c.verb == proto::Command::Verb::kGo || c.verb == proto::Command::Verb::kPing;
    if (timed && clock_->open_watches == 0) ++clock_->unwatched_timed;
    if (!timed && clock_->open_watches > 0) ++clock_->watched_untimed;
    if (c.verb == proto::Command::Verb::kPing) note("ping");
    if (c.verb == proto::Command::Verb::kPrep) note("prep");
    switch (c.verb) {
      case proto::Command::Verb::kPrep:
        seed_ = c.seed;
        dist_ = c.dist;
        thread_cpu_ += s_.cpu_during_prep_ns;
        replies_.push_back(proto::ready_reply());
        break;
      case proto::Command::Verb::kGo:
        if (s_.go_count) ++*s_.go_count;
        if (s_.go_cpus) s_.go_cpus->push_back(calling_thread_cpus());
        if (s_.crash_on_go) {
          die(SIGSEGV, "");
        } else if (s_.oom_on_go) {
          die(SIGABRT, std::string(proto::kAllocationFailedMarker) + ": 1000 bytes\n");
        } else if (s_.hang_on_go) {
          hang_ = true;
        } else {
          clock_->advance(s_.call_ns + s_.view_extra_ns);
          ran_ns_ += s_.call_ns;
          replies_.push_back(s_.go_reply.value_or(proto::done_reply(s_.call_ns)));
          pending_ns_ = s_.call_ns;
          returned_ns_ = clock_->monotonic_ns();
        }
        break;
      case proto::Command::Verb::kPost:
        if (c.save && s_.io_error_on_save) {
          replies_.push_back(proto::error_reply(proto::Fault::kIo, "write_npy: No space left"));
          break;
        }
        if (c.save) saved_[c.tag] = make_outputs(c.tag == "again");
        if (c.save && s_.save_log) s_.save_log->push_back(c.tag);
        replies_.push_back(s_.post_reply.value_or(proto::posted_ok_reply()));
        break;
      case proto::Command::Verb::kPing:
        replies_.push_back(proto::pong_reply());
        break;
      case proto::Command::Verb::kQuit:
        closed_ = true;
        break;
      case proto::Command::Verb::kUnknown:
        replies_.push_back(proto::error_reply(proto::Fault::kCommand, "unknown"));
        break;
    }
    return Ok{};
  }
  Result<std::string> receive(double timeout_s) override {
    // A call longer than the judge waits for its reply is a timeout, as for a real runner.
    if (static_cast<double>(pending_ns_) > timeout_s * 1e9) hang_ = true;
    pending_ns_ = 0;
    if (hang_) return Error{"timeout", Errc::kTimeout};
    if (replies_.empty()) return Error{"eof", Errc::kClosed};
    std::string r = replies_.front();
    replies_.pop_front();
    if (r == proto::hello_reply()) note("hello");
    return r;
  }
  void pause() override { note("pause"); }
  void resume() override { thread_cpu_ += s_.cpu_on_resume_ns; }
  ProcessResult finish(double) override { return end_; }
  ProcessResult kill_now() override {
    closed_ = true;
    ProcessResult r;
    r.term_signal = SIGKILL;
    return r;
  }
  bool idle() override { return true; }
  bool alive() override { return !closed_; }
  Result<std::string> extra_processes() override {
    if (calls_seen_++ == 0) return std::string();  // at hello
    return s_.extra_after_call;
  }
  std::vector<ThreadEntry> threads() override {
    // A busy thread runs all the time; one waiting for a CPU is runnable but gets none.
    const int64_t now = clock_->monotonic_ns();
    if (s_.busy_thread) return {ThreadEntry{2, 'R', thread_cpu_ + now}};
    const bool waiting = returned_ns_ > 0 && now - returned_ns_ < s_.waits_for_cpu_ns;
    return {ThreadEntry{2, waiting ? 'R' : 'S', thread_cpu_}};
  }
  Result<std::map<std::string, NdArray>> outputs(const std::string& tag) override {
    if (s_.outputs_cpus) s_.outputs_cpus->push_back(calling_thread_cpus());
    if (unreadable_.count(tag)) return Error{"Bad address", Errc::kFailed};
    auto it = saved_.find(tag);
    if (it == saved_.end()) return Error{"no outputs saved for " + tag, Errc::kNotFound};
    return it->second;
  }
  Status set_layout(const std::vector<proto::OutputSlot>& slots) override {
    if (slots.size() != 1 || slots[0].name != "a" || slots[0].bytes != 32) {
      return Error{"output 'a' is not 32 bytes", Errc::kProtocol};
    }
    return Ok{};
  }
  bool can_capture() override { return s_.capture; }
  void capture(const std::string& tag) override {
    note("capture");
    if (s_.capture_log) s_.capture_log->push_back(tag);
    if (s_.capture_fails) {
      unreadable_.insert(tag);
      return;
    }
    saved_[tag] = make_outputs(tag == "again");
  }
  void recycle(std::map<std::string, NdArray>&& outputs) override {
    (void)outputs;
    note("recycle");
  }
  void discard_outputs() override {
    std::vector<std::string> tags;
    for (const auto& [tag, arrays] : saved_) tags.push_back(tag);
    if (s_.discard_log) s_.discard_log->push_back(tags);
    saved_.clear();
  }
  std::optional<std::string> confirm_io_fault() override {
    if (s_.io_confirmed) return std::string("0 KiB free");
    return std::nullopt;
  }
  SchedTotals sched() override {
    const double w = s_.runnable_wait;
    return {ran_ns_, static_cast<int64_t>(static_cast<double>(ran_ns_) * w / (1 - w))};
  }

 private:
  void note(const std::string& what) {
    if (s_.events) s_.events->push_back(s_.name + " " + what);
  }
  void die(int sig, const std::string& output) {
    closed_ = true;
    end_.term_signal = sig;
    end_.output = output;
  }
  std::map<std::string, NdArray> make_outputs(bool rerun) {
    NdArray a(DType::kFloat64, {4});
    const bool off = s_.wrong || (s_.wrong_on_hidden && dist_ != "auto");
    for (int i = 0; i < 4; ++i) {
      double v = static_cast<double>(seed_ % 1000) + i + (off ? 1 : 0);
      if (rerun && s_.nondeterministic) v += 0.5;
      a.as<double>()[i] = v;
    }
    std::map<std::string, NdArray> out;
    out.emplace("a", std::move(a));
    return out;
  }

  Script s_;
  FakeClock* clock_;
  std::deque<std::string> replies_;
  uint64_t seed_ = 0;
  std::string dist_ = "auto";
  bool closed_ = false, hang_ = false;
  int64_t pending_ns_ = 0;   // the call whose "done" is next
  int64_t returned_ns_ = 0;  // when the last call returned
  ProcessResult end_;
  std::map<std::string, std::map<std::string, NdArray>> saved_;
  std::set<std::string> unreadable_;
  int calls_seen_ = 0;
  int64_t thread_cpu_ = 100;
  int64_t ran_ns_ = 0;  // CPU time of the calls so far
};

// The slot's CPU accounts: each configuration's window (two reads) sees one second of the slot,
// of which the hypervisor stole the next share in `steal` (none once it is empty).
class FakeSlots : public SlotMonitor {
 public:
  std::deque<double> steal;
  int windows = 0;
  CpuAccount account(const std::vector<int>&) override {
    if (reads_++ % 2 == 1) {
      ++windows;
      now_.total_s += 1.0;
      if (!steal.empty()) {
        now_.steal_s += steal.front();
        steal.pop_front();
      }
    }
    return now_;
  }

 private:
  int reads_ = 0;
  CpuAccount now_;
};

class FakeLauncher : public RunnerLauncher {
 public:
  explicit FakeLauncher(FakeClock* clock) : clock_(clock) {}
  Script candidate, baseline, oracle;
  std::map<std::string, Script> by_library;  // a baseline build's own script ("lib-c-autopar.so")
  std::optional<Error> fails;
  std::map<std::string, Error> fails_for;  // a launch in this role fails ("baseline c")
  std::function<void()> hook;              // runs on every launch (a test injects a throw here)
  std::vector<std::string> roles;          // every launch, in order
  std::vector<SymbolTable> sizes;          // ... and its sizes
  std::vector<std::string> libraries;      // ... and its library
  std::vector<std::string> gpu_runtimes;   // ... and its GPU runtime ("" on the CPU)
  std::vector<std::string> residencies;    // ... and its residency
  // Baselines timed alone (calibration, the choice of a baseline): they run in the candidate's
  // role with a library that is not the submission.
  int alone() const {
    int n = 0;
    for (std::size_t i = 0; i < roles.size(); ++i) {
      n += roles[i] == "candidate" && libraries[i] != "lib-submission.so";
    }
    return n;
  }
  Result<std::unique_ptr<RunnerChannel>> launch(const RunnerSpec& spec) override {
    roles.push_back(spec.role);
    libraries.push_back(spec.library);
    gpu_runtimes.push_back(spec.gpu_runtime);
    residencies.push_back(spec.residency);
    if (hook) hook();
    if (fails) return *fails;
    if (auto it = fails_for.find(spec.role); it != fails_for.end()) return it->second;
    // By library, not by role: a baseline measured alone runs in the candidate's role.
    const bool submission = spec.library == "lib-submission.so";
    const Script& s = submission                       ? candidate
                      : spec.role == "oracle"          ? oracle
                      : by_library.count(spec.library) ? by_library.at(spec.library)
                                                       : baseline;
    sizes.push_back(spec.sizes);
    return std::unique_ptr<RunnerChannel>(std::make_unique<FakeChannel>(s, clock_, spec.sizes));
  }

 private:
  FakeClock* clock_;
};

// ---------------------------------------------------------------------------------------------
// Fixture

class GraderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto corpus = load_corpus(std::string(HPCAB_SOURCE_DIR) + "/corpus");
    ASSERT_TRUE(corpus) << corpus.error().message;
    config_.timed_calls = 8;
    config_.slots = {{0}};
    config_.scratch_dir = "/fake";
    config_.memory_bandwidth_gbs = 0;
    config_.min_call_ms = 0;  // the presets' rules; the calibration tests turn it on
    // One C baseline per track and no reported figures: the rules below predate the Python
    // baselines, whose own tests (Python*, Numba*) set the defaults back.
    for (const char* track : kTracks) config_.track_baseline[track] = "c";
    config_.report_baselines = "";
    // The baseline is 2 ms per call, the candidate 1 ms: an honest 2x.
    launcher_.baseline.call_ns = 2'000'000;
    launcher_.oracle.call_ns = 2'000'000;
    corpus_ = std::move(*corpus);
  }
  Grader& grader() {
    if (!grader_) {
      GradeEffects fx{&launcher_, &compiler_, &store_, &clock_, &entropy_, &scratch_, &slots_};
      grader_ = std::make_unique<Grader>(config_, corpus_, fx, "k3y", "fake machine");
    }
    return *grader_;
  }
  json grade(const std::string& route, const std::string& kernel = "tsvc_2_s000") {
    GradeRequest r;
    r.route = route;
    r.kernel = kernel;
    r.source = "void tsvc_2_s000_fp64() {}";
    r.run_id = "run-1";
    return grader().grade(r);
  }

  JudgeConfig config_;
  std::vector<Manifest> corpus_;
  FakeClock clock_;
  FakeEntropy entropy_;
  FakeScratch scratch_;
  FakeCompiler compiler_;
  FakeStore store_;
  FakeLauncher launcher_{&clock_};
  FakeSlots slots_;
  std::unique_ptr<Grader> grader_;
};

// ---------------------------------------------------------------------------------------------
// Verdicts

TEST_F(GraderTest, HonestFasterSubmitIsOkAndCreditedFromPairedSamples) {
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_TRUE(r["correct"].get<bool>());
  EXPECT_TRUE(r["hidden_correct"].get<bool>());
  EXPECT_EQ(r["hidden_passed"], r["hidden_total"]);
  EXPECT_EQ(r["hidden_total"].get<int>(), config_.hidden_variants + 1 + 2);  // + M + 2 timed
  ASSERT_TRUE(r["speedup"].is_number());
  EXPECT_NEAR(r["speedup"].get<double>(), 2.0, 1e-9);
  EXPECT_FALSE(r["harness_fault"].get<bool>());
  EXPECT_EQ(r["configs"].size(), 3u);  // public + 2 hidden timed
  EXPECT_EQ(r["configs"][1]["sizes"], "(hidden)");
  ASSERT_EQ(store_.submissions.size(), 1u);
  EXPECT_EQ(r["submission_id"], 1);
  EXPECT_EQ(store_.submissions[0].verdict, "ok");
  EXPECT_EQ(store_.submissions[0].samples.size(), 6u);  // both sides of 3 configurations
  EXPECT_TRUE(store_.calls.empty());
  EXPECT_EQ(scratch_.removed, scratch_.made);  // the grade's dir is removed
}

TEST_F(GraderTest, ScoreIsPairedByDefaultAndLoggedAsACallNotAnAnswer) {
  launcher_.candidate.call_ns = 1'000'000;
  launcher_.baseline.call_ns = 2'000'000;
  json r = grade("score");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_TRUE(r["hidden_correct"].is_null());
  EXPECT_EQ(r["baseline_protocol"].get<std::string>().rfind("paired", 0), 0u) << r.dump();
  EXPECT_TRUE(r["rules"]["score_paired"].get<bool>());
  EXPECT_NEAR(r["speedup"].get<double>(), 2.0, 1e-9);
  EXPECT_TRUE(store_.submissions.empty());
  EXPECT_EQ(store_.calls.size(), 1u);
  // Every /score times the baseline beside the candidate, in the same session: a baseline
  // runner is launched each time, and no cached samples are read or written.
  for (int i = 0; i < 2; ++i) {
    const auto launches = launcher_.roles.size();
    grade("score");
    const std::vector<std::string> roles(launcher_.roles.begin() + launches, launcher_.roles.end());
    EXPECT_TRUE(std::any_of(roles.begin(), roles.end(), [](const std::string& r) {
      return r.rfind("baseline ", 0) == 0;
    })) << ::testing::PrintToString(roles);
  }
  // The configuration's samples split across the timing processes like /submit's.
  EXPECT_EQ(r["configs"][0]["process_ratios"].size(),
            static_cast<std::size_t>(config_.timing_processes));
}

TEST_F(GraderTest, ScoreUsesCachedBaselineWhenNotPaired) {
  config_.score_paired = false;
  json r = grade("score");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_TRUE(r["hidden_correct"].is_null());
  EXPECT_NE(r["baseline_protocol"].get<std::string>().find("cached"), std::string::npos);
  EXPECT_TRUE(store_.submissions.empty());
  EXPECT_EQ(store_.calls.size(), 1u);
  EXPECT_FALSE(store_.baselines.empty());
  // A second /score reuses the cached samples: no baseline measurement, only the candidate and
  // the oracle that checks it.
  const auto launches = launcher_.roles.size();
  grade("score");
  EXPECT_EQ(std::vector<std::string>(launcher_.roles.begin() + launches, launcher_.roles.end()),
            (std::vector<std::string>{"candidate", "oracle"}));
}

TEST_F(GraderTest, EqualSpeedIsCreditedOne) {
  launcher_.candidate.call_ns = 2'000'000;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok");
  EXPECT_DOUBLE_EQ(r["speedup"].get<double>(), 1.0);
}

TEST_F(GraderTest, ConfirmedDifferenceInsideTheEquivalenceMarginIsCreditedOne) {
  config_.equivalence_margin = 0.02;
  launcher_.candidate.call_ns = 1'980'000;  // 1.0101x: confirmed (every sample faster), tiny
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok");
  EXPECT_DOUBLE_EQ(r["speedup"].get<double>(), 1.0);
  EXPECT_TRUE(r["configs"][0]["within_margin"].get<bool>());
  EXPECT_NEAR(r["configs"][0]["ratio"].get<double>(), 2.0 / 1.98, 1e-9);
  EXPECT_DOUBLE_EQ(r["rules"]["equivalence_margin"].get<double>(), 0.02);
  // An honest clock is never shifted.
  for (const auto& c : r["configs"]) EXPECT_EQ(c["clock_shift_ns"].get<double>(), 0) << c.dump();
}

TEST_F(GraderTest, WithoutTheMarginTheSameDifferenceIsCredited) {
  config_.equivalence_margin = 0;
  launcher_.candidate.call_ns = 1'980'000;
  json r = grade("submit");
  EXPECT_NEAR(r["speedup"].get<double>(), 2.0 / 1.98, 1e-9);
  EXPECT_FALSE(r["configs"][0]["within_margin"].get<bool>());
}

TEST_F(GraderTest, TimedCallsAreSplitAcrossRunnerProcesses) {
  auto candidate_launches = [this] {
    int n = 0;
    for (const auto& role : launcher_.roles) n += role == "candidate";
    return n;
  };
  config_.timing_processes = 1;
  json one = grade("submit");
  const int single = candidate_launches();
  launcher_.roles.clear();
  grader_.reset();
  config_.timing_processes = 2;
  json two = grade("submit");
  // Three timed configurations (public, hidden#1, hidden#2), each now in two processes.
  EXPECT_EQ(candidate_launches() - single, 3);
  EXPECT_EQ(two["rules"]["timing_processes"], 2);
  // Every timed call is still a sample, and the credit is the same.
  EXPECT_EQ(two["configs"][0]["samples"], config_.timed_calls);
  EXPECT_EQ(one["speedup"], two["speedup"]);
  // A difference every process shows is replicated: credited, each process's ratio reported.
  EXPECT_TRUE(two["rules"]["process_replication"].get<bool>());
  for (const auto& c : two["configs"]) {
    EXPECT_FALSE(c["unreplicated"].get<bool>()) << c.dump();
    ASSERT_EQ(c["process_ratios"].size(), 2u) << c.dump();
    for (const auto& x : c["process_ratios"]) EXPECT_NEAR(x.get<double>(), 2.0, 1e-9);
  }
  EXPECT_TRUE(one["configs"][0]["process_ratios"].empty());
}

// The public configuration's first candidate process runs twice as fast, its second as fast as
// the baseline: the pooled samples confirm a speedup that one process alone produced.
class OneFastProcess : public GraderTest {
 protected:
  json grade_with(bool replication) {
    config_.timing_processes = 2;
    config_.timed_calls = 16;
    config_.process_replication = replication;
    grader_.reset();
    int candidate_launches = 0;
    launcher_.hook = [this, &candidate_launches] {
      if (launcher_.libraries.back() != "lib-submission.so") return;
      launcher_.candidate.call_ns = ++candidate_launches == 1 ? 1'000'000 : 2'000'000;
    };
    json r = grade("submit");
    launcher_.hook = nullptr;
    return r;
  }
};

TEST_F(OneFastProcess, AnUnreplicatedDifferenceIsCreditedOne) {
  json r = grade_with(true);
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  const json& pub = r["configs"][0];
  EXPECT_EQ(pub["config"], "public S");
  EXPECT_LT(pub["p_faster"].get<double>(), 0.1) << pub.dump();  // the pooled test confirms
  EXPECT_GT(pub["ratio"].get<double>(), 1.3);
  EXPECT_TRUE(pub["unreplicated"].get<bool>());
  EXPECT_DOUBLE_EQ(pub["credit"].get<double>(), 1.0);
  ASSERT_EQ(pub["process_ratios"].size(), 2u);
  EXPECT_NEAR(pub["process_ratios"][0].get<double>(), 2.0, 1e-9);
  EXPECT_NEAR(pub["process_ratios"][1].get<double>(), 1.0, 1e-9);
  // The other configurations ran as fast as the baseline in both processes.
  EXPECT_DOUBLE_EQ(r["speedup"].get<double>(), 1.0);
}

// Every go and every calibrating ping is watched (Clock::begin_watch: the real clock boosts the
// watching thread so a candidate's spinning pool cannot delay the judge's view of its calls),
// nothing else is, every watch is closed, and the response says whether the boost applied.
TEST_F(GraderTest, CallsAreWatchedAndTheBoostIsReported) {
  json r = grade("submit");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_GT(clock_.watches, 2 * config_.timed_calls);
  EXPECT_EQ(clock_.unwatched_timed, 0);
  EXPECT_EQ(clock_.watched_untimed, 0);
  EXPECT_EQ(clock_.open_watches, 0);
  EXPECT_FALSE(r["rules"]["realtime_observer"].get<bool>());
  clock_.boosted = true;
  json b = grade("submit");
  EXPECT_TRUE(b["rules"]["realtime_observer"].get<bool>());
}

// With several slots, the judge's own work for a configuration (its calls' round trips and
// polling, the comparison of outputs) runs on the CPUs of the slot it holds, not on those of
// another slot's timed calls; the grade's thread gets its own mask back afterwards.
TEST_F(GraderTest, TheJudgesWorkForAConfigurationStaysOnItsSlot) {
  const std::set<int> before = calling_thread_cpus();
  if (before.size() < 2) GTEST_SKIP() << "needs two CPUs";
  const int last = *before.rbegin();
  config_.slots = {{last}};
  std::vector<std::set<int>> go_cpus, outputs_cpus;
  launcher_.candidate.go_cpus = &go_cpus;
  launcher_.candidate.outputs_cpus = &outputs_cpus;
  json r = grade("submit");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  ASSERT_FALSE(go_cpus.empty());
  ASSERT_FALSE(outputs_cpus.empty());
  for (const auto& m : go_cpus) EXPECT_EQ(m, std::set<int>{last});
  for (const auto& m : outputs_cpus) EXPECT_EQ(m, std::set<int>{last});
  EXPECT_EQ(calling_thread_cpus(), before);
}

// A candidate that crashes in its call leaves no watch open (the judge's thread would stay
// real-time for the rest of the grade).
TEST_F(GraderTest, ACrashedCallClosesItsWatch) {
  launcher_.candidate.crash_on_go = true;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "crash") << r.dump();
  EXPECT_GT(clock_.watches, 0);
  EXPECT_EQ(clock_.open_watches, 0);
}

// The real clock: where the judge may (CI runs as root), a watch puts the calling thread, and
// only it, in SCHED_FIFO and takes it out again; where it may not, it reports no boost and
// changes nothing. Off by configuration, it never tries.
TEST(RealtimeObserver, TheSystemClockBoostsOnlyTheWatchingThreadDuringAWatch) {
  SystemClock clock(true);
  ASSERT_EQ(sched_getscheduler(0), SCHED_OTHER);
  clock.begin_watch();
  const int during = sched_getscheduler(0) & ~SCHED_RESET_ON_FORK;
  int other_thread = -1;
  std::thread([&] { other_thread = sched_getscheduler(0); }).join();
  clock.end_watch();
  EXPECT_EQ(during, clock.watch_boosted() ? SCHED_FIFO : SCHED_OTHER);
  EXPECT_EQ(other_thread, SCHED_OTHER);
  EXPECT_EQ(sched_getscheduler(0), SCHED_OTHER);
  if (geteuid() == 0) {
    EXPECT_TRUE(clock.watch_boosted());
  }
  SystemClock off(false);
  EXPECT_FALSE(off.watch_boosted());
  off.begin_watch();
  EXPECT_EQ(sched_getscheduler(0), SCHED_OTHER);
  off.end_watch();
}

TEST(RealtimeObserver, IsABooleanSettingOnByDefault) {
  EXPECT_TRUE(JudgeConfig{}.realtime_observer);
  JudgeConfig c;
  ASSERT_TRUE(apply_config_json(c, R"({"realtime_observer": false})", "test").ok());
  EXPECT_FALSE(c.realtime_observer);
  EXPECT_FALSE(apply_config_json(c, R"({"realtime_observer": 1})", "test").ok());
}

// On by default; a JSON boolean in the config file, anything else refused by name.
TEST(ProcessReplication, IsABooleanSettingOnByDefault) {
  EXPECT_TRUE(JudgeConfig{}.process_replication);
  JudgeConfig c;
  ASSERT_TRUE(apply_config_json(c, R"({"process_replication": false})", "test").ok());
  EXPECT_FALSE(c.process_replication);
  auto bad = apply_config_json(c, R"({"process_replication": "no"})", "test");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("process_replication"), std::string::npos)
      << bad.error().message;
}

TEST_F(OneFastProcess, WithoutTheRuleThePooledDifferenceIsCredited) {
  json r = grade_with(false);
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  const json& pub = r["configs"][0];
  EXPECT_FALSE(pub["unreplicated"].get<bool>());
  EXPECT_GT(pub["credit"].get<double>(), 1.3) << pub.dump();
  EXPECT_FALSE(r["rules"]["process_replication"].get<bool>());
}

TEST_F(GraderTest, SlowerIsCreditedBelowOne) {
  launcher_.candidate.call_ns = 4'000'000;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok");
  EXPECT_NEAR(r["speedup"].get<double>(), 0.5, 1e-9);
}

TEST_F(GraderTest, WrongOutputsAreIncorrectWithoutSpeedup) {
  launcher_.candidate.wrong = true;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "incorrect");
  EXPECT_FALSE(r["public_correct"].get<bool>());
  EXPECT_TRUE(r["speedup"].is_null());
  EXPECT_NE(r["detail"].get<std::string>().find("public S"), std::string::npos);
  EXPECT_EQ(store_.submissions.size(), 1u);  // a wrong answer is still the agent's answer
}

TEST_F(GraderTest, HiddenFailureIsOverfitAndItsDrawStaysOutOfTheResponse) {
  launcher_.candidate.wrong_on_hidden = true;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "overfit") << r.dump();
  EXPECT_TRUE(r["public_correct"].get<bool>());
  EXPECT_FALSE(r["hidden_correct"].get<bool>());
  const std::string shown = r["detail"];
  ASSERT_EQ(store_.submissions.size(), 1u);
  const std::string recorded = store_.submissions[0].detail;
  EXPECT_NE(shown, recorded);
  EXPECT_EQ(shown.find("{\""), std::string::npos) << shown;  // no sizes object
  EXPECT_NE(recorded.find("{\""), std::string::npos) << recorded;
}

TEST_F(GraderTest, NondeterministicOutputsFailTheDeterminismCase) {
  launcher_.candidate.nondeterministic = true;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "overfit") << r.dump();
  EXPECT_NE(store_.submissions[0].detail.find("nondeterministic"), std::string::npos);
}

TEST_F(GraderTest, CompileErrorIsBuildError) {
  compiler_.submission_compiles = false;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "build_error");
  EXPECT_FALSE(r["build_ok"].get<bool>());
  EXPECT_FALSE(r["harness_fault"].get<bool>());
  EXPECT_NE(r["detail"].get<std::string>().find("expected ';'"), std::string::npos);
  EXPECT_TRUE(launcher_.roles.empty());
}

TEST_F(GraderTest, CompileTimeoutIsBuildErrorTimedOut) {
  compiler_.submission_times_out = true;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "build_error");
  EXPECT_TRUE(r["timed_out"].get<bool>());
}

TEST_F(GraderTest, LibraryThatDoesNotLoadIsBuildError) {
  launcher_.candidate.hello_error = proto::error_reply(proto::Fault::kLoad, "undefined symbol");
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "build_error") << r.dump();
  EXPECT_FALSE(r["harness_fault"].get<bool>());
}

TEST_F(GraderTest, CallThatNeverReturnsIsTimeout) {
  launcher_.candidate.hang_on_go = true;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "timeout");
  EXPECT_TRUE(r["timed_out"].get<bool>());
}

TEST_F(GraderTest, SegfaultIsCrash) {
  launcher_.candidate.crash_on_go = true;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "crash");
  EXPECT_FALSE(r["harness_fault"].get<bool>());
}

TEST_F(GraderTest, FailedAllocationIsMemory) {
  launcher_.candidate.oom_on_go = true;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "memory");
}

struct RejectCase {
  const char* name;
  std::function<void(Script&)> arrange;
  const char* says;
};

class GraderRejects : public GraderTest, public ::testing::WithParamInterface<RejectCase> {};

TEST_P(GraderRejects, EachRejectionReason) {
  GetParam().arrange(launcher_.candidate);
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "rejected") << r.dump();
  EXPECT_FALSE(r["harness_fault"].get<bool>());
  EXPECT_TRUE(r["speedup"].is_null());
  EXPECT_NE(r["detail"].get<std::string>().find(GetParam().says), std::string::npos) << r["detail"];
}

INSTANTIATE_TEST_SUITE_P(
    Reasons, GraderRejects,
    ::testing::Values(
        RejectCase{"ConstWrite", [](Script& s) { s.post_reply = "posted const b 3"; },
                   "wrote through a const pointer"},
        RejectCase{"GuardZone", [](Script& s) { s.post_reply = "posted guard a 64"; },
                   "guard zone damaged"},
        RejectCase{"LateWrite", [](Script& s) { s.post_reply = "posted late a 0"; },
                   "changed after the call returned"},
        RejectCase{"DeviceWorkLeftRunning",
                   [](Script& s) { s.post_reply = "posted running (device) pending"; },
                   "device work was still running after the call returned"},
        RejectCase{"ForgedReply", [](Script& s) { s.go_reply = "posted ok"; },
                   "fd 3 belongs to the judge"},
        RejectCase{"LeftoverProcess",
                   [](Script& s) { s.extra_after_call = "1 process(es) besides the runner"; },
                   "running after the call returned"},
        RejectCase{"BusyThread", [](Script& s) { s.busy_thread = true; }, "kept running"},
        RejectCase{"HelperWorkingWhileTheDrawIsMade",
                   [](Script& s) { s.cpu_during_prep_ns = 1'000'000; }, "work outside the clock"},
        RejectCase{"UnconfirmedIoFault",
                   [](Script& s) {
                     s.io_error_on_save = true;
                     s.io_confirmed = false;
                   },
                   "cannot confirm"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(GraderTest, TimedSizesAreChosenByTimeAndHiddenOnesDrawnAroundThem) {
  config_.min_call_ms = 4;  // the baseline costs 1 ns per element: N = 4e6
  launcher_.baseline.ns_per_element = 1;
  launcher_.oracle.ns_per_element = 1;
  launcher_.candidate.ns_per_element = 0.5;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["preset"], "timed");
  ASSERT_TRUE(r.contains("calibration"));
  const int64_t n = r["calibration"]["sizes"]["N"].get<int64_t>();
  EXPECT_GE(n, 4'000'000);
  EXPECT_LE(n, 5'200'000);
  EXPECT_GE(r["calibration"]["baseline_ns"].get<double>(), 4e6);
  EXPECT_EQ(r["configs"][0]["config"], "public timed");
  EXPECT_EQ(r["configs"][0]["sizes"]["N"], n);
  // Hidden timed configurations: around the calibrated size, never the small fuzzed range.
  ASSERT_EQ(store_.submissions.size(), 1u);
  int hidden_timed = 0;
  for (const auto& c : store_.submissions[0].configs) {
    if (c.config.rfind("hidden#", 0) != 0) continue;
    ++hidden_timed;
    const int64_t h = json::parse(c.sizes_json)["N"].get<int64_t>();
    EXPECT_GE(h, n * 0.85 - 1) << c.config;
    EXPECT_LE(h, n * 1.15 + 1) << c.config;
  }
  EXPECT_EQ(hidden_timed, config_.submit_fuzzed_configs);
  // No hidden preset draw: the checked timed configurations are the case at the timed size.
  for (const auto& c : store_.submissions[0].configs) {
    EXPECT_EQ(c.config.rfind("hidden preset", 0), std::string::npos) << c.config;
  }
  for (const auto& m : corpus_) {
    if (m.id != "tsvc_2_s000") continue;
    for (std::size_t i = 0; i < launcher_.roles.size(); ++i) {  // the oracle checks only
      if (launcher_.roles[i] != "oracle") continue;
      const int64_t checked = launcher_.sizes[i].at("N");
      EXPECT_NE(checked, m.presets.at("M").at("N"));
      // The correctness variants are small and varied (the fuzzed range), none at preset S
      // (at the paper's presets a sequential oracle call of a second or more each); the rest
      // is the timed configurations.
      EXPECT_NE(checked, m.presets.at("S").at("N"));
      const auto& range = m.fuzzed.at("N");
      EXPECT_TRUE((checked >= range.lo && checked <= range.hi) || checked >= n * 0.85 - 1)
          << checked;
    }
  }
  EXPECT_EQ(r["hidden_total"].get<int>(), config_.hidden_variants + config_.submit_fuzzed_configs);
  EXPECT_NEAR(r["speedup"].get<double>(), 2.0, 1e-6);
  // Cached: a second grade searches nothing (the calibration's launches were baselines alone).
  ASSERT_EQ(store_.calibrations.size(), 1u);
  const auto launches = launcher_.roles.size();
  json again = grade("score");
  EXPECT_EQ(again["configs"][0]["sizes"]["N"], n);  // /score's public size is stable
  int baselines_alone = 0;
  for (std::size_t i = launches; i < launcher_.roles.size(); ++i) {
    baselines_alone += launcher_.roles[i] == "candidate" && launcher_.sizes[i].at("N") != n;
  }
  EXPECT_EQ(baselines_alone, 0);
}

TEST_F(GraderTest, AnExplicitPresetKeepsItsSizesForThePublicConfiguration) {
  config_.min_call_ms = 4;
  launcher_.baseline.ns_per_element = 1;
  launcher_.oracle.ns_per_element = 1;
  launcher_.candidate.ns_per_element = 0.5;
  GradeRequest r;
  r.route = "score";
  r.kernel = "tsvc_2_s000";
  r.source = "x";
  r.preset = "S";
  json j = grader().grade(r);
  EXPECT_EQ(j["preset"], "S");
  EXPECT_EQ(j["configs"][0]["sizes"]["N"], 512);
  EXPECT_FALSE(j["calibration"].contains("sizes"));
}

// The scientific track's default: the fastest of c and c-autopar, chosen once, credited after.
TEST_F(GraderTest, TheFastestOfSeveralBaselinesIsCredited) {
  config_.track_baseline["scientific_computing"] = "c,c-autopar";
  launcher_.by_library["lib-c-autopar.so"].call_ns = 4'000'000;  // c (the baseline script): 2 ms
  json r = grade("submit", "gemm");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["baseline"], "c");
  ASSERT_TRUE(r.contains("baseline_choice")) << r.dump();
  EXPECT_EQ(r["baseline_choice"]["chosen"], "c");
  EXPECT_DOUBLE_EQ(r["baseline_choice"]["fastest_ns"]["c-autopar"].get<double>(), 4e6);
  // 4 ms is past 1.5x c's 2 ms: c-autopar stopped after its first timed call.
  EXPECT_EQ(r["baseline_choice"]["stopped_early"], json::array({"c-autopar"}));
  EXPECT_NEAR(r["speedup"].get<double>(), 2.0, 1e-9);  // against c's 2 ms, not c-autopar's 4
  EXPECT_EQ(grader().baseline_name(*grader().kernel("gemm")), "c");
  // Chosen once: the next grade measures no option alone.
  const int alone = launcher_.alone();
  EXPECT_GE(alone, 2);  // each option timed once
  json again = grade("submit", "gemm");
  EXPECT_EQ(again["baseline_choice"]["chosen"], "c");
  EXPECT_EQ(launcher_.alone(), alone);
}

// GCC's autopar gemm ran 67x slower than c: its warm-up alone shows it cannot win, and its
// timed calls are not run (each would cost what a whole grade's calls of c cost).
TEST_F(GraderTest, AFarSlowerOptionStopsInItsWarmUp) {
  config_.track_baseline["scientific_computing"] = "c,c-autopar";
  int calls = 0;
  launcher_.by_library["lib-c-autopar.so"].call_ns = 134'000'000;
  launcher_.by_library["lib-c-autopar.so"].go_count = &calls;
  json r = grade("submit", "gemm");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["baseline"], "c");
  EXPECT_EQ(calls, 1);  // the warm-up only
  EXPECT_EQ(r["baseline_choice"]["stopped_early"], json::array({"c-autopar"}));
  EXPECT_GT(r["baseline_choice"]["fastest_ns"]["c-autopar"].get<double>(), 2e6);
}

TEST_F(GraderTest, AFasterParallelBaselineIsChosenOverC) {
  config_.track_baseline["scientific_computing"] = "c,c-autopar";
  launcher_.by_library["lib-c-autopar.so"].call_ns = 1'500'000;
  launcher_.candidate.call_ns = 750'000;
  EXPECT_EQ(grader().baseline_name(*grader().kernel("gemm")), "the fastest of c, c-autopar");
  json r = grade("submit", "gemm");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["baseline"], "c-autopar");
  EXPECT_NEAR(r["speedup"].get<double>(), 2.0, 1e-9);
  EXPECT_NE(r["baseline_choice"]["rule"].get<std::string>().find("public sizes"),
            std::string::npos);
  ASSERT_EQ(store_.submissions.size(), 1u);
  EXPECT_EQ(store_.submissions[0].baseline, "c-autopar");
}

TEST_F(GraderTest, WithCalibrationTheChoiceIsMadeAtTheTimedSizes) {
  config_.track_baseline["scientific_computing"] = "c,c-autopar";
  config_.min_call_ms = 4;
  launcher_.baseline.ns_per_element = 1;
  launcher_.oracle.ns_per_element = 1;
  launcher_.by_library["lib-c-autopar.so"].ns_per_element = 0.25;
  launcher_.candidate.ns_per_element = 0.125;
  json r = grade("submit", "gemm");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["baseline_choice"]["chosen"], "c-autopar");
  EXPECT_NE(r["baseline_choice"]["rule"].get<std::string>().find("timed sizes of c"),
            std::string::npos);
  // The timed sizes are then the chosen baseline's: its call lasts min_call_ms.
  EXPECT_EQ(r["calibration"]["baseline"], "c-autopar");
  EXPECT_GE(r["calibration"]["baseline_ns"].get<double>(), 4e6);
  EXPECT_NEAR(r["speedup"].get<double>(), 2.0, 1e-6);
}

// Above check_all_bytes the last call and three others are checked (SPEC §5.5), but the
// candidate saves every call's outputs, so it cannot tell which ones: only the oracle's runs
// reveal the pick, and the oracle is trusted.
TEST_F(GraderTest, LargeDrawsCheckFourCallsButTheCandidateSavesEvery) {
  config_.score_paired = false;  // an oracle of its own, whose saves show the checked calls
  config_.check_all_bytes = 0;
  config_.timed_calls = 40;
  config_.timing_processes = 1;
  std::vector<std::string> cand, oracle;
  launcher_.candidate.save_log = &cand;
  launcher_.oracle.save_log = &oracle;
  json r = grade("score");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(cand.size(), 40u);
  ASSERT_EQ(oracle.size(), 4u);
  EXPECT_EQ(oracle.back(), "call39");  // the last call is always checked
}

// Saved outputs go when their runner's configuration ends (after its comparisons: a check
// reading a discarded output would fail the grade), every runner's, whatever was checked: a
// whole /submit's DRAM-sized outputs in the page cache were written back during timed calls.
TEST_F(GraderTest, SavedOutputsGoWithTheirRunnerAfterTheComparisons) {
  config_.check_all_bytes = 0;  // four calls checked of each part
  config_.timed_calls = 12;
  std::vector<std::vector<std::string>> cand, oracle;
  launcher_.candidate.discard_log = &cand;
  launcher_.oracle.discard_log = &oracle;
  json r = grade("submit");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  int submission_runners = 0;
  for (const auto& lib : launcher_.libraries) submission_runners += lib == "lib-submission.so";
  ASSERT_EQ(cand.size(), static_cast<std::size_t>(submission_runners));
  EXPECT_GE(cand.size(), 4u);  // public timed in two parts, variants, hidden configurations
  for (const auto& tags : cand) EXPECT_FALSE(tags.empty());  // each saved, each discarded once
  EXPECT_FALSE(oracle.empty());
}

// Outputs in memory (docs/grading.md): where every call is checked, each side's outputs are
// read from its runner right after the call and nothing is saved; where only some are checked,
// the candidate saves every call as before and nothing is read from its memory, so neither
// the command it gets nor the gap after a call says which calls are checked.
TEST_F(GraderTest, OutputsAreReadFromMemoryOnlyWhereEveryCallIsChecked) {
  config_.score_paired = false;  // an oracle of its own, whose reads are counted
  config_.timed_calls = 12;
  config_.timing_processes = 1;
  std::vector<std::string> cand_saved, cand_read, oracle_read, events;
  for (Script* s : {&launcher_.candidate, &launcher_.baseline, &launcher_.oracle}) {
    s->capture = true;
    s->events = &events;
  }
  launcher_.candidate.save_log = &cand_saved;
  launcher_.candidate.capture_log = &cand_read;
  launcher_.candidate.name = "cand";
  launcher_.oracle.capture_log = &oracle_read;
  json r = grade("score");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_TRUE(cand_saved.empty());
  EXPECT_EQ(cand_read.size(), 12u);
  EXPECT_EQ(oracle_read.size(), 12u);
  // Each read comes right after its call, before the runner is paused for the other side.
  int reads = 0;
  for (std::size_t i = 0; i + 1 < events.size(); ++i) {
    if (events[i] != "cand capture") continue;
    ++reads;
    EXPECT_EQ(events[i + 1], "cand pause") << i;
  }
  EXPECT_EQ(reads, 12);

  config_.check_all_bytes = 0;  // four calls checked
  grader_.reset();
  cand_saved.clear();
  cand_read.clear();
  oracle_read.clear();
  r = grade("score");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(cand_saved.size(), 12u);
  EXPECT_TRUE(cand_read.empty());
  EXPECT_TRUE(oracle_read.empty());
}

// With the baseline as the oracle and every call checked, each pair is compared as soon as
// both sides ran it and its outputs go back to their sessions (RunnerSession::recycle): a
// configuration's outputs never pile up in the judge, and a wrong answer ends its
// configuration at its first wrong call instead of after all of them.
TEST_F(GraderTest, PairedCallsAreComparedAsSoonAsBothSidesRanThem) {
  config_.timed_calls = 12;
  config_.timing_processes = 1;
  std::vector<std::string> events;
  for (Script* s : {&launcher_.candidate, &launcher_.baseline, &launcher_.oracle}) {
    s->capture = true;
    s->events = &events;
  }
  launcher_.candidate.name = "cand";
  launcher_.baseline.name = "base";
  json r = grade("score");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  int held = 0, recycled = 0;
  for (const auto& e : events) {
    if (e == "cand capture") {
      EXPECT_LE(++held, 1) << "a second call read before the first compared";
    } else if (e == "cand recycle") {
      --held;
      ++recycled;
    }
  }
  EXPECT_EQ(recycled, 12);
  EXPECT_EQ(std::count(events.begin(), events.end(), "base recycle"), 12);

  int calls = 0;
  launcher_.candidate.go_count = &calls;
  launcher_.candidate.wrong = true;
  grader_.reset();
  r = grade("score");
  EXPECT_EQ(r["verdict"], "incorrect") << r.dump();
  EXPECT_EQ(calls, config_.warmup_calls + 1);  // the warm-up and the first compared call
}

// A copy-out the judge cannot read is the candidate's doing when it is the candidate's (its
// code ran in that process and may have unmapped it), like an unreadable saved file; the
// trusted side's is the judge's fault.
TEST_F(GraderTest, AnUnreadableCopyOutIsTheCandidatesCrashButNeverTheBaselines) {
  config_.timing_processes = 1;
  for (Script* s : {&launcher_.candidate, &launcher_.baseline, &launcher_.oracle})
    s->capture = true;
  launcher_.candidate.capture_fails = true;
  json r = grade("score");
  EXPECT_EQ(r["verdict"], "crash") << r.dump();
  EXPECT_NE(r["detail"].get<std::string>().find("candidate outputs unreadable"), std::string::npos)
      << r.dump();

  launcher_.candidate.capture_fails = false;
  // The reference side: the baseline (it is the oracle's build, so /score's paired run checks
  // against it) or, unpaired, the oracle.
  launcher_.baseline.capture_fails = true;
  launcher_.oracle.capture_fails = true;
  grader_.reset();
  r = grade("score");
  EXPECT_EQ(r["verdict"], "judge_error") << r.dump();
  EXPECT_TRUE(r["harness_fault"].get<bool>()) << r.dump();
  EXPECT_EQ(r["fault"], "scratch") << r.dump();
}

// The layout is written before anything of the submission is loaded, so a bad one is the
// runner's fault, never the candidate's.
TEST_F(GraderTest, ABadOutputLayoutIsTheJudgesFault) {
  launcher_.candidate.bad_layout = true;
  json r = grade("score");
  EXPECT_EQ(r["verdict"], "judge_error") << r.dump();
  EXPECT_TRUE(r["harness_fault"].get<bool>()) << r.dump();
  EXPECT_EQ(r["fault"], "runner") << r.dump();
  EXPECT_NE(r["detail"].get<std::string>().find("output layout"), std::string::npos) << r.dump();
}

TEST_F(GraderTest, SmallDrawsHaveEveryCallChecked) {
  config_.timed_calls = 12;
  config_.timing_processes = 1;
  std::vector<std::string> cand;
  launcher_.candidate.save_log = &cand;
  json r = grade("score");  // tsvc_2_s000 at S: 8 KiB of arrays, under check_all_bytes
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(cand.size(), 12u);
}

// The CPU an honest thread pool burns when SIGCONT wakes it after the paused side's turn is
// not work outside the clock: the threads are settled again after the resume.
TEST_F(GraderTest, ThreadsWokenByTheResumeAreNotChargedAsOutsideWork) {
  launcher_.candidate.cpu_on_resume_ns = 3'000'000;  // 12x outside_cpu_ns
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
}

TEST_F(GraderTest, AThreadWaitingForACpuIsNotChargedAsKeptRunning) {
  // On a loaded host an honest pool thread is runnable for a second after the call without
  // getting a CPU: it used none of thread_settle_s (0.5 s of CPU), so it is waited for.
  launcher_.candidate.waits_for_cpu_ns = 1'000'000'000;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  // Past thread_settle_wall_s (2 s) it is rejected whatever it got: the wait stays bounded.
  launcher_.candidate.waits_for_cpu_ns = 3'000'000'000;
  json slow = grade("submit");
  EXPECT_EQ(slow["verdict"], "rejected") << slow.dump();
  EXPECT_NE(slow["detail"].get<std::string>().find("kept running"), std::string::npos);
}

TEST_F(GraderTest, ASandboxThatDiesBeforeItsRunnerStartsIsStartedAgain) {
  // bubblewrap could not fork (the sandbox uid's process limit, shared with other grades):
  // nothing of the submission ran, so it is no crash; the start is retried and the grade goes on.
  int failures = 2;
  launcher_.candidate.dies_before_boot = &failures;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(failures, 0);
  int failures_base = 1;
  launcher_.baseline.dies_before_boot = &failures_base;
  json b = grade("submit");
  EXPECT_EQ(b["verdict"], "ok") << b.dump();
  EXPECT_EQ(failures_base, 0);
}

TEST_F(GraderTest, ASandboxThatNeverStartsIsTheJudgesFaultNotACrash) {
  // Past sandbox_start_retries it is the judge's machinery on either side, never the
  // candidate's crash.
  int forever = 1000;
  launcher_.candidate.dies_before_boot = &forever;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "judge_error") << r.dump();
  EXPECT_TRUE(r["harness_fault"].get<bool>());
  EXPECT_NE(r["detail"].get<std::string>().find("did not start"), std::string::npos) << r.dump();
  EXPECT_EQ(forever, 1000 - 1 - config_.sandbox_start_retries);
  launcher_.candidate.dies_before_boot = nullptr;
  launcher_.oracle.dies_before_boot = &forever;
  json o = grade("submit");
  EXPECT_EQ(o["verdict"], "judge_error") << o.dump();
}

TEST_F(GraderTest, OnAJudgeWithAGpuOnlyTheCandidateRunsOnItWithItsResidency) {
  // A CUDA /submit with residency device on a judge that has a GPU: every runner of the
  // submission's library gets the CUDA runtime and the residency; the C baseline and the oracle
  // stay on the CPU.
  config_.gpus = {GpuDevice{"nvidia", "/dev/nvidia0"}};
  GradeRequest r;
  r.route = "submit";
  r.kernel = "tsvc_2_s000";
  r.language = "cuda";
  r.residency = "device";
  r.source = "extern \"C\" void tsvc_2_s000_fp64() {}";
  json j = grader().grade(r);
  EXPECT_EQ(j["verdict"], "ok") << j.dump();
  int on_gpu = 0;
  for (std::size_t i = 0; i < launcher_.roles.size(); ++i) {
    const bool submission = launcher_.libraries[i] == "lib-submission.so";
    EXPECT_EQ(launcher_.gpu_runtimes[i], submission ? "cuda" : "") << launcher_.roles[i];
    if (submission) {
      EXPECT_EQ(launcher_.residencies[i], "device");
      ++on_gpu;
    }
  }
  EXPECT_GT(on_gpu, 0);
  // A C submission on the same judge never touches the GPU.
  launcher_.gpu_runtimes.clear();
  json c = grade("submit");
  EXPECT_EQ(c["verdict"], "ok") << c.dump();
  for (const auto& g : launcher_.gpu_runtimes) EXPECT_EQ(g, "");
}

TEST_F(GraderTest, ATrustedSideWhosePoolKeepsSpinningIsNoFailure) {
  // The baseline's pool (OpenBLAS spins) still busy after thread_settle_s: waited for no longer,
  // and no judge error; the same thread in the candidate is rejected (RejectCase BusyThread).
  launcher_.baseline.busy_thread = true;
  launcher_.oracle.busy_thread = true;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_FALSE(r["harness_fault"].get<bool>());
}

TEST_F(GraderTest, WorkspaceOutOfRangeIsRejected) {
  GradeRequest r;
  r.route = "submit";
  r.kernel = "tsvc_2_s000";
  r.source = "x";
  r.workspace_bytes = "N*N*N*N";
  json j = grader().grade(r);
  EXPECT_EQ(j["verdict"], "rejected");
  EXPECT_NE(j["detail"].get<std::string>().find("workspace_bytes"), std::string::npos);
}

TEST_F(GraderTest, UngradeableHiddenConfigurationIsExcludedNotRejected) {
  // tsvc_2_s311's hidden preset M sums 2.2e8 values: reduction length times epsilon reaches rtol,
  // so no answer could be graded there. The reference must still pass its own /submit.
  GradeRequest r;
  r.route = "submit";
  r.kernel = "tsvc_2_s311";
  r.source = "x";
  json j = grader().grade(r);
  EXPECT_EQ(j["verdict"], "ok") << j.dump();
  ASSERT_EQ(j["excluded"].size(), 1u) << j.dump();
  EXPECT_EQ(j["excluded"][0]["config"], "hidden preset M");
  // The reason shown never names hidden sizes.
  EXPECT_EQ(j["excluded"][0]["reason"].get<std::string>().find("220000000"), std::string::npos);
  EXPECT_NE(j["excluded"][0]["reason"].get<std::string>().find("ungradeable"), std::string::npos);
  EXPECT_EQ(j["hidden_total"].get<int>(), config_.hidden_variants + 2);  // M left out
}

TEST_F(GraderTest, HiddenPresetOverTheMemoryLimitIsExcludedNotRejected) {
  // tsvc_2_s000's hidden preset M holds 2 x 95e6 reals (1.4 GiB at fp64): over the 1 GiB data
  // budget of a 4 GiB runner, so the judge cannot run it. It is left out of the verdict, never a
  // failure.
  config_.memory_bytes = uint64_t{4} << 30;
  json j = grade("submit");
  EXPECT_EQ(j["verdict"], "ok") << j.dump();
  ASSERT_EQ(j["excluded"].size(), 1u) << j.dump();
  EXPECT_EQ(j["excluded"][0]["config"], "hidden preset M");
  const std::string reason = j["excluded"][0]["reason"];
  EXPECT_NE(reason.find("memory limit"), std::string::npos) << reason;
  EXPECT_EQ(reason.find("ungradeable"), std::string::npos) << reason;
  EXPECT_EQ(reason.find("GiB"), std::string::npos) << "names no hidden sizes: " << reason;
  EXPECT_EQ(j["hidden_total"].get<int>(), config_.hidden_variants + 2);            // M left out
  for (const auto& sizes : launcher_.sizes) EXPECT_NE(sizes.at("N"), 95'000'000);  // never run
  // Under the default 8 GiB it fits (a 2 GiB budget) and runs.
  config_.memory_bytes = uint64_t{8} << 30;
  grader_.reset();
  json fits = grade("submit");
  EXPECT_EQ(fits["excluded"].size(), 0u) << fits.dump();
  EXPECT_EQ(fits["hidden_total"].get<int>(), config_.hidden_variants + 3);
}

TEST_F(GraderTest, HiddenPresetTheReferenceCannotComputeInTimeIsExcludedNotRun) {
  // tsvc_2_s000's reference takes 30 s at hidden preset M (95e6 elements): over the 20 s
  // hidden_preset_reference_s, so M is left out before the candidate runs there, and later
  // grades leave it out without asking the reference again.
  launcher_.oracle.ns_per_element = 316;
  int candidate_calls = 0;
  launcher_.candidate.go_count = &candidate_calls;
  json j = grade("submit");
  EXPECT_EQ(j["verdict"], "ok") << j.dump();
  ASSERT_EQ(j["excluded"].size(), 1u) << j.dump();
  EXPECT_EQ(j["excluded"][0]["config"], "hidden preset M");
  const std::string reason = j["excluded"][0]["reason"];
  EXPECT_NE(reason.find("hidden_preset_reference_s"), std::string::npos) << reason;
  EXPECT_EQ(reason.find("95000000"), std::string::npos) << "names no hidden sizes: " << reason;
  EXPECT_EQ(j["hidden_total"].get<int>(), config_.hidden_variants + 2);
  EXPECT_FALSE(j["harness_fault"].get<bool>());
  auto launches_at_m = [this] {
    int n = 0;
    for (const auto& sizes : launcher_.sizes) n += sizes.at("N") == 95'000'000;
    return n;
  };
  const int first_m = launches_at_m();
  EXPECT_GT(first_m, 0);
  const int calls_first = candidate_calls;
  json again = grade("submit");
  EXPECT_EQ(again["verdict"], "ok") << again.dump();
  ASSERT_EQ(again["excluded"].size(), 1u) << again.dump();
  EXPECT_EQ(again["excluded"][0]["reason"], reason);
  EXPECT_EQ(launches_at_m(), first_m) << "remembered: M is not started again";
  EXPECT_EQ(candidate_calls, 2 * calls_first);  // the same calls, none at M
  // Without a limit of its own the reference has call_timeout_s (60 s) there: M runs.
  config_.hidden_preset_reference_s = 0;
  grader_.reset();
  json runs = grade("submit");
  EXPECT_EQ(runs["verdict"], "ok") << runs.dump();
  EXPECT_EQ(runs["excluded"].size(), 0u) << runs.dump();
  EXPECT_EQ(runs["hidden_total"].get<int>(), config_.hidden_variants + 3);
}

TEST_F(GraderTest, ACandidateSlowerThanTheTimeoutAtAHiddenPresetIsStillATimeout) {
  // The limit is the reference's: a candidate that cannot finish M in call_timeout_s, where the
  // reference did within its 20 s, is charged a timeout as before.
  launcher_.candidate.ns_per_element = 700;  // 66 s at M, 0.4 ms at S
  launcher_.oracle.ns_per_element = 100;     // 9.5 s at M
  json j = grade("submit");
  EXPECT_EQ(j["verdict"], "timeout") << j.dump();
  EXPECT_FALSE(j["harness_fault"].get<bool>());
}

TEST_F(GraderTest, ImplausibleSpeedupIsSuspectAndNotCredited) {
  launcher_.candidate.call_ns = 1000;  // 2000x faster than the baseline
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok");
  EXPECT_TRUE(r["suspect"].get<bool>());
  EXPECT_TRUE(r["speedup"].is_null());
  EXPECT_NE(r["detail"].get<std::string>().find("plausibility threshold"), std::string::npos);
}

TEST_F(GraderTest, ClockThatLiesOnEveryCallIsSuspect) {
  launcher_.candidate.call_ns = 100'000;          // it claims 0.1 ms
  launcher_.candidate.view_extra_ns = 5'000'000;  // the judge sees 5.1 ms
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok");
  EXPECT_TRUE(r["suspect"].get<bool>());
  EXPECT_NE(r["detail"].get<std::string>().find("clock tampering"), std::string::npos);
  // Every configuration says what the audit added back to the 0.1 ms claimed: the 5 ms the
  // runner hid, less the allowance a lie keeps (500 us + 10% of the judge's 5.1 ms view + the
  // configuration's copies), and its candidate median is the claim plus that shift.
  ASSERT_FALSE(r["configs"].empty()) << r.dump();
  for (const auto& c : r["configs"]) {
    const double shift = c["clock_shift_ns"].get<double>();
    EXPECT_GT(shift, 2.5e6) << c.dump();
    EXPECT_LT(shift, 4.0e6) << c.dump();
    EXPECT_NEAR(c["candidate_median_ns"].get<double>(), 100'000 + shift, 1) << c.dump();
  }
}

// ---------------------------------------------------------------------------------------------
// Faults of the judge's own machinery: judge_error, harness_fault, the resource named, never
// recorded as the candidate's answer.

void ExpectJudgeFault(const json& r, const FakeStore& store, const std::string& resource) {
  EXPECT_EQ(r["verdict"], "judge_error") << r.dump();
  EXPECT_TRUE(r["harness_fault"].get<bool>());
  EXPECT_EQ(r["fault"], resource);
  EXPECT_FALSE(r.contains("submission_id"));
  EXPECT_TRUE(store.submissions.empty());
  EXPECT_EQ(store.calls.size(), 1u);  // logged as a call for the operator
  EXPECT_EQ(store.calls[0].verdict, "judge_error");
}

TEST_F(GraderTest, ScratchFullWhenSavingOutputsIsTheJudgesFault) {
  launcher_.candidate.io_error_on_save = true;
  json r = grade("submit");
  ExpectJudgeFault(r, store_, "scratch");
  EXPECT_NE(r["detail"].get<std::string>().find("scratch filesystem"), std::string::npos);
}

TEST_F(GraderTest, ScratchDirThatCannotBeCreatedIsTheJudgesFault) {
  scratch_.make_dir_error = Error{"No space left on device", Errc::kNoSpace};
  ExpectJudgeFault(grade("submit"), store_, "scratch");
}

TEST_F(GraderTest, StagingIntoAFullScratchIsTheJudgesFault) {
  launcher_.fails = Error{"cannot stage lib.so: No space left on device", Errc::kNoSpace};
  ExpectJudgeFault(grade("submit"), store_, "scratch");
}

TEST_F(GraderTest, MissingRunnerBinaryIsTheJudgesFault) {
  launcher_.fails = Error{"the runner binary is missing", Errc::kNotFound};
  ExpectJudgeFault(grade("submit"), store_, "runner");
}

TEST_F(GraderTest, ForkFailureIsTheJudgesFault) {
  launcher_.fails = Error{"fork: Resource temporarily unavailable", Errc::kResource};
  ExpectJudgeFault(grade("submit"), store_, "sandbox");
}

// The sessions of a configuration start together (config_run.cc); a failure keeps its role.
TEST_F(GraderTest, ABaselineThatCannotLaunchIsTheJudgesFaultThoughTheCandidateStarted) {
  launcher_.fails_for["baseline c"] =
      Error{"fork: Resource temporarily unavailable", Errc::kResource};
  json r = grade("submit");
  ExpectJudgeFault(r, store_, "sandbox");
  EXPECT_NE(r["detail"].get<std::string>().find("baseline c runner"), std::string::npos)
      << r.dump();
}

TEST_F(GraderTest, ABaselineThatFailsAtHelloIsTheJudgesFault) {
  launcher_.baseline.hello_error = proto::error_reply(proto::Fault::kLoad, "undefined symbol");
  ExpectJudgeFault(grade("submit"), store_, "internal");
}

// Role order decides: the candidate's own failure is its verdict even when a trusted side it
// started beside fails too, as when the baseline started only after the candidate.
TEST_F(GraderTest, ACandidateThatDoesNotLoadIsBuildErrorEvenWhenTheBaselineFailsToo) {
  launcher_.candidate.hello_error = proto::error_reply(proto::Fault::kLoad, "undefined symbol");
  launcher_.fails_for["baseline c"] =
      Error{"fork: Resource temporarily unavailable", Errc::kResource};
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "build_error") << r.dump();
  EXPECT_FALSE(r["harness_fault"].get<bool>());
  launcher_.fails_for.clear();
  launcher_.baseline.hello_error = proto::error_reply(proto::Fault::kSetup, "no draw");
  r = grade("submit");
  EXPECT_EQ(r["verdict"], "build_error") << r.dump();
}

// Every side is launched before any hello is awaited; the empty round trips are measured only
// once all of them said hello (no start-up competes with a calibration), and the baseline is
// paused after its own and before the candidate's first draw.
TEST_F(GraderTest, SidesStartTogetherAndCalibrateOnlyOnceAllSaidHello) {
  std::vector<std::string> events;
  for (auto [script, name] :
       {std::pair{&launcher_.candidate, "candidate"}, std::pair{&launcher_.baseline, "baseline"},
        std::pair{&launcher_.oracle, "oracle"}}) {
    script->events = &events;
    script->name = name;
  }
  json r = grade("submit");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  // The first configuration: the paired public one (tsvc_2_s000's baseline c is its own oracle).
  auto at = [&events](const std::string& e) {
    return std::find(events.begin(), events.end(), e) - events.begin();
  };
  const auto n = static_cast<std::ptrdiff_t>(events.size());
  ASSERT_LT(at("baseline hello"), n);
  EXPECT_EQ(events[0], "candidate launch");
  EXPECT_EQ(events[1], "baseline launch");
  EXPECT_LT(at("candidate hello"), at("baseline hello"));
  EXPECT_LT(at("baseline hello"), at("candidate ping"));
  EXPECT_LT(at("candidate ping"), at("baseline ping"));
  EXPECT_LT(at("baseline ping"), at("baseline pause"));
  EXPECT_LT(at("baseline pause"), at("candidate prep"));
  // A configuration with the oracle (a hidden variant, unpaired): the same order.
  const auto o = at("oracle launch");
  ASSERT_LT(o, n);
  EXPECT_EQ(events[static_cast<std::size_t>(o - 1)], "candidate launch");
  std::vector<std::string> rest(events.begin() + o, events.end());
  auto in_rest = [&rest](const std::string& e) {
    return std::find(rest.begin(), rest.end(), e) - rest.begin();
  };
  EXPECT_LT(in_rest("oracle hello"), in_rest("candidate ping"));
  EXPECT_LT(in_rest("candidate ping"), in_rest("oracle ping"));
  EXPECT_LT(in_rest("oracle pause"), in_rest("candidate prep"));
}

// Paired timed calls alternate which side goes first (A B B A ...), after the warm-up pair
// (baseline first): each side's calls follow its own and the other's equally often.
TEST_F(GraderTest, PairedCallsAlternateWhichSideGoesFirst) {
  config_.timing_processes = 1;
  config_.timed_calls = 6;
  std::vector<std::string> events;
  for (auto [script, name] :
       {std::pair{&launcher_.candidate, "C"}, std::pair{&launcher_.baseline, "B"}}) {
    script->events = &events;
    script->name = name;
  }
  json r = grade("submit");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  std::string preps;
  for (const auto& e : events) {
    if (e == "C prep" || e == "B prep") preps += e[0];
  }
  // Warm-up B C, then the six timed draws of the public configuration (the first one).
  ASSERT_GE(preps.size(), 14u) << preps;
  EXPECT_EQ(preps.substr(0, 14), "BCCBBCCBBCCBBC") << preps;
  // Each side's timed calls: as many right after its own call as right after the other's.
  const std::string timed = preps.substr(1, 13);  // the warm-up C, then the 12 timed preps
  for (char side : {'C', 'B'}) {
    int after_self = 0, after_other = 0;
    for (std::size_t i = 1; i < timed.size(); ++i) {
      if (timed[i] != side) continue;
      (timed[i - 1] == side ? after_self : after_other)++;
    }
    EXPECT_EQ(after_self, 3) << side << " " << preps;
    EXPECT_EQ(after_other, 3) << side << " " << preps;
  }
}

TEST_F(GraderTest, ReadOnlyBuildCacheIsTheJudgesFault) {
  compiler_.fails = Error{"cannot write the build cache: Read-only file system", Errc::kReadOnly};
  ExpectJudgeFault(grade("submit"), store_, "state");
}

TEST_F(GraderTest, ReferenceThatDoesNotBuildIsTheJudgesFault) {
  compiler_.reference_breaks = true;
  ExpectJudgeFault(grade("submit"), store_, "compiler");
}

TEST_F(GraderTest, CrashingBaselineIsTheJudgesFault) {
  launcher_.baseline.crash_on_go = true;
  json r = grade("submit", "tsvc_2_s000");
  // tsvc_2_s000's credited baseline is "c", which is also the oracle here.
  ExpectJudgeFault(r, store_, "internal");
}

TEST_F(GraderTest, DatabaseWriteFailureIsTheJudgesFault) {
  store_.record_fails = true;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "judge_error");
  EXPECT_TRUE(r["harness_fault"].get<bool>());
  EXPECT_EQ(r["fault"], "database");
  EXPECT_TRUE(r["speedup"].is_null());
}

TEST_F(GraderTest, AnExceptionInAStagePropagatesAndReleasesTheSlot) {
  compiler_.hook = [] { throw std::runtime_error("injected"); };
  EXPECT_THROW(grade("submit"), std::runtime_error);
  compiler_.hook = nullptr;
  // The single slot and the grader are usable again.
  EXPECT_EQ(grade("submit")["verdict"], "ok");
}

TEST_F(GraderTest, ExceptionWhileRunningRemovesTheScratchDirAndStopsTheRunners) {
  int n = 0;
  launcher_.hook = [&n] {
    if (++n == 4) throw std::bad_alloc();  // inside the hidden cases
  };
  EXPECT_THROW(grade("submit"), std::bad_alloc);
  EXPECT_EQ(scratch_.made, 1);
  EXPECT_EQ(scratch_.removed, 1);
  launcher_.hook = nullptr;
  EXPECT_EQ(grade("submit")["verdict"], "ok");
}

// ---------------------------------------------------------------------------------------------
// The plan stage (pure)

TEST(GradePlan, ScoreIsStableAndSubmitIsFreshPerNonce) {
  auto m =
      load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/tsvc_2_s000");
  ASSERT_TRUE(m);
  JudgeConfig c;
  auto a = plan_grade(c, *m, "score", "fp64", "S", "key", "n1");
  auto b = plan_grade(c, *m, "score", "fp64", "S", "key", "n2");
  EXPECT_EQ(a.public_config.seeds, b.public_config.seeds);
  EXPECT_TRUE(a.hidden.empty());
  EXPECT_TRUE(a.public_config.paired);
  c.score_paired = false;
  EXPECT_FALSE(plan_grade(c, *m, "score", "fp64", "S", "key", "n1").public_config.paired);
  c.score_paired = true;
  auto s1 = plan_grade(c, *m, "submit", "fp64", "S", "key", "n1");
  auto s2 = plan_grade(c, *m, "submit", "fp64", "S", "key", "n2");
  EXPECT_TRUE(s1.public_config.paired);
  EXPECT_EQ(s1.public_config.seeds, a.public_config.seeds);  // the public draws are the same
  ASSERT_EQ(s1.hidden.size(), s2.hidden.size());
  ASSERT_FALSE(s1.hidden.empty());
  EXPECT_NE(s1.hidden[0].seeds, s2.hidden[0].seeds);
  EXPECT_TRUE(s1.hidden[0].determinism);
  auto other_key = plan_grade(c, *m, "score", "fp64", "S", "another", "n1");
  EXPECT_NE(other_key.public_config.seeds, a.public_config.seeds);
  int timed = 0;
  for (const auto& h : s1.hidden) timed += h.kind == ConfigPlan::Kind::kHiddenTimed;
  EXPECT_EQ(timed, c.submit_fuzzed_configs);
}

// ---------------------------------------------------------------------------------------------
// The verdict stage (pure)

TEST(GradeVerdict, StoppedGradeCarriesTheFailure) {
  GradeOutcome o;
  o.submit = true;
  o.stopped = RunFailure{Verdict::kTimeout, "candidate: too slow", false, true};
  GradeResult r = decide(o, {});
  EXPECT_EQ(r.verdict, Verdict::kTimeout);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.speedup.has_value());
}

TEST(GradeVerdict, GeometricMeanOfCredits) {
  GradeOutcome o;
  o.public_correct = true;
  std::vector<double> base(10, 4e6), fast(10, 1e6), same(10, 4e6);
  o.timed.push_back({"public S", {}, false, fast, base, 1e6, -1, 1e6});
  o.timed.push_back({"hidden#1", {}, true, same, base, 4e6, -1, 4e6});
  GradeResult r = decide(o, {});
  EXPECT_EQ(r.verdict, Verdict::kOk);
  ASSERT_TRUE(r.speedup);
  EXPECT_NEAR(*r.speedup, 2.0, 1e-9);  // sqrt(4 * 1)
  EXPECT_NEAR(*r.public_ratio, 4.0, 1e-9);
}

// A bimodal sample: most of the candidate's calls in the fast mode except a slow tail, so the
// test confirms it slower while the median says faster. With a margin: credited 1.
TEST(GradeVerdict, ATestAndAMedianThatDisagreeAreCreditedOne) {
  std::vector<double> base(10, 3e6), cand(11, 3.5e6);
  base.resize(20, 5e6);  // median 4 ms
  cand.resize(20, 9e6);  // 11 calls at 3.5 ms (median), 9 very slow ones
  GradeOutcome o;
  o.public_correct = true;
  o.timed.push_back({"public S", {}, false, cand, base, 1e6, -1, 1e6});
  VerdictRules paper;
  GradeResult r0 = decide(o, paper);
  ASSERT_LT(r0.configs[0].p_slower, 0.1);
  ASSERT_GT(r0.configs[0].ratio, 1.02);
  EXPECT_DOUBLE_EQ(r0.configs[0].credit, r0.configs[0].ratio);  // the paper credits it
  VerdictRules margin;
  margin.equivalence_margin = 0.02;
  GradeResult r = decide(o, margin);
  EXPECT_DOUBLE_EQ(r.configs[0].credit, 1.0);
  EXPECT_TRUE(r.configs[0].median_disagrees);
  EXPECT_FALSE(r.configs[0].within_margin);
}

// Two timing processes of 10 calls each: the first process's candidate is 4x faster, the
// second's as fast as the baseline. Pooled, the speedup is confirmed (p < 0.1).
TEST(GradeVerdict, ProcessReplicationCreditsOnlyWhatEveryProcessConfirms) {
  std::vector<double> base(20, 4e6), cand(10, 1e6);
  cand.resize(20, 4e6);
  GradeOutcome o;
  o.public_correct = true;
  o.timed.push_back({"public S", {}, false, cand, base, 1e6, -1, 1e6, 0, {10, 10}});
  VerdictRules rules;
  rules.equivalence_margin = 0.02;
  GradeResult without = decide(o, rules);
  ASSERT_EQ(without.configs.size(), 1u);
  EXPECT_LT(without.configs[0].p_faster, 0.1);
  EXPECT_GT(without.configs[0].credit, 1.5);
  EXPECT_FALSE(without.configs[0].unreplicated);
  // The ratios are reported whether or not the rule applies.
  EXPECT_EQ(without.configs[0].process_ratios, (std::vector<double>{4.0, 1.0}));

  rules.process_replication = true;
  GradeResult with = decide(o, rules);
  EXPECT_TRUE(with.configs[0].unreplicated);
  EXPECT_DOUBLE_EQ(with.configs[0].credit, 1.0);
  EXPECT_DOUBLE_EQ(*with.speedup, 1.0);

  // Both processes 4x faster: replicated, credited.
  o.timed[0].cand.assign(20, 1e6);
  GradeResult both = decide(o, rules);
  EXPECT_FALSE(both.configs[0].unreplicated);
  EXPECT_NEAR(*both.speedup, 4.0, 1e-9);

  // A slowdown confirmed pooled, where the second process confirms a speedup: not replicated.
  o.timed[0].cand.assign(10, 8e6);
  o.timed[0].cand.resize(17, 3.9e6);
  o.timed[0].cand.resize(20, 8e6);
  GradeResult mixed = decide(o, rules);
  EXPECT_LT(mixed.configs[0].p_slower, 0.1);
  EXPECT_NEAR(mixed.configs[0].ratio, 0.5, 1e-9);
  EXPECT_GT(mixed.configs[0].process_ratios.at(1), 1.02);
  EXPECT_TRUE(mixed.configs[0].unreplicated);
  EXPECT_DOUBLE_EQ(mixed.configs[0].credit, 1.0);

  // Samples that do not split into the parts (cached baseline samples: /score) were not timed
  // in parts: the pooled rule alone.
  o.timed[0].cand.assign(10, 1e6);
  o.timed[0].cand.resize(20, 4e6);
  o.timed[0].base.assign(8, 4e6);
  GradeResult cached = decide(o, rules);
  EXPECT_FALSE(cached.configs[0].unreplicated);
  EXPECT_TRUE(cached.configs[0].process_ratios.empty());
  EXPECT_GT(cached.configs[0].credit, 1.5);
}

// ---------------------------------------------------------------------------------------------
// Python baselines and oracles: the paper's per-track defaults, Numba probed once per
// kernel and precision and left out when it fails, the NumPy oracle, the reported figures.

class PythonBaselineTest : public GraderTest {
 protected:
  void SetUp() override {
    GraderTest::SetUp();
    config_.track_baseline = JudgeConfig{}.track_baseline;
  }
  // Runs of `library` in the candidate's role that are not the submission: probes and
  // baselines timed alone.
  int alone_runs(const std::string& library) const {
    int n = 0;
    for (std::size_t i = 0; i < launcher_.roles.size(); ++i) {
      n += launcher_.roles[i] == "candidate" && launcher_.libraries[i] == library;
    }
    return n;
  }
  Manifest& corpus_kernel(const std::string& id) {
    for (auto& m : corpus_) {
      if (m.id == id) return m;
    }
    throw std::runtime_error("no kernel " + id);
  }
};

TEST_F(PythonBaselineTest, LoopLevelIsCreditedAgainstNumbaProbedOncePerKernelAndPrecision) {
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["baseline"], "numba");
  EXPECT_NEAR(r["speedup"].get<double>(), 2.0, 1e-9);
  EXPECT_FALSE(r.contains("baselines_unavailable")) << r.dump();
  EXPECT_EQ(alone_runs("lib-numba.so"), 1);  // the probe
  // The probe is checked against the oracle: the oracle ran for it.
  EXPECT_NE(std::find(launcher_.libraries.begin(), launcher_.libraries.end(), "lib-c.so"),
            launcher_.libraries.end());
  json again = grade("submit");
  EXPECT_EQ(again["baseline"], "numba");
  EXPECT_EQ(alone_runs("lib-numba.so"), 1);  // remembered
  ASSERT_EQ(store_.submissions.size(), 2u);
  EXPECT_EQ(store_.submissions[0].baseline, "numba");
}

TEST_F(PythonBaselineTest, ANumbaBaselineThatCrashesInItsProbeIsLeftOutForC) {
  launcher_.by_library["lib-numba.so"].crash_on_go = true;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_FALSE(r["harness_fault"].get<bool>());
  EXPECT_EQ(r["baseline"], "c");
  ASSERT_TRUE(r.contains("baselines_unavailable")) << r.dump();
  EXPECT_NE(r["baselines_unavailable"]["numba"].get<std::string>().find("crash"),
            std::string::npos);
}

TEST_F(PythonBaselineTest, ANumbaBaselineThatDisagreesWithTheOracleIsNoBaseline) {
  launcher_.by_library["lib-numba.so"].wrong = true;
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["baseline"], "c");
  EXPECT_NE(r["baselines_unavailable"]["numba"].get<std::string>().find("disagrees"),
            std::string::npos);
}

TEST_F(PythonBaselineTest, ScientificIsTheFastestOfCAutoparAndNumbaParallel) {
  launcher_.by_library["lib-c-autopar.so"].call_ns = 4'000'000;
  launcher_.by_library["lib-numba-parallel.so"].call_ns = 1'000'000;
  launcher_.candidate.call_ns = 500'000;
  EXPECT_EQ(grader().baseline_name(*grader().kernel("gemm")),
            "the fastest of c, c-autopar, numba-parallel");
  json r = grade("submit", "gemm");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["baseline"], "numba-parallel");
  EXPECT_NEAR(r["speedup"].get<double>(), 2.0, 1e-9);
  EXPECT_EQ(r["baseline_choice"]["options"], json::array({"c", "c-autopar", "numba-parallel"}));
}

TEST_F(PythonBaselineTest, MachineLearningIsCreditedAgainstNumPyWithoutAProbe) {
  json r = grade("submit", "relu");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["baseline"], "numpy");
  for (const auto& lib : launcher_.libraries) EXPECT_EQ(lib.find("numba"), std::string::npos);
}

TEST_F(PythonBaselineTest, AKernelOverrideWinsOverItsTrack) {
  config_.kernel_baseline["tsvc_2_s000"] = "c";
  json r = grade("submit");
  EXPECT_EQ(r["baseline"], "c") << r.dump();
  EXPECT_EQ(alone_runs("lib-numba.so"), 0);
}

TEST_F(PythonBaselineTest, ReportedBaselinesAppearInTheResponseAndTheRecord) {
  config_.report_baselines = "c,numpy,numba";
  launcher_.by_library["lib-numpy.so"].call_ns = 8'000'000;  // c and numba: 2 ms, candidate 1
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["baseline"], "numba");
  EXPECT_NEAR(r["speedups"]["numba"].get<double>(), 2.0, 1e-9);  // credited, paired
  EXPECT_NEAR(r["speedups"]["c"].get<double>(), 2.0, 1e-9);      // reported, paired too
  EXPECT_NEAR(r["speedups"]["numpy"].get<double>(), 8.0, 1e-9);
  EXPECT_NEAR(r["baselines"]["numpy"].get<double>(), 8e6, 1e-3);
  EXPECT_TRUE(r.contains("speedups_protocol"));
  EXPECT_NEAR(r["speedup"].get<double>(), 2.0, 1e-9);  // the credit is numba's alone
  ASSERT_EQ(store_.submissions.size(), 1u);
  const auto& rep = store_.submissions[0].reported;
  ASSERT_EQ(rep.size(), 2u);
  std::map<std::string, double> by_name;
  for (const auto& x : rep) by_name[x.baseline] = x.speedup;
  EXPECT_NEAR(by_name.at("c"), 2.0, 1e-9);
  EXPECT_NEAR(by_name.at("numpy"), 8.0, 1e-9);
  // Paired with the candidate in this grade (as a baseline beside it), never timed alone.
  EXPECT_EQ(alone_runs("lib-numpy.so"), 0);
  int numpy_paired = 0;
  for (std::size_t i = 0; i < launcher_.roles.size(); ++i) {
    numpy_paired += launcher_.roles[i] == "baseline numpy";
  }
  EXPECT_GE(numpy_paired, 1);
  // /score credits its own baseline only: no other figure, nothing else timed.
  const auto launches = launcher_.roles.size();
  json s = grade("score");
  EXPECT_EQ(s["verdict"], "ok") << s.dump();
  EXPECT_EQ(s["speedups"].size(), 1u) << s.dump();
  for (std::size_t i = launches; i < launcher_.roles.size(); ++i) {
    EXPECT_NE(launcher_.roles[i], "baseline numpy");
  }
}

TEST_F(PythonBaselineTest, AReportedFigureIsTheSameGradesPairedRatioNotACachedOne) {
  // The host was slower when the baselines' caches could have been filled: a figure derived
  // from cached times would drift with it; the paired one is the ratio within this grade.
  config_.report_baselines = "c,numba";
  launcher_.by_library["lib-c.so"].call_ns = 3'000'000;
  launcher_.candidate.call_ns = 1'500'000;
  json r = grade("submit");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_NEAR(r["speedups"]["c"].get<double>(), 2.0, 1e-9);
  EXPECT_NEAR(r["baselines"]["c"].get<double>(), 3e6, 1e-3);
  EXPECT_EQ(r["speedups_protocol"]["others"].get<std::string>().find("cached"), std::string::npos);
}

TEST_F(PythonBaselineTest, AReportedFigureIsCreditedByTheSameRules) {
  // 1 % apart, every call: the test confirms it, but within the equivalence margin it is
  // credited 1, as the credited figure would be; the raw ratio is kept beside it.
  config_.report_baselines = "c,numba";
  launcher_.by_library["lib-c.so"].call_ns = 1'010'000;
  launcher_.by_library["lib-numba.so"].call_ns = 1'000'000;
  launcher_.candidate.call_ns = 1'000'000;
  json r = grade("submit");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["speedups"]["c"].get<double>(), 1.0) << r.dump();
  EXPECT_NEAR(r["speedups_raw"]["c"].get<double>(), 1.01, 1e-9) << r.dump();
  EXPECT_EQ(r["speedups"]["numba"].get<double>(), 1.0) << r.dump();
  ASSERT_EQ(store_.submissions.size(), 1u);
  ASSERT_EQ(store_.submissions[0].reported.size(), 1u);
  EXPECT_EQ(store_.submissions[0].reported[0].speedup, 1.0);
}

TEST_F(GraderTest, TheNumPyOracleChecksWhenTheManifestNamesIt) {
  for (auto& m : corpus_) {
    if (m.id == "tsvc_2_s000") m.oracle = "numpy";
  }
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["oracle"], "reference.py (numpy)");
  EXPECT_EQ(r["baseline"], "c");
  std::set<std::string> oracle_libs;
  for (std::size_t i = 0; i < launcher_.roles.size(); ++i) {
    if (launcher_.roles[i] == "oracle") oracle_libs.insert(launcher_.libraries[i]);
  }
  EXPECT_EQ(oracle_libs, std::set<std::string>{"lib-numpy.so"});
}

// A kernel with kernel.json and reference.py only: the NumPy oracle, and with a track naming
// c the fallback baseline numpy.
TEST_F(GraderTest, AKernelWithoutReferenceCIsCheckedAndTimedAgainstNumPy) {
  const fs::path dir = fs::temp_directory_path() / ("hpcab-npyonly-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "reference.py") << "def tsvc_2_s000(a, b, N):\n    a[:] = b + 1\n";
  for (auto& m : corpus_) {
    if (m.id == "tsvc_2_s000") m.dir = dir;
  }
  json r = grade("submit");
  fs::remove_all(dir);
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["oracle"], "reference.py (numpy)");
  EXPECT_EQ(r["baseline"], "numpy");
  for (const auto& req : compiler_.requests) {
    EXPECT_NE(req.flavor, "c") << "reference.c was built though the kernel has none";
  }
}

TEST_F(GraderTest, APythonSubmissionIsBuiltAsAModuleOfTheKernelsFunction) {
  GradeRequest req;
  req.route = "submit";
  req.kernel = "tsvc_2_s000";
  req.language = "python";
  req.source = "def tsvc_2_s000(a, b, N):\n    a[:] = b + 1\n";
  json r = grader().grade(req);
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["language"], "python");
  ASSERT_FALSE(compiler_.requests.empty());
  const BuildRequest& b = compiler_.requests.front();
  EXPECT_EQ(b.language, "python");
  EXPECT_EQ(b.flavor, "submission");
  EXPECT_EQ(b.function, "tsvc_2_s000");
  EXPECT_TRUE(b.tokens.empty());
}

TEST(ReportedSpeedup, IsThePairedConfigurationsCredit) {
  EXPECT_NEAR(*reported_speedup(ReportedFigure{8e6, 4e6, 2.0, 2.0}), 2.0, 1e-12);
  EXPECT_NEAR(*reported_speedup(ReportedFigure{4.1e6, 4e6, 1.025, 1.0}), 1.0, 1e-12);
  EXPECT_FALSE(reported_speedup(ReportedFigure{8e6, 0, 0, 0}).has_value());
  EXPECT_FALSE(reported_speedup(ReportedFigure{0, 4e6, 0, 0}).has_value());
}

TEST(RunnerProtocol, RoundTrips) {
  auto c = proto::parse_command(proto::prep_command(42, "normal", 1e-3));
  EXPECT_EQ(c.verb, proto::Command::Verb::kPrep);
  EXPECT_EQ(c.seed, 42u);
  EXPECT_EQ(c.dist, "normal");
  EXPECT_DOUBLE_EQ(c.scale, 1e-3);
  auto p = proto::parse_command(proto::post_command(true, "call3"));
  EXPECT_TRUE(p.save);
  EXPECT_EQ(p.tag, "call3");
  EXPECT_EQ(proto::parse_reply(proto::done_reply(123)).ns, 123);
  EXPECT_EQ(proto::parse_reply("done 12x").kind, proto::Reply::Kind::kUnknown);
  EXPECT_EQ(proto::parse_reply("done").kind, proto::Reply::Kind::kUnknown);
  auto e = proto::parse_reply(proto::error_reply(proto::Fault::kIo, "disk\nfull"));
  EXPECT_EQ(e.kind, proto::Reply::Kind::kError);
  EXPECT_EQ(e.fault, proto::Fault::kIo);
  EXPECT_EQ(e.message, "disk full");
  EXPECT_EQ(proto::parse_reply("error bogus x").kind, proto::Reply::Kind::kUnknown);
  auto g = proto::parse_reply(proto::posted_reply(proto::PostProblem::kGuard, "(workspace)", "-8"));
  EXPECT_EQ(g.problem, proto::PostProblem::kGuard);
  EXPECT_EQ(g.index, "-8");
  auto l = proto::parse_reply(
      proto::layout_reply({{"C", 0x7f12345000, 1023000}, {"sum", 0xffffffffffffffff, 8}}));
  ASSERT_EQ(l.kind, proto::Reply::Kind::kLayout);
  ASSERT_EQ(l.slots.size(), 2u);
  EXPECT_EQ(l.slots[0].name, "C");
  EXPECT_EQ(l.slots[0].address, 0x7f12345000u);
  EXPECT_EQ(l.slots[0].bytes, 1023000u);
  EXPECT_EQ(l.slots[1].address, 0xffffffffffffffffu);
  // Anything but name, hex address, decimal bytes triples is no layout.
  for (const char* bad : {"layout C 7f00", "layout C 7g00 8", "layout C 0x7f00 8",
                          "layout C 7f00 -8", "layout C 17f00000000000000 8", "layout C 7F00 8"}) {
    EXPECT_EQ(proto::parse_reply(bad).kind, proto::Reply::Kind::kUnknown) << bad;
  }
}

// ---------------------------------------------------------------------------------------------
// Slot watch: timings taken while other work had the slot's CPUs are never credited or charged.

TEST_F(GraderTest, EveryTimedConfigurationReportsWhatTheSlotWatchSaw) {
  launcher_.candidate.runnable_wait = 0.04;  // under the 10 % limit
  json r = grade("submit");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  for (const auto& c : r["configs"]) {
    // The candidate's waiting over both timed sides' runnable time (1 + 2 ms a call).
    EXPECT_GT(c["slot_wait"].get<double>(), 0.01) << c.dump();
    EXPECT_LT(c["slot_wait"].get<double>(), 0.02) << c.dump();
    EXPECT_EQ(c["slot_steal"].get<double>(), 0.0);
    EXPECT_EQ(c["slot_retries"], 0);
  }
  ASSERT_EQ(store_.submissions.size(), 1u);
  ASSERT_FALSE(store_.submissions[0].configs.empty());
  ASSERT_TRUE(store_.submissions[0].configs[0].slot_wait.has_value());
  EXPECT_EQ(*store_.submissions[0].configs[0].slot_wait, r["configs"][0]["slot_wait"]);
}

TEST_F(GraderTest, AConfigurationTimedWhileTheHypervisorStoleTheSlotIsRerun) {
  slots_.steal = {0.5};  // the first timed window only
  json r = grade("submit");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_NEAR(r["speedup"].get<double>(), 2.0, 1e-9);
  EXPECT_EQ(r["configs"][0]["slot_retries"], 1);
  EXPECT_EQ(r["configs"][0]["slot_steal"].get<double>(), 0.0);  // the rerun's figure
  EXPECT_EQ(store_.submissions.at(0).configs.at(0).slot_retries, 1);
}

TEST_F(GraderTest, ASlotDisturbedOnEveryTryIsAJudgeFaultNeverCharged) {
  config_.slot_retries = 2;
  slots_.steal = std::deque<double>(50, 0.5);
  json r = grade("submit");
  EXPECT_EQ(r["verdict"], "judge_error") << r.dump();
  EXPECT_TRUE(r["harness_fault"].get<bool>());
  EXPECT_EQ(r["fault"], "slot");
  EXPECT_TRUE(r["speedup"].is_null());
  EXPECT_TRUE(store_.submissions.empty());  // not an answer: nothing charged
  EXPECT_EQ(slots_.windows, 3);             // the try and two reruns, then the fault
}

TEST_F(GraderTest, RunnersWaitingForACpuAreADisturbedSlot) {
  config_.slot_retries = 0;
  launcher_.candidate.runnable_wait = 0.5;  // another process had the CPU half the time
  json r = grade("score");
  EXPECT_EQ(r["verdict"], "judge_error") << r.dump();
  EXPECT_EQ(r["fault"], "slot");
}

TEST_F(GraderTest, ABaselineTimedAloneOnADisturbedSlotIsASlotFault) {
  config_.score_paired = false;  // /score measures the baseline alone first
  config_.slot_retries = 0;
  launcher_.baseline.runnable_wait = 0.5;  // the baseline, timed alone in the candidate's role
  json r = grade("score");
  EXPECT_EQ(r["verdict"], "judge_error") << r.dump();
  EXPECT_EQ(r["fault"], "slot");
}

TEST_F(GraderTest, SlotChecksAtZeroAreOffAndTheFiguresStillReported) {
  config_.slot_wait_max = 0;
  config_.slot_steal_max = 0;
  slots_.steal = std::deque<double>(50, 0.5);
  launcher_.candidate.runnable_wait = 0.5;
  json r = grade("submit");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["configs"][0]["slot_retries"], 0);
  EXPECT_NEAR(r["configs"][0]["slot_steal"].get<double>(), 0.5, 1e-9);
  EXPECT_GT(r["configs"][0]["slot_wait"].get<double>(), 0.2);
}

TEST(SlotDisturbanceTest, UnmeasuredIsNeverDisturbedAndEachLimitActsAlone) {
  SlotUse u;
  EXPECT_EQ(slot_disturbance(u, 0.1, 0.1), "");
  u.measured = true;
  u.wait = 0.2;
  EXPECT_NE(slot_disturbance(u, 0.1, 0.1), "");
  EXPECT_EQ(slot_disturbance(u, 0, 0.1), "");
  u.wait = 0;
  u.steal = 0.2;
  EXPECT_NE(slot_disturbance(u, 0.1, 0.1), "");
  EXPECT_EQ(slot_disturbance(u, 0.1, 0), "");
  u.steal = 0.1;  // at the limit: credited
  EXPECT_EQ(slot_disturbance(u, 0.1, 0.1), "");
}

}  // namespace
}  // namespace hpcab::judge
