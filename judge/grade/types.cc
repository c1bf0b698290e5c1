#include "judge/grade/types.h"

#include <cmath>

namespace hpcab::judge {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kOk:
      return "ok";
    case Verdict::kBuildError:
      return "build_error";
    case Verdict::kIncorrect:
      return "incorrect";
    case Verdict::kOverfit:
      return "overfit";
    case Verdict::kTimeout:
      return "timeout";
    case Verdict::kCrash:
      return "crash";
    case Verdict::kMemory:
      return "memory";
    case Verdict::kRejected:
      return "rejected";
    case Verdict::kJudgeError:
      return "judge_error";
  }
  return "judge_error";
}

const char* reject_reason_name(RejectReason r) {
  switch (r) {
    case RejectReason::kNone:
      return "";
    case RejectReason::kNoGpu:
      return "no_gpu";
    case RejectReason::kNoToolchain:
      return "no_toolchain";
  }
  return "";
}

const char* resource_name(Resource r) {
  switch (r) {
    case Resource::kNone:
      return "";
    case Resource::kScratch:
      return "scratch";
    case Resource::kState:
      return "state";
    case Resource::kRunner:
      return "runner";
    case Resource::kSandbox:
      return "sandbox";
    case Resource::kDatabase:
      return "database";
    case Resource::kCompiler:
      return "compiler";
    case Resource::kInternal:
      return "internal";
    case Resource::kSlot:
      return "slot";
  }
  return "internal";
}

std::string slot_disturbance(const SlotUse& u, double wait_max, double steal_max) {
  if (!u.measured) return "";
  auto pct = [](double x) { return std::to_string(static_cast<int>(std::lround(x * 100))) + " %"; };
  if (wait_max > 0 && u.wait > wait_max) {
    return "the timed calls waited for a CPU " + pct(u.wait) + " of their runnable time (limit " +
           pct(wait_max) + "): another process was using the slot's CPUs";
  }
  if (steal_max > 0 && u.steal > steal_max) {
    return "the hypervisor took " + pct(u.steal) + " of the slot's CPU time (steal; limit " +
           pct(steal_max) + ")";
  }
  return "";
}

std::string tail(const std::string& s, std::size_t n) {
  return s.size() <= n ? s : "..." + s.substr(s.size() - n);
}

RunFailure judge_fault(Resource r, const std::string& detail) {
  RunFailure f;
  f.verdict = Verdict::kJudgeError;
  f.detail = detail;
  f.harness = true;
  f.resource = r;
  return f;
}

}  // namespace hpcab::judge
