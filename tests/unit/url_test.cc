// The one URL parser (common/url.h): what every client of a URL (HTTP client, arm files,
// hpcab-tool, the metering proxy) accepts and refuses.
#include "common/url.h"

#include <gtest/gtest.h>

#include <string>

namespace hpcab {
namespace {

TEST(ParseUrl, PartsOfAcceptedUrls) {
  auto u = parse_url("http://127.0.0.1:8800/task/gemm?rank=0");
  ASSERT_TRUE(u.ok()) << u.error().message;
  EXPECT_FALSE(u->tls);
  EXPECT_EQ(u->host, "127.0.0.1");
  EXPECT_EQ(u->port, "8800");
  EXPECT_EQ(u->path, "/task/gemm");
  EXPECT_EQ(u->query, "rank=0");
  EXPECT_EQ(u->target(), "/task/gemm?rank=0");
  EXPECT_EQ(u->origin(), "http://127.0.0.1:8800");

  auto tls = parse_url("HTTPS://judge.example");
  ASSERT_TRUE(tls.ok());
  EXPECT_TRUE(tls->tls);
  EXPECT_EQ(tls->port, "443");
  EXPECT_EQ(tls->target(), "/");
  EXPECT_EQ(tls->origin(), "https://judge.example");

  EXPECT_EQ(parse_url("http://h")->port, "80");
  EXPECT_EQ(parse_url("http://h?x=1")->target(), "/?x=1");
  EXPECT_EQ(parse_url("http://h:080/")->port, "80");

  auto v6 = parse_url("http://[::1]:9000/v1");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, "9000");
  EXPECT_EQ(v6->authority, "[::1]:9000");
  EXPECT_EQ(v6->path, "/v1");
  EXPECT_EQ(parse_url("http://[::1]")->port, "80");
}

TEST(ParseUrl, RefusesWhatItWouldHaveToGuessAt) {
  for (const std::string bad :
       {"", "127.0.0.1:8800", "ftp://h/", "http:/h", "http://", "http://:80",
        "http://h:", "http://h:0", "http://h:65536", "http://h:12ab", "http://h:123456",
        "http://u@h/", "http://h/#frag", "http://h /x", "http://h/\x01", "http://[::1",
        "http://[::1]x", "http://[::1]:", "http://[]:80"}) {
    EXPECT_FALSE(parse_url(bad).ok()) << bad;
  }
}

TEST(PercentEncode, UnreservedStayEverythingElseIsUpperHex) {
  EXPECT_EQ(percent_encode("tsvc_2-s000.x~"), "tsvc_2-s000.x~");
  EXPECT_EQ(percent_encode("a b/c?d&e=f"), "a%20b%2Fc%3Fd%26e%3Df");
  EXPECT_EQ(percent_encode(std::string("\xff\x00", 2)), "%FF%00");
  EXPECT_EQ(percent_encode(""), "");
}

}  // namespace
}  // namespace hpcab
