// make bench: throughput figures for the input generator and the comparator. Prints numbers;
// asserts nothing. Sizes are large enough (128 MiB per array) to leave the caches.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/compare.h"
#include "common/inputs.h"
#include "common/manifest.h"

namespace hpcab {
namespace {

constexpr int64_t kElements = int64_t{1} << 24;  // 16 Mi elements

const Manifest& tsvc_2_s000() {
  static const Manifest m = [] {
    auto r =
        load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/tsvc_2_s000");
    if (!r) {
      std::fprintf(stderr, "bench: %s\n", r.error().message.c_str());
      std::exit(1);
    }
    return *r;
  }();
  return m;
}

// Generator throughput: bytes of generated input per second (tsvc_2_s000 generates one array, b;
// the poisoning of its output a is included in the time, not in the bytes), per distribution
// and precision, on 1 and 2 threads. bytes_per_second is wall-clock based; on a machine shared
// with other work the CPU column is the better per-core figure (docs/numerics.md).
void BM_Generate(benchmark::State& state) {
  DrawSpec spec;
  spec.precision = state.range(1) == 64 ? Precision::kFp64 : Precision::kFp32;
  spec.sizes = {{"N", kElements}};
  spec.distribution = static_cast<Distribution>(state.range(2));
  spec.threads = static_cast<int>(state.range(0));
  // Refill one allocated draw, as a timing loop does between calls: the figure is the
  // generator's, not the page-fault cost of fresh allocations.
  Draw d = *generate_draw(tsvc_2_s000(), spec);
  uint64_t seed = 1;
  for (auto _ : state) {
    spec.seed = seed++;
    if (!regenerate_draw(tsvc_2_s000(), spec, d)) state.SkipWithError("regenerate_draw failed");
    benchmark::DoNotOptimize(d.arrays.at("b").data());
  }
  state.SetBytesProcessed(state.iterations() * kElements * (state.range(1) / 8));
  state.SetLabel(std::string(precision_name(spec.precision)) + " " +
                 std::string(distribution_name(*spec.distribution)));
}
BENCHMARK(BM_Generate)
    ->ArgNames({"threads", "bits", "dist"})
    ->ArgsProduct({{1, 2}, {64, 32}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Comparator throughput: bytes of both arrays read per second on a passing comparison.
void BM_Compare(benchmark::State& state) {
  const auto dtype = static_cast<DType>(state.range(0));
  NdArray e(dtype, {kElements});
  if (dtype_is_float(dtype)) {
    DrawSpec spec;
    spec.precision = dtype == DType::kFloat64 ? Precision::kFp64 : Precision::kFp32;
    spec.sizes = {{"N", kElements}};
    e = generate_draw(tsvc_2_s000(), spec)->arrays.at("b");
  }
  NdArray a = e;
  CompareOptions o;
  o.precision = dtype == DType::kFloat32 ? Precision::kFp32 : Precision::kFp64;
  o.reduction_length = 100;
  for (auto _ : state) {
    auto r = compare_array("b", e, a, o);
    if (!r.passed()) state.SkipWithError("comparison failed");
    benchmark::DoNotOptimize(r.max_rel_error);
  }
  state.SetBytesProcessed(state.iterations() * 2 * static_cast<int64_t>(e.nbytes()));
  state.SetLabel(std::string(dtype_name(dtype)));
}
BENCHMARK(BM_Compare)
    ->ArgName("dtype")
    ->Arg(static_cast<int>(DType::kFloat64))
    ->Arg(static_cast<int>(DType::kFloat32))
    ->Arg(static_cast<int>(DType::kInt32))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace hpcab

BENCHMARK_MAIN();
