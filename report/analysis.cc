#include "report/analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "report/csv.h"

namespace hpcab::report {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string num(double v, int digits = 6) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}
std::string num(const std::optional<double>& v, int digits = 6) { return v ? num(*v, digits) : ""; }

// Arms in first-seen order.
std::vector<std::string> arm_order(const std::vector<Observation>& rows) {
  std::vector<std::string> arms;
  std::set<std::string> seen;
  for (const auto& o : rows) {
    if (seen.insert(o.arm).second) arms.push_back(o.arm);
  }
  return arms;
}

std::string group_label(const std::string& g) { return g.empty() ? "unclassified" : g; }

}  // namespace

Result<Pick> parse_pick(const std::string& text) {
  if (text == "final") return Pick::kFinal;
  if (text == "best") return Pick::kBest;
  return Error{"pick must be 'final' or 'best' (got '" + text + "')"};
}

const char* pick_name(Pick p) { return p == Pick::kBest ? "best" : "final"; }

std::vector<Observation> apply_pick(std::vector<Observation> rows, Pick pick) {
  if (pick == Pick::kFinal) return rows;
  for (auto& o : rows) {
    o.verdict = o.best_verdict;
    o.solved = o.best_solved;
    o.speedup = o.best_solved ? o.best_speedup : std::nullopt;
    o.submission_id = o.best_submission_id;
  }
  return rows;
}

double task_score(const Observation& o, double c_max) {
  if (!o.solved || !o.speedup || !(*o.speedup > 0) || !std::isfinite(*o.speedup)) return 1.0;
  return std::clamp(*o.speedup, 1.0, c_max);
}

double suite_score(const std::vector<const Observation*>& rows, double c_max) {
  if (rows.empty()) return kNaN;
  double sum = 0;
  for (const Observation* o : rows) sum += std::log(task_score(*o, c_max));
  return std::exp(sum / static_cast<double>(rows.size()));
}

GroupStats group_stats(const std::vector<const Observation*>& rows, double c_max) {
  GroupStats g;
  std::vector<double> speedups;
  std::vector<std::optional<double>> credited;  // fast_p: nullopt = unsolved
  for (const Observation* o : rows) {
    ++g.episodes;
    if (o->solved) ++g.solved;
    if (o->solved && o->speedup && *o->speedup > 0) speedups.push_back(*o->speedup);
    credited.push_back(o->solved ? o->speedup : std::nullopt);
  }
  g.success_rate = g.episodes ? static_cast<double>(g.solved) / g.episodes : 0;
  g.speedups = static_cast<int>(speedups.size());
  g.geomean_speedup = geometric_mean(speedups);
  g.fast_1 = fast_p(credited, 1.0);
  g.fast_1_5 = fast_p(credited, 1.5);
  g.fast_2 = fast_p(credited, 2.0);
  g.suite_score = suite_score(rows, c_max);
  return g;
}

double episode_cost(const Observation& o, const CostWeights& w) {
  return static_cast<double>(o.input_tokens) * w.input +
         static_cast<double>(o.cached_tokens) * w.cached +
         static_cast<double>(o.output_tokens) * w.output;
}

