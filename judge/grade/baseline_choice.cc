#include "judge/grade/baseline_choice.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace hpcab::judge {

namespace {

// What the builder knows how to build from reference.c (judge/build.cc flavors).
const std::set<std::string>& known_baselines() {
  static const std::set<std::string> known = {"c", "c-autopar"};
  return known;
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

Result<std::vector<std::string>> baseline_options(const std::string& spec) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = spec.find(',', start);
    const std::string name = trimmed(spec.substr(start, comma - start));
    if (name.empty()) return Error{"baseline list '" + spec + "' has an empty name"};
    if (!known_baselines().count(name)) {
      return Error{"unknown baseline '" + name + "' (known: c, c-autopar)"};
    }
    if (std::find(out.begin(), out.end(), name) != out.end()) {
      return Error{"baseline list '" + spec + "' names '" + name + "' twice"};
    }
    out.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string fastest_baseline(const std::vector<std::string>& options,
                             const std::map<std::string, double>& medians) {
  std::string best;
  double best_ns = INFINITY;
  for (const auto& name : options) {
    auto it = medians.find(name);
    if (it == medians.end() || !std::isfinite(it->second) || it->second <= 0) continue;
    if (it->second < best_ns) {
      best = name;
      best_ns = it->second;
    }
  }
  return best;
}

std::string describe_baselines(const std::vector<std::string>& options) {
  if (options.size() == 1) return options[0];
  std::string s = "the fastest of ";
  for (std::size_t i = 0; i < options.size(); ++i) s += (i ? ", " : "") + options[i];
  return s;
}

}  // namespace hpcab::judge
