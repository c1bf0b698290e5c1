// The results page (judge/views/results_page.h): the HTML rendering as a pure function of store
// rows, and the routes (GET /, /results, /results/<id>/source) against a real Store with the access
// rules and the results_page switch. The browser test (a real judge, headless Chromium) is
// ResultsBrowser in results_browser_test.cc.
#include "judge/views/results_page.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "judge/config/config.h"
#include "judge/http/access.h"
#include "judge/http/routes.h"
#include "judge/store/store.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kAttack = "<script>document.title='pwned'</script>";
const std::string kAttackAttr = "\"><img src=x onerror=\"document.title='pwned'\">";

SubmissionSummary Row(int64_t id, const std::string& kernel, const std::string& verdict,
                      std::optional<double> speedup, const std::string& optimizer = "agent") {
  SubmissionSummary s;
  s.id = id;
  s.kernel = kernel;
  s.language = "c";
  s.precision = "fp64";
  s.preset = "S";
  s.verdict = verdict;
  s.speedup = speedup;
  s.run_id = "run-" + std::to_string(id);
  s.optimizer = optimizer;
  s.received_at = 1700000000 + static_cast<double>(id);
  s.finished_at = s.received_at + 1;
  return s;
}

std::string Header(const HttpResponse& r, const std::string& name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return "";
}

// Position of `needle` in `hay`, failing the test when absent.
std::size_t At(const std::string& hay, const std::string& needle) {
  const auto p = hay.find(needle);
  EXPECT_NE(p, std::string::npos) << "missing: " << needle;
  return p;
}

TEST(ResultsPage, HtmlEscapeReplacesEveryMetacharacter) {
  EXPECT_EQ(html_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(html_escape(std::string("x\0y", 3)), "x\xEF\xBF\xBDy");
  EXPECT_EQ(html_escape("plain ünïcode ×"), "plain ünïcode ×");
  EXPECT_EQ(html_escape(""), "");
}

TEST(ResultsPage, FormatsTimesAndSpeedups) {
  EXPECT_EQ(format_utc(1700000000.75), "2023-11-14 22:13:20Z");
  EXPECT_EQ(format_utc(0), "—");
  EXPECT_EQ(format_speedup(std::nullopt), "—");
  EXPECT_EQ(format_speedup(1.0), "1.000");
  EXPECT_EQ(format_speedup(12.34567), "12.346");
}

TEST(ResultsPage, GroupsByKernelBestSpeedupFirst) {
  ResultsPageView v;
  v.rows = {
      Row(1, "tsvc_2_s000", "ok", 1.0, "slow"),           Row(2, "gemm", "ok", 3.5, "tiler"),
      Row(3, "tsvc_2_s000", "incorrect", std::nullopt),   Row(4, "tsvc_2_s000", "ok", 2.25, "fast"),
      Row(5, "tsvc_2_s000", "build_error", std::nullopt), Row(6, "gemm", "timeout", std::nullopt)};
  v.rows[3].suspect = true;
  v.rows[2].library = true;
  v.total = 6;
  v.limit = 1000;
  v.rank = 2;
  v.judge_version = "9.9.9";
  v.generated_at = 1700000100;
  const std::string html = render_results_page(v);

  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("judge rank 2"), std::string::npos);
  EXPECT_NE(html.find("version 9.9.9"), std::string::npos);
  EXPECT_NE(html.find("6 of 6 recorded submissions"), std::string::npos);
  // Kernels in name order, one section each; the summary names the best of each.
  const auto gemm = At(html, "<section class=\"kernel\" id=\"kernel-gemm\">");
  const auto tsvc_2_s000 = At(html, "<section class=\"kernel\" id=\"kernel-tsvc_2_s000\">");
  EXPECT_LT(gemm, tsvc_2_s000);
  EXPECT_NE(html.find("<a href=\"#kernel-tsvc_2_s000\">tsvc_2_s000</a></td><td class=\"num\">4</td>"
                      "<td class=\"num\">2</td><td class=\"num\">2.250</td>"
                      "<td class=\"text\">fast</td>"),
            std::string::npos)
      << html;
  // Within tsvc_2_s000: 2.25 (id 4), 1.0 (id 1), then the unsolved newest first (5, 3).
  const auto r4 = At(html, "<tr id=\"submission-4\">");
  const auto r1 = At(html, "<tr id=\"submission-1\">");
  const auto r5 = At(html, "<tr id=\"submission-5\">");
  const auto r3 = At(html, "<tr id=\"submission-3\">");
  EXPECT_LT(tsvc_2_s000, r4);
  EXPECT_LT(r4, r1);
  EXPECT_LT(r1, r5);
  EXPECT_LT(r5, r3);
  EXPECT_LT(At(html, "<tr id=\"submission-2\">"), At(html, "<tr id=\"submission-6\">"));
  EXPECT_LT(At(html, "<tr id=\"submission-6\">"), tsvc_2_s000);
  // The columns of one row.
  const std::string row4 = html.substr(r4, html.find("</tr>", r4) - r4);
  for (const std::string cell :
       {">4</td>", "2023-11-14 22:13:24Z", ">fast</td>", ">run-4</td>", ">c</td>", ">fp64</td>",
        ">S</td>", "class=\"verdict v-ok\">ok</td>", "class=\"num speedup\">2.250</td>",
        "<span class=\"suspect\">suspect</span>", "<a href=\"results/4/source\">source</a>"}) {
    EXPECT_NE(row4.find(cell), std::string::npos) << cell << " in " << row4;
  }
  const std::string row3 = html.substr(r3, html.find("</tr>", r3) - r3);
  EXPECT_NE(row3.find("class=\"num speedup\">—</td>"), std::string::npos) << row3;
  EXPECT_NE(row3.find("class=\"verdict v-incorrect\">incorrect</td>"), std::string::npos);
  EXPECT_NE(row3.find("<a href=\"results/3/source\">library</a>"), std::string::npos) << row3;
  EXPECT_NE(row3.find("<td>no</td>"), std::string::npos) << row3;
  // A static page: no script, nothing loaded from anywhere.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
}

