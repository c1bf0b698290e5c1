// hpcab-runner: runs one kernel library inside the sandbox, call by call, as the judge directs.
// It links only `common`: no database, no key, no network. Everything it is told arrives on
// stdin; replies go to fd 3; the kernel's own stdout/stderr go to a log the judge never parses
// for results. Draws are generated here from the seeds the judge sends (the seeds of one call
// are revealed only when that call is prepared).
//
// The protocol (commands, replies, fault codes) is judge/runner/protocol.h.
#include <seccomp.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>

#include "common/abi.h"
#include "common/inputs.h"
#include "common/invoke.h"
#include "common/manifest.h"
#include "common/npy.h"
#include "judge/runner/protocol.h"

using namespace hpcab;
namespace proto = hpcab::runner_protocol;

namespace {

FILE* g_reply = nullptr;  // fd 3; set once in main before any kernel code runs

void reply(const std::string& line) {
  std::fprintf(g_reply, "%s\n", line.c_str());
  std::fflush(g_reply);
}

int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

Result<SymbolTable> parse_sizes(const std::string& text) {
  SymbolTable t;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    auto eq = item.find('=');
    if (eq == std::string::npos) return Error{"bad --sizes item '" + item + "'"};
    try {
      t[item.substr(0, eq)] = std::stoll(item.substr(eq + 1));
    } catch (...) {
      return Error{"bad --sizes value '" + item + "'"};
    }
  }
  return t;
}

// First differing element of two equally shaped arrays (their byte sizes when equal).
std::size_t first_difference(const NdArray& a, const NdArray& b) {
  const auto* x = static_cast<const unsigned char*>(a.data());
  const auto* y = static_cast<const unsigned char*>(b.data());
  std::size_t i = 0;
  while (i < a.nbytes() && x[i] == y[i]) ++i;
  return i / dtype_size(a.dtype());
}

// No program may be executed once the kernel library is loaded: re-executing the runner with
// LD_PRELOAD (to interpose the clock) or running a helper binary outside the call are the
// obvious escapes, and a numerical kernel has no reason to exec. Installed before dlopen, so
// the library's constructors are already bound by it.
bool deny_exec() {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (ctx == nullptr) return false;
  bool ok = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(execve), 0) == 0 &&
            seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(execveat), 0) == 0 &&
            seccomp_load(ctx) == 0;
  seccomp_release(ctx);
  return ok;
}

// The runner's checks after a call, in order: inputs unchanged, guard zones intact (arrays,
// then the workspace), outputs unchanged since the copy-out. The reply to "post".
std::string post_verdict(const Draw& draw, const std::map<std::string, NdArray>& snapshot,
                         const std::map<std::string, NdArray>& copied_out,
                         const NdArray& workspace) {
  for (const auto& [name, copy] : snapshot) {
    const NdArray& now = draw.arrays.at(name);
    if (!now.bytes_equal(copy)) {
      return proto::posted_reply(proto::PostProblem::kConst, name,
                                 std::to_string(first_difference(now, copy)));
    }
  }
  for (const auto& [name, arr] : draw.arrays) {
    if (auto off = arr.guard_violation()) {
      return proto::posted_reply(proto::PostProblem::kGuard, name, std::to_string(*off));
    }
  }
  if (auto off = workspace.guard_violation()) {
    return proto::posted_reply(proto::PostProblem::kGuard, "(workspace)", std::to_string(*off));
  }
  for (const auto& [name, copy] : copied_out) {
    const NdArray& now = draw.arrays.at(name);
    if (!now.bytes_equal(copy)) {
      return proto::posted_reply(proto::PostProblem::kLate, name,
                                 std::to_string(first_difference(now, copy)));
    }
  }
  return proto::posted_ok_reply();
}

