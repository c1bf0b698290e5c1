#include "judge/build/build.h"

#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

#include "common/hmac.h"
#include "common/process.h"
#include "common/reference_build.h"
#include "judge/host/gpu.h"

namespace hpcab::judge {

namespace {

// Why `dir`'s filesystem cannot take a build's output (read-only, or under 4 MiB free for
// unprivileged users), or nullopt.
std::optional<std::string> filesystem_refuses_writes(const std::filesystem::path& dir) {
  struct statvfs st {};
  if (statvfs(dir.c_str(), &st) != 0) return std::nullopt;
  if (st.f_flag & ST_RDONLY) return std::string("read-only filesystem");
  const uint64_t avail = static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
  if (avail < (uint64_t{4} << 20)) return std::to_string(avail >> 10) + " KiB free";
  return std::nullopt;
}

}  // namespace

namespace fs = std::filesystem;

std::string python_module_text(const BuildRequest& req) {
  if (req.flavor != "numba" && req.flavor != "numba-parallel") return req.source;
  // Rebinding the name keeps the reference's text (and its line numbers in a traceback) as it
  // is; the import is local to this tail so the reference needs no Numba to be read.
  return req.source + "\n\n# hpcab: the " + req.flavor + " baseline (judge/build/build.cc)\n" +
         "import numba as _hpcab_numba\n" + req.function + " = _hpcab_numba.njit(" +
         (req.flavor == "numba-parallel" ? "parallel=True" : "") + ")(" + req.function + ")\n";
}

// Prints one line: the interpreter, NumPy, Numba and the BLAS that libblas.so.3 resolves to
// (what NumPy and Numba's np.dot call): OpenBLAS names its version and the core kernel it
// chose on this CPU (openblas_get_config/corename); another BLAS is named by its directory
// under Debian's alternatives ("blas" is the reference BLAS).
constexpr const char* kPythonVersionScript = R"PY(import ctypes, glob, os, sys, numpy
try:
    import numba; nb = numba.__version__
except Exception:
    nb = 'none'
def describe(path):
    real = os.path.realpath(path)
    flavour = os.path.basename(os.path.dirname(real))
    try:
        lib = ctypes.CDLL(real)
        lib.openblas_get_config.restype = ctypes.c_char_p
        lib.openblas_get_corename.restype = ctypes.c_char_p
        words = lib.openblas_get_config().decode().split()
        return '%s %s (%s, %s)' % (words[0], words[1], lib.openblas_get_corename().decode(), flavour)
    except Exception:
        return 'reference BLAS' if flavour == 'blas' else flavour
blas = sorted({describe(p) for p in glob.glob('/usr/lib/*/libblas.so.3')}) or ['unknown']
print('Python %d.%d.%d, numpy %s, numba %s, blas %s' % (sys.version_info[:3] + (numpy.__version__, nb, ' + '.join(blas))))
)PY";

std::string blas_in_fingerprint(const std::string& fingerprint) {
  const std::string key = ", blas ";
  const auto at = fingerprint.find(key);
  if (at == std::string::npos) return "unknown";
  const auto from = at + key.size();
  const auto end = fingerprint.find(" | ", from);
  return fingerprint.substr(from, end == std::string::npos ? std::string::npos : end - from);
}

Builder::Builder(BuildSettings settings, SandboxPolicy policy)
    : settings_(std::move(settings)), policy_(std::move(policy)) {}

