// The grader as the HTTP routes and the views see it: an interface, so request handling is
// tested on fakes (tests/judge/server_test.cc) and never reaches the pipeline's internals.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/manifest.h"
#include "common/result.h"
#include "judge/grade/request.h"

namespace hpcab::judge {

// What the routes need of a grader: the corpus, grades and baseline times. Grader is the one
// implementation; tests pass a fake (one that throws, say) to check the routes' own handling.
class GradeService {
 public:
  virtual ~GradeService() = default;
  virtual const Manifest* kernel(const std::string& id) const = 0;
  virtual const std::vector<Manifest>& corpus() const = 0;
  virtual std::string baseline_name(const Manifest& m) const = 0;
  // "c" (reference.c) or "numpy" (reference.py): what a kernel's outputs are checked against.
  virtual std::string oracle_name(const Manifest& m) const {
    return m.oracle.value_or(m.has_reference_c() ? "c" : "numpy");
  }
  virtual nlohmann::json grade(const GradeRequest& request) = 0;
  // POST /syntax-check: the candidate built with the judge's flags and nothing run; the answer
  // ({ok, verdict, diagnostics, log, ...}, docs/api.md). Nothing is recorded. Throws for a judge
  // fault (the route answers 500). The default is for fakes that never build.
  virtual nlohmann::json syntax_check(const GradeRequest&) {
    throw std::logic_error("this grader does not build");
  }
  // POST /profile: the candidate's (or, target "baseline", the kernel baseline's) time per call,
  // perf counters, hotspots and roofline on one public draw (docs/api.md). Nothing is recorded.
  // An Error with Errc::kNotFound: no usable profiler on this host (503); any other Error is the
  // judge's fault (500). The default is for fakes.
  virtual Result<nlohmann::json> profile(const GradeRequest&, const std::string&) {
    return Error{"this grader does not profile", Errc::kNotFound};
  }
  virtual Result<nlohmann::json> baseline_times(const Manifest& m, const std::string& preset,
                                                const std::string& precision) = 0;
  virtual const std::string& machine() const = 0;
  virtual std::optional<SymbolTable> cached_timed_sizes(const Manifest&, Precision) const {
    return std::nullopt;
  }
};

}  // namespace hpcab::judge
