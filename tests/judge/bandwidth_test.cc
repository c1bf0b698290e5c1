#include "judge/host/bandwidth.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;

BandwidthTable ladder() {
  // Caches are faster than memory: 40 GB/s up to 1 MiB, 10 GB/s from 64 MiB.
  return BandwidthTable("m", {{64 << 20, 10e9}, {32 << 10, 40e9}, {1 << 20, 40e9}});
}

TEST(BandwidthTableTest, UsesTheLargestMeasuredSizeNotAboveTheWorkingSet) {
  BandwidthTable t = ladder();
  EXPECT_DOUBLE_EQ(t.at(1 << 10), 40e9);  // below the ladder: the smallest size's figure
  EXPECT_DOUBLE_EQ(t.at(2 << 20), 40e9);  // between 1 MiB and 64 MiB: the 1 MiB figure
  EXPECT_DOUBLE_EQ(t.at(uint64_t{1} << 32), 10e9);
  EXPECT_DOUBLE_EQ(t.floor_ns(10'000'000'000ull, uint64_t{1} << 32), 1e9);
  EXPECT_DOUBLE_EQ(BandwidthTable().at(100), 0);
  EXPECT_DOUBLE_EQ(BandwidthTable().floor_ns(100, 100), 0);
}

TEST(BandwidthTableTest, JsonRoundTripAndBadTablesAreErrors) {
  auto back = BandwidthTable::from_json(ladder().to_json());
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->machine(), "m");
  EXPECT_EQ(back->points().size(), 3u);
  EXPECT_DOUBLE_EQ(back->at(2 << 20), 40e9);
  EXPECT_FALSE(BandwidthTable::from_json("{").ok());
  EXPECT_FALSE(BandwidthTable::from_json(R"({"machine":"m","points":[]})").ok());
  EXPECT_FALSE(
      BandwidthTable::from_json(R"({"machine":"m","points":[{"bytes":0,"bytes_per_s":1}]})").ok());
}

TEST(BandwidthTableTest, MeasurementIsPositiveOnEveryRung) {
  std::vector<std::string> lines;
  BandwidthTable t =
      measure_bandwidth("here", 2 << 20, [&](const std::string& l) { lines.push_back(l); });
  ASSERT_EQ(t.points().size(), 4u);  // 32 KiB, 128 KiB, 512 KiB, 2 MiB
  EXPECT_EQ(lines.size(), 4u);
  for (const auto& p : t.points()) EXPECT_GT(p.bytes_per_s, 1e8) << p.bytes;
}

TEST(BandwidthTableTest, CachedTableIsReusedOnlyForTheSameMachine) {
  const fs::path path = fs::temp_directory_path() / ("hpcab-bw-" + std::to_string(getpid()));
  std::ofstream(path) << ladder().to_json();
  auto same = load_or_measure_bandwidth(path.string(), "m");
  ASSERT_TRUE(same.ok());
  EXPECT_DOUBLE_EQ(same->at(2 << 20), 40e9);  // the file's figures, not a measurement
  auto other = load_or_measure_bandwidth(path.string(), "another machine");
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->machine(), "another machine");
  EXPECT_GT(other->points().size(), 4u);
  // ... and the fresh measurement replaced the file.
  auto reread = load_or_measure_bandwidth(path.string(), "another machine");
  ASSERT_TRUE(reread.ok());
  EXPECT_DOUBLE_EQ(reread->at(1 << 20), other->at(1 << 20));
  fs::remove(path);
}

TEST(BandwidthFloorTest, FlagsClaimsFasterThanTheMachineAndNothingElse) {
  auto m =
      load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/tsvc_2_s000");
  ASSERT_TRUE(m.ok()) << m.error().message;
  const SymbolTable sizes = {{"N", 1'000'000}};  // 16 MB declared traffic, 16 MB working set
  BandwidthTable t = ladder();                   // 40 GB/s at that size: floor 400 us
  EXPECT_EQ(bandwidth_floor_problem(*m, Precision::kFp64, sizes, 500e3, t, 0.5), "");
  EXPECT_EQ(bandwidth_floor_problem(*m, Precision::kFp64, sizes, 250e3, t, 0.5), "");
  const std::string why = bandwidth_floor_problem(*m, Precision::kFp64, sizes, 150e3, t, 0.5);
  EXPECT_NE(why.find("physical floor"), std::string::npos) << why;
  EXPECT_NE(why.find("16000000 declared bytes"), std::string::npos) << why;
  // fp32 halves the bytes: 150 us is then plausible.
  EXPECT_EQ(bandwidth_floor_problem(*m, Precision::kFp32, sizes, 150e3, t, 0.5), "");
  // A cache-resident working set (16 MB under a 32 MiB DRAM threshold) gets the looser
  // fraction: 150 us is plausible at 0.2 of the 400 us floor, 50 us is not.
  EXPECT_EQ(bandwidth_floor_problem(*m, Precision::kFp64, sizes, 150e3, t, 0.5, 0.2, 32 << 20), "");
  EXPECT_NE(bandwidth_floor_problem(*m, Precision::kFp64, sizes, 50e3, t, 0.5, 0.2, 32 << 20), "");
  // Above the threshold the DRAM fraction applies again.
  EXPECT_NE(bandwidth_floor_problem(*m, Precision::kFp64, sizes, 150e3, t, 0.5, 0.2, 8 << 20), "");
  // Off switches: fraction 0, no measurement.
  EXPECT_EQ(bandwidth_floor_problem(*m, Precision::kFp64, sizes, 1, t, 0), "");
  EXPECT_EQ(bandwidth_floor_problem(*m, Precision::kFp64, sizes, 1, BandwidthTable(), 0.5), "");
}

}  // namespace
}  // namespace hpcab::judge