std::vector<std::string> Builder::flags(const std::string& language,
                                        const std::string& flavor) const {
  if (language == "python") {
    // Nothing is compiled: the module is parsed (a syntax error is the submission's
    // build_error, as a C compile error is) and imported by hpcab-pyrunner at run time.
    return {settings_.python, "-I", "-B", "-c",
            "import ast, sys; ast.parse(open(sys.argv[1], 'rb').read(), sys.argv[1])"};
  }
  // No -ffast-math or -Ofast anywhere (nor nvcc's --use_fast_math): results must stay
  // comparable to the oracle's.
  if (language == "cuda" || (language == "hip" && is_nvidia_arch(settings_.hip_archs.front()))) {
    // nvcc: host code at -O3 through the host compiler, one SASS code object per target, a
    // shared library whose CUDA runtime is linked statically (the runner needs no libcudart).
    // HIP for NVIDIA is CUDA with HIP's nvidia_detail headers selected.
    std::vector<std::string> f = {settings_.cuda_compiler,
                                  "-std=c++17",
                                  "-O3",
                                  "-Xcompiler",
                                  "-fPIC",
                                  "-shared",
                                  "-Xcompiler",
                                  "-O3"};
    if (language == "hip") f.insert(f.end(), {"-D__HIP_PLATFORM_NVIDIA__", "-x", "cu"});
    const auto& archs = language == "hip" ? settings_.hip_archs : settings_.cuda_archs;
    for (const auto& a : archs) {
      const std::string n = a.substr(3);
      f.push_back("-gencode=arch=compute_" + n + ",code=" + a);
    }
    return f;
  }
  if (language == "hip") {
    std::vector<std::string> f = {settings_.hip_compiler, "-std=c++17", "-O3", "-fPIC", "-shared"};
    for (const auto& a : settings_.hip_archs) f.push_back("--offload-arch=" + a);
    return f;
  }
  // -g: debug info, so that /profile maps samples to source lines. GCC's code generation does
  // not depend on it (what -fcompare-debug checks), so the timed code is the same without it.
  if (flavor == "c") return {"gcc", "-std=gnu11", "-O3", "-march=native", "-g", "-fPIC", "-shared"};
  if (flavor == "c-autopar") {
    return {"gcc",
            "-std=gnu11",
            "-O3",
            "-march=native",
            "-g",
            "-fPIC",
            "-shared",
            "-fopenmp",
            "-ftree-parallelize-loops=" + std::to_string(settings_.autopar_threads)};
  }
  if (language == "cpp") {
    return {"g++", "-std=gnu++17", "-O3", "-march=native", "-g", "-fopenmp", "-fPIC", "-shared"};
  }
  if (language == "fortran") {
    return {"gfortran", "-O3", "-march=native", "-g", "-fopenmp", "-fPIC", "-shared"};
  }
  return {"gcc", "-std=gnu11", "-O3", "-march=native", "-g", "-fopenmp", "-fPIC", "-shared"};
}

const char* Builder::compiler_setting(const std::string& language, const BuildSettings& s) {
  if (language == "cuda") return "cuda_compiler";
  if (language == "hip")
    return is_nvidia_arch(s.hip_archs.front()) ? "cuda_compiler" : "hip_compiler";
  return "";
}

std::string Builder::compiler_version(const std::string& language) {
  std::string compiler = flags(language, "submission").front();
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = versions_.find(compiler);
    if (it != versions_.end()) return it->second;
  }
  ProcessOptions o;
  o.argv = {compiler, "--version"};
  if (language == "python") {
    // Numba is optional on a judge host: its absence is part of the version (and numba
    // baselines then fail their probe and are left out).
    // The BLAS too: Debian's alternatives swap the reference BLAS for OpenBLAS under the same
    // NumPy, and numpy's (and Numba's np.dot) timings with them.
    o.argv = {compiler, "-I", "-c", kPythonVersionScript};
  }
  o.timeout_s = 30;
  auto r = run_process(o);
  std::string v = r.ok() && r->success() ? r->output.substr(0, r->output.find('\n')) : "unknown";
  if (gpu_language(language) && r.ok() && r->success()) {
    // nvcc's first line is its name, hipcc's may be a warning of its device enumerator: the
    // version is the line that names a release ("Cuda compilation tools, release 13.0,
    // V13.0.88") or the HIP version ("HIP version: 5.2.21153-0") with the clang under it.
    std::string lines;
    std::size_t from = 0;
    while (from < r->output.size()) {
      const std::size_t nl = std::min(r->output.find('\n', from), r->output.size());
      const std::string line = r->output.substr(from, nl - from);
      if (line.find(", release ") != std::string::npos || line.rfind("HIP version", 0) == 0 ||
          line.find("clang version") != std::string::npos) {
        lines += (lines.empty() ? "" : ", ") + line;
      }
      from = nl + 1;
    }
    if (!lines.empty()) v = lines;
  }
  std::lock_guard<std::mutex> lock(mu_);
  versions_[compiler] = v;
  return v;
}