std::vector<ArmSummary> summarize(const std::vector<Observation>& rows, const SummaryOptions& opt) {
  std::vector<ArmSummary> out;
  for (const auto& arm : arm_order(rows)) {
    ArmSummary s;
    s.arm = arm;
    std::set<std::string> kernels;
    std::vector<const Observation*> mine;
    std::vector<double> speedups;
    std::vector<std::pair<std::string, std::vector<const Observation*>>> dwarfs;
    CostWeights free = opt.weights, full = opt.weights;
    free.cached = 0;
    full.cached = opt.weights.input;
    for (const auto& o : rows) {
      if (o.arm != arm) continue;
      if (s.agent.empty()) s.agent = o.agent;
      if (s.model.empty()) s.model = o.model;
      mine.push_back(&o);
      kernels.insert(o.kernel);
      if (o.solved && o.speedup && *o.speedup > 0) speedups.push_back(*o.speedup);
      auto d = std::find_if(dwarfs.begin(), dwarfs.end(),
                            [&](const auto& x) { return x.first == o.dwarf; });
      if (d == dwarfs.end()) d = dwarfs.insert(dwarfs.end(), {o.dwarf, {}});
      d->second.push_back(&o);
      s.input_tokens += o.input_tokens;
      s.cached_tokens += o.cached_tokens;
      s.output_tokens += o.output_tokens;
      s.requests += o.requests;
      s.cost += episode_cost(o, opt.weights);
      s.cost_cached_free += episode_cost(o, free);
      s.cost_cached_full += episode_cost(o, full);
    }
    const GroupStats g = group_stats(mine, opt.c_max);
    s.episodes = g.episodes;
    s.kernels = static_cast<int>(kernels.size());
    s.solved = g.solved;
    s.success_rate = g.success_rate;
    s.speedups = g.speedups;
    s.geomean_speedup = g.geomean_speedup;
    s.speedup_ci = bootstrap_geomean_ci(speedups, opt.resamples, opt.level, opt.seed);
    s.fast_1 = g.fast_1;
    s.fast_1_5 = g.fast_1_5;
    s.fast_2 = g.fast_2;
    s.suite_score = g.suite_score;
    for (const auto& [dwarf, eps] : dwarfs) {
      s.dwarf_scores.push_back(
          {dwarf, {static_cast<int>(eps.size()), suite_score(eps, opt.c_max)}});
    }
    s.cost_per_episode = s.episodes ? s.cost / s.episodes : 0;
    s.cost_per_solved = s.solved ? s.cost / s.solved : kNaN;
    out.push_back(std::move(s));
  }
  return out;
}

std::string summary_csv(const std::vector<ArmSummary>& v) {
  std::string out = csv_line({"arm",
                              "agent",
                              "model",
                              "episodes",
                              "kernels",
                              "solved",
                              "success_rate",
                              "speedups",
                              "geomean_speedup",
                              "speedup_ci_lo",
                              "speedup_ci_hi",
                              "fast_1",
                              "fast_1.5",
                              "fast_2",
                              "input_tokens",
                              "cached_tokens",
                              "output_tokens",
                              "requests",
                              "weighted_cost",
                              "weighted_cost_cached_free",
                              "weighted_cost_cached_full",
                              "cost_per_episode",
                              "cost_per_solved",
                              "suite_score"});
  for (const auto& s : v) {
    out += csv_line({s.arm,
                     s.agent,
                     s.model,
                     std::to_string(s.episodes),
                     std::to_string(s.kernels),
                     std::to_string(s.solved),
                     num(s.success_rate),
                     std::to_string(s.speedups),
                     num(s.geomean_speedup),
                     s.speedup_ci ? num(s.speedup_ci->lo) : "",
                     s.speedup_ci ? num(s.speedup_ci->hi) : "",
                     num(s.fast_1),
                     num(s.fast_1_5),
                     num(s.fast_2),
                     std::to_string(s.input_tokens),
                     std::to_string(s.cached_tokens),
                     std::to_string(s.output_tokens),
                     std::to_string(s.requests),
                     num(s.cost, 10),
                     num(s.cost_cached_free, 10),
                     num(s.cost_cached_full, 10),
                     num(s.cost_per_episode),
                     num(s.cost_per_solved),
                     num(s.suite_score)});
  }
  return out;
}

std::string summary_text(const std::vector<ArmSummary>& v, const SummaryOptions& o) {
  std::ostringstream out;
  char line[512];
  for (const auto& s : v) {
    out << s.arm << " (" << (s.agent.empty() ? "?" : s.agent)
        << (s.model.empty() ? "" : ", " + s.model) << ")\n";
    std::snprintf(line, sizeof line, "  kernels %d, episodes %d, solved %d (%.1f%%)\n", s.kernels,
                  s.episodes, s.solved, 100 * s.success_rate);
    out << line;
    if (s.speedups > 0) {
      out << "  geometric-mean speedup over " << s.speedups;
      if (s.speedups < s.solved) {
        out << " of " << s.solved << " solved (" << s.solved - s.speedups
            << " without a credited speedup: suspect or not credited)";
      } else {
        out << " solved";
      }
      out << ": " << num(s.geomean_speedup, 4);
      if (s.speedup_ci) {
        out << " (" << num(100 * o.level, 3) << "% bootstrap CI " << num(s.speedup_ci->lo, 4)
            << " to " << num(s.speedup_ci->hi, 4) << ")";
      }
      out << "\n";
    } else {
      out << "  geometric-mean speedup: none ("
          << (s.solved ? "no solved episode has a credited speedup" : "nothing solved") << ")\n";
    }
    std::snprintf(line, sizeof line, "  fast_1 %.3f  fast_1.5 %.3f  fast_2 %.3f\n", s.fast_1,
                  s.fast_1_5, s.fast_2);
    out << line;
    out << "  suite score " << num(s.suite_score, 4) << " (speedups clamped to [1, " << num(o.c_max)
        << "], unsolved 1; per dwarf:";
    for (const auto& [dwarf, d] : s.dwarf_scores) {
      out << " " << group_label(dwarf) << " " << num(d.second, 4) << " (" << d.first << ")";
    }
    out << ")\n";
    out << "  tokens: input " << s.input_tokens << ", cached " << s.cached_tokens << ", output "
        << s.output_tokens << " (" << s.requests << " requests)\n";
    out << "  weighted cost " << num(s.cost, 10) << " (weights " << num(o.weights.input) << "/"
        << num(o.weights.cached) << "/" << num(o.weights.output)
        << "); cached at 0: " << num(s.cost_cached_free, 10)
        << ", cached at full: " << num(s.cost_cached_full, 10) << "; per episode "
        << num(s.cost_per_episode) << "\n";
  }
  return out.str();
}

