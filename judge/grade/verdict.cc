#include "judge/grade/verdict.h"

#include <algorithm>
#include <cmath>
#include <span>

#include "common/stats.h"

namespace hpcab::judge {

namespace {

// The grade ended before its statistics: the failure is the verdict.
GradeResult stopped_result(const GradeOutcome& o, GradeResult r) {
  const RunFailure& f = *o.stopped;
  r.verdict = f.harness ? Verdict::kJudgeError : f.verdict;
  r.detail = f.detail;
  r.recorded_detail = f.detail;
  r.harness_fault = f.harness || f.verdict == Verdict::kJudgeError;
  r.fault_resource =
      r.harness_fault && f.resource == Resource::kNone ? Resource::kInternal : f.resource;
  r.timed_out = f.timed_out;
  r.reason = f.harness ? RejectReason::kNone : f.reason;
  return r;
}

// The direction a test confirmed beyond the equivalence margin: +1 faster, -1 slower, 0 none.
int confirmed_direction(const Credit& c, double margin) {
  if (c.outcome == Credit::Outcome::kFaster && c.ratio >= 1 + margin) return 1;
  if (c.outcome == Credit::Outcome::kSlower && c.ratio <= 1 - margin) return -1;
  return 0;
}

// Whether each timing process's share of the calls, tested alone, confirms `direction`; each
// part's ratio goes to `ratios` (reported whether or not the rule applies). Samples that do not
// split into the recorded parts on both sides (cached baseline samples on /score) were not timed in
// parts: nothing to replicate.
bool replicated(const TimedConfig& t, const VerdictRules& rules, int direction,
                std::vector<double>& ratios) {
  std::size_t total = 0;
  for (std::size_t n : t.parts) total += n;
  if (t.parts.size() < 2 || total != t.cand.size() || total != t.base.size()) return true;
  bool all = true;
  std::size_t from = 0;
  for (std::size_t n : t.parts) {
    const std::span<const double> cand(t.cand.data() + from, n), base(t.base.data() + from, n);
    const Credit part = credit_speedup(cand, base, rules.alpha);
    ratios.push_back(part.ratio);
    all = all && confirmed_direction(part, rules.equivalence_margin) == direction;
    from += n;
  }
  return all;
}

}  // namespace

ConfigCredit credit_config(const TimedConfig& t, const VerdictRules& rules, std::string* why) {
  Credit c = credit_speedup(t.cand, t.base, rules.alpha);
  ConfigCredit cc;
  cc.label = t.label;
  cc.sizes = t.sizes;
  cc.hidden = t.hidden;
  cc.cand_median_ns = c.cand_median;
  cc.base_median_ns = c.base_median;
  cc.ratio = c.ratio;
  cc.p_faster = c.p_faster;
  cc.p_slower = c.p_slower;
  cc.credit = c.credit;
  const int direction = confirmed_direction(c, rules.equivalence_margin);
  if (c.outcome != Credit::Outcome::kInconclusive && rules.equivalence_margin > 0 &&
      direction == 0) {
    // Inside the margin, or beyond it on the other side of 1 from the one the test confirmed
    // (a bimodal sample: the test counts which side's calls fell in the fast mode more often,
    // the medians land between the modes): the evidence does not say which way, credited 1.
    cc.credit = 1;
    cc.within_margin = std::fabs(c.ratio - 1) < rules.equivalence_margin;
    cc.median_disagrees = !cc.within_margin;
  }
  const bool every_part = replicated(t, rules, direction, cc.process_ratios);
  if (rules.process_replication && direction != 0 && !every_part) {
    cc.credit = 1;
    cc.unreplicated = true;
  }
  cc.samples = t.cand.size();
  cc.clock_shift_ns = t.clock_shift_ns;
  cc.slot = t.slot;
  *why = rules.implausible ? rules.implausible(t, c.cand_median) : "";
  if (c.ratio > rules.suspect_speedup) {
    *why = "speedup " + std::to_string(c.ratio) + " exceeds the " +
           std::to_string(rules.suspect_speedup) + "x plausibility threshold";
  }
  cc.suspect = !why->empty();
  return cc;
}

GradeResult decide(const GradeOutcome& o, const VerdictRules& rules) {
  GradeResult r;
  r.baseline = o.baseline;
  r.build_ok = o.build_ok;
  r.max_rel_error = o.max_rel_error;
  r.hidden_correct = o.submit ? std::optional<bool>(false) : std::nullopt;
  r.public_correct = o.public_correct;
  r.hidden_passed = o.hidden_passed;
  r.hidden_total = o.hidden_total;
  r.excluded = o.excluded;
  if (o.stopped) return stopped_result(o, r);
  if (!o.public_correct) {
    r.verdict = Verdict::kIncorrect;
    r.detail = r.recorded_detail = o.public_failure;
    return r;
  }
  r.baseline_protocol = o.baseline_protocol;
  if (o.submit && o.hidden_passed != o.hidden_total) {
    // The public draws passed but a hidden one did not: tuned to what it could see.
    const std::string head = std::to_string(o.hidden_total - o.hidden_passed) + " of " +
                             std::to_string(o.hidden_total) + " hidden cases failed; first: ";
    r.verdict = Verdict::kOverfit;
    r.detail = head + o.first_hidden_public;
    r.recorded_detail = head + o.first_hidden_recorded;
    return r;
  }
  if (o.submit) r.hidden_correct = true;
  r.correct = true;
  r.verdict = Verdict::kOk;

  // Statistics per configuration; task speedup = geometric mean of the credits.
  std::vector<double> credits;
  std::string suspect_reason;
  for (const auto& t : o.timed) {
    std::string why;
    ConfigCredit cc = credit_config(t, rules, &why);
    if (!why.empty() && !r.suspect) {
      r.suspect = true;
      suspect_reason = t.label + ": " + why;
    }
    if (r.configs.empty()) {
      r.public_ratio = cc.ratio;
      r.native_ns = cc.cand_median_ns;
      r.baseline_ns = cc.base_median_ns;
      r.p_value = cc.p_faster;
    }
    credits.push_back(cc.credit);
    r.configs.push_back(std::move(cc));
  }
  if (r.suspect) {
    r.detail = "correct; speedup not credited until reviewed (suspect): " + suspect_reason;
  } else {
    r.speedup = geomean(credits);
    r.detail = "correct on " + std::to_string(o.timed.size()) + " timed configuration(s); " +
               o.baseline_protocol;
  }
  r.recorded_detail = r.detail;
  return r;
}

std::vector<std::size_t> timing_parts(std::size_t calls, int processes) {
  const auto k = static_cast<std::size_t>(std::max(processes, 1));
  if (k == 1 || calls < 2 * k) return {calls};
  std::vector<std::size_t> parts;
  for (std::size_t i = 0; i < k; ++i) parts.push_back(calls * (i + 1) / k - calls * i / k);
  return parts;
}

}  // namespace hpcab::judge
