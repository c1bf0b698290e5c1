#include "judge/views/task_view.h"

#include <fstream>
#include <iterator>
#include <sstream>

#include "common/abi.h"
#include "common/compare.h"
#include "common/scaling.h"
#include "judge/grade/baseline_choice.h"
#include "judge/http/grade_request.h"
#include "judge/http/request.h"

namespace hpcab::judge {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

const char* kAbiDoc =
    "C ABI: void <kernel>_<fp64|fp32>(array pointers sorted by name (ASCII), then scalars and "
    "size symbols sorted by name (ASCII), then uint8_t *restrict workspace, const int64_t "
    "workspace_size). Pointers to inputs are const, all pointers restrict; integer scalars and "
    "sizes are const int64_t; real scalars const double (fp64) / const float (fp32). Arrays are "
    "contiguous and row-major. Write every output element; never write inputs; return with no "
    "threads or processes left running; no timing, no allocation of outputs. C++ uses extern "
    "\"C\" and __restrict__; Fortran uses bind(C) with value scalars.";

const char* kPythonDoc =
    "Python: a module defining def <kernel>(...) with the parameters of reference_numpy, called "
    "with keyword arguments: arrays are NumPy views of the judge's buffers (C order; inputs are "
    "read-only, and writing one through any other route is rejected), size symbols and integer "
    "scalars int, real scalars float (fp64) / np.float32 (fp32). Write the outputs in place or "
    "return them (one array, or a tuple in the manifest's order of outputs). NumPy and Numba "
    "are importable; the first call of each process is an untimed warm-up (imports, JIT). "
    "Return with no threads or processes left running; no timing, no caching across calls.";

const char* kGpuDoc =
    " GPU (cuda, hip): a .cu / .hip source whose extern \"C\" host function has this C ABI "
    "(__restrict__ pointers) and launches __global__ kernels; the judge builds it for its GPU "
    "targets. residency \"host\" (the default): the pointers are host memory and the function "
    "moves data to and from the device itself, inside the clock; residency \"device\": the "
    "pointers are device memory (inputs copied there before the clock, outputs copied back "
    "after it). Either way, return only after the device has finished (synchronize), with no "
    "kernel left running and no device memory kept between calls.";

const char* kMpiDoc =
    " Distributed residency (docs/abi.md): the entry <kernel>_mpi_<fp64|fp32> takes the ABI's "
    "parameters with MPI_Comm comm before the workspace (Fortran: integer(c_int32_t), value :: "
    "comm, the communicator's Fortran handle for mpi_f08's MPI_VAL). Every rank of comm calls it "
    "at once. Sizes and scalars are the global problem's; each array is the rank's local part as "
    "'mpi.distribution' says: a block array holds rows [floor(r*n/P), floor((r+1)*n/P)) of its "
    "split axis (r the rank in comm, P its size, n the axis' global length), the other axes whole; "
    "a replicated input is whole on every rank, a replicated output is read from rank 0. The judge "
    "scatters the inputs before the clock and gathers the outputs after it. Exchange halos and "
    "reduce through comm only; return on every rank, with no request pending and no rank, thread "
    "or process left running.";

bool mpi_language(const std::string& language) {
  return language == "c" || language == "cpp" || language == "fortran";
}

// The local shape of array `a` on a rank: the split axis as its block's length in words.
json local_shape(const ArraySpec& a, const MpiDistribution& d) {
  json shape = json::array();
  for (std::size_t i = 0; i < a.shape.size(); ++i) {
    const bool split = d.kind == MpiDistribution::Kind::kBlock && static_cast<int>(i) == d.axis;
    shape.push_back(split ? "block(" + a.shape[i].text() + ")" : a.shape[i].text());
  }
  return shape;
}

// The mpi block as /task shows it: the rank counts, the weak-scaling rule and the P it is
// defined at, and each array's distribution with its local shape.
json mpi_view(const Manifest& m) {
  json dist = json::object();
  for (const auto& a : m.arrays) {
    const MpiDistribution d = m.mpi->of(a.name);
    json e = {{"kind", d.kind == MpiDistribution::Kind::kBlock ? "block" : "replicated"},
              {"local_shape", local_shape(a, d)}};
    if (d.kind == MpiDistribution::Kind::kBlock) e["axis"] = d.axis;
    dist[a.name] = e;
  }
  return {{"ranks", m.mpi->ranks},
          {"weak", m.mpi->weak},
          {"weak_ranks", weak_ranks(m)},
          {"distribution", dist}};
}

// The subroutine inside a Fortran interface block (a valid definition with an empty body),
// unindented; `uses` goes after its iso_c_binding line, `declarations` after implicit none.
std::string subroutine_of(const std::string& iface, const std::string& uses,
                          const std::string& declarations) {
  const auto start = iface.find("  subroutine");
  const auto end = iface.find("end interface");
  std::string out;
  std::stringstream ss(iface.substr(start, end - start));
  for (std::string line; std::getline(ss, line);) {
    out += (line.size() >= 2 ? line.substr(2) : line) + "\n";
    if (line.find("use, intrinsic :: iso_c_binding") != std::string::npos) out += uses;
    if (line.find("implicit none") != std::string::npos) out += declarations;
  }
  return out;
}

std::string mpi_stub(const Manifest& m, Precision p, const std::string& language) {
  if (language == "fortran") {
    return "! " + m.id + ": write the distributed kernel in this subroutine.\n" +
           subroutine_of(fortran_mpi_interface(m, p), "  use mpi_f08\n",
                         "  type(MPI_Comm) :: comm_f08  ! comm_f08%MPI_VAL = comm\n");
  }
  std::string proto = language == "cpp" ? cpp_mpi_prototype(m, p) : c_mpi_prototype(m, p);
  proto.pop_back();  // the ';'
  std::string head = language == "cpp" ? "#include <mpi.h>\n\n#include <cstdint>\n\n"
                                       : "#include <mpi.h>\n#include <stdbool.h>\n#include "
                                         "<stdint.h>\n\n";
  return head + proto + " {\n  /* " + m.id +
         ": write the distributed kernel here; every rank of comm calls it. */\n}\n";
}

// /task?residency=distributed: the kernel_mpi entry replaces the single-node one.
ApiResult<json> add_distributed(json view, const Manifest& m, Precision p,
                                const std::string& language) {
  if (!m.mpi) {
    return bad_request(ErrorCode::kBadResidency,
                       "kernel '" + m.id + "' has no distributed residency (no mpi block)");
  }
  if (!mpi_language(language)) {
    return bad_request(
        ErrorCode::kBadResidency,
        "residency \"distributed\" is for c, cpp and fortran, not '" + language + "'");
  }
  view["residency"] = "distributed";
  view["signature"] = mpi_stub(m, p, language);
  view["symbol"] = abi_mpi_symbol(m, p);
  view["prototype"] = language == "fortran" ? fortran_mpi_interface(m, p)
                      : language == "cpp"   ? cpp_mpi_prototype(m, p)
                                            : c_mpi_prototype(m, p);
  view["abi_doc"] = view["abi_doc"].get<std::string>() + kMpiDoc;
  return view;
}

}  // namespace

