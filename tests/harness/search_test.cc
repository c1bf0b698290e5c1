// The search tool's rules (harness/search.h): the endpoint's request, result lists in the forms
// engines answer, the domain filter, the result count, refusals as codes; and through a real
// metering proxy and the fake's SearxNG-style endpoint: the per-episode limit, every query
// recorded with what the agent got, the endpoint URL never in an answer.
#include "harness/search.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/http_client.h"
#include "harness/arm.h"
#include "harness/proxy.h"
#include "harness/usage.h"
#include "tests/harness/fake_llm.h"

namespace hpcab::harness {
namespace {

using nlohmann::json;

TEST(Search, RequestUrlEncodesTheQueryAndKeepsTheEndpointsOwnQuery) {
  EXPECT_EQ(search_request_url("http://h:8/search", "a b&c", 3),
            "http://h:8/search?q=a%20b%26c&format=json&count=3");
  EXPECT_EQ(search_request_url("https://api.x/s?key=K", "x", 5),
            "https://api.x/s?key=K&q=x&format=json&count=5");
}

TEST(Search, ParsesSearxngAndBraveFormsAndRefusesOthers) {
  auto searx = parse_search_results(
      R"({"results":[{"url":"https://a.org/1","title":"A","content":"c1"},{"title":"no url"},)"
      R"( 7, {"url":"https://b.org","snippet":"s2"}]})");
  ASSERT_TRUE(searx) << searx.error().message;
  ASSERT_EQ(searx->size(), 2u);
  EXPECT_EQ((*searx)[0].snippet, "c1");
  EXPECT_EQ((*searx)[1].url, "https://b.org");
  EXPECT_EQ((*searx)[1].snippet, "s2");
  auto brave = parse_search_results(
      R"({"web":{"results":[{"url":"https://c.org","title":"C","description":"d"}]}})");
  ASSERT_TRUE(brave);
  ASSERT_EQ(brave->size(), 1u);
  EXPECT_EQ((*brave)[0].snippet, "d");
  EXPECT_FALSE(parse_search_results("<html>"));
  EXPECT_FALSE(parse_search_results(R"({"hits":[]})"));
  EXPECT_FALSE(parse_search_results(R"([1,2])"));
}

TEST(Search, DomainFilterMatchesHostsAndTheirSubdomainsOnly) {
  const std::vector<std::string> d = {"python.org", "gcc.gnu.org"};
  EXPECT_TRUE(domain_allowed("https://docs.python.org/3/x", d));
  EXPECT_TRUE(domain_allowed("https://python.org", d));
  EXPECT_TRUE(domain_allowed("http://GCC.GNU.org:8080/onlinedocs", d));
  EXPECT_FALSE(domain_allowed("https://evilpython.org/", d));
  EXPECT_FALSE(domain_allowed("https://python.org.evil.example/", d));
  EXPECT_FALSE(domain_allowed("https://gnu.org/", d));
  EXPECT_FALSE(domain_allowed("ftp://python.org/", d));
  EXPECT_FALSE(domain_allowed("not a url", {}));
  EXPECT_TRUE(domain_allowed("https://anything.example/", {}));
  EXPECT_EQ(*normalize_domain("Docs.Python.org"), "docs.python.org");
  for (const char* bad : {"", "https://python.org", "python.org/x", "a..b", ".x.org", "x.org:80"}) {
    EXPECT_FALSE(normalize_domain(bad)) << bad;
  }
}

// A fake endpoint: the URL it was asked and a fixed answer.
struct FakeEndpoint {
  std::vector<std::string> asked;
  Result<HttpResult> answer = HttpResult{200,
                                         R"({"results":[
      {"url":"https://a.python.org/1","title":"1"},{"url":"https://evil.example/2","title":"2"},
      {"url":"https://python.org/3","title":"3"},{"url":"https://python.org/4","title":"4"}]})",
                                         {}};
  SearchFetch fetch() {
    return [this](const std::string& url) {
      asked.push_back(url);
      return answer;
    };
  }
};

TEST(Search, KeepsTheAllowedResultsUpToTheCount) {
  SearchConfig c;
  c.url = "http://engine/search";
  c.allowed_domains = {"python.org"};
  c.results = 2;
  FakeEndpoint e;
  const SearchOutcome o = run_search(c, "numba prange", e.fetch());
  ASSERT_EQ(o.error, SearchError::kNone) << o.message;
  ASSERT_EQ(o.results.size(), 2u);
  EXPECT_EQ(o.results[0].title, "1");
  EXPECT_EQ(o.results[1].title, "3");
  EXPECT_EQ(o.dropped, 2);  // evil.example, and 4 beyond the count
  ASSERT_EQ(e.asked.size(), 1u);
  EXPECT_EQ(e.asked[0], "http://engine/search?q=numba%20prange&format=json&count=2");
  const json a = search_answer("numba prange", o);
  EXPECT_EQ(a["results"].size(), 2u);
  EXPECT_EQ(a["dropped"], 2);
  EXPECT_EQ(a.dump().find("engine"), std::string::npos);  // the endpoint stays the harness's
}

TEST(Search, RefusalsAreCodesAndNothingIsAskedForABadQuery) {
  SearchConfig c;
  FakeEndpoint e;
  EXPECT_EQ(run_search(c, "x", e.fetch()).error, SearchError::kDisabled);
  c.url = "http://engine/search";
  c.max_query_bytes = 8;
  EXPECT_EQ(run_search(c, " \n", e.fetch()).error, SearchError::kBadRequest);
  EXPECT_EQ(run_search(c, "123456789", e.fetch()).error, SearchError::kBadRequest);
  EXPECT_TRUE(e.asked.empty());
  e.answer = HttpResult{503, "busy", {}};
  SearchOutcome o = run_search(c, "x", e.fetch());
  EXPECT_EQ(o.error, SearchError::kUpstream);
  EXPECT_EQ(o.upstream_status, 503);
  e.answer = Error{"connection refused"};
  EXPECT_EQ(run_search(c, "x", e.fetch()).error, SearchError::kUpstream);
  e.answer = HttpResult{200, "<html>", {}};
  EXPECT_EQ(run_search(c, "x", e.fetch()).error, SearchError::kUpstream);
  EXPECT_EQ(search_error_status(SearchError::kLimit), 429);
  EXPECT_STREQ(search_error_code(SearchError::kLimit), "search_limit");
  EXPECT_EQ(search_answer("x", o)["error"]["code"], "search_upstream_error");
}

TEST(Search, ArmKeysNeedSearchUrlAndAModelProxy) {
  const std::string base =
      "NAME=a\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=true\n"
      "TOOLS=task,score,submit,search\n";
  auto no_url = parse_arm(base + "INFERENCE_URLS=http://127.0.0.1:9\n", "a.env", ".");
  ASSERT_FALSE(no_url);
  EXPECT_NE(no_url.error().message.find("SEARCH_URL"), std::string::npos);
  auto no_proxy = parse_arm(base + "SEARCH_URL=http://127.0.0.1:9/search\n", "a.env", ".");
  ASSERT_FALSE(no_proxy);
  EXPECT_NE(no_proxy.error().message.find("INFERENCE_URLS"), std::string::npos);
  auto ok = parse_arm(base +
                          "INFERENCE_URLS=http://127.0.0.1:9\nSEARCH_URL=http://127.0.0.1:9/s\n"
                          "SEARCH_DOMAINS=python.org, GCC.gnu.org\nSEARCH_RESULTS=3\n"
                          "SEARCH_MAX_QUERIES=7\nSEARCH_TIMEOUT_S=5\n",
                      "a.env", ".");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_TRUE(ok->gives_search());
  EXPECT_EQ(ok->search.allowed_domains, (std::vector<std::string>{"python.org", "gcc.gnu.org"}));
  EXPECT_EQ(ok->search.results, 3);
  EXPECT_EQ(ok->search.max_queries, 7);
  EXPECT_EQ(ok->search.timeout_s, 5);
  // SEARCH_URL without search in TOOLS is allowed (a one-key experiment varies TOOLS alone).
  auto off =
      parse_arm("NAME=a\nKERNELS=tsvc_2_s000\nAGENT=identity\nSEARCH_URL=http://127.0.0.1:9/s\n",
                "a.env", ".");
  ASSERT_TRUE(off) << off.error().message;
  EXPECT_FALSE(off->gives_search());
  for (const char* bad : {"SEARCH_DOMAINS=https://x.org\n", "SEARCH_RESULTS=0\n",
                          "SEARCH_RESULTS=51\n", "SEARCH_URL=ftp://x\n", "SEARCH_TIMEOUT_S=0\n"}) {
    EXPECT_FALSE(
        parse_arm("NAME=a\nKERNELS=tsvc_2_s000\nAGENT=identity\n" + std::string(bad), "a.env", "."))
        << bad;
  }
}

// Through a real proxy to the fake's endpoint: the record, the limit, the refusals.
TEST(SearchProxy, QueriesAreAnsweredFilteredLimitedAndRecorded) {
  test::FakeLlm fake;
  fake.start();
  ProxyOptions opt;
  opt.upstream_url = fake.url() + "/v1";
  opt.search.url = fake.url() + "/search";
  opt.search.allowed_domains = {"gcc.gnu.org", "python.org"};
  opt.search.results = 2;
  opt.search.max_queries = 2;
  MemoryUsageSink sink;
  MeteringProxy proxy(opt, &sink);
  auto port = proxy.start();
  ASSERT_TRUE(port) << port.error().message;
  proxy.set_episode("ep1#1", 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(*port) + "/hpcab/search";
  auto post = [&](const std::string& body) {
    auto r = http_request("POST", url, body, {{"Content-Type", "application/json"}}, 30);
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : HttpResult{};
  };
  HttpResult first = post(R"({"query":"gcc vectorizer & alias"})");
  ASSERT_EQ(first.status, 200) << first.body;
  const json a = json::parse(first.body);
  ASSERT_EQ(a["results"].size(), 2u) << a.dump();
  EXPECT_EQ(a["results"][0]["url"], "https://gcc.gnu.org/page0");
  EXPECT_EQ(a["results"][1]["url"], "https://docs.python.org/page2");  // evil.example dropped
  EXPECT_EQ(a["dropped"], 2);
  EXPECT_EQ(fake.search_queries(), (std::vector<std::string>{"gcc vectorizer & alias"}));
  EXPECT_EQ(post(R"({"nope":1})").status, 400);  // malformed: not counted
  EXPECT_EQ(post(R"({"query":"second"})").status, 200);
  HttpResult third = post(R"({"query":"third"})");
  EXPECT_EQ(third.status, 429);
  EXPECT_EQ(json::parse(third.body)["error"]["code"], "search_limit");
  EXPECT_EQ(fake.search_queries().size(), 2u);  // the refused one never reached the endpoint
  auto get = http_request("GET", url, "", {}, 30);
  ASSERT_TRUE(get);
  EXPECT_EQ(get->status, 400);
  // A new episode has its own allowance; no search request is metered as tokens.
  proxy.set_episode("ep2#1", 0);
  EXPECT_EQ(post(R"({"query":"again"})").status, 200);
  EXPECT_EQ(proxy.totals("ep1#1").requests, 0);
  const auto recs = sink.searches();
  ASSERT_EQ(recs.size(), 6u);
  EXPECT_EQ(recs[0].episode, "ep1#1");
  EXPECT_EQ(recs[0].query, "gcc vectorizer & alias");
  EXPECT_EQ(recs[0].kept, 2);
  EXPECT_EQ(recs[0].dropped, 2);
  EXPECT_EQ(json::parse(recs[0].results_json), a["results"]);
  EXPECT_EQ(recs[3].error_code, "search_limit");
  EXPECT_EQ(recs[5].episode, "ep2#1");
}

TEST(SearchProxy, AnArmWithoutSearchAnswersSearchDisabled) {
  test::FakeLlm fake;
  fake.start();
  ProxyOptions opt;
  opt.upstream_url = fake.url() + "/v1";
  MemoryUsageSink sink;
  MeteringProxy proxy(opt, &sink);
  auto port = proxy.start();
  ASSERT_TRUE(port);
  proxy.set_episode("ep", 0);
  auto r = http_request("POST", "http://127.0.0.1:" + std::to_string(*port) + "/hpcab/search",
                        R"({"query":"x"})", {{"Content-Type", "application/json"}}, 30);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(json::parse(r->body)["error"]["code"], "search_disabled");
  EXPECT_TRUE(fake.search_queries().empty());
  ASSERT_EQ(sink.searches().size(), 1u);
}

}  // namespace
}  // namespace hpcab::harness
