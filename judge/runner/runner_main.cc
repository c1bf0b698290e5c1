// hpcab-runner: runs one kernel library inside the sandbox, call by call, as the judge directs.
// It links only `common_core` and libseccomp: no database, no key, no network. Everything it is
// told arrives on stdin; replies go to fd 3; the kernel's own stdout/stderr go to a log the
// judge never parses for results. Draws are generated here from the seeds the judge sends (the
// seeds of one call are revealed only when that call is prepared).
//
// The protocol (commands, replies, fault codes) is judge/runner/protocol.h; the loop and the
// checks around each call are judge/runner/runner_core.h, shared with hpcab-pyrunner. This
// file only loads the library and calls it through the C ABI (common/invoke.h).
#include <CLI/CLI.hpp>
#include <string>

#include "common/abi.h"
#include "common/invoke.h"
#include "judge/runner/runner_core.h"

using namespace hpcab;

int main(int argc, char** argv) {
  CLI::App app{"hpcab-runner: runs a kernel library call by call (driven by hpcab-judge)"};
  runner::Options options;
  std::string lib_path;
  runner::add_options(app, options);
  runner::add_gpu_options(app, options);
  app.add_option("--lib", lib_path, "shared library to run")->required();
  CLI11_PARSE(app, argc, argv);

  runner::Runner r(options);
  if (int rc = r.setup("hpcab-runner")) return rc;
  // Installed before dlopen, so the library's constructors are already bound by it.
  if (int rc = r.deny_exec()) return rc;
  const auto load = runner_protocol::Fault::kLoad;
  auto lib = SharedLibrary::open(lib_path);
  if (!lib) return r.fail(load, lib.error().message);
  auto fn = lib->symbol(abi_symbol(r.manifest(), r.precision()));
  if (!fn) return r.fail(load, fn.error().message);
  auto call = KernelCall::prepare(r.manifest(), r.precision(), *fn);
  if (!call) return r.fail(load, call.error().message);
  // On a device-resident GPU run the arrays (and the workspace) are device pointers.
  return r.serve([&call](Draw& draw, uint8_t* workspace, int64_t workspace_bytes,
                         const std::map<std::string, void*>* device_arrays) {
    (*call)(draw, workspace, workspace_bytes, device_arrays);
  });
}
