// A typed, shaped, 64-byte-aligned, contiguous row-major array owned by value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/dtype.h"

namespace hpcab {

// How an NdArray lets go of its bytes: freed with their guard zones, or (a view) left alone.
// Outside the class so that it is complete, and default-constructible, where NdArray's
// members are declared.
struct NdArrayFree {
  bool owned = true;
  void operator()(void* p) const;
};

class NdArray {
 public:
  NdArray() = default;
  NdArray(DType dtype, std::vector<int64_t> shape);  // zero-filled
  // Elements left as the allocator gives them (guards set): only for a caller that writes
  // every byte before anything reads one (read_npy). Saves a pass over the memory, which for a
  // DRAM-sized output read back after every call is a third of the work.
  static NdArray uninitialized(DType dtype, std::vector<int64_t> shape);
  // A view of `nbytes()` bytes at `data`, owned elsewhere (a shared draw mapped read-only):
  // freed by nobody, without guard zones (guard_violation is always nullopt). `data` must be
  // 64-byte aligned and outlive the view. A copy of a view is an ordinary owned array.
  static NdArray view(DType dtype, std::vector<int64_t> shape, void* data);
  bool is_view() const { return !data_.get_deleter().owned; }
  NdArray(const NdArray& other);
  NdArray& operator=(const NdArray& other);
  NdArray(NdArray&&) noexcept = default;
  NdArray& operator=(NdArray&&) noexcept = default;

  DType dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t size() const { return size_; }  // element count
  std::size_t nbytes() const { return static_cast<std::size_t>(size_) * dtype_size(dtype_); }

  void* data() { return data_.get(); }
  const void* data() const { return data_.get(); }
  template <typename T>
  T* as() {
    return static_cast<T*>(data());
  }
  template <typename T>
  const T* as() const {
    return static_cast<const T*>(data());
  }

  // Element i widened to double (integers and bool exactly when representable).
  double get(int64_t i) const;
  bool bytes_equal(const NdArray& other) const;  // same dtype, shape and bytes

  // Every array sits between two guard zones of kGuardBytes filled with a fixed pattern, so a
  // kernel writing past either end of an argument is caught after the call instead of silently
  // corrupting a neighbour. Returns the byte offset of the first damaged guard byte: negative
  // before the data (-1 is the byte just before it), >= 0 past its end (0 is the first byte
  // after the last element); nullopt when both guards are intact.
  static constexpr std::size_t kGuardBytes = 4096;
  std::optional<int64_t> guard_violation() const;

 private:
  NdArray(DType dtype, std::vector<int64_t> shape, bool zero);
  using Free = NdArrayFree;
  DType dtype_ = DType::kFloat64;
  std::vector<int64_t> shape_;
  int64_t size_ = 0;
  std::unique_ptr<void, Free> data_;
};

}  // namespace hpcab
