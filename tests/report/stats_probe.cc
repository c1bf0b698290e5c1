// hpcab-stats-probe: the research statistics (report/stats.h) over JSON lines, for
// tests/report/scipy_crosscheck.py. Each stdin line is one request, each stdout line its answer
// (doubles printed to round-trip; NaN and nullopt as null):
//   {"op": "geomean", "v": [..]}                         -> {"value": x}
//   {"op": "bootstrap", "v": [..], "resamples": R, "level": L, "seed": S}
//                                                        -> {"lo": x, "hi": y} or {"lo": null, ..}
//   {"op": "fast_p", "speedups": [x or null, ..], "p": P} -> {"value": x}
//   {"op": "mcnemar", "b": B, "c": C}                    -> {"value": x}
//   {"op": "paired", "ratios": [..], "level": L, "min_pairs": M}
//                                                 -> {"n", "geomean", "lo", "hi", "t", "p", "w"}
//   {"op": "wilcoxon", "d": [..]}                        -> {"value": x}
//   {"op": "bh", "p": [..]}                              -> {"value": [..]}
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report/stats.h"

namespace {

using nlohmann::json;
using namespace hpcab::report;

json num(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }
json num(const std::optional<double>& x) { return x ? num(*x) : json(nullptr); }

json answer(const json& req) {
  const std::string op = req.at("op").get<std::string>();
  if (op == "geomean")
    return {{"value", num(geometric_mean(req.at("v").get<std::vector<double>>()))}};
  if (op == "bootstrap") {
    const auto ci =
        bootstrap_geomean_ci(req.at("v").get<std::vector<double>>(), req.value("resamples", 10000),
                             req.value("level", 0.95), req.value("seed", std::uint64_t{1}));
    return {{"lo", ci ? num(ci->lo) : json(nullptr)}, {"hi", ci ? num(ci->hi) : json(nullptr)}};
  }
  if (op == "fast_p") {
    std::vector<std::optional<double>> s;
    for (const json& x : req.at("speedups")) {
      s.push_back(x.is_null() ? std::nullopt : std::optional<double>(x.get<double>()));
    }
    return {{"value", num(fast_p(s, req.at("p").get<double>()))}};
  }
  if (op == "mcnemar") {
    return {{"value", num(mcnemar_exact_p(req.at("b").get<std::int64_t>(),
                                          req.at("c").get<std::int64_t>()))}};
  }
  if (op == "paired") {
    const RatioTest r = paired_log_ratio_test(req.at("ratios").get<std::vector<double>>(),
                                              req.value("level", 0.95), req.value("min_pairs", 6));
    return {{"n", r.n},
            {"geomean", num(r.geomean_ratio)},
            {"lo", r.ci ? num(r.ci->lo) : json(nullptr)},
            {"hi", r.ci ? num(r.ci->hi) : json(nullptr)},
            {"t", num(r.t)},
            {"p", num(r.p_value)},
            {"w", num(r.wilcoxon_p)}};
  }
  if (op == "wilcoxon") {
    return {{"value", num(wilcoxon_signed_rank_p(req.at("d").get<std::vector<double>>()))}};
  }
  if (op == "bh") {
    json out = json::array();
    for (double q : benjamini_hochberg(req.at("p").get<std::vector<double>>()))
      out.push_back(num(q));
    return {{"value", out}};
  }
  throw std::runtime_error("unknown op " + op);
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    try {
      std::cout << answer(json::parse(line)).dump() << '\n';
    } catch (const std::exception& e) {
      std::cerr << "hpcab-stats-probe: " << e.what() << '\n';
      return 2;
    }
  }
  return 0;
}
