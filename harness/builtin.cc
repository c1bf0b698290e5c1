#include "harness/builtin.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>

#include "common/hmac.h"
#include "common/process.h"
#include "common/reference_build.h"
#include "harness/arm.h"  // default_corpus_dir

namespace hpcab::harness {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> extensions(const std::string& language) {
  if (language == "cpp") return {".cpp", ".cc", ".cxx"};
  if (language == "fortran") return {".f90", ".f", ".F90"};
  if (language == "cuda") return {".cu"};
  if (language == "hip") return {".hip"};
  if (language == "python") return {".py"};
  return {".c"};
}

bool regular_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// Kernel ids are [A-Za-z0-9_-]; anything else would not be a plain file name.
std::string file_safe(const std::string& s) {
  std::string out;
  for (unsigned char c : s) out += std::isalnum(c) || c == '_' || c == '-' ? c : '_';
  return out;
}

int online_cpus() {
  long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

Submission base_submission(const BuiltinOptions& o, const std::string& language) {
  Submission s;
  s.kernel = o.kernel;
  s.language = language;
  s.preset = o.preset;
  s.precision = o.precision;
  return s;
}

// The reference.c to start from: HPCAB_REFERENCE_C / --reference, else the corpus's.
Result<std::string> reference_path(const BuiltinOptions& o) {
  if (!o.reference_c.empty()) {
    if (!regular_file(o.reference_c)) {
      return Error{"the reference source '" + o.reference_c + "' is not a readable file"};
    }
    return o.reference_c;
  }
  if (auto p = corpus_reference(o.kernel)) return *p;
  return Error{"no reference.c for kernel '" + o.kernel +
               "': set HPCAB_REFERENCE_C or pass --reference (none found under " +
               default_corpus_dir().string() + ")"};
}

// The C text that exports the run's precision from a reference: a single-source reference.c is
// instantiated at `o.precision` (common/reference_build.h); an old-form one is as it is.
Result<std::string> reference_text(const BuiltinOptions& o, const std::string& path) {
  auto source = read_source_file(path);
  if (!source) return source.error();
  if (!is_single_source_reference(*source)) return *source;
  const auto p = parse_precision(o.precision.empty() ? "fp64" : o.precision);
  if (!p) return Error{"unknown precision '" + o.precision + "'"};
  return reference_as_submission(*source, *p);
}

// The kernel's NumPy reference: HPCAB_REFERENCE_PY / --reference FILE.py, else the corpus's
// reference.py, else the judge's (GET /task?language=python, reference_numpy). `origin` names
// where it came from.
struct PythonReference {
  std::string text, origin;
};
Result<PythonReference> python_reference(JudgeClient& client, const BuiltinOptions& o) {
  std::string path = o.reference_py;
  if (path.empty()) path = corpus_kernel_file(o.kernel, "reference.py").value_or("");
  if (!path.empty()) {
    auto text = read_source_file(path);
    if (!text) return text.error();
    return PythonReference{*text, path};
  }
  auto task = client.task(o.kernel, "python", o.preset, o.precision);
  if (!task) return task.error();
  const json ref = task->value("reference_numpy", json());
  if (!ref.is_string() || ref.get<std::string>().empty()) {
    return Error{"no reference.py for kernel '" + o.kernel +
                 "' in the corpus, and the judge's task has no reference_numpy"};
  }
  return PythonReference{ref.get<std::string>(), "the judge's GET /task reference_numpy"};
}

int identity_python(JudgeClient& client, const BuiltinOptions& o, std::ostream& out,
                    std::ostream& err) {
  auto ref = python_reference(client, o);
  if (!ref) {
    err << "hpcab-tool builtin identity: " << ref.error().message << "\n";
    return failure_exit(client);
  }
  err << "hpcab-tool builtin identity: submitting " << ref->origin << " as Python\n";
  Submission s = base_submission(o, "python");
  s.source = ref->text;
  return report_judge_answer(client, client.submit(s), out, err);
}

int identity(JudgeClient& client, const BuiltinOptions& o, std::ostream& out, std::ostream& err) {
  if (o.language == "python") return identity_python(client, o, out, err);
  if (!o.language.empty() && o.language != "c") {
    err << "hpcab-tool builtin identity: submits the kernel's C reference (reference.c), or its "
           "reference.py with LANGUAGE=python, but LANGUAGE is '"
        << o.language << "'; use LANGUAGE=c or python, or AGENT=replay with prepared " << o.language
        << " sources\n";
    return kExitUsage;
  }
  auto ref = reference_path(o);
  if (!ref) {
    err << "hpcab-tool builtin identity: " << ref.error().message << "\n";
    return kExitUsage;
  }
  auto source = reference_text(o, *ref);
  if (!source) {
    err << "hpcab-tool builtin identity: " << source.error().message << "\n";
    return kExitUsage;
  }
  Submission s = base_submission(o, "c");
  s.source = *source;
  return report_judge_answer(client, client.submit(s), out, err);
}

int replay(JudgeClient& client, const BuiltinOptions& o, std::ostream& out, std::ostream& err) {
  if (o.replay_dir.empty()) {
    err << "hpcab-tool builtin replay: no folder of prepared sources: pass --dir DIR (the arm's "
           "AGENT_COMMAND)\n";
    return kExitUsage;
  }
  std::error_code ec;
  if (!fs::is_directory(o.replay_dir, ec)) {
    err << "hpcab-tool builtin replay: the folder of prepared sources '" << o.replay_dir
        << "' does not exist\n";
    return kExitUsage;
  }
  const std::string language = o.language.empty() ? "c" : o.language;
  auto file = find_prepared_source(o.replay_dir, o.kernel, language);
  if (!file) {
    // An honest "nothing submitted": the episode ends without a submission.
    std::string looked;
    for (const auto& e : extensions(language))
      looked += (looked.empty() ? "" : ", ") + o.kernel + e;
    for (const auto& e : extensions(language)) looked += ", " + o.kernel + "/kernel" + e;
    err << "no prepared source for " << o.kernel << " in " << o.replay_dir << " (looked for "
        << looked << "); nothing submitted\n";
    return kExitGraded;
  }
  auto source = read_source_file(*file);
  if (!source) {
    err << "hpcab-tool builtin replay: " << source.error().message << "\n";
    return kExitUsage;
  }
  err << "hpcab-tool builtin replay: submitting " << *file << "\n";
  Submission s = base_submission(o, language);
  s.source = *source;
  return report_judge_answer(client, client.submit(s), out, err);
}

int autopar(JudgeClient& client, const BuiltinOptions& o, std::ostream& out, std::ostream& err) {
  const std::string who = "hpcab-tool builtin " + o.kind + ": ";
  auto ref = reference_path(o);
  if (!ref) {
    err << who << ref.error().message << "\n";
    return kExitUsage;
  }
  if (o.library_dir.empty()) {
    err << who
        << "no library folder: set HPCAB_LIBRARY_DIR or pass --library-dir (a folder inside "
           "the judge's --shared-dir)\n";
    return kExitUsage;
  }
  std::error_code ec;
  const fs::path dir = fs::absolute(o.library_dir, ec).lexically_normal();
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    err << who << "cannot create the library folder " << dir.string()
        << (ec ? ": " + ec.message() : "") << "\n";
    return kExitUsage;
  }
  const std::string stem = file_safe(o.kernel) + "-" + o.kind;
  // The compiler writes a temporary in the same folder; renamed into place once it is hashed,
  // so the judge never sees a half-written library.
  std::string tmpl = (dir / ("." + stem + "-XXXXXX")).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) {
    err << who << "cannot create a file in " << dir.string() << ": " << std::strerror(errno)
        << "\n";
    return kExitUsage;
  }
  ::close(fd);
  const std::string tmp = tmpl;
  // A single-source reference is compiled as its instantiation at the run's precision, written
  // as reference.c into a private folder beside the library and compiled from there: the
  // library's bytes name their source file, so a temporary's name would change them. A file in
  // the old two-function form is compiled where it is.
  std::string input = *ref;
  std::optional<std::string> src_dir;
  auto remove_tmp = [&] {
    ::unlink(tmp.c_str());
    if (src_dir) fs::remove_all(*src_dir, ec);
  };
  auto raw = read_source_file(*ref);
  if (raw && is_single_source_reference(*raw)) {
    std::string dtmpl = (dir / ("." + stem + "-src-XXXXXX")).string();
    auto text = reference_text(o, *ref);
    if (text && ::mkdtemp(dtmpl.data()) == nullptr) text = Error{"cannot create " + dtmpl};
    if (text) {
      src_dir = dtmpl;
      std::ofstream c(*src_dir + "/reference.c", std::ios::binary);
      c << *text;
      c.close();
      if (!c) text = Error{"cannot write " + *src_dir + "/reference.c"};
    }
    raw = text;
    input = "reference.c";
  }
  if (!raw) {
    remove_tmp();
    err << who << raw.error().message << "\n";
    return kExitUsage;
  }

