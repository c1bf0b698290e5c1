#include "judge/grade/slot_watch.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace hpcab::judge {

CpuAccount parse_cpu_account(const std::string& proc_stat, const std::vector<int>& cpus,
                             long ticks_per_s) {
  CpuAccount a;
  if (ticks_per_s <= 0) return a;
  std::istringstream in(proc_stat);
  std::string line;
  while (std::getline(in, line)) {
    // "cpu0 user nice system idle iowait irq softirq steal guest guest_nice"; the aggregate
    // "cpu " line has no number and is skipped.
    if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 || line[3] < '0' || line[3] > '9') {
      continue;
    }
    std::istringstream fields(line.substr(3));
    int cpu = -1;
    fields >> cpu;
    if (std::find(cpus.begin(), cpus.end(), cpu) == cpus.end()) continue;
    // guest and guest_nice are already counted in user and nice: the sum stops at steal.
    unsigned long long v = 0;
    for (int i = 0; i < 8 && fields >> v; ++i) {
      a.total_s += static_cast<double>(v) / static_cast<double>(ticks_per_s);
      if (i == 7) a.steal_s += static_cast<double>(v) / static_cast<double>(ticks_per_s);
    }
  }
  return a;
}

CpuAccount ProcStatSlotMonitor::account(const std::vector<int>& cpus) {
  std::ifstream in("/proc/stat");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  CpuAccount a = parse_cpu_account(text, cpus, sysconf(_SC_CLK_TCK));
  rusage self{};
  if (getrusage(RUSAGE_SELF, &self) == 0) {
    auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
    a.judge_s = secs(self.ru_utime) + secs(self.ru_stime);
  }
  return a;
}

}  // namespace hpcab::judge
