#include "common/ndarray.h"

#include <sys/mman.h>

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

constexpr unsigned char kGuardByte = 0xA7;
// Arrays of at least kHugeBytes are backed by transparent huge pages where the kernel offers
// them (madvise mode is Debian's default). Both sides of a paired timing get their buffers
// here, and with 4 KiB pages the placement a process happens to get decided its speed: on a
// 2-core VM one tsvc_2_s000 runner process in six ran its DRAM-sized calls ~15% slower than another
// for its whole life, which no number of calls inside that process averages out.
// Why from 512 KiB (it was 4 MiB): every fresh array is first touched page by page, and a page
// fault cost ~14 us on a 2-CPU Firecracker VM (touching 256 MB: 930 ms with 4 KiB pages, 15 ms
// with huge ones), so a runner's start-up and the judge's copies of the outputs it reads (gemm's
// 1 MB at its timed size, fresh for every call) were mostly faults: from 1 MiB to 512 KiB cut
// the judge's minor faults per gemm /submit from 14,000-29,000 to ~2,300. The rounding to 2 MiB
// wastes less than 2 MiB per array whatever the threshold, against a runner's address-space limit
// of at least four times its data (common/manifest.h, data_budget).
constexpr std::size_t kHugeBytes = std::size_t{512} << 10;
constexpr std::size_t kHugeAlign = std::size_t{2} << 20;
constexpr std::size_t kGuardBytes = NdArray::kGuardBytes;

std::size_t rounded_size(std::size_t bytes) {
  std::size_t rounded = (bytes + kAlign - 1) / kAlign * kAlign;
  return rounded == 0 ? kAlign : rounded;
}

// Layout: [guard][data, zero-filled unless `zero` is false, rounded up to the alignment][guard];
// the bytes between the end of the data and the rounded end belong to the trailing guard.
void* allocate(std::size_t bytes, bool zero = true) {
  const std::size_t rounded = rounded_size(bytes);
  std::size_t total = rounded + 2 * kGuardBytes;
  const bool huge = total >= kHugeBytes;
  if (huge) total = (total + kHugeAlign - 1) / kHugeAlign * kHugeAlign;
  auto* base = static_cast<unsigned char*>(std::aligned_alloc(huge ? kHugeAlign : kAlign, total));
  // Advice only: without THP support the array is as before.
  if (base != nullptr && huge) (void)madvise(base, total, MADV_HUGEPAGE);
  if (base == nullptr) {
    std::fprintf(stderr, "hpcab: out of memory allocating %zu bytes\n", rounded);
    std::abort();
  }
  unsigned char* data = base + kGuardBytes;
  std::memset(base, kGuardByte, kGuardBytes);
  if (zero) std::memset(data, 0, bytes);
  std::memset(data + bytes, kGuardByte, rounded - bytes + kGuardBytes);
  return data;
}
}  // namespace

void NdArrayFree::operator()(void* p) const {
  if (p != nullptr && owned) std::free(static_cast<unsigned char*>(p) - kGuardBytes);
}

std::optional<int64_t> NdArray::guard_violation() const {
  if (!data_ || is_view()) return std::nullopt;
  const auto* data = static_cast<const unsigned char*>(data_.get());
  // Nearest damaged byte first: the likeliest culprit is an off-by-a-few loop bound.
  for (std::size_t i = 1; i <= kGuardBytes; ++i) {
    if (data[-static_cast<std::ptrdiff_t>(i)] != kGuardByte) return -static_cast<int64_t>(i);
  }
  const std::size_t end = rounded_size(nbytes()) + kGuardBytes;
  for (std::size_t i = nbytes(); i < end; ++i) {
    if (data[i] != kGuardByte) return static_cast<int64_t>(i - nbytes());
  }
  return std::nullopt;
}

NdArray::NdArray(DType dtype, std::vector<int64_t> shape, bool zero)
    : dtype_(dtype), shape_(std::move(shape)), size_(element_count(shape_)) {
  data_.reset(allocate(nbytes(), zero));
}

NdArray::NdArray(DType dtype, std::vector<int64_t> shape)
    : NdArray(dtype, std::move(shape), true) {}

NdArray NdArray::uninitialized(DType dtype, std::vector<int64_t> shape) {
  return NdArray(dtype, std::move(shape), false);
}

NdArray NdArray::view(DType dtype, std::vector<int64_t> shape, void* data) {
  NdArray a;
  a.dtype_ = dtype;
  a.shape_ = std::move(shape);
  a.size_ = element_count(a.shape_);
  a.data_ = std::unique_ptr<void, Free>(data, Free{false});
  return a;
}

NdArray::NdArray(const NdArray& other)
    : dtype_(other.dtype_), shape_(other.shape_), size_(other.size_) {
  if (other.data_) {
    data_.reset(allocate(nbytes(), false));  // every byte copied below
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
    case DType::kInt8:
      return as<int8_t>()[i];
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
