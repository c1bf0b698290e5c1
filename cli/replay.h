// Replaying the credit rules on recorded samples (docs/grading.md "Credit rules"):
// what the verdict stage credits a recorded grade's samples under the paper's rule alone, with
// the equivalence margin, and with process replication too, as recorded and with a known
// effect injected into the candidate's samples (each divided by the effect: a candidate that
// many times faster; multiplied: that many times slower). The judge's own decide() runs on
// them, so a replay cannot drift from the live rule. It answers the question a new rule
// raises: what it costs in power (how often a real 5 % speedup is still credited above 1)
// for what it buys in A/A error, on this machine's own noise.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab::cli {

struct ReplayOptions {
  // submissions.optimizer values to replay (the validity benchmark's "validity-<source>");
  // empty: every ok, unsuspected /submit in the file.
  std::vector<std::string> optimizers;
  std::vector<double> effects = {1.03, 1.05, 1.1, 1.2};  // each > 1: replayed faster and slower
  double alpha = 0.1;
  double equivalence_margin = 0.02;
};

struct ReplayRow {
  std::string rules;  // "paper", "+margin", "+margin+replication"
  double effect = 1;  // the true ratio the samples were given: 1 as recorded
  int grades = 0;
  // Effect 1: credits within +-3 % of 1; above 1: credits > 1; below 1: credits < 1.
  int right = 0;
  double median_credit = 0;
};

struct ReplayReport {
  int grades = 0;               // grades replayed
  int timing_processes = 1;     // as the grades' responses recorded (the largest)
  std::vector<ReplayRow> rows;  // per rule set, per effect (1, then each faster and slower)
};

// Errors: a missing or unreadable file, not a judge database, no grade to replay.
Result<ReplayReport> replay_credits(const std::string& db_path, const ReplayOptions& options);

// The report as a table (one line per row, a header first).
std::string replay_table(const ReplayReport& report);

}  // namespace hpcab::cli