  const int threads = o.threads > 0 ? o.threads : online_cpus();
  ProcessOptions po;
  po.argv = autopar_command(o.kind, input, tmp, threads);
  po.cwd = src_dir;
  po.timeout_s = o.compile_timeout_s;
  std::string shown;
  for (const auto& a : po.argv) shown += (shown.empty() ? "" : " ") + a;
  auto run = run_process(po);
  if (!run) {
    remove_tmp();
    err << who << "cannot run the compiler: " << run.error().message << "\n";
    return kExitCompile;
  }
  if (!run->success()) {
    remove_tmp();
    err << who << "the compiler failed (" << run->describe() << "): " << shown << "\n"
        << run->output;
    if (!run->output.empty() && run->output.back() != '\n') err << "\n";
    if (run->exit_code == 127 && run->term_signal == 0) {
      err << who << "(exit code 127: is " << po.argv[0] << " installed?)\n";
    }
    return kExitCompile;
  }
  std::ifstream in(tmp, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  if (!in || bytes.str().empty()) {
    remove_tmp();
    err << who << "the compiler produced no library at " << tmp << "\n";
    return kExitCompile;
  }
  const std::string final_path =
      (dir / (stem + "-" + to_hex(sha256(bytes.str())).substr(0, 12) + ".so")).string();
  // The judge's sandbox runs as another user: the library must be readable by all.
  ::chmod(tmp.c_str(), 0755);
  if (::rename(tmp.c_str(), final_path.c_str()) != 0) {
    err << who << "cannot rename " << tmp << " to " << final_path << ": " << std::strerror(errno)
        << "\n";
    remove_tmp();
    return kExitUsage;
  }
  if (src_dir) fs::remove_all(*src_dir, ec);
  err << who << "built " << final_path << " with: " << shown << "\n";
  if (!run->output.empty()) err << run->output;  // warnings, optimization remarks
  // The library is built from C whatever the arm's LANGUAGE: the judge records it as C.
  return report_judge_answer(client, client.submit_library(base_submission(o, "c"), final_path),
                             out, err);
}

// numba-jit's compile check, run as `python -c SCRIPT MODULE FUNCTION KERNEL_JSON PRECISION`: its
// last line is "HPCAB-NUMBA-CHECK {"status": compiles|unsupported|cannot_check, "detail": ...}".
// The argument types are those of what hpcab-pyrunner passes (docs/api.md "The Python form").
constexpr const char* kNumbaCheckScript =
    R"PY(import importlib.util, inspect, json, re, sys, warnings
warnings.simplefilter("ignore")
def say(status, detail):
    print("\nHPCAB-NUMBA-CHECK " + json.dumps({"status": status, "detail": detail}))
    sys.exit(0)
module_py, function, kernel_json, precision = sys.argv[1:5]
try:
    import numpy as np
    import numba
    from numba import types
except Exception as e:
    say("cannot_check", "Numba is not importable: %s: %s" % (type(e).__name__, e))
try:
    spec = importlib.util.spec_from_file_location("hpcab_reference", module_py)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    fn = getattr(mod, function)
    with open(kernel_json) as f:
        manifest = json.load(f)
    params = list(inspect.signature(fn).parameters)
except Exception as e:
    say("cannot_check", "%s: %s" % (type(e).__name__, e))
real = np.dtype(np.float32 if precision == "fp32" else np.float64)
arrays, scalars = manifest.get("arrays", {}), manifest.get("scalars", {})
def arg_type(name):
    if name in arrays:
        a = arrays[name]
        dt = real if a["dtype"] == "real" else np.dtype(a["dtype"])
        return types.Array(numba.from_dtype(dt), len(a["shape"]), "C",
                           readonly=a.get("intent") == "in")
    if scalars.get(name, {}).get("dtype") == "real":
        return numba.from_dtype(real)
    return types.int64
args = tuple(arg_type(n) for n in params)
try:
    numba.njit(args)(fn)
except Exception as e:
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", l).strip() for l in str(e).splitlines()]
    lines = [l for l in lines if l and not l.startswith(("Failed in ", "- Resolution failure"))]
    text = type(e).__name__ + (": " + lines[0] if lines else "")
    during = [l for l in lines if l.startswith("During: ")]
    if len(text) < 60 and during:
        text += " (" + during[0][len("During: "):] + ")"
    say("unsupported", text if len(text) <= 240 else text[:237] + "...")
say("compiles", ", ".join("%s: %s" % (n, t) for n, t in zip(params, args)))
)PY";

