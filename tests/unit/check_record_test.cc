// The record of the last full corpus check (corpus/checked.tsv): a kernel's hash follows every
// file that defines it, the record round-trips, and a malformed line is an error, so make
// test's "checked since" selection can neither miss an edit nor silently skip a kernel.
#include "common/check_record.h"

#include <gtest/gtest.h>

#include "tests/unit/test_util.h"

namespace hpcab {
namespace {

using testing::TempDir;
using testing::write_file;

TEST(CheckRecord, HashFollowsEveryFileOfTheKernel) {
  TempDir tmp;
  auto dir = testing::write_numpy_kernel(tmp.path(), testing::minimal_manifest("k"),
                                         "def k(a, b, N): pass\n");
  auto m = load_manifest(dir);
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto h0 = kernel_content_hash(*m);
  ASSERT_TRUE(h0.ok()) << h0.error().message;
  EXPECT_EQ(h0->size(), 64u);
  EXPECT_EQ(*kernel_content_hash(*m), *h0);  // deterministic

  write_file(dir / "reference.c", "void k_fp64(void) {}\n");
  auto h1 = kernel_content_hash(*m);
  ASSERT_TRUE(h1.ok());
  EXPECT_NE(*h1, *h0);  // a reference.c appearing is a change
  write_file(dir / "reference.c", "void k_fp64(void) { }\n");
  EXPECT_NE(*kernel_content_hash(*m), *h1);
  write_file(dir / "reference.py", "def k(a, b, N): a[:] = b\n");
  EXPECT_NE(*kernel_content_hash(*m), *h1);

  std::filesystem::remove(dir / "reference.py");
  EXPECT_FALSE(kernel_content_hash(*m).ok());  // a kernel that cannot be read is never "unchanged"
}

TEST(CheckRecord, RoundTripsAndRejectsMalformedLines) {
  TempDir tmp;
  const auto file = tmp.path() / "checked.tsv";
  auto empty = read_check_record(file);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());  // no record yet: every kernel counts as changed

  CheckRecord r{{"tsvc_2_s000", std::string(64, 'a')}, {"gemm", std::string(64, 'b')}};
  ASSERT_TRUE(write_check_record(file, r).ok());
  auto back = read_check_record(file);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, r);
  EXPECT_FALSE(std::filesystem::exists(file.string() + ".tmp"));

  write_file(file, "# comment\ngemm\tshort\n");
  auto bad = read_check_record(file);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("checked.tsv:2"), std::string::npos) << bad.error().message;
}

TEST(CheckRecord, UpdateKeepsUncheckedLinesAndDropsFailuresAndRemovedKernels) {
  const CheckRecord old = {{"a", "h1"}, {"b", "h2"}, {"c", "h3"}, {"gone", "h4"}};
  // a passed again with new files, b was checked and failed, c was not checked, d is new and
  // passed, e is new and failed; "gone" left the corpus.
  const CheckRecord next = updated_check_record(old, {{"a", "h1new"}, {"d", "h5"}},
                                                {"a", "b", "d", "e"}, {"a", "b", "c", "d", "e"});
  EXPECT_EQ(next, (CheckRecord{{"a", "h1new"}, {"c", "h3"}, {"d", "h5"}}));
  EXPECT_TRUE(updated_check_record(old, {}, {}, {}).empty());
  EXPECT_EQ(updated_check_record(old, {}, {}, {"a", "b", "c", "gone"}), old);
}

}  // namespace
}  // namespace hpcab
