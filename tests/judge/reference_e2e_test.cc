// Every reference passes its own grade: reference.c resubmitted to a real judge with
// /submit, at each precision the kernel supports, must be `ok` and never `suspect`, whatever its
// presets (an ungradeable hidden preset is excluded, never a rejection), both at the presets
// and at timed sizes chosen by time (where the clock audit's allowance and the bandwidth floor
// meet calls of milliseconds and arrays of megabytes). `make test` runs a fixed sample across
// the tracks, calibrated to 2 ms calls; HPCAB_ALL_KERNELS=1 (`make corpus-check`) runs the whole
// corpus at the judge's default min_call_ms. PerturbedReferenceIsIncorrect checks the other
// side: a reference moved off by one element is `incorrect` (sample in make test, every kernel
// under HPCAB_ALL_KERNELS=1). Verdicts, not timing, are checked: the credited
// speedup of a reference is a figure of the validity benchmark, not a rule.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>

#include "common/manifest.h"
#include "tests/judge/judge_process.h"
#include "tests/judge/perturb.h"

namespace hpcab::judge::test {
namespace {

// A reduction with ungradeable hidden presets, a streaming loop, a scientific kernel credited
// against the fastest of c and c-autopar, and machine-learning kernels with reductions. Kept
// small at the paper's presets (the whole corpus, corpus-check, pays for the others): not gemm,
// whose c-autopar build takes seconds per call at S, so choosing its baseline costs a minute;
// not softmax, whose S (4.2e6 elements) is timed as it is and costs half a minute per grade.
// Loop kernels with integer outputs (tsvc_2_s3110's indices), a permutation scatter
// (tsvc_2_s491) and a wavefront (wavefront2d) join them.
const std::set<std::string> kSample = {"tsvc_2_s311", "tsvc_2_s000",       "tsvc_2_s3110",
                                       "tsvc_2_s491", "wavefront2d",       "jacobi_2d",
                                       "cumsum",      "cross_entropy_loss"};

// The wrong-answer sample: loop kernels of every kind (streaming, recurrence, reduction, gather,
// scatter, search with index outputs, packing, early exit, wavefront, fusion) and one kernel of
// each other track, a NumPy-only kernel (gelu: its reference.py perturbed and submitted as
// Python) and one drawn by the new initializers (hmm_forward's probability rows); corpus-check
// takes every kernel.
const std::set<std::string> kPerturbSample = {"tsvc_2_s000",  "tsvc_2_s1113", "tsvc_2_s2111",
                                              "tsvc_2_s311",  "tsvc_2_s3110", "tsvc_2_s321",
                                              "tsvc_2_s341",  "tsvc_2_s4112", "tsvc_2_s481",
                                              "tsvc_2_s491",  "tsvc_2_vdotr", "ext_break_capture",
                                              "fuse_diamond", "wavefront2d",  "jacobi_2d",
                                              "cumsum",       "gelu",         "hmm_forward"};

// HPCAB_KERNELS=a,b: only these kernels (a rerun of the ones that failed), at the default
// min_call_ms like the whole corpus.
std::set<std::string> chosen_kernels() {
  std::set<std::string> out;
  const char* v = std::getenv("HPCAB_KERNELS");
  std::string list = v ? v : "";
  for (std::size_t start = 0; start < list.size();) {
    std::size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    if (comma > start) out.insert(list.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

bool all_kernels() {
  const char* v = std::getenv("HPCAB_ALL_KERNELS");
  return v != nullptr && std::string(v) == "1";
}

// Grades every reference of the run; returns the responses by "id precision".
std::map<std::string, json> every_reference_passes(const json& settings, bool timed) {
  std::map<std::string, json> out;
  auto corpus = load_corpus(std::string(HPCAB_SOURCE_DIR) + "/corpus");
  EXPECT_TRUE(corpus) << corpus.error().message;
  if (!corpus) return out;
  Judge judge(settings);
  int graded = 0;
  for (const auto& m : *corpus) {
    const auto chosen = chosen_kernels();
    if (!chosen.empty() ? !chosen.count(m.id) : !all_kernels() && !kSample.count(m.id)) continue;
    for (Precision p : m.precisions) {
      const std::string precision(precision_name(p));
      SCOPED_TRACE(m.id + " " + precision);
      // A NumPy-only kernel's reference is its reference.py, submitted as Python.
      const bool c = m.has_reference_c();
      json r =
          judge.grade("submit", m.id, (c ? m.reference_c() : m.reference_py()).string(),
                      c ? "c" : "python", {{"precision", precision}, {"run_id", "reference-e2e"}});
      EXPECT_EQ(r.value("verdict", ""), "ok") << r.dump();
      EXPECT_FALSE(r.value("suspect", true))
          << r.value("detail", "") << "\nconfigs: " << r.value("configs", json()).dump()
          << "\ncalibration: " << r.value("calibration", json()).dump();
      EXPECT_TRUE(r.contains("submission_id"));
      EXPECT_EQ(r.contains("calibration"), timed) << r.dump();
      ++graded;
      out[m.id + " " + precision] = r;
    }
  }
  // Every kernel of the run was graded at least once (each supports a precision).
  const std::size_t chosen = chosen_kernels().size();
  EXPECT_GE(graded, static_cast<int>(chosen          ? chosen
                                     : all_kernels() ? corpus->size()
                                                     : kSample.size()));
  return out;
}

// A wrong answer is told from a right one on every kernel: each reference.c with one
// element of its first output moved far outside the tolerance (tests/judge/perturb.h) is
// `incorrect` at /score, in every precision, naming that output, while the reference itself
// passes (EveryReferencePassesItsOwnSubmit). At the presets: correctness, not timing.
TEST(ReferenceE2E, PerturbedReferenceIsIncorrect) {
  auto corpus = load_corpus(std::string(HPCAB_SOURCE_DIR) + "/corpus");
  ASSERT_TRUE(corpus) << corpus.error().message;
  Judge judge(json{{"timed_calls", 3}});
  const auto chosen = chosen_kernels();
  int graded = 0;
  for (const auto& m : *corpus) {
    if (!chosen.empty() ? !chosen.count(m.id) : !all_kernels() && !kPerturbSample.count(m.id)) {
      continue;
    }
    // A NumPy-only kernel's reference is its reference.py, perturbed and submitted as Python.
    const bool c = m.has_reference_c();
    for (Precision p : m.precisions) {
      const std::string source = c ? perturbed_reference_c(m, p) : perturbed_reference_py(m);
      const std::string precision(precision_name(p));
      SCOPED_TRACE(m.id + " " + precision);
      json body = {{"kernel", m.id},   {"language", c ? "c" : "python"}, {"rank", 0},
                   {"source", source}, {"run_id", "perturbed"},          {"precision", precision}};
      auto r = judge.post("/score", body);
      ASSERT_EQ(r.status, 200) << r.body;
      json j = json::parse(r.body);
      EXPECT_EQ(j.value("verdict", ""), "incorrect") << j.dump();
      EXPECT_EQ(j.value("build_ok", false), true) << j.value("detail", "");
      ++graded;
    }
  }
  EXPECT_GE(graded,
            static_cast<int>(chosen.empty() && !all_kernels() ? 2 * kPerturbSample.size() : 1));
}

// The reason `r` excluded its hidden preset M for, or "" when it ran.
std::string excluded_m(const json& r) {
  for (const auto& e : r.value("excluded", json::array())) {
    if (e.value("config", "") == "hidden preset M") return e.value("reason", "");
  }
  return "";
}

TEST(ReferenceE2E, EveryReferencePassesItsOwnSubmit) {
  // With one hidden correctness draw at preset M. make test's sample runs under a 2 GiB memory
  // limit (a 512 MiB data budget), so the M draws that do not fit (tsvc_2_s000, cross_entropy_loss)
  // are excluded, as on a judge with little memory, and jacobi_2d's (64 MiB) runs; corpus-check
  // (and HPCAB_KERNELS) run at the default 8 GiB and the default call timeout (60 s), where
  // the M draws the reference cannot compute within hidden_preset_reference_s (20 s: the
  // sequential C correlation at M, 3000 x 2500, takes over 60 s on a 2-core VM) are excluded
  // for time, never a timeout.
  const bool sample = !all_kernels() && chosen_kernels().empty();
  json settings = {{"hidden_presets", json::array({"M"})}};
  if (sample) {
    settings["memory_bytes"] = int64_t{2} << 30;
  } else {
    settings["call_timeout_s"] = nullptr;  // merge_patch: the judge's default
  }
  auto r = every_reference_passes(settings, false);
  if (!sample) return;
  // Both reasons a hidden configuration is excluded, never a rejection: tsvc_2_s311's M sums 2.2e8
  // values (ungradeable), tsvc_2_s000's M holds 1.4 GiB of arrays (over the budget).
  EXPECT_NE(excluded_m(r["tsvc_2_s311 fp64"]).find("ungradeable"), std::string::npos)
      << r["tsvc_2_s311 fp64"];
  EXPECT_NE(excluded_m(r["tsvc_2_s000 fp64"]).find("memory limit"), std::string::npos)
      << r["tsvc_2_s000 fp64"];
  EXPECT_EQ(excluded_m(r["jacobi_2d fp64"]), "") << r["jacobi_2d fp64"];
}

TEST(ReferenceE2E, EveryReferencePassesAtItsTimedSizes) {
  // The sample at 2 ms calls keeps make test short; corpus-check uses the default (5 ms).
  const bool defaults = all_kernels() || !chosen_kernels().empty();
  every_reference_passes(defaults ? json{{"min_call_ms", nullptr}} : json{{"min_call_ms", 2}},
                         true);
}

// Timed sizes chosen by time, for real: with min_call_ms set, the first grade calibrates
// tsvc_2_s000 (the baseline timed alone at sizes up its preset ladder), /score then runs at the
// calibrated size every time, /task shows it, and a /submit's reference is still ok and not
// suspect.
TEST(CalibrationE2E, ScoreRunsAtTheCalibratedSizeAndTaskShowsIt) {
  Judge judge({{"min_call_ms", 2}, {"timed_calls", 6}});
  const std::string ref =
      std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/tsvc_2_s000/reference.c";
  json first = judge.grade("score", "tsvc_2_s000", ref);
  ASSERT_EQ(first.value("verdict", ""), "ok") << first.dump();
  EXPECT_EQ(first["preset"], "timed");
  ASSERT_TRUE(first.contains("calibration")) << first.dump();
  const int64_t n = first["calibration"]["sizes"]["N"].get<int64_t>();
  EXPECT_GT(n, 512) << "2 ms of tsvc_2_s000 is far more than preset S's 512 elements";
  EXPECT_GE(first["calibration"]["baseline_ns"].get<double>(), 2e6);
  EXPECT_EQ(first["configs"][0]["sizes"]["N"], n);
  json second = judge.grade("score", "tsvc_2_s000", ref);
  EXPECT_EQ(second["configs"][0]["sizes"]["N"], n);  // stable: iterations compare
  auto task = judge.get("/task/tsvc_2_s000?rank=0");
  ASSERT_EQ(task.status, 200);
  EXPECT_EQ(json::parse(task.body)["timed_sizes"]["N"], n);
  json submit = judge.grade("submit", "tsvc_2_s000", ref);
  EXPECT_EQ(submit.value("verdict", ""), "ok") << submit.dump();
  EXPECT_FALSE(submit.value("suspect", true)) << submit.value("detail", "");
}

}  // namespace
}  // namespace hpcab::judge::test
