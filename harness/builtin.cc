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
#include <ostream>
#include <sstream>

#include "common/hmac.h"
#include "common/process.h"
#include "harness/arm.h"  // default_corpus_dir

namespace hpcab::harness {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> extensions(const std::string& language) {
  if (language == "cpp") return {".cpp", ".cc", ".cxx"};
  if (language == "fortran") return {".f90", ".f", ".F90"};
  if (language == "cuda") return {".cu"};
  if (language == "hip") return {".hip"};
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

int identity(JudgeClient& client, const BuiltinOptions& o, std::ostream& out, std::ostream& err) {
  if (!o.language.empty() && o.language != "c") {
    err << "hpcab-tool builtin identity: submits the kernel's C reference (reference.c), but "
           "LANGUAGE is '"
        << o.language << "'; use LANGUAGE=c, or AGENT=replay with prepared " << o.language
        << " sources\n";
    return kExitUsage;
  }
  auto ref = reference_path(o);
  if (!ref) {
    err << "hpcab-tool builtin identity: " << ref.error().message << "\n";
    return kExitUsage;
  }
  auto source = read_source_file(*ref);
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
  auto remove_tmp = [&] { ::unlink(tmp.c_str()); };

  const int threads = o.threads > 0 ? o.threads : online_cpus();
  ProcessOptions po;
  po.argv = autopar_command(o.kind, *ref, tmp, threads);
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
  err << who << "built " << final_path << " with: " << shown << "\n";
  if (!run->output.empty()) err << run->output;  // warnings, optimization remarks
  // The library is built from C whatever the arm's LANGUAGE: the judge records it as C.
  return report_judge_answer(client, client.submit_library(base_submission(o, "c"), final_path),
                             out, err);
}

}  // namespace

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
  if (kernel.empty() || file_safe(kernel) != kernel) return std::nullopt;
  std::error_code ec;
  for (const auto& track : fs::directory_iterator(default_corpus_dir(), ec)) {
    fs::path p = track.path() / kernel / "reference.c";
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
  err << "hpcab-tool builtin: unknown kind '" << options.kind
      << "' (identity, replay, autopar-gcc, autopar-polly)\n";
  return kExitUsage;
}

}  // namespace hpcab::harness