std::string stub_source(const Manifest& m, Precision p, const std::string& language) {
  if (language == "python") return python_stub(m, p);
  if (language == "fortran") {
    return "! " + m.id + ": write the kernel in this subroutine.\n" +
           subroutine_of(fortran_interface(m, p), "", "");
  }
  if (gpu_language(language)) {
    // A host entry with the C++ form of the ABI and one trivial kernel it launches, so the
    // stub builds and runs as it is (writing nothing: `incorrect`, never a build error).
    const bool hip = language == "hip";
    std::string proto = cpp_prototype(m, p);
    proto.pop_back();  // the ';'
    const std::string kernel = m.id + "_device";
    return std::string(hip ? "#include <hip/hip_runtime.h>\n" : "#include <cuda_runtime.h>\n") +
           "\n#include <cstdint>\n\n// " + m.id +
           ": write the device code here and launch it from the host entry below.\n"
           "__global__ void " +
           kernel + "() {}\n\n" + proto + " {\n  " +
           (hip ? "hipLaunchKernelGGL(" + kernel +
                      ", dim3(1), dim3(1), 0, 0);\n"
                      "  (void)hipDeviceSynchronize();\n"
                : kernel + "<<<1, 1>>>();\n  (void)cudaDeviceSynchronize();\n") +
           "}\n";
  }
  std::string proto = language == "cpp" ? cpp_prototype(m, p) : c_prototype(m, p);
  proto.pop_back();  // the ';'
  std::string head = language == "cpp" ? "#include <cstdint>\n\n"
                                       : "#include <stdbool.h>\n#include <stdint.h>\n\n";
  return head + proto + " {\n  /* " + m.id + ": write the kernel here. */\n}\n";
}

