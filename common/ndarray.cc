#include "common/ndarray.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hpcab {

namespace {
constexpr std::size_t kAlign = 64;

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) {
      std::fprintf(stderr, "hpcab: NdArray with negative dimension %lld\n",
                   static_cast<long long>(d));
      std::abort();
    }
    n *= d;
  }
  return n;
}

void* allocate(std::size_t bytes) {
  // aligned_alloc needs a size that is a multiple of the alignment, and never 0.
  std::size_t rounded = (bytes + kAlign - 1) / kAlign * kAlign;
  if (rounded == 0) rounded = kAlign;
  void* p = std::aligned_alloc(kAlign, rounded);
  if (p == nullptr) {
    std::fprintf(stderr, "hpcab: out of memory allocating %zu bytes\n", rounded);
    std::abort();
  }
  std::memset(p, 0, rounded);
  return p;
}
}  // namespace

void NdArray::Free::operator()(void* p) const { std::free(p); }

NdArray::NdArray(DType dtype, std::vector<int64_t> shape)
    : dtype_(dtype), shape_(std::move(shape)), size_(element_count(shape_)) {
  data_.reset(allocate(nbytes()));
}

NdArray::NdArray(const NdArray& other)
    : dtype_(other.dtype_), shape_(other.shape_), size_(other.size_) {
  if (other.data_) {
    data_.reset(allocate(nbytes()));
    std::memcpy(data_.get(), other.data_.get(), nbytes());
  }
}

NdArray& NdArray::operator=(const NdArray& other) {
  if (this != &other) {
    NdArray copy(other);
    *this = std::move(copy);
  }
  return *this;
}

double NdArray::get(int64_t i) const {
  switch (dtype_) {
    case DType::kFloat64:
      return as<double>()[i];
    case DType::kFloat32:
      return as<float>()[i];
    case DType::kInt64:
      return static_cast<double>(as<int64_t>()[i]);
    case DType::kInt32:
      return as<int32_t>()[i];
    case DType::kUint16:
      return as<uint16_t>()[i];
    case DType::kUint8:
      return as<uint8_t>()[i];
    case DType::kBool:
      return as<uint8_t>()[i] != 0 ? 1.0 : 0.0;
  }
  return 0;
}

bool NdArray::bytes_equal(const NdArray& other) const {
  if (dtype_ != other.dtype_ || shape_ != other.shape_) return false;
  if (nbytes() == 0) return true;
  return std::memcmp(data(), other.data(), nbytes()) == 0;
}

}  // namespace hpcab
