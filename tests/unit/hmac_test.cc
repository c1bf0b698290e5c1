#include "common/hmac.h"

#include <gtest/gtest.h>

#include <string>

namespace hpcab {
namespace {

// RFC 4231 §4.2, test case 1.
TEST(HmacTest, Rfc4231Case1) {
  EXPECT_EQ(to_hex(hmac_sha256(std::string(20, '\x0b'), "Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
}

// RFC 4231 §4.3, test case 2: a key shorter than the output.
TEST(HmacTest, Rfc4231Case2) {
  EXPECT_EQ(to_hex(hmac_sha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

// RFC 4231 §4.7, test case 6: a 131-byte key, longer than the 64-byte block, is hashed first.
TEST(HmacTest, Rfc4231Case6LongKey) {
  EXPECT_EQ(to_hex(hmac_sha256(std::string(131, '\xaa'),
                               "Test Using Larger Than Block-Size Key - Hash Key First")),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

// Empty key and message (python3: hmac.new(b"", b"", hashlib.sha256).hexdigest()).
TEST(HmacTest, EmptyKeyAndMessage) {
  EXPECT_EQ(to_hex(hmac_sha256("", "")),
            "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
}

// Embedded NUL bytes are data, not terminators.
TEST(HmacTest, BinaryKeyAndMessage) {
  const std::string key("a\0b", 3), msg("x\0y", 3);
  EXPECT_NE(hmac_sha256(key, msg), hmac_sha256("a", msg));
  EXPECT_NE(hmac_sha256(key, msg), hmac_sha256(key, "x"));
}

// FIPS 180-2 examples.
TEST(HmacTest, Sha256KnownDigests) {
  EXPECT_EQ(to_hex(sha256("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(to_hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(HmacTest, ToHexIsLowerCaseAndFixedWidth) {
  Digest d{};
  d[0] = 0x00;
  d[1] = 0x0f;
  d[2] = 0xab;
  d[31] = 0xff;
  const std::string h = to_hex(d);
  EXPECT_EQ(h.size(), 64u);
  EXPECT_EQ(h.substr(0, 6), "000fab");
  EXPECT_EQ(h.substr(62), "ff");
}

// Expected values from python3:
//   h = hmac.new(key, domain + b"\n" + label, hashlib.sha256).digest()
//   struct.unpack("<Q", h[:8])[0]
TEST(HmacTest, DeriveSeedKnownValues) {
  EXPECT_EQ(derive_seed("judge-secret-key", "score", "saxpy/preset/fp64/draw0"),
            5755613115613461502ull);
  EXPECT_EQ(derive_seed("k", "submit", "saxpy/preset/fp64/draw0"), 5418054361879658594ull);
  EXPECT_EQ(derive_seed("", "", ""), 2940932042167182168ull);  // HMAC("", "\n")
}

TEST(HmacTest, DeriveSeedIsStableAndSeparatesDomainsLabelsAndKeys) {
  const uint64_t a = derive_seed("key", "score", "label");
  EXPECT_EQ(a, derive_seed("key", "score", "label"));
  EXPECT_NE(a, derive_seed("key", "submit", "label"));
  EXPECT_NE(a, derive_seed("key", "score", "label2"));
  EXPECT_NE(a, derive_seed("key2", "score", "label"));
  // The separator keeps domain and label apart: "score" + "label" is not "scor" + "elabel".
  EXPECT_NE(a, derive_seed("key", "scor", "elabel"));
  EXPECT_NE(a, derive_seed("key", "scorelabel", ""));
}

}  // namespace
}  // namespace hpcab
