#include "common/corpus_check.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "common/abi.h"
#include "common/compare.h"
#include "common/inputs.h"
#include "common/invoke.h"
#include "common/npy.h"
#include "common/process.h"
#include "common/reference_build.h"
#include "common/rng.h"

namespace hpcab {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

using Outputs = std::map<std::string, NdArray>;

struct Case {
  std::string label;  // "fp64 S/uniform", "fp32 fuzzed#1 {N=37}/normal"
  fs::path dir;
  Draw input;         // as generated, before any call
  Outputs c_outputs;  // reference.c results, when the kernel has one
};

std::string sizes_text(const SymbolTable& sizes) {
  std::string s = "{";
  for (const auto& [k, v] : sizes) s += (s.size() > 1 ? "," : "") + k + "=" + std::to_string(v);
  return s + "}";
}

Outputs run_c(const Manifest& m, const KernelCall& call, const Draw& d) {
  Draw copy = d;
  call(copy);
  Outputs outs;
  for (const auto& a : m.arrays) {
    if (a.is_output()) outs.emplace(a.name, std::move(copy.arrays.at(a.name)));
  }
  return outs;
}

bool outputs_equal(const Outputs& x, const Outputs& y, std::string* differing = nullptr) {
  for (const auto& [name, a] : x) {
    if (!a.bytes_equal(y.at(name))) {
      if (differing) *differing = name;
      return false;
    }
  }
  return true;
}

// The linter's draws (SPEC §3): d0, d1 from another seed, and per input (an initializer group
// once, by its head) d0 with that input alone taken from d1.
struct LintDraws {
  Draw d0, d1;
  std::vector<std::pair<std::string, Draw>> redrawn;  // input name -> mixed draw
};

Result<LintDraws> lint_draws(const Manifest& m, Precision p, uint64_t seed) {
  auto sizes = m.presets.at("S");
  DrawSpec spec{mix_seed(seed, 1000), p, sizes, Distribution::kUniform, 1.0, 0};
  auto d0 = generate_draw(m, spec);
  if (!d0) return Error{"lint: " + d0.error().message};
  spec.seed = mix_seed(seed, 1001);
  auto d1 = generate_draw(m, spec);
  if (!d1) return Error{"lint: " + d1.error().message};
  LintDraws l{std::move(*d0), std::move(*d1), {}};
  for (const auto& a : m.arrays) {
    if (a.intent == Intent::kOut) continue;
    // Redraw this array alone (with its initializer group, so structure stays valid).
    std::vector<std::string> group = {a.name};
    if (const Initializer* init = m.initializer_for(a.name)) {
      if (init->arrays().front() != a.name) continue;  // the group is tested once, by its head
      group = init->arrays();
    }
    Draw mixed = l.d0;
    for (const auto& g : group) mixed.arrays.at(g) = l.d1.arrays.at(g);
    l.redrawn.emplace_back(a.name, std::move(mixed));
  }
  return l;
}

// The linter's verdict on the outputs of those draws ("" when clean); `who` ran them.
std::string lint_verdict(const std::string& who, const Outputs& out0, const Outputs& again,
                         const Outputs& out1,
                         const std::vector<std::pair<std::string, Outputs>>& redrawn) {
  std::string which;
  if (!outputs_equal(out0, again, &which)) {
    return "lint: " + who + " is nondeterministic: output '" + which +
           "' differs between two runs on the same draw";
  }
  if (outputs_equal(out0, out1)) {
    return "lint: outputs do not vary across seeds (the task is degenerate)";
  }
  for (const auto& [name, out] : redrawn) {
    if (outputs_equal(out0, out)) {
      return "lint: input '" + name + "' does not affect any output when redrawn";
    }
  }
  return "";
}

std::string lint_c(const Manifest& m, const KernelCall& call, Precision p, uint64_t seed) {
  auto l = lint_draws(m, p, seed);
  if (!l) return l.error().message;
  auto out0 = run_c(m, call, l->d0);
  auto again = run_c(m, call, l->d0);
  auto out1 = run_c(m, call, l->d1);
  std::vector<std::pair<std::string, Outputs>> redrawn;
  for (const auto& [name, d] : l->redrawn) redrawn.emplace_back(name, run_c(m, call, d));
  return lint_verdict("reference.c", out0, again, out1, redrawn);
}

Status write_inputs(const fs::path& dir, const Draw& d) {
  std::error_code ec;
  fs::create_directories(dir / "in", ec);
  if (ec) return Error{"cannot create " + (dir / "in").string() + ": " + ec.message()};
  for (const auto& [name, arr] : d.arrays) {
    if (auto st = write_npy((dir / "in" / (name + ".npy")).string(), arr); !st) return st;
  }
  return Ok{};
}

// One case of run_reference.py's job.
json python_case(const Manifest& m, const fs::path& dir, const Draw& d) {
  json values = json::object();
  for (const auto& [k, v] : d.symbols) values[k] = v;
  json real_scalars = json::array();
  for (const auto& s : m.scalars) {
    if (s.is_real) {
      values[s.name] = s.real_value;
      real_scalars.push_back(s.name);
    }
  }
  json arrays = json::array(), outputs = json::array();
  for (const auto& a : m.arrays) {
    arrays.push_back(a.name);
    if (a.is_output()) outputs.push_back(a.name);
  }
  return {{"dir", dir.string()}, {"precision", precision_name(d.precision)},
          {"values", values},    {"real_scalars", real_scalars},
          {"arrays", arrays},    {"outputs", outputs}};
}

// Runs corpus/run_reference.py on `cases` (python_case objects); with `numba_case`, also that
// case under Numba, its statuses written to <work>/numba.json. Errors quote the output.
Status run_python(const Manifest& m, const json& cases, std::optional<std::size_t> numba_case,
                  const fs::path& work, const CheckOptions& o) {
  json job = {{"kernel_dir", fs::absolute(m.dir).string()}, {"id", m.id}, {"cases", cases}};
  if (numba_case) {
    job["numba"] = {{"case", *numba_case}, {"status_file", (work / "numba.json").string()}};
  }
  fs::path job_file = work / "job.json";
  std::ofstream(job_file) << job.dump(1);
  ProcessOptions py;
  py.argv = {o.python, o.driver.string(), job_file.string()};
  py.timeout_s = o.python_timeout_s;
  py.output_cap = 16 << 10;
  auto ran = run_process(py);
  if (!ran) return Error{"python: " + ran.error().message};
  if (!ran->success()) {
    return Error{"reference.py failed under " + o.python + " (" + ran->describe() +
                 "): " + ran->output};
  }
  return Ok{};
}

std::string shape_text(const NdArray& a) {
  std::string s = std::string(dtype_name(a.dtype())) + "[";
  for (std::size_t i = 0; i < a.shape().size(); ++i) {
    s += (i ? "," : "") + std::to_string(a.shape()[i]);
  }
  return s + "]";
}

// The outputs reference.py (or Numba) wrote to <dir>/<sub>/, each checked against the dtype
// and shape of the draw's array of that name.
Result<Outputs> read_outputs(const Manifest& m, const fs::path& dir, const std::string& sub,
                             const Draw& d) {
  Outputs out;
  for (const auto& a : m.arrays) {
    if (!a.is_output()) continue;
    auto loaded = read_npy((dir / sub / (a.name + ".npy")).string());
    if (!loaded) return loaded.error();
    const NdArray& want = d.arrays.at(a.name);
    if (loaded->dtype() != want.dtype() || loaded->shape() != want.shape()) {
      return Error{"output '" + a.name + "' came back as " + shape_text(*loaded) + ", not " +
                   shape_text(want)};
    }
    out.emplace(a.name, std::move(*loaded));
  }
  return out;
}

// "output 'out' holds NaN at index 3" for the first non-finite real element; "" when none.
std::string first_nonfinite(const Outputs& outs) {
  for (const auto& [name, a] : outs) {
    if (!dtype_is_float(a.dtype())) continue;
    for (int64_t i = 0; i < a.size(); ++i) {
      const double v = a.get(i);
      if (std::isfinite(v)) continue;
      return "output '" + name + "' holds " +
             (std::isnan(v) ? "NaN"
              : v > 0       ? "+Inf"
                            : "-Inf") +
             " at index " + std::to_string(i);
    }
  }
  return "";
}

Result<CompareOptions> compare_options(const Manifest& m, const Draw& d) {
  CompareOptions c{d.precision, std::nullopt};
  if (m.reduction_length) {
    auto l = m.reduction_length->eval(d.symbols);
    if (!l) return Error{"reduction_length: " + l.error().message};
    c.reduction_length = *l;
  }
  return c;
}

CompareResult compare_maps(const Outputs& expected, const Outputs& actual,
                           const CompareOptions& options) {
  std::vector<NamedArray> e, a;
  for (const auto& [name, arr] : expected) {
    e.push_back({name, &arr});
    a.push_back({name, &actual.at(name)});
  }
  return compare_outputs(e, a, options);
}

// Reads <work>/numba.json into r.numba and r.numba_parallel and compares each result that ran
// with the NumPy outputs `expected` of case `c`. Returns the failure ("" when none).
std::string numba_verdict(const Manifest& m, const fs::path& work, const Case& c,
                          const Outputs& expected, KernelCheck& r) {
  std::ifstream in(work / "numba.json");
  json status;
  try {
    status = json::parse(in);
  } catch (const json::exception& e) {
    return "numba: run_reference.py wrote no readable numba.json: " + std::string(e.what());
  }
  std::string failure;
  for (auto [key, sub, label, dst] :
       {std::tuple{"numba", "numba", "numba", &r.numba},
        std::tuple{"numba_parallel", "numba_parallel", "numba-parallel", &r.numba_parallel}}) {
    const json s = status.value(key, json::object());
    const std::string state = s.value("status", "");
    dst->detail = s.value("error", "");
    if (state == "unsupported") {
      dst->state = NumbaStatus::State::kUnsupported;
      continue;
    }
    dst->state = NumbaStatus::State::kFailed;
    if (state == "ok") {
      auto got = read_outputs(m, c.dir, sub, c.input);
      auto opts = compare_options(m, c.input);
      if (!got) {
        dst->detail = got.error().message;
      } else if (!opts) {
        dst->detail = opts.error().message;
      } else if (auto cmp = compare_maps(expected, *got, *opts);
                 cmp.status == CompareResult::Status::kFail) {
        dst->detail = "disagrees with NumPy (Numba actual, NumPy expected): " + cmp.detail;
      } else {
        dst->state = NumbaStatus::State::kOk;
        continue;
      }
    } else if (state != "failed") {
      dst->detail = "no status reported";
    }
    if (failure.empty()) {
      failure = std::string(label) + ": " + c.label + ": reference.py under " +
                (std::string(key) == "numba" ? "numba.njit" : "numba.njit(parallel=True)") + ": " +
                dst->detail;
    }
  }
  return failure;
}

}  // namespace