Result<std::vector<Comparison>> compare_arms(const std::vector<Observation>& rows,
                                             const std::string& control,
                                             const std::vector<std::string>& treatments,
                                             const CompareOptions& opt) {
  const auto arms = arm_order(rows);
  auto known = [&](const std::string& a) {
    for (const auto& x : arms) {
      if (x == a) return true;
    }
    return false;
  };
  std::string present;
  for (const auto& a : arms) present += (present.empty() ? "" : ", ") + a;
  for (const auto& a : std::vector<std::string>{control}) {
    if (!known(a))
      return Error{"arm '" + a + "' is not in the observations (arms: " + present + ")"};
  }
  if (treatments.empty()) return Error{"no treatment arm given (--treatment)"};
  for (const auto& t : treatments) {
    if (!known(t))
      return Error{"arm '" + t + "' is not in the observations (arms: " + present + ")"};
    if (t == control) return Error{"arm '" + t + "' is both the control and a treatment"};
  }
  using Key = std::pair<std::string, int>;  // (kernel, repetition)
  auto index = [&](const std::string& arm) {
    std::map<Key, const Observation*> m;
    for (const auto& o : rows) {
      if (o.arm == arm) m.emplace(Key{o.kernel, o.repetition}, &o);
    }
    return m;
  };
  const auto ctrl = index(control);
  std::vector<Comparison> out;
  for (const auto& t : treatments) {
    Comparison c;
    c.control = control;
    c.treatment = t;
    std::vector<double> speed_ratios, cost_ratios;
    for (const auto& [key, tr] : index(t)) {
      auto it = ctrl.find(key);
      if (it == ctrl.end()) continue;
      const Observation& a = *it->second;
      const Observation& b = *tr;
      ++c.pairs;
      c.control_solved += a.solved;
      c.treatment_solved += b.solved;
      if (a.solved && !b.solved) ++c.only_control;
      if (!a.solved && b.solved) ++c.only_treatment;
      if (a.solved && b.solved && a.speedup && b.speedup && *a.speedup > 0 && *b.speedup > 0) {
        speed_ratios.push_back(*b.speedup / *a.speedup);
      }
      const double ca = episode_cost(a, opt.weights), cb = episode_cost(b, opt.weights);
      c.control_cost += ca;
      c.treatment_cost += cb;
      if (ca > 0 && cb > 0) cost_ratios.push_back(cb / ca);
    }
    c.mcnemar_p = mcnemar_exact_p(c.only_control, c.only_treatment);
    c.speedup = paired_log_ratio_test(speed_ratios, opt.level, opt.min_pairs);
    c.cost = paired_log_ratio_test(cost_ratios, opt.level, opt.min_pairs);
    c.cost_ratio = c.control_cost > 0 ? c.treatment_cost / c.control_cost : kNaN;
    out.push_back(std::move(c));
  }
  // Benjamini-Hochberg over every test of this run (each treatment's three tests).
  std::vector<double> ps;
  std::vector<std::optional<double>*> slots;
  for (auto& c : out) {
    if (c.pairs > 0) {
      ps.push_back(c.mcnemar_p);
      slots.push_back(&c.q_mcnemar);
    }
    if (c.speedup.p_value) {
      ps.push_back(*c.speedup.p_value);
      slots.push_back(&c.q_speedup);
    }
    if (c.cost.p_value) {
      ps.push_back(*c.cost.p_value);
      slots.push_back(&c.q_cost);
    }
  }
  const auto q = benjamini_hochberg(ps);
  for (std::size_t i = 0; i < slots.size() && i < q.size(); ++i) *slots[i] = q[i];
  return out;
}

