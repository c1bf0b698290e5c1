#include "common/corpus_check.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "common/abi.h"
#include "common/compare.h"
#include "common/inputs.h"
#include "common/invoke.h"
#include "common/npy.h"
#include "common/process.h"
#include "common/rng.h"

namespace hpcab {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

struct Case {
  std::string label;  // "fp64 S/uniform", "fp32 fuzzed#1 {N=37}/normal"
  fs::path dir;
  Draw input;                                // as generated, before any call
  std::map<std::string, NdArray> c_outputs;  // reference.c results
};

std::string sizes_text(const SymbolTable& sizes) {
  std::string s = "{";
  for (const auto& [k, v] : sizes) s += (s.size() > 1 ? "," : "") + k + "=" + std::to_string(v);
  return s + "}";
}

std::map<std::string, NdArray> run_c(const Manifest& m, const KernelCall& call, const Draw& d) {
  Draw copy = d;
  call(copy);
  std::map<std::string, NdArray> outs;
  for (const auto& a : m.arrays) {
    if (a.is_output()) outs.emplace(a.name, std::move(copy.arrays.at(a.name)));
  }
  return outs;
}

bool outputs_equal(const std::map<std::string, NdArray>& x, const std::map<std::string, NdArray>& y,
                   std::string* differing = nullptr) {
  for (const auto& [name, a] : x) {
    if (!a.bytes_equal(y.at(name))) {
      if (differing) *differing = name;
      return false;
    }
  }
  return true;
}

// The linter (SPEC §3): determinism, sensitivity to the seed and to every input array.
std::string lint(const Manifest& m, const KernelCall& call, Precision p, uint64_t seed) {
  auto sizes = m.presets.at("S");
  DrawSpec spec{mix_seed(seed, 1000), p, sizes, Distribution::kUniform, 1.0, 0};
  auto d0 = generate_draw(m, spec);
  if (!d0) return "lint: " + d0.error().message;
  spec.seed = mix_seed(seed, 1001);
  auto d1 = generate_draw(m, spec);
  if (!d1) return "lint: " + d1.error().message;

  auto out0 = run_c(m, call, *d0);
  auto again = run_c(m, call, *d0);
  std::string which;
  if (!outputs_equal(out0, again, &which)) {
    return "lint: reference.c is nondeterministic: output '" + which +
           "' differs between two runs on the same draw";
  }
  auto out1 = run_c(m, call, *d1);
  if (outputs_equal(out0, out1)) {
    return "lint: outputs do not vary across seeds (the task is degenerate)";
  }
  for (const auto& a : m.arrays) {
    if (a.intent == Intent::kOut) continue;
    // Redraw this array alone (with its initializer group, so structure stays valid).
    std::vector<std::string> group = {a.name};
    if (const Initializer* init = m.initializer_for(a.name)) {
      if (init->arrays().front() != a.name) continue;  // the group is tested once, by its head
      group = init->arrays();
    }
    Draw mixed = *d0;
    for (const auto& g : group) mixed.arrays.at(g) = d1->arrays.at(g);
    if (outputs_equal(out0, run_c(m, call, mixed))) {
      return "lint: input '" + a.name + "' does not affect any output when redrawn";
    }
  }
  return "";
}

}  // namespace

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