const char* NumbaStatus::name() const {
  switch (state) {
    case State::kOk:
      return "ok";
    case State::kUnsupported:
      return "unsupported";
    case State::kFailed:
      return "failed";
    case State::kNotChecked:
      break;
  }
  return "not_checked";
}

std::string NumbaStatus::text() const {
  if (state == State::kNotChecked) return "not checked";
  std::string t = name();
  if (!detail.empty()) t += " (" + detail + ")";
  return t;
}

Status check_presets_gradeable(const Manifest& m, std::vector<std::string>* out) {
  for (Precision p : m.precisions) {
    for (const char* name : kPresetNames) {
      auto it = m.presets.find(name);
      if (it == m.presets.end()) continue;
      auto why = ungradeable_reason(m, p, it->second);
      if (!why) continue;
      if (it->first == "S") {
        return Error{"preset S is ungradeable at " + std::string(precision_name(p)) + " (" + *why +
                         "): no answer could be graded at the default size",
                     Errc::kInvalid};
      }
      if (out) out->push_back(it->first + " " + std::string(precision_name(p)));
    }
  }
  return Ok{};
}

Status check_presets_fit(const Manifest& m, uint64_t memory_bytes, std::vector<std::string>* out) {
  for (Precision p : m.precisions) {
    for (const char* name : kPresetNames) {
      auto it = m.presets.find(name);
      if (it == m.presets.end()) continue;
      auto why = memory_shortfall(m, it->second, p, memory_bytes);
      if (!why) continue;
      if (it->first == "S") {
        return Error{"preset S does not fit the memory limit (" + *why +
                         "): no answer could be graded at the default size",
                     Errc::kInvalid};
      }
      if (out) out->push_back(it->first + " " + std::string(precision_name(p)));
    }
  }
  return Ok{};
}