namespace {

// What one build compiles: the command, its inputs and where the artifact goes.
struct BuildPlan {
  std::vector<std::string> cmd;   // the compiler and the judge's flags
  std::vector<std::string> libs;  // after the source
  std::string source;             // the text compiled (a Python module's full text)
  std::string src_name;           // the source file's name in the work dir
  std::string artifact;           // what the runner loads
  // A reference instantiated per precision: the units compiled instead of src_name, which
  // they include (common/reference_build.h).
  std::vector<StagedSource> units;
};

BuildPlan plan_build(const BuildRequest& req, std::vector<std::string> cmd) {
  const bool python = req.language == "python";
  BuildPlan plan;
  plan.cmd = std::move(cmd);
  // libm after the source: a kernel calling exp() must not depend on its host having libm
  // loaded already (the runner does; other hosts may not).
  if (!python) plan.libs = {"-lm"};
  plan.source = python ? python_module_text(req) : req.source;
  // The artifact the runner loads, and the source file it is built from (one file for Python).
  const char* ext = req.language == "cpp"       ? "cpp"
                    : req.language == "fortran" ? "f90"
                    : req.language == "cuda"    ? "cu"
                    : req.language == "hip"     ? "hip"
                    : python                    ? "py"
                                                : "c";
  plan.src_name = python ? "kernel.py" : std::string("submission.") + ext;
  plan.artifact = python ? "kernel.py" : "lib.so";
  // A reference still in the old two-function form (a kernel merged before its conversion) is
  // compiled as it is: instantiating it twice would define every function twice. The corpus
  // checker refuses that form, so it never reaches a recorded corpus.
  if (!req.reference_precisions.empty() && is_single_source_reference(req.source)) {
    plan.src_name = "reference.c";
    plan.units = reference_units(req.reference_precisions, plan.src_name, false);
  }
  return plan;
}

// The cache key: everything that decides the artifact (language, flavor, compiler version,
// flags, tokens, libraries, function, source).
std::string build_key(const BuildRequest& req, const BuildPlan& plan,
                      const std::string& compiler_version) {
  std::string key_text = req.language + "\n" + req.flavor + "\n" + compiler_version;
  for (const auto& f : plan.cmd) key_text += "\n" + f;
  for (const auto& t : req.tokens) key_text += "\nT" + t;
  for (const auto& l : plan.libs) key_text += "\nL" + l;
  if (req.language == "python") key_text += "\nF" + req.function;
  // The units carry the prelude: a change to it is a change to the reference's build.
  for (const auto& u : plan.units) key_text += "\nU" + u.name + "\n" + u.text;
  key_text += "\n--\n" + plan.source;
  return to_hex(sha256(key_text));
}

// A private work dir per build, writable by the sandbox's unprivileged uid, holding the source.
Result<fs::path> stage_source(const std::string& scratch_dir, const std::string& hash,
                              const BuildPlan& plan) {
  static std::atomic<uint64_t> counter{0};
  fs::path work =
      fs::path(scratch_dir) / ("build-" + hash.substr(0, 16) + "-" + std::to_string(getpid()) +
                               "-" + std::to_string(counter++));
  std::error_code ec;
  fs::create_directories(work, ec);
  if (ec) {
    return Error{"cannot create build dir " + work.string() + ": " + ec.message(),
                 errc_from_errno(ec.value())};
  }
  fs::permissions(work, fs::perms::all, ec);
  std::ofstream src(work / plan.src_name, std::ios::binary);
  src << plan.source;
  src.close();
  for (const auto& u : plan.units) {
    std::ofstream unit(work / u.name, std::ios::binary);
    unit << u.text;
    unit.close();
    if (!unit) src.setstate(std::ios::failbit);
  }
  if (!src) {
    const int e = errno;
    fs::remove_all(work, ec);
    return Error{"cannot write the source into " + work.string() + ": " + std::strerror(e),
                 errc_from_errno(e)};
  }
  // The judge runs with umask 077; the sandbox's unprivileged uid must still read the source.
  const auto readable = fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                        fs::perms::others_read;
  fs::permissions(work / plan.src_name, readable, ec);
  for (const auto& u : plan.units) fs::permissions(work / u.name, readable, ec);
  return work;
}

// The compiler's sandbox: the work dir at /sandbox, a GPU toolchain outside the system paths
// bound where it is, the build's limits.
SandboxSpec compile_spec(const BuildRequest& req, const BuildPlan& plan, const fs::path& work,
                         const BuildSettings& settings, const SandboxPolicy& policy) {
  SandboxSpec spec;
  spec.argv = plan.cmd;
  spec.argv.insert(spec.argv.end(), req.tokens.begin(), req.tokens.end());
  if (req.language == "python") {
    spec.argv.push_back(plan.src_name);
  } else if (!plan.units.empty()) {
    // The reference's command line is the one every tool uses (common/reference_build.h).
    spec.argv = reference_command(spec.argv, "lib.so", plan.units);
  } else {
    spec.argv.insert(spec.argv.end(), {"-o", "lib.so", plan.src_name});
  }
  if (plan.units.empty()) spec.argv.insert(spec.argv.end(), plan.libs.begin(), plan.libs.end());
  spec.mounts = {{work.string(), "/sandbox", true}};
  std::string path = "PATH=/usr/bin:/bin";
  if (gpu_language(req.language)) {
    // A toolchain outside the sandbox's system paths (/opt/rocm-6.2, a cluster's CUDA module)
    // is bound read-only where it is: its compiler finds its own tools and headers from its
    // location. Its bin dir leads PATH, so its drivers find each other (hipcc calls clang).
    std::error_code ec;
    const fs::path real = fs::weakly_canonical(plan.cmd.front(), ec);
    const fs::path bin = real.parent_path();
    const fs::path root = bin.parent_path();
    bool covered = false;
    for (const auto& sys : policy.system_paths) {
      const fs::path s(sys);
      auto [se, re] = std::mismatch(s.begin(), s.end(), root.begin(), root.end());
      covered = covered || se == s.end();
    }
    if (!covered && !root.empty() && root != root.root_path()) {
      spec.mounts.push_back({root.string(), root.string(), false});
    }
    path = "PATH=" + bin.string() + ":/usr/bin:/bin";
  }
  spec.env = {path, "HOME=/tmp", "TMPDIR=/tmp", "LANG=C"};
  spec.limits.wall_s = settings.timeout_s;
  spec.limits.cpu_s = settings.timeout_s * 2;
  spec.limits.output_cap = settings.log_cap;
  spec.limits.address_space = settings.memory_bytes;
  spec.limits.nproc = settings.nproc;
  return spec;
}

// Publishes the artifact into the cache entry atomically: a concurrent identical build either
// sees nothing or the whole entry. An Error when the cache cannot keep it.
Status publish(const fs::path& work, const fs::path& entry, const BuildPlan& plan,
               const std::string& cache_dir, const std::string& log) {
  std::error_code ec;
  fs::path tmp = fs::path(cache_dir) / (".tmp-" + work.filename().string());
  std::error_code publish;
  fs::create_directories(tmp, publish);
  if (!publish) fs::copy_file(work / plan.artifact, tmp / plan.artifact, publish);
  if (!publish) std::ofstream(tmp / "build.log") << log;
  if (!publish) fs::rename(tmp, entry, ec);
  if (ec) fs::remove_all(tmp, ec);  // lost the race: the other build's entry is identical
  if (fs::exists(entry / plan.artifact)) return Ok{};
  // The compiler succeeded; the judge's own cache could not keep the result.
  fs::remove_all(tmp, ec);
  return Error{"cannot publish the build into the cache " + cache_dir + ": " +
                   (publish ? publish.message() : std::string("entry missing")),
               publish ? errc_from_errno(publish.value()) : Errc::kFailed};
}

}  // namespace