std::string comparisons_csv(const std::vector<Comparison>& v) {
  std::string out = csv_line({"control",
                              "treatment",
                              "pairs",
                              "control_solved",
                              "treatment_solved",
                              "only_control",
                              "only_treatment",
                              "mcnemar_p",
                              "mcnemar_q",
                              "speedup_pairs",
                              "speedup_ratio",
                              "speedup_ratio_ci_lo",
                              "speedup_ratio_ci_hi",
                              "speedup_t",
                              "speedup_p",
                              "speedup_q",
                              "speedup_wilcoxon_p",
                              "control_cost",
                              "treatment_cost",
                              "cost_ratio",
                              "cost_pairs",
                              "cost_geomean_ratio",
                              "cost_ratio_ci_lo",
                              "cost_ratio_ci_hi",
                              "cost_p",
                              "cost_q"});
  for (const auto& c : v) {
    out += csv_line({c.control,
                     c.treatment,
                     std::to_string(c.pairs),
                     std::to_string(c.control_solved),
                     std::to_string(c.treatment_solved),
                     std::to_string(c.only_control),
                     std::to_string(c.only_treatment),
                     num(c.mcnemar_p, 10),
                     num(c.q_mcnemar, 10),
                     std::to_string(c.speedup.n),
                     num(c.speedup.geomean_ratio),
                     c.speedup.ci ? num(c.speedup.ci->lo) : "",
                     c.speedup.ci ? num(c.speedup.ci->hi) : "",
                     num(c.speedup.t),
                     num(c.speedup.p_value, 10),
                     num(c.q_speedup, 10),
                     num(c.speedup.wilcoxon_p, 10),
                     num(c.control_cost, 10),
                     num(c.treatment_cost, 10),
                     num(c.cost_ratio),
                     std::to_string(c.cost.n),
                     num(c.cost.geomean_ratio),
                     c.cost.ci ? num(c.cost.ci->lo) : "",
                     c.cost.ci ? num(c.cost.ci->hi) : "",
                     num(c.cost.p_value, 10),
                     num(c.q_cost, 10)});
  }
  return out;
}

std::string comparisons_text(const std::vector<Comparison>& v, const CompareOptions& o) {
  std::ostringstream out;
  const std::string lvl = num(100 * o.level, 3) + "%";
  for (const auto& c : v) {
    out << c.treatment << " vs " << c.control << ": " << c.pairs << " pairs (kernel, repetition)\n";
    out << "  solved: " << c.control_solved << " -> " << c.treatment_solved << " (only control "
        << c.only_control << ", only treatment " << c.only_treatment << "); exact McNemar p "
        << num(c.mcnemar_p, 4) << (c.q_mcnemar ? ", q " + num(c.q_mcnemar, 4) : "") << "\n";
    out << "  speedup ratio on " << c.speedup.n << " jointly solved: ";
    if (c.speedup.n == 0) {
      out << "none\n";
    } else {
      out << num(c.speedup.geomean_ratio, 4);
      if (c.speedup.ci) {
        out << " (" << lvl << " log-t CI " << num(c.speedup.ci->lo, 4) << " to "
            << num(c.speedup.ci->hi, 4) << ")";
      } else {
        out << " (no interval below " << o.min_pairs << " pairs)";
      }
      if (c.speedup.p_value) {
        out << "; paired t p " << num(*c.speedup.p_value, 4)
            << (c.q_speedup ? ", q " + num(c.q_speedup, 4) : "");
      }
      if (c.speedup.wilcoxon_p) out << "; Wilcoxon p " << num(*c.speedup.wilcoxon_p, 4);
      out << "\n";
    }
    out << "  cost: " << num(c.control_cost, 10) << " -> " << num(c.treatment_cost, 10)
        << " weighted tokens, ratio "
        << (std::isfinite(c.cost_ratio) ? num(c.cost_ratio, 4)
                                        : "n/a (the control spent no tokens)");
    if (c.cost.n > 0) {
      out << "; per-pair geometric-mean ratio " << num(c.cost.geomean_ratio, 4);
      if (c.cost.ci) {
        out << " (" << lvl << " CI " << num(c.cost.ci->lo, 4) << " to " << num(c.cost.ci->hi, 4)
            << ")";
      }
      if (c.cost.p_value) {
        out << ", p " << num(*c.cost.p_value, 4) << (c.q_cost ? ", q " + num(c.q_cost, 4) : "");
      }
    }
    out << "\n";
  }
  return out.str();
}

