// The results page in a real browser: a real judge records a few /submit answers (one with
// <script> in its run id, optimizer and source), then headless Chromium loads GET /results and
// the source link, and the test reads the DOM Chromium built (--dump-dom). This proves what a
// reader's browser shows, and that attacker text stays text: no script of the page runs.
//
// Needs Debian's `chromium` (scripts/packages.txt). Without it the test is skipped with a
// message, except on CI (CI=true), where a missing browser is a failure.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "common/http_client.h"
#include "common/process.h"
#include "judge/views/results_page.h"
#include "tests/judge/judge_process.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using test::Judge;
using test::slurp;

const std::string kSolutions = HPCAB_TEST_SOLUTIONS;
const std::string kSource = HPCAB_SOURCE_DIR;

// Executed, either would put "owned" into the DOM (the title, or a new element); as text they
// contain the word only split in two.
const std::string kScriptRun = "<script>document.title='own'+'ed'</script>";
const std::string kImgOptimizer = "\"><img src=x onerror=\"document.title='own'+'ed'\">";
const std::string kScriptComment =
    "/* <script>document.body.appendChild(document.createElement('own'+'ed'))</script> */\n";

// tsvc_2_s000's reference as a plain C submission (both functions; tests/solutions).
const std::string kS000Reference = kSource + "/tests/solutions/tsvc_2_s000_reference.c";

// $HPCAB_CHROMIUM, else the first of the usual names on PATH; "" when none.
std::string FindChromium() {
  if (const char* e = std::getenv("HPCAB_CHROMIUM"); e && *e) return e;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    std::size_t start = 0;
    while (start <= dirs.size()) {
      const auto end = std::min(dirs.find(':', start), dirs.size());
      const fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
      if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
      start = end + 1;
    }
  }
  return "";
}

bool OnCi() {
  const char* ci = std::getenv("CI");
  return ci && (std::string(ci) == "true" || std::string(ci) == "1");
}

class ResultsBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = FindChromium();
    if (chromium_.empty()) {
      if (OnCi()) {
        FAIL() << "chromium is not installed but CI=true: the results-page browser test must "
                  "run on CI (apt-get install chromium; it is in scripts/packages.txt)";
      }
      GTEST_SKIP() << "chromium not found on PATH (nor $HPCAB_CHROMIUM): skipping the headless "
                      "browser test of the results page; apt-get install chromium to run it";
    }
    std::string tmpl = (fs::temp_directory_path() / "hpcab-chromium-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    profile_ = tmpl;
  }
  void TearDown() override {
    if (!profile_.empty()) fs::remove_all(profile_);
  }

  // The DOM Chromium built for `url`, after load. stderr (Chromium's chatter) goes to a file,
  // quoted when the browser fails.
  std::string DumpDom(const std::string& url) {
    const std::string err = (profile_ / "stderr.txt").string();
    ProcessOptions o;
    o.argv = {"sh",
              "-c",
              "exec \"$0\" \"$@\" 2>\"$HPCAB_CHROMIUM_ERR\"",
              chromium_,
              "--headless",
              "--no-sandbox",  // root in a container has no user-namespace sandbox
              "--disable-gpu",
              "--disable-dev-shm-usage",
              "--no-first-run",
              "--no-default-browser-check",
              "--disable-extensions",
              "--user-data-dir=" + (profile_ / "profile").string(),
              "--dump-dom",
              url};
    o.extra_env = {"HPCAB_CHROMIUM_ERR=" + err, "HOME=" + profile_.string()};
    o.timeout_s = 90;
    o.output_cap = 16 << 20;
    auto r = run_process(o);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    if (!r.ok()) return "";
    EXPECT_TRUE(r->success()) << chromium_ << " " << r->describe() << "\n" << slurp(err);
    EXPECT_NE(r->output.find("<html"), std::string::npos) << "no DOM from " << url << ":\n"
                                                          << r->output << "\n"
                                                          << slurp(err);
    return r->output;
  }

  std::string chromium_;
  fs::path profile_;
};

// The <tr> of submission `id` in a dumped DOM ("" when absent).
std::string RowOf(const std::string& dom, int64_t id) {
  const auto start = dom.find("<tr id=\"submission-" + std::to_string(id) + "\">");
  if (start == std::string::npos) return "";
  return dom.substr(start, dom.find("</tr>", start) - start);
}

