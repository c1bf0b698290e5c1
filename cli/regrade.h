// `hpcab regrade` (docs/regrade.md): the answers a judge recorded (judge A's database), resubmitted
// to another judge B, so a result can be checked on a second machine (the paper's Table IV). Each
// answer is checked for portability to B first (common/portability.h) and skipped with its
// reason when it is not; the others are POSTed to B's /submit with an Idempotency-Key per answer,
// so a rerun after a crash or a kill neither loses an answer nor grades one twice. Progress goes
// to a journal in the output directory (one JSON line per answer, fsynced), which a rerun resumes
// from; at the end regrade.csv, table.txt and summary.json are written beside it.
//
// Side effects behind RegradeTarget (judge B); the database reader and the journal are files.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/http_client.h"
#include "common/portability.h"
#include "common/result.h"
#include "report/regrade.h"

namespace hpcab::cli {

// best: each episode's fastest correct answer (its final one when none is correct); final: each
// episode's last answer; best,final: both (one resubmission where they are the same answer);
// all: every answer.
enum class Which { kBest, kFinal, kBestAndFinal, kAll };
Result<Which> parse_which(const std::string& text);

// One /submit recorded on A, as far as resubmitting it needs.
struct RecordedAnswer {
  long long id = 0;
  std::string run_id;
  std::string episode;  // run_id up to its last '#' (the harness's "<episode id>#<attempt>")
  std::string optimizer;
  std::string kernel, language, precision, preset, residency;
  std::string source;  // '' for a library submission
  std::vector<std::string> build;
  nlohmann::json workspace_bytes;  // as the request named it; null: none
  bool preset_named = true;        // false: the request named no preset (A's default was used)
  std::string verdict;
  std::optional<double> speedup;
  std::string machine;  // A's fingerprint
  std::string which;    // set by select_answers
};

// Every /submit (and /oracle) row of a judge database, by id. Errors: no such file, not a judge
// database.
Result<std::vector<RecordedAnswer>> read_answers(const std::string& db_path);

struct Selection {
  Which which = Which::kBestAndFinal;
  std::vector<std::string> kernels;  // empty: every kernel
  // Arm names: an answer belongs to arm X when its run id starts with "X/" (the harness's episode
  // ids are "<arm>/<kernel>/<repetition>"). Empty: every answer.
  std::vector<std::string> arms;
};
std::vector<RecordedAnswer> select_answers(const std::vector<RecordedAnswer>& all,
                                           const Selection& selection);

// "ARCH[:ISA_LEVEL[:VENDOR,...]]", e.g. "aarch64", "x86_64:x86-64-v3", "x86_64:x86-64-v4:nvidia".
Result<Platform> parse_platform(const std::string& text);
// The arch and ISA level a fingerprint names ("... | timing protocol N | x86_64 x86-64-v3 ...");
// nullopt for a fingerprint recorded before judges named them.
std::optional<Platform> platform_from_fingerprint(const std::string& machine);

// Judge B as the regrade sees it.
struct TargetInfo {
  Platform platform;
  int rank = 0;
  std::string machine;  // B's fingerprint
};
struct TargetAnswer {
  bool graded = false;  // false: B could not grade it (`reason` says why); not the answer's fault
  std::string verdict;
  std::optional<double> speedup;
  long long submission_id = 0;
  std::string reason;
};
class RegradeTarget {
 public:
  virtual ~RegradeTarget() = default;
  virtual Result<TargetInfo> health() = 0;
  // POST /submit with `body` and `key` as its Idempotency-Key; retries transport failures,
  // 429 and 503 itself.
  virtual TargetAnswer submit(const nlohmann::json& body, const std::string& key) = 0;
};
struct HttpTargetOptions {
  HttpOptions http;
  double submit_timeout_s = 3600;
  int attempts = 5;      // per answer, for transport failures, 429, 503 and judge faults
  double backoff_s = 2;  // doubled after each failed attempt
  std::function<void(double)> sleep;  // empty: the real clock
};
std::unique_ptr<RegradeTarget> http_target(const std::string& judge_url, HttpTargetOptions options);

struct RegradeOptions {
  Selection selection;
  std::string db_path;
  std::string out_dir;
  // Run ids on B are "<label>/<A's run id>" (or "<label>/submission-<id>" without one); the
  // Idempotency-Key is "<label>:<A's submission id>". Letters, digits, '.', '_', '-'.
  std::string label = "regrade";
  std::optional<Platform> target_platform;  // unset: B's /health
  std::optional<Platform> from_platform;    // unset: each answer's fingerprint, else this host's
  std::string judge_a = "A";                // names in the table
  std::string judge_b;
  // Stop after this many resubmissions (0: no limit): a bounded slice of a long regrade, resumed
  // by the next run.
  int max_submits = 0;
};

struct RegradeResult {
  int selected = 0;
  int resumed = 0;  // answers the journal already held
  int graded = 0, skipped = 0, failed = 0;
  bool complete = false;  // every selected answer is in the journal (no failed one)
  std::vector<report::RegradeRow> rows;
  report::RegradeTable table;
};

// The whole run: select, check, resubmit, journal, and (when complete or not) the outputs.
// Errors: the database, the output directory, or B's /health (nothing is resubmitted then).
Result<RegradeResult> run_regrade(const RegradeOptions& options, RegradeTarget& target,
                                  std::ostream& progress);

}  // namespace hpcab::cli
