// The attack suite: every file in tests/adversarial/attacks is a hostile submission,
// a C source (*.c, "language": "c") or a Python module (*.py, "language": "python"), with its
// expected outcome in a header block of comment lines (`// KEY: value` in C, `# KEY: value` in
// Python):
//   // ATTACK: what it tries               // KERNEL: corpus id (default tsvc_2_s000)
//   // ROUTE: score | submit (default)     // PRESET: public preset (default: the judge's)
//   // PHASES: n (submitted n times, earlier phases must grade ok; C is built with
//   //            -DATTACK_PHASE=1..n, a Python module has @ATTACK_PHASE@ replaced by 1..n)
//   // ARCH: x86_64 (skipped elsewhere)
//   // EXPECT-VERDICT: v   EXPECT-DETAIL: substring   EXPECT-SUSPECT: true|false
//   (verdict and detail may list alternatives "a|b" where the outcome depends on a race or on
//   the host's speed; details pair with verdicts by position when there are several verdicts;
//   every alternative earns nothing)
//   // EXPECT-MAX-SPEEDUP: x (the credited speedup is null or at most x)
// Sources may name the judge's secrets through placeholders (@KEY_FILE@, @DB_FILE@,
// @STATE_DIR@, @SCRATCH_DIR@, @JUDGE_PID@, @JUDGE_PORT@), filled in with the real values of the
// judge under attack: the attacks get every advantage a well-informed adversary could have.
// Each attack gets its own real judge; afterwards no process of its sandbox may survive.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/judge/judge_process.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using test::Judge;

const std::string kAttacks = HPCAB_ATTACKS_DIR;

struct Attack {
  std::string name, file, language, kernel = "tsvc_2_s000", route = "submit", preset, arch;
  std::string verdict, detail;
  int phases = 1;
  std::optional<bool> suspect;
  std::optional<double> max_speedup;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, '|');) out.push_back(item);
  if (out.empty()) out.push_back("");
  return out;
}

void PrintTo(const Attack& a, std::ostream* os) { *os << a.name; }

std::vector<Attack> load_attacks() {
  std::vector<Attack> out;
  for (const auto& e : fs::directory_iterator(kAttacks)) {
    const std::string ext = e.path().extension().string();
    if (ext != ".c" && ext != ".py") continue;
    Attack a;
    a.file = e.path().string();
    a.name = e.path().stem().string();
    a.language = ext == ".py" ? "python" : "c";
    const std::string comment = ext == ".py" ? "# " : "// ";
    std::ifstream in(a.file);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind(comment, 0) != 0) continue;
      auto colon = line.find(": ");
      if (colon == std::string::npos) continue;
      std::string key = line.substr(comment.size(), colon - comment.size());
      std::string value = line.substr(colon + 2);
      if (key == "KERNEL") a.kernel = value;
      if (key == "ROUTE") a.route = value;
      if (key == "PRESET") a.preset = value;
      if (key == "ARCH") a.arch = value;
      if (key == "PHASES") a.phases = std::stoi(value);
      if (key == "EXPECT-VERDICT") a.verdict = value;
      if (key == "EXPECT-DETAIL") a.detail = value;
      if (key == "EXPECT-SUSPECT") a.suspect = value == "true";
      if (key == "EXPECT-MAX-SPEEDUP") a.max_speedup = std::stod(value);
    }
    out.push_back(a);
  }
  std::sort(out.begin(), out.end(),
            [](const Attack& x, const Attack& y) { return x.name < y.name; });
  return out;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (auto pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
  return s;
}

class AdversarialTest : public ::testing::TestWithParam<Attack> {};

