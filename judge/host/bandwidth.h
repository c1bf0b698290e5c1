// The machine's memory bandwidth, measured once (STREAM-style copy) at a ladder of working-set
// sizes and cached in the state dir, for the plausibility floor of SPEC §5.9: no honest kernel
// moves its compulsory bytes faster than the hardware can.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/manifest.h"
#include "common/result.h"

namespace hpcab::judge {

struct BandwidthPoint {
  uint64_t bytes = 0;      // working set: source + destination
  double bytes_per_s = 0;  // best of one thread and every thread, best repetition
};

class BandwidthTable {
 public:
  BandwidthTable() = default;
  BandwidthTable(std::string machine, std::vector<BandwidthPoint> points);
  // A flat figure (configured instead of measured).
  static BandwidthTable flat(double bytes_per_s);

  // Bandwidth usable for a working set of `bytes`: the figure at the largest measured size not
  // above it (smaller working sets run from faster caches, so this errs towards a lower floor),
  // the smallest size's figure below the ladder. 0 when empty.
  double at(uint64_t bytes) const;
  // The least time `bytes` of traffic can take with a working set of `working_set` bytes.
  double floor_ns(uint64_t bytes, uint64_t working_set) const;

  const std::string& machine() const { return machine_; }
  const std::vector<BandwidthPoint>& points() const { return points_; }
  std::string to_json() const;
  static Result<BandwidthTable> from_json(const std::string& text);

 private:
  std::string machine_;
  std::vector<BandwidthPoint> points_;  // ascending bytes
};

// Measures the ladder 32 KiB .. `max_bytes` (x4 steps); `progress` gets one line per size.
BandwidthTable measure_bandwidth(const std::string& machine, uint64_t max_bytes,
                                 const std::function<void(const std::string&)>& progress = {});

// The cached table for `machine` from `path`, or a fresh measurement written there (a table for
// another machine or an unreadable file is measured again).
Result<BandwidthTable> load_or_measure_bandwidth(
    const std::string& path, const std::string& machine,
    const std::function<void(const std::string&)>& progress = {});

// SPEC §5.9: why a median call of `median_ns` at `sizes` is physically impossible (it moves the
// kernel's declared `bytes` faster than `fraction` of the bandwidth measured at its working set),
// or empty when it is not, the kernel declares no bytes, the table is empty or fraction is 0.
// A working set under `dram_bytes` is cache-resident: there the table (one thread streaming a
// copy) understates what honest code reaches (every core of the slot, read-mostly access, data
// already in cache), so the looser `cache_fraction` applies (negative: `fraction` everywhere).
std::string bandwidth_floor_problem(const Manifest& m, Precision p, const SymbolTable& sizes,
                                    double median_ns, const BandwidthTable& table, double fraction,
                                    double cache_fraction = -1, uint64_t dram_bytes = 0);

}  // namespace hpcab::judge
