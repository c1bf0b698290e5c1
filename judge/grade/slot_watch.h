// The slot watch's view of the host (docs/grading.md "Slot watch"): what /proc/stat says the
// slot's CPUs did. Pure parsing plus a thin reader, so the rules are tested on fixed text.
#pragma once

#include <string>
#include <vector>

#include "judge/grade/effects.h"

namespace hpcab::judge {

// The "cpu<N> ..." lines of /proc/stat for `cpus`, in seconds at `ticks_per_s` (USER_HZ):
// steal (the eighth field) and the sum of every field. CPUs missing from the text count zero.
CpuAccount parse_cpu_account(const std::string& proc_stat, const std::vector<int>& cpus,
                             long ticks_per_s);

// Reads /proc/stat on each call.
class ProcStatSlotMonitor : public SlotMonitor {
 public:
  CpuAccount account(const std::vector<int>& cpus) override;
};

}  // namespace hpcab::judge
