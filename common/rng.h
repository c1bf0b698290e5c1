// Counter-based random numbers (Philox4x32-10 from Random123): every value is a pure function
// of (seed, stream, counter), so generation is parallel and bit-identical for any thread count.
#pragma once

#include <Random123/philox.h>

#include <array>
#include <cstdint>
#include <string_view>

namespace hpcab {

// 64-bit FNV-1a: turns an array name into a stream id.
uint64_t stream_id(std::string_view name);

// SplitMix64 step: derives independent 64-bit seeds from one (e.g. per draw, per case).
uint64_t mix_seed(uint64_t seed, uint64_t salt);

// Four 32-bit words for (seed, stream, counter). Inline: it sits in every generator loop.
inline std::array<uint32_t, 4> philox(uint64_t seed, uint64_t stream, uint64_t counter) {
  r123::Philox4x32 gen;
  r123::Philox4x32::ctr_type ctr = {
      {static_cast<uint32_t>(counter), static_cast<uint32_t>(counter >> 32),
       static_cast<uint32_t>(stream), static_cast<uint32_t>(stream >> 32)}};
  r123::Philox4x32::key_type key = {
      {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
  auto r = gen(ctr, key);
  return {r[0], r[1], r[2], r[3]};
}

// [0, 1) with 53 random bits.
inline double to_unit(uint32_t hi, uint32_t lo) {
  uint64_t bits = ((static_cast<uint64_t>(hi) << 32) | lo) >> 11;
  return static_cast<double>(bits) * 0x1.0p-53;
}

// (0, 1]: safe for log().
inline double to_unit_open0(uint32_t hi, uint32_t lo) { return 1.0 - to_unit(hi, lo); }

}  // namespace hpcab
