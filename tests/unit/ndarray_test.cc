#include "common/ndarray.h"

#include <gtest/gtest.h>

#include <cstring>

namespace hpcab {
namespace {

TEST(NdArrayGuardTest, FreshAndCopiedArraysHaveIntactGuards) {
  NdArray a(DType::kFloat64, {3, 5});
  EXPECT_EQ(a.guard_violation(), std::nullopt);
  a.as<double>()[14] = 1.5;  // the last element is inside, not in the guard
  NdArray b = a;
  EXPECT_EQ(b.guard_violation(), std::nullopt);
  EXPECT_TRUE(a.bytes_equal(b));
}

TEST(NdArrayGuardTest, UninitializedArraysHaveTheirShapeAndIntactGuards) {
  NdArray a = NdArray::uninitialized(DType::kFloat32, {4, 7});
  EXPECT_EQ(a.size(), 28);
  EXPECT_EQ(a.nbytes(), 28u * 4);
  EXPECT_EQ(a.guard_violation(), std::nullopt);
  std::memset(a.data(), 0x5a, a.nbytes());  // every byte is the caller's to write
  EXPECT_EQ(a.guard_violation(), std::nullopt);
  a.as<unsigned char>()[a.nbytes()] = 0;  // one past the end: the trailing guard
  EXPECT_EQ(a.guard_violation(), std::optional<int64_t>(0));
}

TEST(NdArrayGuardTest, WriteOnePastTheEndIsReported) {
  NdArray a(DType::kFloat64, {10});
  a.as<double>()[10] = 0.0;  // the classic off-by-one
  ASSERT_TRUE(a.guard_violation().has_value());
  EXPECT_EQ(*a.guard_violation(), 0);
}

TEST(NdArrayGuardTest, WriteIntoTheAlignmentPaddingIsReported) {
  NdArray a(DType::kFloat32, {3});  // 12 bytes of data, padded to 64
  static_cast<unsigned char*>(a.data())[40] = 0;
  ASSERT_TRUE(a.guard_violation().has_value());
  EXPECT_EQ(*a.guard_violation(), 28);
}

TEST(NdArrayGuardTest, WriteBeforeTheStartIsReported) {
  NdArray a(DType::kInt32, {4});
  a.as<int32_t>()[-2] = 7;
  ASSERT_TRUE(a.guard_violation().has_value());
  EXPECT_LT(*a.guard_violation(), 0);
  EXPECT_GE(*a.guard_violation(), -8);
}

TEST(NdArrayGuardTest, EmptyArraysAreGuardedToo) {
  NdArray a(DType::kFloat64, {0});
  EXPECT_EQ(a.guard_violation(), std::nullopt);
  static_cast<unsigned char*>(a.data())[0] = 1;
  EXPECT_EQ(a.guard_violation(), std::optional<int64_t>(0));
}

// A view borrows memory owned elsewhere (a shared draw): it frees nothing, has no guard zones
// of its own to check, and a copy of it owns its bytes.
TEST(NdArrayViewTest, AViewBorrowsAndACopyOwns) {
  alignas(64) double storage[4] = {1, 2, 3, 4};
  NdArray v = NdArray::view(DType::kFloat64, {4}, storage);
  EXPECT_TRUE(v.is_view());
  EXPECT_EQ(v.data(), static_cast<void*>(storage));
  EXPECT_EQ(v.guard_violation(), std::nullopt);
  NdArray copy = v;
  EXPECT_FALSE(copy.is_view());
  EXPECT_NE(copy.data(), v.data());
  EXPECT_TRUE(copy.bytes_equal(v));
  storage[0] = 9;
  EXPECT_EQ(v.get(0), 9.0);
  EXPECT_EQ(copy.get(0), 1.0);
  {
    NdArray moved = std::move(v);
    EXPECT_TRUE(moved.is_view());
  }
  EXPECT_EQ(storage[3], 4.0);  // the view's end freed nothing
}

}  // namespace
}  // namespace hpcab