ApiResult<json> task_view(const GradeService& grader, const JudgeConfig& config,
                          const std::string& id, const std::map<std::string, std::string>& q) {
  if (auto bad = check_query_rank(q, config.rank)) return *bad;
  const Manifest* m = valid_kernel_name(id) ? grader.kernel(id) : nullptr;
  if (!m) return ApiError{ErrorCode::kUnknownKernel, "unknown kernel '" + id + "'"};
  std::string language = q.count("language") ? q.at("language") : "c";
  if (!known_language(language)) {
    return bad_request(ErrorCode::kUnknownLanguage,
                       "unknown language '" + language + "' (" + language_list() + ")");
  }
  const std::string residency = q.count("residency") ? q.at("residency") : "host";
  if (residency != "host" && residency != "device" && residency != "distributed") {
    return bad_request(ErrorCode::kBadResidency,
                       "'residency' must be \"host\", \"device\" or \"distributed\"");
  }
  std::string precision = q.count("precision") ? q.at("precision") : "fp64";
  auto p = parse_precision(precision);
  if (!p || !m->supports(*p)) {
    return bad_request(ErrorCode::kBadPrecision,
                       "kernel '" + id + "' does not support precision '" + precision + "'");
  }
  std::string preset = q.count("preset") ? q.at("preset") : config.default_preset;
  if (!m->presets.count(preset))
    return bad_request(ErrorCode::kUnknownPreset, "unknown preset '" + preset + "'");
  json precisions = json::array();
  for (auto x : m->precisions) precisions.push_back(precision_name(x));
  json sizes = json::object();
  for (const auto& [k, v] : m->presets.at(preset)) sizes[k] = v;
  json arrays = json::array();
  for (const auto& a : m->arrays) {
    json shape = json::array();
    for (const auto& e : a.shape) shape.push_back(e.text());
    arrays.push_back({{"name", a.name},
                      {"dtype", a.fixed_dtype ? std::string(dtype_name(*a.fixed_dtype)) : "real"},
                      {"shape", shape},
                      {"intent", a.intent == Intent::kIn    ? "in"
                                 : a.intent == Intent::kOut ? "out"
                                                            : "inout"}});
  }
  // What every draw guarantees, so a submission may rely on it (N a power of two, A diagonally
  // dominant) and knows what it may not assume.
  json constraints = json::array();
  for (const auto& c : m->constraints) constraints.push_back(c.text);
  json initializers = json::array();
  for (const auto& init : m->initializers) {
    initializers.push_back({{"kind", init.kind_name()}, {"arrays", init.arrays()}});
  }
  Tolerance band = tolerance_band(*p);
  std::string base = grader.baseline_name(*m);
  const std::string oracle = grader.oracle_name(*m);
  const bool python = language == "python";
  // With timed sizes chosen by time, /score without a preset runs at these (null until the
  // judge has calibrated the kernel, on its first grade).
  json timed = nullptr;
  if (config.min_call_ms > 0) {
    if (auto t = grader.cached_timed_sizes(*m, *p)) {
      timed = json::object();
      for (const auto& [k, v] : *t) timed[k] = v;
    }
  }
  json view(
      {{"kernel", m->id},
       {"name", m->name},
       {"description", m->description},
       {"track", m->track},
       {"dwarf", m->dwarf.empty() ? json(nullptr) : json(m->dwarf)},
       {"level", m->level},
       {"language", language},
       {"precision", precision},
       {"precisions", precisions},
       {"signature", stub_source(*m, *p, language)},
       {"symbol", python ? m->id : abi_symbol(*m, *p)},
       {"prototype", python                                        ? python_prototype(*m)
                     : language == "cpp" || gpu_language(language) ? cpp_prototype(*m, *p)
                                                                   : c_prototype(*m, *p)},
       {"reference_numpy", read_text(m->reference_py())},
       {"rtol", band.rtol},
       {"atol", band.atol},
       {"reduction_length",
        m->reduction_length ? json(m->reduction_length->text()) : json(nullptr)},
       {"preset", preset},
       {"sizes", sizes},
       {"arrays", arrays},
       {"constraints", constraints},
       {"initializers", initializers},
       {"oracle", oracle == "numpy" ? "reference.py (numpy)" : "reference.c"},
       {"baseline", base},
       {"input_mode", config.input_mode},
       {"abi_doc", python                   ? std::string(kPythonDoc)
                   : gpu_language(language) ? std::string(kAbiDoc) + kGpuDoc
                                            : std::string(kAbiDoc)},
       {"goal", "Make " + (python ? m->id : abi_symbol(*m, *p)) + " faster than the '" + base +
                    "' baseline (" + describe_baseline_code(base) +
                    ") while matching reference_numpy within rtol/atol on every output. POST "
                    "/score to iterate on the public inputs; POST /submit once for the final, "
                    "recorded answer graded on hidden inputs."}});
  view["key"] = m->key();
  view["tags"] = m->tags;
  view["timed_sizes"] = timed;
  view["min_call_ms"] = config.min_call_ms;
  // Where GPU submissions run: the judge's GPUs (none: a GPU grade is rejected after its
  // build) and the residencies a request may name.
  if (gpu_language(language)) {
    json gpus = json::array();
    for (const auto& g : config.gpus) gpus.push_back({{"vendor", g.vendor}, {"node", g.node}});
    view["gpus"] = gpus;
    view["residencies"] = {"host", "device"};
    view["gpu_targets"] = language == "cuda" ? config.cuda_archs : config.hip_archs;
  }
  // A kernel with a distributed residency says so in every view (its entry: residency=distributed).
  if (m->mpi) view["mpi"] = mpi_view(*m);
  if (residency == "distributed") return add_distributed(std::move(view), *m, *p, language);
  return view;
}

}  // namespace hpcab::judge