// A file holding `text` (mkstemps in the temporary folder), removed when it goes out of scope.
class TempModule {
 public:
  explicit TempModule(const std::string& text) {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-numba-jit-XXXXXX.py").string();
    const int fd = ::mkstemps(tmpl.data(), 3);
    if (fd < 0) return;
    ::close(fd);
    std::ofstream f(tmpl, std::ios::binary);
    f << text;
    if (f.flush()) path_ = tmpl;
  }
  ~TempModule() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  TempModule(const TempModule&) = delete;
  TempModule& operator=(const TempModule&) = delete;
  const std::string& path() const { return path_; }  // '' when it could not be written

 private:
  std::string path_;
};

// The kernel's function name: the id (the last part of a path-style key).
std::string function_name(const std::string& kernel) {
  const auto slash = kernel.rfind('/');
  return slash == std::string::npos ? kernel : kernel.substr(slash + 1);
}

int numba_jit(JudgeClient& client, const BuiltinOptions& o, std::ostream& out, std::ostream& err) {
  const std::string who = "hpcab-tool builtin numba-jit: ";
  if (!o.language.empty() && o.language != "python") {
    err << who << "submits Python (reference.py under numba.njit), but LANGUAGE is '" << o.language
        << "'; use LANGUAGE=python\n";
    return kExitUsage;
  }
  const std::string function = function_name(o.kernel);
  const auto manifest = corpus_kernel_file(function, "kernel.json");
  if (!manifest) {
    err << who << "no kernel.json for '" << function << "' under " << default_corpus_dir().string()
        << " to type the function with (set HPCAB_SOURCE_DIR)\n";
    return kExitUsage;
  }
  auto ref = python_reference(client, o);
  if (!ref) {
    err << who << ref.error().message << "\n";
    return failure_exit(client);
  }
  TempModule module(ref->text);
  if (module.path().empty()) {
    err << who << "cannot write a temporary module under " << fs::temp_directory_path().string()
        << "\n";
    return kExitUsage;
  }
  const std::string precision = o.precision.empty() ? "fp64" : o.precision;
  const NumbaCheck check = numba_compile_check(o.python, module.path(), function, *manifest,
                                               precision, o.compile_timeout_s);
  Submission s = base_submission(o, "python");
  switch (check.status) {
    case NumbaCheck::kCannotCheck:
      err << who << "cannot check whether Numba compiles " << function << " (" << o.python
          << "): " << check.detail << "; nothing submitted\n";
      return kExitCompile;
    case NumbaCheck::kUnsupported:
      err << who << "numba.njit cannot compile " << function << " from " << ref->origin << " at "
          << precision << ": " << check.detail
          << "; falling back to submitting the NumPy reference unchanged\n";
      s.source = ref->text;
      break;
    case NumbaCheck::kCompiles:
      err << who << "numba.njit compiles " << function << " from " << ref->origin << " at "
          << precision << " (" << check.detail << "); submitting it rebound to numba.njit("
          << function << ")\n";
      s.source = numba_jit_module(ref->text, function);
      break;
  }
  return report_judge_answer(client, client.submit(s), out, err);
}

}  // namespace