Result<BuildResult> Builder::build(const BuildRequest& req) {
  if (!known_language(req.language)) return Error{"unknown language '" + req.language + "'"};
  if (auto st = validate_build_tokens(req.tokens); !st) return st.error();
  const auto start = std::chrono::steady_clock::now();
  const bool python = req.language == "python";
  if (python && !req.tokens.empty()) return Error{"a Python build takes no build tokens"};
  if (python && req.function.empty()) return Error{"a Python build needs the function name"};
  if (!req.reference_precisions.empty() && req.language != "c") {
    return Error{"only a C reference is instantiated per precision"};
  }
  std::vector<std::string> cmd = flags(req.language, req.flavor);
  if (gpu_language(req.language) && !compiler_exists(cmd.front())) {
    // Checked before anything is hashed or run: `compiler_version` of a missing compiler would
    // only say "unknown", and there is nothing to cache.
    BuildResult missing;
    missing.toolchain_missing = true;
    missing.log = std::string("this judge has no ") + (req.language == "cuda" ? "CUDA" : "HIP") +
                  " compiler: " + compiler_setting(req.language, settings_) + " is '" +
                  cmd.front() +
                  "', which is not an executable file (docs/operations.md, \"GPU languages\")";
    return missing;
  }
  const BuildPlan plan = plan_build(req, std::move(cmd));
  BuildResult result;
  result.hash = build_key(req, plan, compiler_version(req.language));
  const fs::path entry = fs::path(settings_.cache_dir) / result.hash;
  const fs::path lib = entry / plan.artifact;
  std::error_code ec;
  if (fs::exists(lib, ec)) {
    result.ok = true;
    result.cached = true;
    result.library = lib.string();
    std::ifstream in(entry / "build.log");
    result.log.assign(std::istreambuf_iterator<char>(in), {});
    return result;
  }
  auto work = stage_source(settings_.scratch_dir, result.hash, plan);
  if (!work) return work.error();
  auto ran = run_sandboxed(policy_, compile_spec(req, plan, *work, settings_, policy_));
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!ran) {
    fs::remove_all(*work, ec);
    return ran.error();
  }
  result.log = ran->output;
  if (ran->output_dropped > 0) {
    result.log +=
        "\n[... " + std::to_string(ran->output_dropped) + " more bytes of output dropped]";
  }
  result.timed_out = ran->timed_out;
  if (ran->success() && fs::exists(*work / plan.artifact)) {
    if (auto st = publish(*work, entry, plan, settings_.cache_dir, result.log); !st) {
      fs::remove_all(*work, ec);
      return st.error();
    }
    result.ok = true;
    result.library = lib.string();
  } else if (auto full = filesystem_refuses_writes(*work)) {
    // A compiler that could not write its output into a full or read-only scratch dir failed
    // through no fault of the source (a source that fills the scratch itself earns nothing).
    fs::remove_all(*work, ec);
    return Error{"the build's scratch dir " + work->string() + " refuses writes: " + *full,
                 Errc::kNoSpace};
  } else if (result.timed_out) {
    result.log += "\n[build timed out after " + std::to_string(settings_.timeout_s) + " s]";
  }
  fs::remove_all(*work, ec);
  return result;
}

}  // namespace hpcab::judge