TEST_F(ResultsBrowser, HeadlessChromiumShowsRecordedSubmissionsAndRunsNoInjectedScript) {
  // The page is under test, not the grading: the fewest timed calls and hidden draws.
  Judge j({{"timed_calls", 3},
           {"hidden_variants", 1},
           {"submit_fuzzed_configs", 0},
           {"hidden_presets", json::array()}});
  ASSERT_FALSE(j.url().empty());
  // Three recorded answers in two kernels: tsvc_2_s000's reference (with <script> in its run id,
  // optimizer and source), a wrong tsvc_2_s000, and an tsvc_2_s111 that does not compile.
  const std::string tsvc_2_s000_source = kScriptComment + slurp(kS000Reference);
  const json ok = j.grade(
      "submit", "tsvc_2_s000", kS000Reference, "c",
      {{"source", tsvc_2_s000_source}, {"run_id", kScriptRun}, {"optimizer", kImgOptimizer}});
  ASSERT_EQ(ok["verdict"], "ok") << ok.dump();
  const json wrong = j.grade("submit", "tsvc_2_s000", kSolutions + "/tsvc_2_s000_wrong.c", "c",
                             {{"run_id", "browser-run"}, {"optimizer", "wrong-on-purpose"}});
  ASSERT_EQ(wrong["verdict"], "incorrect") << wrong.dump();
  const json other = j.grade("submit", "tsvc_2_s111", kSolutions + "/tsvc_2_s000_syntax_error.c",
                             "c", {{"run_id", "browser-run"}, {"optimizer", "typo"}});
  ASSERT_EQ(other["verdict"], "build_error") << other.dump();
  const int64_t ok_id = ok["submission_id"].get<int64_t>();
  const int64_t wrong_id = wrong["submission_id"].get<int64_t>();
  const int64_t other_id = other["submission_id"].get<int64_t>();
  auto speedup = [](const json& g) {
    return format_speedup(g["speedup"].is_number()
                              ? std::optional<double>(g["speedup"].get<double>())
                              : std::nullopt);
  };

  // The HTTP answer itself: HTML with the strict policy.
  HttpResult page = j.get("/results");
  ASSERT_EQ(page.status, 200) << page.body;
  EXPECT_EQ(page.headers["content-type"], "text/html; charset=utf-8");
  EXPECT_EQ(page.headers["content-security-policy"], results_content_security_policy());
  EXPECT_EQ(page.headers["x-content-type-options"], "nosniff");

  for (const std::string path : {"/", "/results"}) {
    SCOPED_TRACE(path);
    const std::string dom = DumpDom(j.url() + path);
    ASSERT_FALSE(dom.empty());
    // The kernels, each in its section; the page's own title (a script would have changed it).
    EXPECT_NE(dom.find("<title>HPCAgent-Bench results (judge rank 0)</title>"), std::string::npos)
        << dom;
    EXPECT_NE(dom.find("<section class=\"kernel\" id=\"kernel-tsvc_2_s000\">"), std::string::npos);
    EXPECT_NE(dom.find("<section class=\"kernel\" id=\"kernel-tsvc_2_s111\">"), std::string::npos);
    EXPECT_NE(dom.find("3 of 3 recorded submissions"), std::string::npos);

    // Each row: verdict, credited speedup ("—" when unsolved), optimizer, source link.
    const std::string ok_row = RowOf(dom, ok_id);
    ASSERT_FALSE(ok_row.empty()) << dom;
    EXPECT_NE(ok_row.find(">ok</td>"), std::string::npos) << ok_row;
    EXPECT_NE(ok_row.find("class=\"num speedup\">" + speedup(ok) + "</td>"), std::string::npos)
        << ok_row;
    EXPECT_NE(ok_row.find("href=\"results/" + std::to_string(ok_id) + "/source\""),
              std::string::npos);
    const std::string wrong_row = RowOf(dom, wrong_id);
    EXPECT_NE(wrong_row.find(">incorrect</td>"), std::string::npos) << wrong_row;
    EXPECT_NE(wrong_row.find("class=\"num speedup\">—</td>"), std::string::npos) << wrong_row;
    EXPECT_NE(wrong_row.find(">wrong-on-purpose</td>"), std::string::npos) << wrong_row;
    const std::string other_row = RowOf(dom, other_id);
    EXPECT_NE(other_row.find(">build_error</td>"), std::string::npos) << other_row;
    EXPECT_NE(other_row.find("class=\"num speedup\">—</td>"), std::string::npos) << other_row;
    // Best first: the solved tsvc_2_s000 row comes before the unsolved one.
    EXPECT_LT(dom.find(ok_row), dom.find(wrong_row));

    // Attacker text is text: shown escaped, never an element, never run.
    EXPECT_NE(ok_row.find("&lt;script&gt;document.title='own'+'ed'&lt;/script&gt;"),
              std::string::npos)
        << ok_row;
    EXPECT_NE(ok_row.find("\"&gt;&lt;img src=x onerror=\"document.title='own'+'ed'\"&gt;"),
              std::string::npos)
        << ok_row;
    EXPECT_EQ(dom.find("<script"), std::string::npos);
    EXPECT_EQ(dom.find("<img"), std::string::npos);
    EXPECT_EQ(dom.find("owned"), std::string::npos);
  }

  // The source link: what the browser shows is the submitted text, escaped, nothing run.
  const std::string source_url = j.url() + "/results/" + std::to_string(ok_id) + "/source";
  const std::string shown = DumpDom(source_url);
  EXPECT_NE(shown.find("&lt;script&gt;document.body.appendChild"), std::string::npos) << shown;
  EXPECT_NE(shown.find("tsvc_2_s000_fp64"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("<owned"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("<script"), std::string::npos) << shown;
  HttpResult source = j.get("/results/" + std::to_string(ok_id) + "/source");
  ASSERT_EQ(source.status, 200);
  EXPECT_EQ(source.headers["content-type"], "text/plain; charset=utf-8");
  EXPECT_EQ(source.body, tsvc_2_s000_source);
}

}  // namespace
}  // namespace hpcab::judge