std::string numba_jit_module(const std::string& reference_py, const std::string& function) {
  std::string text = reference_py;
  if (!text.empty() && text.back() != '\n') text += "\n";
  return text +
         "\n\n# hpcab-tool builtin numba-jit: the function compiled by Numba (sequential)\n" +
         "import numba as _hpcab_numba\n" + function + " = _hpcab_numba.njit(" + function + ")\n";
}

NumbaCheck numba_compile_check(const std::string& python, const std::string& module_py,
                               const std::string& function, const std::string& kernel_json,
                               const std::string& precision, double timeout_s) {
  ProcessOptions po;
  po.argv = {python, "-c", kNumbaCheckScript, module_py, function, kernel_json, precision};
  po.timeout_s = timeout_s;
  auto run = run_process(po);
  if (!run) return {NumbaCheck::kCannotCheck, run.error().message};
  const std::string marker = "HPCAB-NUMBA-CHECK ";
  const auto at = run->output.rfind(marker);
  if (!run->success() || at == std::string::npos) {
    std::string output = run->output.substr(0, 2000);
    while (!output.empty() && output.back() == '\n') output.pop_back();
    return {NumbaCheck::kCannotCheck,
            "the check ended with " + run->describe() + (output.empty() ? "" : ": " + output)};
  }
  const auto end = run->output.find('\n', at);
  const json answer =
      json::parse(run->output.substr(at + marker.size(), end - at - marker.size()), nullptr, false);
  const std::string status = answer.is_object() ? answer.value("status", "") : "";
  const std::string detail = answer.is_object() ? answer.value("detail", "") : "";
  if (status == "compiles") return {NumbaCheck::kCompiles, detail};
  if (status == "unsupported") return {NumbaCheck::kUnsupported, detail};
  return {NumbaCheck::kCannotCheck, detail.empty() ? "an unreadable answer" : detail};
}