TEST_P(AdversarialTest, AttackEarnsNothing) {
  const Attack& a = GetParam();
#if !defined(__x86_64__)
  if (a.arch == "x86_64") GTEST_SKIP() << "x86-64 only";
#endif
  ASSERT_FALSE(a.verdict.empty()) << a.file << " has no EXPECT-VERDICT";
  // The scientific track credited against `c` alone: choosing the fastest of c and c-autopar
  // times gemm's c-autopar build at preset S, seconds per call (GCC parallelizes its inner
  // loop), and the attacks are about the candidate, not the choice of baseline.
  json settings = {{"timed_calls", 5},
                   {"hidden_variants", 5},
                   {"submit_fuzzed_configs", 1},
                   {"hidden_presets", json::array()},
                   {"track_baseline", {{"scientific_computing", "c"}}},
                   {"call_timeout_s", 10}};
  // HPCAB_ADVERSARIAL_DEFAULTS=1 (`make adversarial`): at the judge's default timed sizes
  // (min_call_ms) instead of the presets, as a production judge grades; each attack's judge
  // then calibrates first (seconds), too slow for make test.
  if (const char* v = std::getenv("HPCAB_ADVERSARIAL_DEFAULTS"); v && std::string(v) == "1") {
    settings["min_call_ms"] = nullptr;
  }
  Judge j(settings);
  std::string source = test::slurp(a.file);
  const fs::path state = j.state();
  source = replace_all(source, "@KEY_FILE@", (state / "secret.key").string());
  source = replace_all(source, "@DB_FILE@", (state / "judge.db").string());
  source = replace_all(source, "@STATE_DIR@", state.string());
  source = replace_all(source, "@SCRATCH_DIR@", j.scratch().string());
  source = replace_all(source, "@JUDGE_PID@", std::to_string(j.pid()));
  source = replace_all(source, "@JUDGE_PORT@", j.url().substr(j.url().rfind(':') + 1));
  ASSERT_TRUE(fs::exists(state / "secret.key")) << "the judge keeps its key elsewhere";

  json r;
  for (int phase = 1; phase <= a.phases; ++phase) {
    const std::string n = std::to_string(phase);
    json body = {{"kernel", a.kernel},
                 {"language", a.language},
                 {"rank", 0},
                 {"run_id", "adversarial-" + a.name},
                 {"optimizer", "attacker"}};
    if (a.language == "python") {
      body["source"] = replace_all(source, "@ATTACK_PHASE@", n);  // no compiler to pass -D to
    } else {
      body["source"] = source;
      body["build"] = json::array({"-DATTACK_PHASE=" + n});
    }
    if (!a.preset.empty()) body["preset"] = a.preset;
    auto http = j.post("/" + a.route, body);
    ASSERT_EQ(http.status, 200) << http.body;
    r = json::parse(http.body);
    if (phase < a.phases) {
      ASSERT_EQ(r["verdict"], "ok") << "phase " << phase << ": " << r.dump();
    }
  }
  const std::string detail = r.value("detail", "");
  const std::vector<std::string> verdicts = split(a.verdict), details = split(a.detail);
  const std::string verdict = r["verdict"];
  std::cout << "[ attack   ] " << a.name << ": " << verdict << ": " << detail << std::endl;
  auto which = std::find(verdicts.begin(), verdicts.end(), verdict);
  ASSERT_NE(which, verdicts.end())
      << a.name << ": verdict " << verdict << ", expected " << a.verdict << ": " << detail;
  // One verdict: any listed detail may explain it; several: paired by position.
  std::vector<std::string> wanted = details;
  if (verdicts.size() > 1) {
    wanted = {details[std::min<std::size_t>(static_cast<std::size_t>(which - verdicts.begin()),
                                            details.size() - 1)]};
  }
  const bool explained = std::any_of(wanted.begin(), wanted.end(), [&](const std::string& w) {
    return detail.find(w) != std::string::npos;
  });
  const std::string want = a.detail;
  EXPECT_TRUE(explained) << a.name << ": detail lacks '" << want << "': " << detail;
  if (a.suspect) {
    EXPECT_EQ(r["suspect"], *a.suspect) << a.name << ": " << detail;
  }
  if (a.verdict != "ok" || r["suspect"] == true) {
    EXPECT_EQ(r["speedup"], nullptr) << a.name << ": an attack earned credit: " << r.dump();
  }
  if (a.max_speedup && r["speedup"].is_number()) {
    EXPECT_LE(r["speedup"].get<double>(), *a.max_speedup) << a.name << ": " << r.dump();
  }
  // Nothing secret in what the attacker gets back (paths it wrote itself may be echoed: the
  // state path is looked for only when the source does not name it; Python's "@" is an operator).
  const std::string key = test::slurp(state / "secret.key");
  const std::string response = r.dump();
  const std::string original = test::slurp(a.file);
  if (original.find("@KEY_FILE@") == std::string::npos &&
      original.find("@DB_FILE@") == std::string::npos &&
      original.find("@STATE_DIR@") == std::string::npos) {
    EXPECT_EQ(response.find(state.string()), std::string::npos) << "state path leaked";
  }
  if (key.size() >= 16) {
    EXPECT_EQ(response.find(key), std::string::npos) << "key leaked";
  }
  EXPECT_EQ(j.get("/health").status, 200) << "the judge did not survive " << a.name;
  // No survivors: the sandbox tree dies with the grade (teardown is asynchronous: allow 10 s).
  std::vector<std::string> left;
  for (int i = 0; i < 50; ++i) {
    left = j.survivors();
    if (left.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_TRUE(left.empty()) << a.name << " left " << left.size() << " process(es), e.g. "
                            << (left.empty() ? "" : left.front());
}

INSTANTIATE_TEST_SUITE_P(Attacks, AdversarialTest, ::testing::ValuesIn(load_attacks()),
                         [](const ::testing::TestParamInfo<Attack>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace hpcab::judge