// The copied-out outputs as <dir>/<name>.npy. Errors keep write_npy's code (kNoSpace...).
Status save_outputs(const Manifest& m, const std::map<std::string, NdArray>& copied_out,
                    const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return Error{"cannot create " + dir.string() + ": " + ec.message(),
                 errc_from_errno(ec.value())};
  }
  for (const auto& a : m.arrays) {
    if (!a.is_output()) continue;
    if (auto st = write_npy((dir / (a.name + ".npy")).string(), copied_out.at(a.name)); !st) {
      return st;
    }
  }
  return Ok{};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hpcab-runner: runs a kernel library call by call (driven by hpcab-judge)"};
  std::string manifest_path, lib_path, precision_text = "fp64", sizes_text, out_dir = ".";
  int64_t workspace_bytes = 0;
  app.add_option("--manifest", manifest_path, "kernel.json")->required();
  app.add_option("--lib", lib_path, "shared library to run")->required();
  app.add_option("--precision", precision_text, "fp64 or fp32")->capture_default_str();
  app.add_option("--sizes", sizes_text, "size symbols, e.g. N=100,M=20")->required();
  app.add_option("--workspace-bytes", workspace_bytes, "zeroed scratch bytes per call");
  app.add_option("--out-dir", out_dir, "where saved outputs go")->capture_default_str();
  int gen_threads = 0;
  app.add_option("--gen-threads", gen_threads,
                 "threads generating draws (0: OpenMP default); the judge asks for 1 in the "
                 "candidate's runner, so any other thread busy between calls is the kernel's")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  g_reply = fdopen(3, "w");
  if (g_reply == nullptr) {
    std::fprintf(stderr, "hpcab-runner: fd 3 (the reply channel) is not open\n");
    return 2;
  }
  auto fail = [](proto::Fault fault, const std::string& msg) {
    reply(proto::error_reply(fault, msg));
    return 2;
  };
  const auto setup = proto::Fault::kSetup;
  const auto load = proto::Fault::kLoad;
  auto m = load_manifest(manifest_path);
  if (!m) return fail(setup, m.error().message);
  auto p = parse_precision(precision_text);
  if (!p) return fail(setup, "bad precision " + precision_text);
  auto sizes = parse_sizes(sizes_text);
  if (!sizes) return fail(setup, sizes.error().message);
  DrawSpec spec;
  spec.precision = *p;
  spec.sizes = *sizes;
  spec.threads = std::max(gen_threads, 0);
  auto draw = generate_draw(*m, spec);
  if (!draw) return fail(setup, draw.error().message);
  std::map<std::string, NdArray> snapshot, copied_out;
  for (const auto& a : m->arrays) {
    if (a.intent == Intent::kIn) snapshot.emplace(a.name, draw->arrays.at(a.name));
    if (a.is_output()) copied_out.emplace(a.name, draw->arrays.at(a.name));
  }
  // Guarded like the arrays, so a kernel overrunning its scratch space is reported as well.
  NdArray workspace(DType::kUint8, {std::max<int64_t>(workspace_bytes, 0)});
  if (!deny_exec()) return fail(setup, "cannot install the exec filter");
  auto lib = SharedLibrary::open(lib_path);
  if (!lib) return fail(load, lib.error().message);
  auto fn = lib->symbol(abi_symbol(*m, *p));
  if (!fn) return fail(load, fn.error().message);
  auto call = KernelCall::prepare(*m, *p, *fn);
  if (!call) return fail(load, call.error().message);
  reply(proto::hello_reply());

  std::string line;
  while (std::getline(std::cin, line)) {
    const proto::Command cmd = proto::parse_command(line);
    switch (cmd.verb) {
      case proto::Command::Verb::kPrep: {
        spec.seed = cmd.seed;
        spec.scale = cmd.scale;
        spec.distribution.reset();
        if (cmd.dist == "uniform") spec.distribution = Distribution::kUniform;
        if (cmd.dist == "normal") spec.distribution = Distribution::kNormal;
        if (cmd.dist == "lognormal") spec.distribution = Distribution::kLognormal;
        if (auto st = regenerate_draw(*m, spec, *draw); !st) return fail(setup, st.error().message);
        // The draw's inputs are kept in the snapshot and hidden from the kernel until "go": the
        // arrays it can see hold a poison pattern meanwhile, so a helper thread cannot compute
        // the next answer from them between calls (outside the clock). Honest code sees the
        // real inputs when it is called.
        for (auto& [name, copy] : snapshot) {
          NdArray& visible = draw->arrays.at(name);
          std::memcpy(copy.data(), visible.data(), copy.nbytes());
          std::memset(visible.data(), 0xff, visible.nbytes());
        }
        std::memset(workspace.data(), 0, workspace.nbytes());
        reply(proto::ready_reply());
        break;
      }
      case proto::Command::Verb::kGo: {
        // The inputs appear right before the clock starts (the judge's allowance covers the
        // copy): nothing the kernel left running could have used them earlier.
        for (const auto& [name, copy] : snapshot) {
          std::memcpy(draw->arrays.at(name).data(), copy.data(), copy.nbytes());
        }
        const int64_t t0 = now_ns();
        (*call)(*draw, workspace.nbytes() == 0 ? nullptr : workspace.as<uint8_t>(),
                static_cast<int64_t>(workspace.nbytes()));
        const int64_t t1 = now_ns();
        for (auto& [name, copy] : copied_out) {
          std::memcpy(copy.data(), draw->arrays.at(name).data(), copy.nbytes());
        }
        reply(proto::done_reply(t1 - t0));
        break;
      }
      case proto::Command::Verb::kPost: {
        const std::string verdict = post_verdict(*draw, snapshot, copied_out, workspace);
        if (cmd.save) {
          if (auto st = save_outputs(*m, copied_out, std::filesystem::path(out_dir) / cmd.tag);
              !st) {
            // A filesystem refusing the write is the judge's scratch space; anything else
            // (an array the writer rejects) is this runner's own set-up.
            const bool io = st.error().code == Errc::kNoSpace || st.error().code == Errc::kReadOnly;
            return fail(io ? proto::Fault::kIo : setup, st.error().message);
          }
        }
        reply(verdict);
        break;
      }
      case proto::Command::Verb::kPing:
        reply(proto::pong_reply());
        break;
      case proto::Command::Verb::kQuit:
        return 0;
      case proto::Command::Verb::kUnknown:
        return fail(proto::Fault::kCommand, "unknown command '" + cmd.word + "'");
    }
  }
  return 0;
}
