// The judge's database (SPEC §5.12): SQLite in WAL mode, schema versioned with migrations.
// Every /submit is one transaction (submission, samples, per-configuration results), so a crash
// at any moment leaves either the whole row set or none of it. /score calls are logged as calls.
// Thread-safe: one connection, serialized by a mutex.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "judge/store/records.h"

namespace hpcab::judge {

class Store : public SubmissionStore {
 public:
  // Opens (creating if needed) the database, sets WAL and busy timeout, runs migrations.
  static Result<std::unique_ptr<Store>> open(const std::string& path);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  int schema_version() const;
  Result<int64_t> record_submission(const SubmissionRecord& r);  // returns the submission id
  Result<int64_t> record_score_call(const ScoreCallRecord& r);
  Result<std::optional<BaselineSamples>> get_baseline(const BaselineKey& key);
  Status put_baseline(const BaselineKey& key, const BaselineSamples& samples);
  Result<std::optional<StoredCalibration>> get_calibration(const CalibrationKey& key);
  Status put_calibration(const CalibrationKey& key, const StoredCalibration& c);
  Result<int64_t> count_submissions();
  // SubmissionStore
  Result<std::optional<KeyedSubmission>> find_by_idempotency_key(int rank,
                                                                 const std::string& key) override;
  Status replace_response(int64_t id, const std::string& response_json) override;
  Result<std::optional<SubmissionRecord>> get_submission(int64_t id) override;
  Result<SubmissionPage> list_submissions(const SubmissionFilter& filter) override;
  Result<std::vector<ScoreCallSummary>> list_score_calls(const std::vector<std::string>& run_ids,
                                                         int64_t per_run) override;
  // Flushes and closes; further calls fail. Called on shutdown.
  void close();

 private:
  Store() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hpcab::judge
