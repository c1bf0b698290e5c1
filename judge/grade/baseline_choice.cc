#include "judge/grade/baseline_choice.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace hpcab::judge {

namespace {

// What the builder knows how to build (judge/build/build.cc flavors): from reference.c, and from
// reference.py.
const std::set<std::string>& known_baselines() {
  static const std::set<std::string> known = {"c", "c-autopar", "numpy", "numba", "numba-parallel"};
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
      return Error{"unknown baseline '" + name +
                   "' (known: c, c-autopar, numpy, numba, numba-parallel)"};
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

bool baseline_from_python(const std::string& name) {
  return name == "numpy" || name == "numba" || name == "numba-parallel";
}

bool sequential_baseline(const std::string& name) { return name == "c" || name == "numba"; }

bool baseline_needs_probe(const std::string& name) {
  return name == "numba" || name == "numba-parallel";
}

std::vector<std::string> available_options(const std::vector<std::string>& options,
                                           bool has_reference_c, bool has_reference_py) {
  std::vector<std::string> out;
  for (const auto& o : options) {
    if (baseline_from_python(o) ? has_reference_py : has_reference_c) out.push_back(o);
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

std::string describe_baseline_code(const std::string& name) {
  if (name == "c") return "reference.c, sequential";
  if (name == "c-autopar") return "reference.c with automatic parallelization";
  if (name == "numpy") return "reference.py under NumPy";
  if (name == "numba") return "reference.py under Numba's njit, sequential";
  if (name == "numba-parallel") return "reference.py under Numba's njit(parallel=True)";
  return "whichever of its options is fastest on this judge";
}

std::string describe_baselines(const std::vector<std::string>& options) {
  if (options.size() == 1) return options[0];
  std::string s = "the fastest of ";
  for (std::size_t i = 0; i < options.size(); ++i) s += (i ? ", " : "") + options[i];
  return s;
}

}  // namespace hpcab::judge