// Each run's submissions in the order received, with verdicts and speedups, linked
// to their rows; rows without a run id are not in it.
TEST(ResultsPage, RunsTableShowsEachRunsHistoryInOrder) {
  ResultsPageView v;
  v.rows = {Row(9, "gemm", "ok", 2.5), Row(3, "gemm", "incorrect", std::nullopt),
            Row(5, "gemm", "ok", std::nullopt), Row(4, "softmax", "ok", 1.2)};
  for (int i : {0, 1, 2}) v.rows[i].run_id = "arm/gemm/0#1";
  v.rows[2].suspect = true;
  v.rows[3].run_id = "";
  v.total = 4;
  v.limit = 10;
  const std::string html = render_results_page(v);
  const auto runs = At(html, "<table id=\"runs\">");
  const std::string table = html.substr(runs, html.find("</table>", runs) - runs);
  EXPECT_NE(table.find("<td class=\"text run\">arm/gemm/0#1</td><td class=\"text\">gemm</td>"
                       "<td class=\"num\">3</td><td class=\"num\">0</td>"),
            std::string::npos)
      << table;
  // Received order: 3 (incorrect), 5 (ok, suspect), 9 (ok, 2.5).
  EXPECT_NE(table.find("<a href=\"#submission-3\">#3</a> <span class=\"v-incorrect\">incorrect"
                       "</span> — → <a href=\"#submission-5\">#5</a> <span class=\"v-ok\">ok"
                       "</span> — <span class=\"suspect\">suspect</span> → <a href=\"#submission-9"
                       "\">#9</a> <span class=\"v-ok\">ok</span> 2.500"),
            std::string::npos)
      << table;
  // The run's /score calls join its history where they were received: one before #3, one
  // between #5 and #9 (received 1700000007); another run's call is not shown.
  ScoreCallSummary early{1, "gemm", "ok", "arm/gemm/0#1", 1.1, 1700000001};
  ScoreCallSummary middle{2, "gemm", "incorrect", "arm/gemm/0#1", std::nullopt, 1700000007};
  ScoreCallSummary other{3, "gemm", "ok", "elsewhere", 9.0, 1700000002};
  v.score_calls = {middle, other, early};
  const std::string with = render_results_page(v);
  const auto runs2 = At(with, "<table id=\"runs\">");
  const std::string table2 = with.substr(runs2, with.find("</table>", runs2) - runs2);
  EXPECT_NE(table2.find("<td class=\"num\">3</td><td class=\"num\">2</td>"), std::string::npos)
      << table2;
  EXPECT_NE(table2.find("<td class=\"history\"><span class=\"score\">score</span> <span "
                        "class=\"v-ok\">ok</span> 1.100 → <a href=\"#submission-3\">"),
            std::string::npos)
      << table2;
  EXPECT_NE(table2.find("suspect</span> → <span class=\"score\">score</span> <span "
                        "class=\"v-incorrect\">incorrect</span> — → <a href=\"#submission-9\">"),
            std::string::npos)
      << table2;
  EXPECT_EQ(table2.find("elsewhere"), std::string::npos) << table2;
  EXPECT_EQ(table2.find("9.000"), std::string::npos) << table2;
  EXPECT_EQ(table.find("submission-4"), std::string::npos) << table;
  // No run ids at all: no table.
  ResultsPageView none;
  none.rows = {Row(1, "gemm", "ok", 1.0)};
  none.rows[0].run_id = "";
  none.total = 1;
  EXPECT_EQ(render_results_page(none).find("id=\"runs\""), std::string::npos);
}

