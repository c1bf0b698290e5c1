// HMAC-SHA256 (OpenSSL) and seed derivation from the judge's secret key (SPEC §5.3).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace hpcab {

using Digest = std::array<uint8_t, 32>;

Digest hmac_sha256(std::string_view key, std::string_view message);
Digest sha256(std::string_view data);
std::string to_hex(const Digest& d);

// A 64-bit draw seed: the first 8 bytes (little-endian) of HMAC-SHA256(key, domain + "\n" +
// label). Domains keep /score and /submit draws independent; the label names the draw.
uint64_t derive_seed(std::string_view key, std::string_view domain, std::string_view label);

}  // namespace hpcab
