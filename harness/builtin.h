// The built-in optimizers (SPEC §6): agents with no model, for control arms and tests, run as
// `hpcab-tool builtin identity|replay|autopar-gcc|autopar-polly|numba-jit`. Each grades through
// a JudgeClient, so rank, run id, optimizer name and the submission policy apply as for an agent.
//   identity       submits the kernel's reference.c (the "did nothing" control); with
//                  LANGUAGE=python its reference.py, as a Python submission.
//   replay         submits a prepared source from a folder, or nothing when it has none.
//   autopar-gcc    compiles reference.c with GCC's automatic loop parallelization into a shared
//                  library in the library folder and submits the library.
//   autopar-polly  the same with clang's Polly (-polly-parallel, GNU OpenMP runtime).
//   numba-jit      (LANGUAGE=python) submits reference.py with the kernel's function rebound to
//                  numba.njit(function), as the judge's `numba` baseline builds it, once a local
//                  eager compile at the manifest's argument types shows that Numba compiles it;
//                  where it does not, submits reference.py unchanged and says so on stderr.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "harness/judge_client.h"

namespace hpcab::harness {

// hpcab-tool's exit codes (docs/harness.md). The built-ins add kExitCompile.
inline constexpr int kExitGraded = 0;     // the judge answered 200 (or replay had nothing)
inline constexpr int kExitHttp = 1;       // the judge answered with an HTTP error
inline constexpr int kExitUsage = 2;      // usage or local error; nothing was sent
inline constexpr int kExitTransport = 3;  // the judge was unreachable
inline constexpr int kExitRefused = 4;    // submit refused by the single-submission policy
// The tool is not in the arm's TOOLS (HPCAB_TOOLS), or is named there but not implemented
// (profile, syntax-check); nothing was sent.
inline constexpr int kExitToolRefused = 6;
// autopar: the compiler failed; numba-jit: its compile check could not run (no interpreter,
// no Numba, a reference that does not import); nothing was sent.
inline constexpr int kExitCompile = 5;

inline constexpr std::string_view kBuiltinKinds[] = {"identity", "replay", "autopar-gcc",
                                                     "autopar-polly", "numba-jit"};

struct BuiltinOptions {
  std::string kind;
  std::string kernel;       // KERNEL
  std::string language;     // LANGUAGE; '' = c
  std::string reference_c;  // HPCAB_REFERENCE_C; '' = the kernel's reference.c in the corpus
  // HPCAB_REFERENCE_PY (or --reference FILE.py); '' = the corpus's reference.py, else the
  // judge's (GET /task reference_numpy).
  std::string reference_py;
  std::string python = "/usr/bin/python3";  // HPCAB_PYTHON: numba-jit's compile check
  std::string library_dir;                  // HPCAB_LIBRARY_DIR (autopar)
  std::string replay_dir;                   // --dir (replay)
  std::string preset;                       // '' = the judge's default
  std::string precision;                    // '' = fp64
  int threads = 0;                 // autopar-gcc: -ftree-parallelize-loops=N; 0 = the online CPUs
  double compile_timeout_s = 600;  // autopar: the compiler; numba-jit: the compile check
};

// Runs one built-in: prints the judge's JSON answer to `out` (pretty, as `hpcab-tool submit`
// does) and anything else to `err`. Returns the exit code (above).
int run_builtin(JudgeClient& client, const BuiltinOptions& options, std::ostream& out,
                std::ostream& err);

// Prints a judge call's outcome like hpcab-tool: the answer on `out`, or the error on `err`.
// Returns kExitGraded, or the code for the client's last failure.
int report_judge_answer(const JudgeClient& client, const Result<json>& r, std::ostream& out,
                        std::ostream& err);

// The exit code for the client's last failure: kExitHttp, kExitTransport, kExitRefused, else
// kExitUsage (a local failure, or no judge call failed).
int failure_exit(const JudgeClient& client);

// The compiler command of an autopar kind, never run through a shell.
std::vector<std::string> autopar_command(const std::string& kind, const std::string& reference_c,
                                         const std::string& output, int threads);

// The prepared source replay submits: DIR/<kernel>.<ext>, else DIR/<kernel>/kernel.<ext>, for
// the language's extensions (c: .c; cpp: .cpp .cc .cxx; fortran: .f90 .f .F90; python: .py), in
// that order.
std::optional<std::string> find_prepared_source(const std::string& dir, const std::string& kernel,
                                                const std::string& language);

// HPCAB_SOURCE_DIR/corpus/<track>/<kernel>/reference.c, when it exists.
std::optional<std::string> corpus_reference(const std::string& kernel);
// The same for another file of the kernel's folder (reference.py, kernel.json).
std::optional<std::string> corpus_kernel_file(const std::string& kernel, const std::string& name);

// reference.py with `function` rebound to numba.njit(function) at its end, as the judge's
// `numba` baseline module (the reference's text and line numbers unchanged).
std::string numba_jit_module(const std::string& reference_py, const std::string& function);

// The outcome of numba-jit's compile check (numba_compile_check).
struct NumbaCheck {
  enum Status { kCompiles, kUnsupported, kCannotCheck } status = kCannotCheck;
  std::string detail;  // the argument types, or Numba's first informative line, or why not
};
// Compiles `function` of the module file `module_py` eagerly with numba.njit at the argument
// types the judge's hpcab-pyrunner passes (from the manifest `kernel_json`: arrays C-contiguous,
// inputs read-only, `real` at `precision`, size symbols int64), under `python`.
NumbaCheck numba_compile_check(const std::string& python, const std::string& module_py,
                               const std::string& function, const std::string& kernel_json,
                               const std::string& precision, double timeout_s);

}  // namespace hpcab::harness