namespace {

// The description's sentences: split at '.' and ';' except inside a number ("0.99").
std::vector<std::string> sentences(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool in_number =
        c == '.' && i > 0 && i + 1 < text.size() && digit(text[i - 1]) && digit(text[i + 1]);
    if ((c == '.' || c == ';') && !in_number) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// Whether a sentence says that an output is something upstream does not return.
bool admits_non_upstream_output(const std::string& sentence) {
  std::string s = sentence;
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto has = [&s](const char* w) { return s.find(w) != std::string::npos; };
  if (!has("output")) return false;
  if (has("not output") || has("not an output")) return false;
  for (const char* w : {"temporar", "intermediate", "scratch", "workspace", "signature",
                        "returns only", "output too", "outputs too", "output as in",
                        "outputs as in", "output, as in", "outputs, as in"}) {
    if (has(w)) return true;
  }
  return false;
}

}  // namespace

Status check_graded_outputs(const Manifest& m) {
  for (const auto& a : m.arrays) {
    if (a.is_output() && !a.graded_because.empty()) return Ok{};
  }
  for (const std::string& sentence : sentences(m.description)) {
    if (!admits_non_upstream_output(sentence)) continue;
    std::string quoted = sentence;
    while (!quoted.empty() && quoted.front() == ' ') quoted.erase(0, 1);
    return Error{"lint: the description says an output is not upstream's result (\"" + quoted +
                     "\"), but no output declares graded_because: keep only upstream's results "
                     "as outputs (temporaries are the reference's own scratch), or give the "
                     "array a \"graded_because\" reason (docs/corpus.md)",
                 Errc::kInvalid};
  }
  return Ok{};
}

namespace {

// The cases of one precision: preset S with each distribution, then the fuzzed draws.
struct Plan {
  std::string label;
  SymbolTable sizes;
  std::optional<Distribution> dist;
};

std::vector<Plan> case_plans(const Manifest& m, const CheckOptions& o) {
  std::vector<Plan> plans;
  for (Distribution d : {Distribution::kUniform, Distribution::kNormal, Distribution::kLognormal}) {
    plans.push_back({"S/" + std::string(distribution_name(d)), m.presets.at("S"), d});
  }
  for (int k = 0; k < o.fuzzed_draws; ++k) {
    auto sizes = fuzzed_sizes(m, mix_seed(o.seed, 100 + static_cast<uint64_t>(k)));
    plans.push_back({"fuzzed#" + std::to_string(k + 1) + " " + sizes_text(sizes), sizes, {}});
  }
  return plans;
}

Result<Case> make_case(const Manifest& m, Precision p, const Plan& plan, uint64_t seed,
                       const fs::path& dir) {
  std::string label = std::string(precision_name(p)) + " " + plan.label;
  DrawSpec spec{seed, p, plan.sizes, plan.dist, 1.0, 0};
  auto draw = generate_draw(m, spec);
  if (!draw) return Error{label + ": " + draw.error().message};
  Case c;
  c.label = label;
  if (!plan.dist) c.label += "/" + std::string(distribution_name(draw->distribution));
  c.dir = dir;
  if (auto st = write_inputs(c.dir, *draw); !st) return st.error();
  c.input = std::move(*draw);
  return c;
}

// A check of `m` not yet run (not ok), named for the report.
KernelCheck new_check(const Manifest& m) {
  KernelCheck r;
  r.id = m.id;
  r.track = m.track;
  r.numpy_only = !m.has_reference_c();
  return r;
}

Status fresh_dir(const fs::path& work) {
  std::error_code ec;
  fs::remove_all(work, ec);
  fs::create_directories(work, ec);
  if (ec) return Error{"cannot create " + work.string() + ": " + ec.message()};
  return Ok{};
}

}  // namespace

namespace {

// What check_kernel carries from one step to the next. Each step returns the kernel's first
// failure as an error, whose message becomes KernelCheck::reason.
struct KernelRun {
  fs::path work;
  std::optional<SharedLibrary> lib;  // reference.c, built, when the kernel has one
  std::map<Precision, KernelCall> calls;
  std::vector<Case> cases;
  json py_cases = json::array();  // reference.py's job: every case, then any lint draws
  std::optional<std::size_t> numba_case;
  std::optional<Outputs> numba_expected;  // reference.py's outputs on the Numba case
  // NumPy-only kernels: the linter's draws, run through reference.py after the cases.
  std::optional<LintDraws> lint;
};

// Step 0: every size a /submit must grade is gradeable (the others are excluded by the judge)
// and fits the runner's memory (the others are refused or excluded by the judge).
Status check_presets(const Manifest& m, const CheckOptions& o, KernelCheck& r) {
  if (auto st = check_presets_gradeable(m, &r.ungradeable_presets); !st) return st.error();
  if (auto st = check_presets_fit(m, o.memory_bytes, &r.oversized_presets); !st) {
    return st.error();
  }
  return Ok{};
}

// Step 1: builds reference.c into work/reference.so and opens it.
Status build_reference_c(const Manifest& m, const CheckOptions& o, KernelRun& run) {
  std::ifstream in(m.reference_c());
  const std::string source((std::istreambuf_iterator<char>(in)), {});
  if (!is_single_source_reference(source)) {
    return Error{
        "reference.c is not in the single-source form (one function over `real`, named "
        "HPCAB_KERNEL(" +
        m.id +
        "); docs/corpus.md \"reference.c\"): scripts/reference-single-source.py converts it"};
  }
  // The units include reference.c where it is, so diagnostics name the corpus file. Strict:
  // the fp32 unit computes in float or does not build.
  std::vector<StagedSource> units =
      reference_units(m.precisions, fs::absolute(m.reference_c()).string(), true);
  for (auto& u : units) {
    u.name = (run.work / u.name).string();
    std::ofstream(u.name) << u.text;
  }
  fs::path so = run.work / "reference.so";
  std::vector<std::string> cc = {o.cc};
  cc.insert(cc.end(), o.cflags.begin(), o.cflags.end());
  ProcessOptions build;
  build.argv = reference_command(std::move(cc), so.string(), units);
  build.timeout_s = o.build_timeout_s;
  build.output_cap = 16 << 10;
  auto built = run_process(build);
  if (!built) return Error{"build: " + built.error().message};
  if (!built->success()) {
    const bool promotes = built->output.find("double-promotion") != std::string::npos;
    return Error{"reference.c does not build (" + built->describe() + ")" +
                 (promotes ? " at fp32: it computes in double there (write floating literals as "
                             "(real)0.5 and use the type-generic math names; docs/corpus.md "
                             "\"reference.c\")"
                           : "") +
                 ": " + built->output};
  }
  auto opened = SharedLibrary::open(so.string());
  if (!opened) return Error{opened.error().message};
  run.lib.emplace(std::move(*opened));
  return Ok{};
}

// Step 2: generates every case and runs reference.c on it.
Status generate_cases(const Manifest& m, const CheckOptions& o, KernelRun& run) {
  const auto plans = case_plans(m, o);
  for (Precision p : m.precisions) {
    if (run.lib) {
      auto fn = run.lib->symbol(abi_symbol(m, p));
      if (!fn) return Error{"reference.c: " + fn.error().message};
      auto call = KernelCall::prepare(m, p, *fn);
      if (!call) return Error{call.error().message};
      run.calls.emplace(p, *call);
    }
    for (std::size_t i = 0; i < plans.size(); ++i) {
      // Numba runs once, on the first fuzzed case (S when there is none) of the first precision.
      if (o.numba && !run.numba_case && (!plans[i].dist || i + 1 == plans.size())) {
        run.numba_case = run.cases.size();
      }
      auto c = make_case(m, p, plans[i], mix_seed(o.seed, run.cases.size()),
                         run.work / ("case" + std::to_string(run.cases.size())));
      if (!c) return Error{c.error().message};
      if (run.lib) c->c_outputs = run_c(m, run.calls.at(p), c->input);
      run.cases.push_back(std::move(*c));
    }
  }
  for (const auto& c : run.cases) run.py_cases.push_back(python_case(m, c.dir, c.input));
  return Ok{};
}

// Without reference.c the linter's draws run through reference.py too, after the cases: writes
// them to work/lint<i> and adds them to reference.py's job.
Status add_lint_draws(const Manifest& m, const CheckOptions& o, KernelRun& run) {
  auto l = lint_draws(m, m.precisions.front(), o.seed);
  if (!l) return Error{l.error().message};
  run.lint = std::move(*l);
  std::vector<const Draw*> draws = {&run.lint->d0, &run.lint->d0, &run.lint->d1};
  for (const auto& [_, d] : run.lint->redrawn) draws.push_back(&d);
  for (std::size_t i = 0; i < draws.size(); ++i) {
    fs::path dir = run.work / ("lint" + std::to_string(i));
    if (auto st = write_inputs(dir, *draws[i]); !st) return Error{st.error().message};
    run.py_cases.push_back(python_case(m, dir, *draws[i]));
  }
  return Ok{};
}

// Step 4: compares reference.c (actual) against reference.py (expected); without reference.c,
// checks what reference.py wrote: the outputs' dtypes and shapes, and finite values.
Status compare_cases(const Manifest& m, KernelRun& run, KernelCheck& r) {
  for (std::size_t i = 0; i < run.cases.size(); ++i) {
    Case& c = run.cases[i];
    auto py_out = read_outputs(m, c.dir, "out", c.input);
    if (!py_out) return Error{c.label + ": reference.py: " + py_out.error().message};
    auto opts = compare_options(m, c.input);
    if (!opts) return Error{c.label + ": " + opts.error().message};
    CompareResult cmp;
    if (r.numpy_only) {
      if (auto bad = first_nonfinite(*py_out); !bad.empty()) {
        return Error{c.label + ": reference.py wrote a non-finite value: " + bad};
      }
      cmp = compare_maps(*py_out, *py_out, *opts);  // gradeable or not, as the judge would see
    } else {
      cmp = compare_maps(*py_out, c.c_outputs, *opts);
    }
    if (run.numba_case == i) run.numba_expected = *py_out;
    if (cmp.status == CompareResult::Status::kUngradeable) {
      ++r.ungradeable;
      continue;
    }
    ++r.cases;
    r.max_rel_error = std::max(r.max_rel_error, cmp.max_rel_error);
    if (!cmp.passed()) {
      return Error{c.label +
                   ": reference.c (actual) disagrees with reference.py (expected): " + cmp.detail};
    }
  }
  if (r.cases == 0) return Error{"no case was gradeable"};
  return Ok{};
}

// Step 6 for a NumPy-only kernel: the linter's verdict on reference.py's outputs of the draws
// add_lint_draws wrote.
Status lint_python_outputs(const Manifest& m, const KernelRun& run) {
  const LintDraws& lint = *run.lint;
  std::vector<Outputs> outs;
  for (std::size_t i = 0; i < 3 + lint.redrawn.size(); ++i) {
    const Draw& d = i == 2 ? lint.d1 : i < 2 ? lint.d0 : lint.redrawn[i - 3].second;
    auto got = read_outputs(m, run.work / ("lint" + std::to_string(i)), "out", d);
    if (!got) return Error{"lint: reference.py: " + got.error().message};
    outs.push_back(std::move(*got));
  }
  std::vector<std::pair<std::string, Outputs>> redrawn;
  for (std::size_t k = 0; k < lint.redrawn.size(); ++k) {
    redrawn.emplace_back(lint.redrawn[k].first, std::move(outs[3 + k]));
  }
  std::string problem = lint_verdict("reference.py", outs[0], outs[1], outs[2], redrawn);
  if (!problem.empty()) return Error{problem};
  return Ok{};
}

// Steps 5 and 6: Numba against NumPy, then the linter.
Status numba_and_lint(const Manifest& m, const CheckOptions& o, const KernelRun& run,
                      KernelCheck& r) {
  if (run.numba_case) {
    std::string problem =
        numba_verdict(m, run.work, run.cases[*run.numba_case], *run.numba_expected, r);
    if (!problem.empty()) return Error{problem};
  }
  if (o.lint && !r.numpy_only) {
    const Precision p = m.precisions.front();
    std::string problem = lint_c(m, run.calls.at(p), p, o.seed);
    if (!problem.empty()) return Error{problem};
  } else if (run.lint) {
    return lint_python_outputs(m, run);
  }
  return Ok{};
}

// `r`, failed for `why`.
KernelCheck failed(KernelCheck r, std::string why) {
  r.ok = false;
  r.reason = std::move(why);
  return r;
}

}  // namespace

KernelCheck check_kernel(const Manifest& m, const CheckOptions& o) {
  KernelCheck r = new_check(m);
  auto fail = [&r](std::string why) { return failed(std::move(r), std::move(why)); };
  if (auto st = check_kernel_files(m); !st) return fail(st.error().message);
  if (auto st = check_presets(m, o, r); !st) return fail(st.error().message);
  if (o.lint) {
    if (auto st = check_graded_outputs(m); !st) return fail(st.error().message);
  }
  KernelRun run;
  run.work = o.work_dir / m.id;
  if (auto st = fresh_dir(run.work); !st) return fail(st.error().message);
  if (!r.numpy_only) {
    if (auto st = build_reference_c(m, o, run); !st) return fail(st.error().message);
  }
  if (auto st = generate_cases(m, o, run); !st) return fail(st.error().message);
  if (o.lint && r.numpy_only) {
    if (auto st = add_lint_draws(m, o, run); !st) return fail(st.error().message);
  }
  // Step 3: one python process runs reference.py on every case (and Numba on one).
  if (auto st = run_python(m, run.py_cases, run.numba_case, run.work, o); !st) {
    return fail(st.error().message);
  }
  if (auto st = compare_cases(m, run, r); !st) return fail(st.error().message);
  if (auto st = numba_and_lint(m, o, run, r); !st) return fail(st.error().message);
  r.ok = true;
  return r;
}

KernelCheck check_numba(const Manifest& m, const CheckOptions& o) {
  KernelCheck r = new_check(m);
  auto fail = [&r](std::string why) { return failed(std::move(r), std::move(why)); };
  if (auto st = check_kernel_files(m); !st) return fail(st.error().message);
  fs::path work = o.work_dir / m.id;
  if (auto st = fresh_dir(work); !st) return fail(st.error().message);
  const auto plans = case_plans(m, o);
  const Plan& plan = o.fuzzed_draws > 0 ? plans[3] : plans[0];
  auto c = make_case(m, m.precisions.front(), plan, mix_seed(o.seed, 3), work / "case0");
  if (!c) return fail(c.error().message);
  if (auto st = run_python(m, json::array({python_case(m, c->dir, c->input)}), 0, work, o); !st) {
    return fail(st.error().message);
  }
  auto py_out = read_outputs(m, c->dir, "out", c->input);
  if (!py_out) return fail(c->label + ": reference.py: " + py_out.error().message);
  r.cases = 1;
  std::string problem = numba_verdict(m, work, *c, *py_out, r);
  if (!problem.empty()) return fail(problem);
  r.ok = true;
  return r;
}

std::string format_check_row(const KernelCheck& k) {
  char head[200];
  std::snprintf(head, sizeof head, "%-16s %-22s %-4s %9.2e  %-10s", k.id.c_str(), k.track.c_str(),
                k.ok ? "ok" : "FAIL", k.max_rel_error, k.numpy_only ? "numpy-only" : "c-vs-numpy");
  std::string row = head;
  if (!k.ok) {
    row += "  " + k.reason;
  } else if (k.ungradeable > 0) {
    row += "  (" + std::to_string(k.ungradeable) + " case(s) ungradeable at their precision)";
  }
  if (k.numba.state != NumbaStatus::State::kNotChecked ||
      k.numba_parallel.state != NumbaStatus::State::kNotChecked) {
    // A failing row's reason already says what went wrong: the statuses by name only.
    row += k.ok ? "  numba: " + k.numba.text() + ", numba-parallel: " + k.numba_parallel.text()
                : "  (numba: " + std::string(k.numba.name()) +
                      ", numba-parallel: " + k.numba_parallel.name() + ")";
  }
  if (k.ok && !k.ungradeable_presets.empty()) {
    std::string list;
    for (const auto& p : k.ungradeable_presets) list += (list.empty() ? "" : ", ") + p;
    row += "  (ungradeable presets, excluded from /submit: " + list + ")";
  }
  if (k.ok && !k.oversized_presets.empty()) {
    std::string list;
    for (const auto& p : k.oversized_presets) list += (list.empty() ? "" : ", ") + p;
    row += "  (presets over the memory budget, excluded from /submit: " + list + ")";
  }
  return row;
}

json check_json(const KernelCheck& k) {
  auto status = [](const NumbaStatus& s) {
    json j = {{"status", s.name()}};
    if (!s.detail.empty()) j["detail"] = s.detail;
    return j;
  };
  json j = {{"id", k.id},
            {"track", k.track},
            {"ok", k.ok},
            {"checked", k.numpy_only ? "numpy-only" : "c-vs-numpy"},
            {"numba", status(k.numba)},
            {"numba_parallel", status(k.numba_parallel)}};
  if (!k.ok) j["reason"] = k.reason;
  return j;
}

}  // namespace hpcab