KernelCheck check_kernel(const Manifest& m, const CheckOptions& o) {
  KernelCheck r;
  r.id = m.id;
  r.track = m.track;
  auto fail = [&](std::string why) {
    r.ok = false;
    r.reason = std::move(why);
    return r;
  };
  // 0. Every size a /submit must grade is gradeable (the others are excluded by the judge).
  if (auto st = check_presets_gradeable(m, &r.ungradeable_presets); !st) {
    return fail(st.error().message);
  }
  // ... and fits the runner's memory (the others are refused or excluded by the judge).
  if (auto st = check_presets_fit(m, o.memory_bytes, &r.oversized_presets); !st) {
    return fail(st.error().message);
  }
  fs::path work = o.work_dir / m.id;
  std::error_code ec;
  fs::remove_all(work, ec);
  fs::create_directories(work, ec);
  if (ec) return fail("cannot create " + work.string() + ": " + ec.message());

  // 1. Build reference.c.
  fs::path so = work / "reference.so";
  ProcessOptions build;
  build.argv = {o.cc};
  build.argv.insert(build.argv.end(), o.cflags.begin(), o.cflags.end());
  build.argv.insert(build.argv.end(), {"-o", so.string(), m.reference_c().string(), "-lm"});
  build.timeout_s = o.build_timeout_s;
  build.output_cap = 16 << 10;
  auto built = run_process(build);
  if (!built) return fail("build: " + built.error().message);
  if (!built->success()) {
    return fail("reference.c does not build (" + built->describe() + "): " + built->output);
  }
  auto lib = SharedLibrary::open(so.string());
  if (!lib) return fail(lib.error().message);

  // 2. Generate every case and run reference.c on it.
  std::vector<Case> cases;
  std::map<Precision, KernelCall> calls;
  for (Precision p : m.precisions) {
    auto fn = lib->symbol(abi_symbol(m, p));
    if (!fn) return fail("reference.c: " + fn.error().message);
    auto call = KernelCall::prepare(m, p, *fn);
    if (!call) return fail(call.error().message);
    calls.emplace(p, *call);
    std::string pn(precision_name(p));
    struct Plan {
      std::string label;
      SymbolTable sizes;
      std::optional<Distribution> dist;
    };
    std::vector<Plan> plans;
    for (Distribution d :
         {Distribution::kUniform, Distribution::kNormal, Distribution::kLognormal}) {
      plans.push_back({"S/" + std::string(distribution_name(d)), m.presets.at("S"), d});
    }
    for (int k = 0; k < o.fuzzed_draws; ++k) {
      auto sizes = fuzzed_sizes(m, mix_seed(o.seed, 100 + static_cast<uint64_t>(k)));
      plans.push_back({"fuzzed#" + std::to_string(k + 1) + " " + sizes_text(sizes), sizes, {}});
    }
    for (std::size_t i = 0; i < plans.size(); ++i) {
      DrawSpec spec{mix_seed(o.seed, cases.size()), p, plans[i].sizes, plans[i].dist, 1.0, 0};
      auto draw = generate_draw(m, spec);
      if (!draw) return fail(pn + " " + plans[i].label + ": " + draw.error().message);
      Case c;
      c.label = pn + " " + plans[i].label;
      if (!plans[i].dist) c.label += "/" + std::string(distribution_name(draw->distribution));
      c.dir = work / ("case" + std::to_string(cases.size()));
      fs::create_directories(c.dir / "in", ec);
      for (const auto& [name, arr] : draw->arrays) {
        if (auto st = write_npy((c.dir / "in" / (name + ".npy")).string(), arr); !st) {
          return fail(st.error().message);
        }
      }
      c.c_outputs = run_c(m, *call, *draw);
      c.input = std::move(*draw);
      cases.push_back(std::move(c));
    }
  }

  // 3. One python process runs reference.py on every case.
  json job = {{"kernel_dir", fs::absolute(m.dir).string()}, {"id", m.id}, {"cases", json::array()}};
  for (const auto& c : cases) {
    json values = json::object();
    for (const auto& [k, v] : c.input.symbols) values[k] = v;
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
    job["cases"].push_back({{"dir", c.dir.string()},
                            {"precision", precision_name(c.input.precision)},
                            {"values", values},
                            {"real_scalars", real_scalars},
                            {"arrays", arrays},
                            {"outputs", outputs}});
  }
  fs::path job_file = work / "job.json";
  std::ofstream(job_file) << job.dump(1);
  ProcessOptions py;
  py.argv = {o.python, o.driver.string(), job_file.string()};
  py.timeout_s = o.python_timeout_s;
  py.output_cap = 16 << 10;
  auto ran = run_process(py);
  if (!ran) return fail("python: " + ran.error().message);
  if (!ran->success()) {
    return fail("reference.py failed under " + o.python + " (" + ran->describe() +
                "): " + ran->output);
  }

  // 4. Compare reference.c (actual) against reference.py (expected).
  std::optional<int64_t> red;
  for (auto& c : cases) {
    if (m.reduction_length) {
      auto l = m.reduction_length->eval(c.input.symbols);
      if (!l) return fail(c.label + ": reduction_length: " + l.error().message);
      red = *l;
    }
    std::map<std::string, NdArray> py_out;
    std::vector<NamedArray> expected, actual;
    for (const auto& [name, arr] : c.c_outputs) {
      auto loaded = read_npy((c.dir / "out" / (name + ".npy")).string());
      if (!loaded) return fail(c.label + ": " + loaded.error().message);
      py_out.emplace(name, std::move(*loaded));
    }
    for (const auto& [name, arr] : c.c_outputs) {
      expected.push_back({name, &py_out.at(name)});
      actual.push_back({name, &arr});
    }
    auto cmp = compare_outputs(expected, actual, CompareOptions{c.input.precision, red});
    if (cmp.status == CompareResult::Status::kUngradeable) {
      ++r.ungradeable;
      continue;
    }
    ++r.cases;
    r.max_rel_error = std::max(r.max_rel_error, cmp.max_rel_error);
    if (!cmp.passed()) {
      return fail(c.label +
                  ": reference.c (actual) disagrees with reference.py (expected): " + cmp.detail);
    }
  }
  if (r.cases == 0) return fail("no case was gradeable");

  // 5. Lint.
  if (o.lint) {
    Precision p = m.precisions.front();
    std::string problem = lint(m, calls.at(p), p, o.seed);
    if (!problem.empty()) return fail(problem);
  }
  r.ok = true;
  return r;
}

std::string format_check_row(const KernelCheck& k) {
  char head[160];
  std::snprintf(head, sizeof head, "%-16s %-22s %-4s %9.2e", k.id.c_str(), k.track.c_str(),
                k.ok ? "ok" : "FAIL", k.max_rel_error);
  std::string row = head;
  if (!k.ok) {
    row += "  " + k.reason;
  } else if (k.ungradeable > 0) {
    row += "  (" + std::to_string(k.ungradeable) + " case(s) ungradeable at their precision)";
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

}  // namespace hpcab
