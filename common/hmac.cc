#include "common/hmac.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace hpcab {

// Both one-shot calls below (HMAC() and EVP_Digest()) are current, non-deprecated OpenSSL 3
// API. They fail only on allocation failure or a broken provider setup; that is a fatal
// environment problem for the judge (no seeds means no grading), so it throws rather than
// returning a digest that would silently be all zeros.

Digest hmac_sha256(std::string_view key, std::string_view message) {
  Digest out{};
  unsigned int len = 0;
  // OpenSSL takes key length as int; real keys are a few dozen bytes.
  if (key.size() > static_cast<size_t>(INT_MAX)) throw std::length_error("hmac_sha256: key");
  // A non-null pointer even for empty inputs: some OpenSSL paths reject (nullptr, 0).
  static const unsigned char kEmpty = 0;
  const auto* k = key.empty() ? &kEmpty : reinterpret_cast<const unsigned char*>(key.data());
  const auto* d =
      message.empty() ? &kEmpty : reinterpret_cast<const unsigned char*>(message.data());
  if (HMAC(EVP_sha256(), k, static_cast<int>(key.size()), d, message.size(), out.data(), &len) ==
          nullptr ||
      len != out.size()) {
    throw std::runtime_error("hmac_sha256: OpenSSL HMAC failed");
  }
  return out;
}

Digest sha256(std::string_view data) {
  Digest out{};
  unsigned int len = 0;
  static const unsigned char kEmpty = 0;
  const void* p = data.empty() ? static_cast<const void*>(&kEmpty) : data.data();
  if (EVP_Digest(p, data.size(), out.data(), &len, EVP_sha256(), nullptr) != 1 ||
      len != out.size()) {
    throw std::runtime_error("sha256: OpenSSL EVP_Digest failed");
  }
  return out;
}

std::string to_hex(const Digest& d) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * d.size());
  for (uint8_t b : d) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 0xf]);
  }
  return s;
}

uint64_t derive_seed(std::string_view key, std::string_view domain, std::string_view label) {
  // The newline separates domain from label so ("a", "b\nc") and ("a\nb", "c") are the only
  // colliding pairs, and domains are fixed identifiers without newlines.
  std::string msg;
  msg.reserve(domain.size() + 1 + label.size());
  msg.append(domain).push_back('\n');
  msg.append(label);
  const Digest h = hmac_sha256(key, msg);
  uint64_t seed = 0;
  for (int i = 7; i >= 0; --i) seed = (seed << 8) | h[static_cast<size_t>(i)];  // little-endian
  return seed;
}

}  // namespace hpcab