TEST(ResultsPage, AttackerControlledTextIsEscapedNeverMarkup) {
  ResultsPageView v;
  SubmissionSummary r = Row(7, "tsvc_2_s000", "ok", 1.5, kAttackAttr);
  r.run_id = kAttack;
  r.language = "<b>c</b>";
  r.verdict = "<i>ok</i>";
  SubmissionSummary odd = Row(8, "x\"><script>alert(1)</script>", "ok", 1.0, kAttack);
  v.rows = {r, odd};
  v.total = 2;
  v.limit = 10;
  v.filters = {{"optimizer", kAttack}};
  v.judge_version = "<v>";
  const std::string html = render_results_page(v);
  EXPECT_EQ(html.find("<script"), std::string::npos) << html;
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_EQ(html.find("<i>"), std::string::npos);
  EXPECT_EQ(html.find("<v>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;"),
            std::string::npos);
  EXPECT_NE(html.find("&quot;&gt;&lt;img src=x onerror=&quot;"), std::string::npos);
  // An unknown verdict gets the neutral class, never its own text as a class name.
  EXPECT_NE(html.find("class=\"verdict v-other\">&lt;i&gt;ok&lt;/i&gt;</td>"), std::string::npos);
  // A kernel name in an attribute and in a query link stays inside its quotes.
  EXPECT_NE(html.find("id=\"kernel-x&quot;&gt;&lt;script&gt;"), std::string::npos);
  EXPECT_NE(html.find("href=\"results?kernel=x%22%3E%3Cscript%3Ealert%281%29%3C%2Fscript%3E\""),
            std::string::npos)
      << html;
}

TEST(ResultsPage, EmptyFilteredAndTruncatedPagesSaySo) {
  ResultsPageView empty;
  const std::string none = render_results_page(empty);
  EXPECT_NE(none.find("No recorded submissions yet."), std::string::npos);
  EXPECT_EQ(none.find("id=\"summary\""), std::string::npos);

  ResultsPageView filtered;
  filtered.filters = {{"kernel", "gemm"}};
  const std::string f = render_results_page(filtered);
  EXPECT_NE(f.find("No recorded submissions match these filters."), std::string::npos);
  EXPECT_NE(f.find("Filtered by kernel = <code>gemm</code>"), std::string::npos);
  EXPECT_NE(f.find("<a href=\"results\">all submissions</a>"), std::string::npos);

  ResultsPageView cut;
  cut.rows = {Row(9, "tsvc_2_s000", "ok", 1.0)};
  cut.total = 40;
  cut.limit = 1;
  const std::string c = render_results_page(cut);
  EXPECT_NE(c.find("id=\"truncated\">Showing the newest 1 submissions only (limit 1)"),
            std::string::npos)
      << c;
}

