// The real side effects of a grade: hpcab-runner in bubblewrap (judge/sandbox/sandbox.h), the
// compiler (judge/build/build.h), the SQLite store (judge/store/store.h), the system clocks, the OS
// CSPRNG and the scratch filesystem.
#pragma once

#include <memory>
#include <string>

#include "judge/build/build.h"
#include "judge/config/config.h"
#include "judge/grade/effects.h"
#include "judge/grade/slot_watch.h"
#include "judge/store/store.h"

namespace hpcab::judge {

// Runs hpcab-runner in the sandbox. Each session gets <work_dir>/s<serial>/, holding the
// library, the manifest and the outputs the runner saves; it is mounted as /sandbox.
class SandboxRunnerLauncher : public RunnerLauncher {
 public:
  explicit SandboxRunnerLauncher(const JudgeConfig& config) : config_(config) {}
  Result<std::unique_ptr<RunnerChannel>> launch(const RunnerSpec& spec) override;
  // A sealed memfd (judge/grade/memfd_draw.h) unless the judge's shared_draw setting is off.
  Result<std::unique_ptr<SharedDraw>> shared_draw(const Manifest& m, Precision p,
                                                  const SymbolTable& sizes,
                                                  const std::vector<int>& cpus) override;

 private:
  const JudgeConfig& config_;
};

class BuilderCompiler : public Compiler {
 public:
  explicit BuilderCompiler(Builder* builder) : builder_(builder) {}
  Result<BuildResult> build(const BuildRequest& request) override {
    return builder_->build(request);
  }

 private:
  Builder* builder_;
};

class StoreGradeStore : public GradeStore {
 public:
  explicit StoreGradeStore(Store* store) : store_(store) {}
  Result<int64_t> record_submission(const SubmissionRecord& r) override {
    return store_->record_submission(r);
  }
  Result<int64_t> record_score_call(const ScoreCallRecord& r) override {
    return store_->record_score_call(r);
  }
  Result<std::optional<BaselineSamples>> get_baseline(const BaselineKey& key) override {
    return store_->get_baseline(key);
  }
  Status put_baseline(const BaselineKey& key, const BaselineSamples& samples) override {
    return store_->put_baseline(key, samples);
  }
  Result<std::optional<StoredCalibration>> get_calibration(const CalibrationKey& key) override {
    return store_->get_calibration(key);
  }
  Status put_calibration(const CalibrationKey& key, const StoredCalibration& c) override {
    return store_->put_calibration(key, c);
  }

 private:
  Store* store_;
};

// `realtime_watch` (JudgeConfig::realtime_observer): a watch runs the watching thread at
// SCHED_FIFO priority 1 where the judge may (root, CAP_SYS_NICE or RLIMIT_RTPRIO); probed once
// at construction, so a judge without the privilege watches at its normal priority and says so.
class SystemClock : public Clock {
 public:
  explicit SystemClock(bool realtime_watch = false);
  double now_unix() override;
  int64_t monotonic_ns() override;
  void pause_us(int us) override;
  void begin_watch() override;
  void end_watch() override;
  bool watch_boosted() const override { return boost_; }

 private:
  bool boost_ = false;
};

class OsEntropy : public Entropy {
 public:
  void fill(void* out, std::size_t n) override;
};

class DiskScratch : public ScratchFs {
 public:
  explicit DiskScratch(std::string root) : root_(std::move(root)) {}
  Result<std::string> make_dir(const std::string& prefix) override;
  void remove(const std::string& dir) override;
  Result<std::string> read(const std::string& path) override;

 private:
  std::string root_;
};

// The real effects, owned together (what Grader's production constructor builds).
struct RealEffects {
  RealEffects(const JudgeConfig& config, Store* store, Builder* builder);
  SandboxRunnerLauncher launcher;
  BuilderCompiler compiler;
  StoreGradeStore store;
  SystemClock clock;
  OsEntropy entropy;
  DiskScratch scratch;
  ProcStatSlotMonitor slots;
  GradeEffects effects();
};

}  // namespace hpcab::judge
