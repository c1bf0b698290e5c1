#include "judge/grade/selfcheck.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "common/reference_build.h"

namespace hpcab::judge {

using json = nlohmann::json;

namespace {

// An honest parallel gemm: the reference's i-k-j loops with the rows of C split across the
// slot's threads. Nothing else changes, so its true speedup is what the threads give on this
// host, and the check measures the judge, not the candidate's cleverness.
constexpr const char* kParallelGemm = R"c(#include <stdint.h>

#define GEMM(NAME, T)                                                                        \
  void NAME(const T *restrict A, const T *restrict B, T *restrict C, const int64_t NI,       \
            const int64_t NJ, const int64_t NK, const T alpha, const T beta,                 \
            uint8_t *restrict workspace, const int64_t workspace_size) {                    \
    (void)workspace;                                                                         \
    (void)workspace_size;                                                                    \
    _Pragma("omp parallel for schedule(static)") for (int64_t i = 0; i < NI; i++) {          \
      for (int64_t j = 0; j < NJ; j++) C[i * NJ + j] *= beta;                                \
      for (int64_t k = 0; k < NK; k++) {                                                     \
        const T a = alpha * A[i * NK + k];                                                   \
        for (int64_t j = 0; j < NJ; j++) C[i * NJ + j] += a * B[k * NJ + j];                 \
      }                                                                                      \
    }                                                                                        \
  }

GEMM(gemm_fp64, double)
GEMM(gemm_fp32, float)
)c";

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

const Manifest* find(const std::vector<Manifest>& corpus, const std::string& id) {
  for (const auto& m : corpus) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

std::optional<double> number(const json& r, const char* key) {
  auto it = r.find(key);
  if (it == r.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// A grade that did not end ok, or ended ok with no credit: why, or "" when it credited.
std::string not_credited(const json& r, SelfcheckResult& out) {
  const std::string verdict = r.value("verdict", "");
  if (verdict != "ok") {
    out.outcome = SelfcheckOutcome::kFailed;
    std::string why = verdict.empty() ? r.value("error", "no verdict") : verdict;
    if (r.contains("fault")) why += " (fault: " + r.value("fault", "") + ")";
    return why + ": " + r.value("detail", "");
  }
  if (r.value("suspect", false)) {
    out.outcome = SelfcheckOutcome::kSuspect;
    return "judged suspect: " + r.value("detail", "");
  }
  if (!number(r, "speedup")) {
    out.outcome = SelfcheckOutcome::kFailed;
    return "ok without a credited speedup";
  }
  return "";
}

std::string fmt(double x) {
  std::ostringstream o;
  o.precision(3);
  o << std::fixed << x;
  return o.str();
}

void place(SelfcheckResult& out) {
  const double rel = std::fabs(*out.credit / *out.expected - 1);
  out.outcome = rel <= out.tolerance ? SelfcheckOutcome::kPass : SelfcheckOutcome::kMisjudged;
  out.detail = "credited " + fmt(*out.credit) + ", expected " + fmt(*out.expected) + " +- " +
               fmt(out.tolerance * 100) + " %";
}

}  // namespace

const char* selfcheck_outcome_name(SelfcheckOutcome o) {
  switch (o) {
    case SelfcheckOutcome::kPass:
      return "pass";
    case SelfcheckOutcome::kMisjudged:
      return "misjudged";
    case SelfcheckOutcome::kSuspect:
      return "suspect";
    case SelfcheckOutcome::kFailed:
      return "failed";
    case SelfcheckOutcome::kSkipped:
      return "skipped";
  }
  return "failed";
}

bool SelfcheckReport::fit() const {
  for (const auto& r : results) {
    if (r.outcome != SelfcheckOutcome::kPass && r.outcome != SelfcheckOutcome::kSkipped) {
      return false;
    }
  }
  return !results.empty();
}

json SelfcheckReport::to_json() const {
  json checks = json::array();
  for (const auto& r : results) {
    checks.push_back({{"check", r.name},
                      {"kernel", r.kernel},
                      {"outcome", selfcheck_outcome_name(r.outcome)},
                      {"credit", r.credit ? json(*r.credit) : json(nullptr)},
                      {"expected", r.expected ? json(*r.expected) : json(nullptr)},
                      {"tolerance", r.tolerance},
                      {"detail", r.detail}});
  }
  return {{"fit", fit()}, {"checks", checks}};
}

std::vector<SelfcheckCase> selfcheck_cases(const std::vector<Manifest>& corpus,
                                           std::size_t slot_cpus, bool python) {
  std::vector<SelfcheckCase> cases;
  auto reference = [&](const char* name, const char* id, bool py) {
    const Manifest* m = find(corpus, id);
    if (m == nullptr || !(py ? m->has_reference_py() : m->has_reference_c())) return;
    SelfcheckCase c{name, id, py ? "python" : "c", "", py ? "numpy" : "c", false};
    c.source = read_text(py ? m->reference_py() : m->reference_c());
    // Graded at fp64 (the request names no precision): the reference's fp64 instantiation.
    if (!py && is_single_source_reference(c.source)) {
      c.source = reference_as_submission(c.source, Precision::kFp64);
    }
    cases.push_back(std::move(c));
  };
  reference("memory-bound", "tsvc_2_s000", false);
  reference("compute-bound", "gemm", false);
  if (python) reference("python", "softmax", true);
  if (slot_cpus >= 2 && find(corpus, "gemm") != nullptr) {
    cases.push_back({"parallel", "gemm", "c", kParallelGemm, "c", true});
  }
  return cases;
}

SelfcheckResult judge_self(const SelfcheckCase& c, const json& response, double tolerance) {
  SelfcheckResult out{c.name,    c.kernel, SelfcheckOutcome::kFailed, std::nullopt, 1.0,
                      tolerance, ""};
  if (std::string why = not_credited(response, out); !why.empty()) {
    out.detail = why;
    return out;
  }
  if (response.value("baseline", "") != c.own_baseline) {
    out.detail = "credited against " + response.value("baseline", "?") + ", not its own build " +
                 c.own_baseline;
    return out;
  }
  out.credit = number(response, "speedup");
  place(out);
  return out;
}

SelfcheckResult judge_parallel(const SelfcheckCase& c, const json& paired, const json& direct,
                               double tolerance) {
  SelfcheckResult out{c.name,    c.kernel, SelfcheckOutcome::kFailed, std::nullopt, std::nullopt,
                      tolerance, ""};
  if (std::string why = not_credited(paired, out); !why.empty()) {
    out.detail = why;
    return out;
  }
  SelfcheckResult timed = out;
  if (std::string why = not_credited(direct, timed); !why.empty()) {
    out.outcome = timed.outcome;
    out.detail = "timing it directly: " + why;
    return out;
  }
  const std::string base = direct.value("baseline", "");
  const json raw = direct.value("speedups_raw", json::object());
  if (!raw.contains(base) || !raw[base].is_number() || raw[base].get<double>() <= 0) {
    out.detail = "the direct timing reported no ratio against " + base;
    return out;
  }
  out.credit = number(paired, "speedup");
  out.expected = raw[base].get<double>();
  place(out);
  return out;
}

SelfcheckReport run_selfcheck(const std::vector<SelfcheckCase>& cases, const SelfcheckGraders& g,
                              double tolerance, double parallel_tolerance,
                              const std::function<void(const SelfcheckResult&)>& progress) {
  SelfcheckReport report;
  for (const auto& c : cases) {
    GradeRequest req;
    req.route = "submit";
    req.kernel = c.kernel;
    req.language = c.language;
    req.source = c.source;
    req.run_id = "selfcheck";
    req.optimizer = "selfcheck";
    const json paired = g.paired(req);
    SelfcheckResult r;
    if (c.parallel) {
      req.route = "score";
      r = judge_parallel(c, paired, g.direct(req), parallel_tolerance);
    } else {
      r = judge_self(c, paired, tolerance);
    }
    if (progress) progress(r);
    report.results.push_back(std::move(r));
  }
  return report;
}

JudgeConfig selfcheck_config(const JudgeConfig& base, const std::vector<SelfcheckCase>& cases,
                             bool direct) {
  JudgeConfig c = base;
  for (const auto& k : cases) c.kernel_baseline[k.kernel] = k.own_baseline;
  c.report_baselines = "";
  c.score_paired = !direct;
  return c;
}

}  // namespace hpcab::judge