TEST(ResultsPage, ContentSecurityPolicyAllowsOnlyThePagesOwnStyle) {
  const std::string html = render_results_page({});
  const auto open = html.find("<style>") + 7;
  const std::string style = html.substr(open, html.find("</style>") - open);
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(style.data()), style.size(), digest);
  unsigned char b64[64] = {};
  EVP_EncodeBlock(b64, digest, sizeof digest);
  const std::string csp = results_content_security_policy();
  EXPECT_EQ(csp, "default-src 'none'; style-src 'sha256-" +
                     std::string(reinterpret_cast<char*>(b64)) +
                     "'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  // No style attribute anywhere (the policy would block it).
  EXPECT_EQ(html.find("style=\""), std::string::npos);

  const HttpResponse page = results_html_response(html);
  EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(Header(page, "Content-Security-Policy"), csp);
  EXPECT_EQ(Header(page, "X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(Header(page, "Referrer-Policy"), "no-referrer");
  EXPECT_EQ(Header(page, "X-Frame-Options"), "DENY");
  EXPECT_EQ(Header(page, "Cache-Control"), "no-store");
  const HttpResponse text = results_text_response("x");
  EXPECT_EQ(text.content_type, "text/plain; charset=utf-8");
  EXPECT_NE(Header(text, "Content-Security-Policy").find("sandbox"), std::string::npos);
  EXPECT_EQ(Header(text, "X-Content-Type-Options"), "nosniff");
}

TEST(ResultsPage, SourceTextIsVerbatimOrNamesTheLibrary) {
  SubmissionRecord r;
  r.kernel = "tsvc_2_s000";
  r.source = "/* " + kAttack + " */\nvoid f(void) {}\n";
  EXPECT_EQ(render_source_text(3, r), r.source);
  SubmissionRecord lib;
  lib.kernel = "gemm";
  lib.library_path = "/shared/agent-1/libgemm.so";
  lib.content_hash = "sha256:abc";
  const std::string t = render_source_text(5, lib);
  EXPECT_NE(t.find("Submission 5 (kernel gemm) was a prebuilt library"), std::string::npos) << t;
  EXPECT_NE(t.find("library path: /shared/agent-1/libgemm.so"), std::string::npos);
  EXPECT_NE(t.find("content hash: sha256:abc"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Routes over a real Store (no grader: the results routes never touch it).

const std::string kAgent = "agent-token-0123456789abcdef";
const std::string kAdmin = "admin-token-fedcba9876543210";

class ResultsRoutes : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-results-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    auto s = Store::open((dir_ / "judge.db").string());
    ASSERT_TRUE(s.ok()) << s.error().message;
    store_ = std::move(*s);
    Record("tsvc_2_s000", "ok", 1.25, "/* " + kAttack + " */\nvoid tsvc_2_s000(void) {}\n", "");
    Record("tsvc_2_s000", "incorrect", std::nullopt, "void tsvc_2_s000(void) { /* wrong */ }\n",
           "");
    Record("gemm", "ok", 4.0, "", "/shared/libgemm.so");
  }
  void TearDown() override {
    store_.reset();
    fs::remove_all(dir_);
  }

  void Record(const std::string& kernel, const std::string& verdict, std::optional<double> speedup,
              const std::string& source, const std::string& library) {
    SubmissionRecord r;
    r.route = "submit";
    r.kernel = kernel;
    r.language = "c";
    r.precision = "fp64";
    r.preset = "S";
    r.sizes_json = "{}";
    r.source = source;
    r.library_path = library;
    r.content_hash = "sha256:" + kernel;
    r.verdict = verdict;
    r.speedup = speedup;
    r.baseline = "c";
    r.run_id = kAttack;
    r.optimizer = kAttackAttr;
    r.received_at = 1700000000;
    r.finished_at = 1700000001;
    r.response_json = "{}";
    auto id = store_->record_submission(r);
    ASSERT_TRUE(id.ok()) << id.error().message;
  }

  HttpResponse Get(const std::string& target, const Access* access = nullptr,
                   const std::string& token = "", const std::string& method = "GET") {
    JobQueue queue(1, 1);
    Metrics metrics;
    Routes routes(config_, /*grader=*/nullptr, &queue, &metrics, store_.get(), access);
    HttpRequest req;
    req.method = method;
    req.target = target;
    if (!token.empty()) req.headers["authorization"] = "Bearer " + token;
    HttpResponse got;
    bool answered = false;
    routes.handle(req, [&](HttpResponse r) {
      got = std::move(r);
      answered = true;
    });
    EXPECT_TRUE(answered) << target;
    return got;
  }

  // The stable code of an error body (docs/api.md "Error codes"); "" when it has none.
  std::string CodeOf(const HttpResponse& r) {
    auto j = json::parse(r.body, nullptr, false);
    return j.is_object() && j.contains("code") ? j["code"].get<std::string>() : "";
  }

  fs::path dir_;
  std::unique_ptr<Store> store_;
  JudgeConfig config_;
};

TEST_F(ResultsRoutes, PageAndSourceOnAnOpenJudge) {
  for (const std::string target : {"/", "/results"}) {
    const HttpResponse page = Get(target);
    ASSERT_EQ(page.status, 200) << target << ": " << page.body;
    EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
    EXPECT_EQ(Header(page, "Content-Security-Policy"), results_content_security_policy());
    EXPECT_NE(page.body.find("3 of 3 recorded submissions"), std::string::npos);
    EXPECT_NE(page.body.find("id=\"kernel-gemm\""), std::string::npos);
    EXPECT_NE(page.body.find("id=\"kernel-tsvc_2_s000\""), std::string::npos);
    EXPECT_NE(page.body.find("class=\"num speedup\">1.250</td>"), std::string::npos);
    EXPECT_NE(page.body.find("class=\"num speedup\">—</td>"), std::string::npos);
    EXPECT_NE(page.body.find("<a href=\"results/3/source\">library</a>"), std::string::npos);
    EXPECT_EQ(page.body.find("<script"), std::string::npos);
    EXPECT_EQ(page.body.find("<img"), std::string::npos);
  }
  // A /score call of the same run joins its history (escaped like everything else).
  ScoreCallRecord sc;
  sc.kernel = "gemm";
  sc.language = "c";
  sc.precision = "fp64";
  sc.preset = "S";
  sc.content_hash = "sha256:x";
  sc.verdict = "ok";
  sc.speedup = 4.75;
  sc.run_id = kAttack;
  sc.optimizer = "o";
  sc.received_at = 1699999999;
  sc.finished_at = 1700000000;
  sc.response_json = "{}";
  ASSERT_TRUE(store_->record_score_call(sc).ok());
  const HttpResponse with_score = Get("/results");
  ASSERT_EQ(with_score.status, 200);
  EXPECT_NE(with_score.body.find("<td class=\"history\"><span class=\"score\">score</span> "
                                 "<span class=\"v-ok\">ok</span> 4.750 → "),
            std::string::npos)
      << with_score.body;
  const HttpResponse filtered = Get("/results?kernel=tsvc_2_s000&verdict=ok&limit=5");
  ASSERT_EQ(filtered.status, 200);
  EXPECT_NE(filtered.body.find("1 of 1 recorded submission<"), std::string::npos);
  EXPECT_EQ(filtered.body.find("id=\"kernel-gemm\""), std::string::npos);
  EXPECT_NE(filtered.body.find("verdict = <code>ok</code>"), std::string::npos);

  const HttpResponse source = Get("/results/1/source");
  ASSERT_EQ(source.status, 200) << source.body;
  EXPECT_EQ(source.content_type, "text/plain; charset=utf-8");
  EXPECT_EQ(source.body, "/* " + kAttack + " */\nvoid tsvc_2_s000(void) {}\n");
  EXPECT_NE(Header(source, "Content-Security-Policy").find("sandbox"), std::string::npos);
  const HttpResponse library = Get("/results/3/source");
  ASSERT_EQ(library.status, 200);
  EXPECT_NE(library.body.find("library path: /shared/libgemm.so"), std::string::npos);
}

TEST_F(ResultsRoutes, BadRequestsGetJsonErrors) {
  EXPECT_EQ(Get("/results/99/source").status, 404);
  EXPECT_EQ(CodeOf(Get("/results/99/source")), "unknown_submission");
  EXPECT_EQ(Get("/results/0/source").status, 400);
  EXPECT_EQ(Get("/results/abc/source").status, 400);
  EXPECT_EQ(Get("/results/1").status, 404);
  EXPECT_EQ(Get("/results/1/source/x").status, 404);
  EXPECT_EQ(Get("/results/").status, 404);
  EXPECT_EQ(Get("/results?limit=0").status, 400);
  EXPECT_EQ(Get("/results?limit=1001").status, 400);
  EXPECT_EQ(Get("/results?offset=1").status, 400);  // the page lists from the newest
  const HttpResponse typo = Get("/results?kernal=tsvc_2_s000");
  EXPECT_EQ(typo.status, 400);
  EXPECT_EQ(CodeOf(typo), "bad_query");
  EXPECT_EQ(Get("/", nullptr, "", "POST").status, 405);
  EXPECT_EQ(Get("/results/1/source", nullptr, "", "DELETE").status, 405);
}

TEST_F(ResultsRoutes, TurnedOffIs404) {
  config_.results_page = false;
  for (const std::string target : {"/", "/results", "/results/1/source"}) {
    const HttpResponse r = Get(target);
    EXPECT_EQ(r.status, 404) << target;
    EXPECT_EQ(CodeOf(r), "route_off") << r.body;
  }
}

TEST_F(ResultsRoutes, WithTokensOnlyAnAdminReadsThePage) {
  const Access both = Access::from_tokens({kAgent}, {kAdmin});
  for (const std::string target : {"/", "/results", "/results/1/source"}) {
    EXPECT_EQ(Get(target, &both).status, 401) << target;
    const HttpResponse agent = Get(target, &both, kAgent);
    EXPECT_EQ(agent.status, 403) << target;
    EXPECT_EQ(agent.body.find("tsvc_2_s000"), std::string::npos);  // nothing of the page
    EXPECT_EQ(Get(target, &both, kAdmin).status, 200) << target;
  }
  // Token files but no admin file: nobody may read it (agents would read each other's sources).
  const Access agents_only = Access::from_tokens({kAgent}, {});
  const HttpResponse disabled = Get("/results", &agents_only, kAgent);
  EXPECT_EQ(disabled.status, 404);
  EXPECT_EQ(CodeOf(disabled), "route_off");
  EXPECT_EQ(Get("/results/1/source", &agents_only, kAgent).status, 404);
  EXPECT_EQ(Get("/", &agents_only).status, 401);
  // The agent routes keep working for agents.
  EXPECT_FALSE(both.check("/score", {{"authorization", "Bearer " + kAgent}}).has_value());
}

TEST(ResultsConfig, SwitchComesFromJsonAndEnvironment) {
  JudgeConfig c;
  EXPECT_TRUE(c.results_page);
  ASSERT_TRUE(apply_config_json(c, R"({"results_page": false})", "test").ok());
  EXPECT_FALSE(c.results_page);
  ASSERT_TRUE(apply_config_env(c, {"HPCAB_RESULTS_PAGE=true"}).ok());
  EXPECT_TRUE(c.results_page);
  ASSERT_TRUE(apply_config_env(c, {"HPCAB_RESULTS_PAGE=0"}).ok());
  EXPECT_FALSE(c.results_page);
  auto bad = apply_config_env(c, {"HPCAB_RESULTS_PAGE=maybe"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("HPCAB_RESULTS_PAGE"), std::string::npos);
  EXPECT_FALSE(apply_config_json(c, R"({"results_page": "no"})", "test").ok());
}

}  // namespace
}  // namespace hpcab::judge