Result<std::vector<BreakdownRow>> breakdowns(const std::vector<Observation>& rows,
                                             const std::vector<std::string>& by, double c_max) {
  for (const auto& dim : by) {
    if (dim != "track" && dim != "dwarf" && dim != "level") {
      return Error{"breakdown must be track, dwarf or level (got '" + dim + "')"};
    }
  }
  std::vector<BreakdownRow> out;
  for (const auto& arm : arm_order(rows)) {
    for (const auto& dim : by) {
      auto key = [&](const Observation& o) {
        if (dim == "track") return o.track;
        if (dim == "dwarf") return o.dwarf;
        return o.level ? std::to_string(o.level) : std::string();
      };
      // Groups in sorted order (levels as numbers sort the same for 1..9).
      std::map<std::string, std::vector<const Observation*>> groups;
      for (const auto& o : rows) {
        if (o.arm == arm) groups[key(o)].push_back(&o);
      }
      for (const auto& [g, eps] : groups) out.push_back({arm, dim, g, group_stats(eps, c_max)});
    }
  }
  return out;
}

std::string breakdown_csv(const std::vector<BreakdownRow>& v) {
  std::string out =
      csv_line({"arm", "by", "group", "episodes", "solved", "success_rate", "speedups",
                "geomean_speedup", "fast_1", "fast_1.5", "fast_2", "suite_score"});
  for (const auto& b : v) {
    const GroupStats& g = b.stats;
    out += csv_line({b.arm, b.by, b.group, std::to_string(g.episodes), std::to_string(g.solved),
                     num(g.success_rate), std::to_string(g.speedups), num(g.geomean_speedup),
                     num(g.fast_1), num(g.fast_1_5), num(g.fast_2), num(g.suite_score)});
  }
  return out;
}

std::string breakdown_text(const std::vector<BreakdownRow>& v) {
  std::ostringstream out;
  std::string arm, by;
  char line[512];
  for (const auto& b : v) {
    if (b.arm != arm || b.by != by) {
      arm = b.arm;
      by = b.by;
      out << arm << " by " << by << ":\n";
      std::snprintf(line, sizeof line, "  %-28s %8s %8s %8s %10s %7s %7s\n", by.c_str(), "episodes",
                    "solved", "rate", "geomean", "fast_1", "suite");
      out << line;
    }
    const GroupStats& g = b.stats;
    const std::string gm = g.speedups ? num(g.geomean_speedup, 4) : "-";
    std::snprintf(line, sizeof line, "  %-28s %8d %8d %7.1f%% %10s %7.3f %7.4g\n",
                  group_label(b.group).c_str(), g.episodes, g.solved, 100 * g.success_rate,
                  gm.c_str(), g.fast_1, g.suite_score);
    out << line;
  }
  return out.str();
}

std::string arm_lines(const std::vector<Observation>& rows,
                      const std::vector<std::pair<std::string, Excluded>>& excluded) {
  std::ostringstream out;
  std::vector<std::string> arms = arm_order(rows);
  for (const auto& [arm, e] : excluded) {
    if (std::find(arms.begin(), arms.end(), arm) == arms.end()) arms.push_back(arm);
  }
  for (const auto& arm : arms) {
    int episodes = 0, solved = 0, finished = 0;
    std::set<std::string> kernels;
    for (const auto& o : rows) {
      if (o.arm != arm) continue;
      ++episodes;
      solved += o.solved;
      finished += o.status == "finished" || o.status == "failed";
      kernels.insert(o.kernel);
    }
    out << arm << ": " << episodes << " episodes (" << finished << " ended), " << kernels.size()
        << " kernels, " << solved << " solved";
    for (const auto& [a, e] : excluded) {
      if (a != arm || e.total() == 0) continue;
      out << "; excluded " << e.total() << " that never reached a grade: " << e.infrastructure
          << " infrastructure, " << e.not_run << " not run";
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace hpcab::report