std::vector<std::string> autopar_command(const std::string& kind, const std::string& reference_c,
                                         const std::string& output, int threads) {
  if (kind == "autopar-polly") {
    // Polly's parallel code calls libgomp (GOMP_parallel); its thread count is OMP_NUM_THREADS
    // at run time, so --threads does not apply.
    return {"clang",
            "-O3",
            "-march=native",
            "-fPIC",
            "-shared",
            "-mllvm",
            "-polly",
            "-mllvm",
            "-polly-parallel",
            "-mllvm",
            "-polly-omp-backend=GNU",
            "-o",
            output,
            reference_c,
            "-lgomp"};
  }
  // The gcc driver links libgomp itself when N > 1.
  return {"gcc",   "-O3",     "-march=native",
          "-fPIC", "-shared", "-ftree-parallelize-loops=" + std::to_string(std::max(threads, 1)),
          "-o",    output,    reference_c};
}

std::optional<std::string> find_prepared_source(const std::string& dir, const std::string& kernel,
                                                const std::string& language) {
  if (kernel.empty()) return std::nullopt;
  const auto exts = extensions(language);
  for (const auto& e : exts) {
    if (fs::path p = fs::path(dir) / (kernel + e); regular_file(p)) return p.string();
  }
  for (const auto& e : exts) {
    if (fs::path p = fs::path(dir) / kernel / ("kernel" + e); regular_file(p)) return p.string();
  }
  return std::nullopt;
}

std::optional<std::string> corpus_reference(const std::string& kernel) {
  return corpus_kernel_file(kernel, "reference.c");
}

std::optional<std::string> corpus_kernel_file(const std::string& kernel, const std::string& name) {
  if (kernel.empty() || file_safe(kernel) != kernel) return std::nullopt;
  std::error_code ec;
  for (const auto& track : fs::directory_iterator(default_corpus_dir(), ec)) {
    fs::path p = track.path() / kernel / name;
    if (regular_file(p)) return p.string();
  }
  return std::nullopt;
}

int report_judge_answer(const JudgeClient& client, const Result<json>& r, std::ostream& out,
                        std::ostream& err) {
  if (r) {
    out << r->dump(2, ' ', false, json::error_handler_t::replace) << "\n";
    return kExitGraded;
  }
  err << "hpcab-tool: " << r.error().message << "\n";
  return failure_exit(client);
}

int failure_exit(const JudgeClient& client) {
  switch (client.last_failure()) {
    case Failure::kHttp:
      return kExitHttp;
    case Failure::kTransport:
      return kExitTransport;
    case Failure::kPolicy:
      return kExitRefused;
    default:
      return kExitUsage;
  }
}

int run_builtin(JudgeClient& client, const BuiltinOptions& options, std::ostream& out,
                std::ostream& err) {
  if (options.kernel.empty()) {
    err << "hpcab-tool builtin " << options.kind << ": no kernel: set KERNEL or pass --kernel\n";
    return kExitUsage;
  }
  if (options.kind == "identity") return identity(client, options, out, err);
  if (options.kind == "replay") return replay(client, options, out, err);
  if (options.kind == "autopar-gcc" || options.kind == "autopar-polly") {
    return autopar(client, options, out, err);
  }
  if (options.kind == "numba-jit") return numba_jit(client, options, out, err);
  err << "hpcab-tool builtin: unknown kind '" << options.kind
      << "' (identity, replay, autopar-gcc, autopar-polly, numba-jit)\n";
  return kExitUsage;
}

}  // namespace hpcab::harness
