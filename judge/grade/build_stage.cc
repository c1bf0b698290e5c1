#include "judge/grade/build_stage.h"

#include "common/hmac.h"
#include "judge/grade/baseline_choice.h"

namespace hpcab::judge {

namespace {

// A build that could not run at all: which of the judge's resources failed.
RunFailure build_fault(const std::string& what, const Error& e) {
  Resource r = Resource::kCompiler;
  if (e.code == Errc::kNoSpace || e.code == Errc::kReadOnly) r = Resource::kState;
  if (e.code == Errc::kResource) r = Resource::kSandbox;
  return judge_fault(r, "judge fault: " + what + " (" + resource_name(r) + "): " + e.message);
}

}  // namespace

Result<BuildResult> build_reference(Compiler& compiler, ScratchFs& files, const Manifest& m,
                                    const std::string& flavor) {
  const bool python = baseline_from_python(flavor);
  const auto path = python ? m.reference_py() : m.reference_c();
  auto ref = files.read(path.string());
  if (!ref) return ref.error();
  auto built = python ? compiler.build({"python", flavor, *ref, {}, m.id})
                      : compiler.build({"c", flavor, *ref, {}, "", m.precisions});
  if (!built) return built.error();
  if (!built->ok) {
    return Error{path.filename().string() + " does not build as baseline " + flavor + ": " +
                 tail(built->log, 2000)};
  }
  return built;
}

MaybeFailure build_stage(Compiler& compiler, ScratchFs& files, const GradeRequest& req,
                         const Manifest& m, const std::string& oracle_name,
                         const std::vector<std::string>& baselines, BuiltLibraries& out) {
  if (req.library_path) {
    if (is_python_artifact(*req.library_path)) {
      RunFailure f;
      f.verdict = Verdict::kBuildError;
      f.detail =
          "'library' must be a shared library; a Python module is submitted as source "
          "with language python";
      return f;
    }
    out.candidate = *req.library_path;
    auto bytes = files.read(out.candidate);
    if (!bytes) return build_fault("reading the submitted library", bytes.error());
    out.content_hash = to_hex(sha256(*bytes));
  } else {
    auto built = compiler.build({req.language, "submission", *req.source, req.build_tokens, m.id});
    if (!built) return build_fault("building the submission", built.error());
    if (built->toolchain_missing) {
      RunFailure f;
      f.verdict = Verdict::kRejected;
      f.reason = RejectReason::kNoToolchain;
      f.detail = built->log;
      return f;
    }
    out.content_hash = built->hash;
    out.build_log = built->log;
    if (!built->ok) {
      RunFailure f;
      f.verdict = Verdict::kBuildError;
      f.timed_out = built->timed_out;
      f.detail = "compilation failed" + std::string(built->timed_out ? " (timed out)" : "") +
                 ":\n" + tail(built->log, 8000);
      return f;
    }
    out.candidate = built->library;
  }
  auto oracle = build_reference(compiler, files, m, oracle_name);
  if (!oracle) return build_fault("the oracle does not build on this judge", oracle.error());
  out.oracle = oracle->library;
  out.oracle_name = oracle_name;
  for (const auto& name : baselines) {
    if (name == oracle_name) {
      out.options.push_back({name, oracle->library, oracle->hash});
      continue;
    }
    auto base = build_reference(compiler, files, m, name);
    if (!base) return build_fault("a baseline does not build on this judge", base.error());
    out.options.push_back({name, base->library, base->hash});
  }
  if (out.options.size() == 1) {
    out.baseline = out.options[0].library;
    out.baseline_hash = out.options[0].hash;
  }
  return std::nullopt;
}

}  // namespace hpcab::judge
