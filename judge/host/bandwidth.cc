#include "judge/host/bandwidth.h"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/ndarray.h"

namespace hpcab::judge {

namespace fs = std::filesystem;
using json = nlohmann::json;

BandwidthTable::BandwidthTable(std::string machine, std::vector<BandwidthPoint> points)
    : machine_(std::move(machine)), points_(std::move(points)) {
  std::sort(points_.begin(), points_.end(),
            [](const BandwidthPoint& a, const BandwidthPoint& b) { return a.bytes < b.bytes; });
}

BandwidthTable BandwidthTable::flat(double bytes_per_s) {
  return BandwidthTable("(configured)", {{1, bytes_per_s}});
}

double BandwidthTable::at(uint64_t bytes) const {
  if (points_.empty()) return 0;
  double bw = points_.front().bytes_per_s;
  for (const auto& p : points_) {
    if (p.bytes > bytes) break;
    bw = p.bytes_per_s;
  }
  return bw;
}

double BandwidthTable::floor_ns(uint64_t bytes, uint64_t working_set) const {
  double bw = at(working_set);
  return bw > 0 ? static_cast<double>(bytes) / bw * 1e9 : 0;
}

std::string BandwidthTable::to_json() const {
  json pts = json::array();
  for (const auto& p : points_) pts.push_back({{"bytes", p.bytes}, {"bytes_per_s", p.bytes_per_s}});
  return json{{"machine", machine_}, {"points", pts}}.dump(2);
}

Result<BandwidthTable> BandwidthTable::from_json(const std::string& text) {
  try {
    json j = json::parse(text);
    std::vector<BandwidthPoint> pts;
    for (const auto& p : j.at("points")) {
      BandwidthPoint b{p.at("bytes").get<uint64_t>(), p.at("bytes_per_s").get<double>()};
      if (b.bytes == 0 || !(b.bytes_per_s > 0)) return Error{"bandwidth table: bad point"};
      pts.push_back(b);
    }
    if (pts.empty()) return Error{"bandwidth table: no points"};
    return BandwidthTable(j.at("machine").get<std::string>(), std::move(pts));
  } catch (const std::exception& e) {
    return Error{std::string("bandwidth table: ") + e.what()};
  }
}

namespace {

// Best copy rate over repetitions (at least 3 and ~20 ms) with `threads` threads.
double copy_rate(NdArray& src, NdArray& dst, int threads) {
  const int64_t n = src.size();
  auto* s = src.as<double>();
  auto* d = dst.as<double>();
  double best = 0, spent = 0;
  for (int rep = 0; rep < 1000 && (rep < 3 || spent < 0.02); ++rep) {
    auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) d[i] = s[i];
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    spent += t;
    // The element just written feeds the next source, so no compiler can skip repetitions.
    s[rep % n] = d[(rep * 7) % n] + 1;
    if (t > 0) best = std::max(best, static_cast<double>(src.nbytes() + dst.nbytes()) / t);
  }
  return best;
}

}  // namespace

BandwidthTable measure_bandwidth(const std::string& machine, uint64_t max_bytes,
                                 const std::function<void(const std::string&)>& progress) {
  std::vector<BandwidthPoint> pts;
  const int all = std::max(1, omp_get_num_procs());
  for (uint64_t ws = 32 << 10; ws <= max_bytes; ws *= 4) {
    const auto n = static_cast<int64_t>(ws / 2 / sizeof(double));
    NdArray src(DType::kFloat64, {n}), dst(DType::kFloat64, {n});
    for (int64_t i = 0; i < n; ++i) src.as<double>()[i] = static_cast<double>(i);
    double bw = copy_rate(src, dst, 1);
    if (all > 1) bw = std::max(bw, copy_rate(src, dst, all));
    pts.push_back({ws, bw});
    if (progress) {
      char line[128];
      std::snprintf(line, sizeof line, "memory bandwidth at %8.1f KiB: %7.2f GB/s",
                    static_cast<double>(ws) / 1024, bw / 1e9);
      progress(line);
    }
  }
  return BandwidthTable(machine, std::move(pts));
}

Result<BandwidthTable> load_or_measure_bandwidth(
    const std::string& path, const std::string& machine,
    const std::function<void(const std::string&)>& progress) {
  {
    std::ifstream in(path);
    if (in) {
      std::string text((std::istreambuf_iterator<char>(in)), {});
      auto t = BandwidthTable::from_json(text);
      if (t && t->machine() == machine) return t;
    }
  }
  BandwidthTable t = measure_bandwidth(machine, uint64_t{256} << 20, progress);
  // A private temporary name: judges sharing a state dir may measure at the same time.
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << t.to_json() << "\n";
    if (!out) return Error{"cannot write " + tmp};
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return Error{"cannot write " + path + ": " + ec.message()};
  return t;
}

std::string bandwidth_floor_problem(const Manifest& m, Precision p, const SymbolTable& sizes,
                                    double median_ns, const BandwidthTable& table, double fraction,
                                    double cache_fraction, uint64_t dram_bytes) {
  if (!m.bytes || fraction <= 0) return "";
  SymbolTable syms = m.symbols(sizes);
  syms["REAL_BYTES"] = static_cast<int64_t>(dtype_size(real_dtype(p)));
  auto bytes = m.bytes->eval(syms);
  auto ws = data_bytes(m, sizes, p);
  if (!bytes || !ws || *bytes <= 0) return "";
  const double floor = table.floor_ns(static_cast<uint64_t>(*bytes), *ws);
  if (cache_fraction >= 0 && *ws < dram_bytes) fraction = cache_fraction;
  if (!(floor > 0) || median_ns >= fraction * floor) return "";
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "median %.0f ns per call is below the physical floor: %lld declared bytes at the "
                "measured %.2f GB/s need at least %.0f ns",
                median_ns, static_cast<long long>(*bytes), table.at(*ws) / 1e9, floor);
  return buf;
}

}  // namespace hpcab::judge
