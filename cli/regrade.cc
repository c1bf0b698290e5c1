#include "cli/regrade.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "common/db.h"
#include "harness/schema.h"
#include "judge/store/schema.h"

namespace hpcab::cli {

namespace fs = std::filesystem;
using json = nlohmann::json;

Result<Which> parse_which(const std::string& text) {
  if (text == "best") return Which::kBest;
  if (text == "final") return Which::kFinal;
  if (text == "best,final" || text == "final,best") return Which::kBestAndFinal;
  if (text == "all") return Which::kAll;
  return Error{"--which: '" + text + "' is not best, final, best,final or all"};
}

namespace {

// One row of the submissions table as an answer.
RecordedAnswer answer_from_row(db::Query& q) {
  namespace S = judge::schema::submissions;
  RecordedAnswer a;
  a.id = q.col_int(S::kId);
  a.run_id = q.col_text(S::kRunId);
  a.episode = harness::schema::episode_of_run_id(a.run_id);
  a.optimizer = q.col_text(S::kOptimizer);
  a.kernel = q.col_text(S::kKernel);
  a.language = q.col_text(S::kLanguage);
  a.precision = q.col_text(S::kPrecision);
  a.preset = q.col_text(S::kPreset);
  a.source = q.col_text(S::kSource);
  a.verdict = q.col_text(S::kVerdict);
  a.speedup = q.col_opt_real(S::kSpeedup);
  a.machine = q.col_text(S::kMachine);
  const json build = json::parse(q.col_text(S::kBuildTokensJson), nullptr, false);
  if (build.is_array()) {
    for (const auto& t : build) {
      if (t.is_string()) a.build.push_back(t.get<std::string>());
    }
  }
  if (auto ws = q.col_opt_int(S::kWorkspaceBytes)) a.workspace_bytes = *ws;
  // What the request named (schema 5), so the resubmission is the same request.
  if (auto req = q.col_opt_text(S::kRequestJson)) {
    const json r = json::parse(*req, nullptr, false);
    if (r.is_object()) {
      a.preset_named = r.contains("preset") && !r["preset"].is_null();
      if (r.contains("workspace_bytes")) a.workspace_bytes = r["workspace_bytes"];
    }
  }
  const json response = json::parse(q.col_text(S::kResponseJson), nullptr, false);
  a.residency = response.is_object() ? response.value("residency", "host") : "host";
  return a;
}

}  // namespace

Result<std::vector<RecordedAnswer>> read_answers(const std::string& db_path) {
  std::error_code ec;
  if (!fs::is_regular_file(db_path, ec)) return Error{db_path + ": no such database file"};
  db::Options options;
  options.owner = db_path;
  auto conn = db::Connection::open_readonly(db_path, options);
  if (!conn) return conn.error();
  namespace S = judge::schema::submissions;
  auto judge_file = conn->has_table(S::kTable);
  if (!judge_file) return judge_file.error();
  if (!*judge_file) return Error{db_path + ": not a judge database (no submissions table)"};
  std::string columns;
  for (const char* c :
       {S::kId, S::kRunId, S::kOptimizer, S::kKernel, S::kLanguage, S::kPrecision, S::kPreset,
        S::kSource, S::kVerdict, S::kSpeedup, S::kMachine, S::kBuildTokensJson, S::kWorkspaceBytes,
        S::kRequestJson, S::kResponseJson}) {
    columns += (columns.empty() ? "" : ", ") + std::string(c);
  }
  auto st = conn->prepare("SELECT " + columns + " FROM " + S::kTable + " WHERE " + S::kRoute +
                              " IN ('submit', 'oracle') ORDER BY " + S::kId,
                          "reading submissions");
  if (!st) return st.error();
  auto q = st->use();
  std::vector<RecordedAnswer> out;
  for (;;) {
    auto row = q.step("reading submissions");
    if (!row) return row.error();
    if (!*row) break;
    out.push_back(answer_from_row(q));
  }
  return out;
}

namespace {

bool in_arms(const RecordedAnswer& a, const std::vector<std::string>& arms) {
  if (arms.empty()) return true;
  return std::any_of(arms.begin(), arms.end(),
                     [&](const std::string& arm) { return a.run_id.rfind(arm + "/", 0) == 0; });
}

// An episode's answers (in id order) reduced to the ones `which` takes, each marked.
void take_from_episode(const std::vector<const RecordedAnswer*>& ep, Which which,
                       std::vector<RecordedAnswer>* out) {
  if (which == Which::kAll) {
    for (const auto* a : ep) out->push_back(*a), out->back().which = "all";
    return;
  }
  const RecordedAnswer* final_answer = ep.back();
  const RecordedAnswer* best = nullptr;
  for (const auto* a : ep) {
    if (a->verdict != "ok" || !a->speedup) continue;
    if (!best || *a->speedup > *best->speedup) best = a;
  }
  if (!best) best = final_answer;
  const bool take_best = which != Which::kFinal, take_final = which != Which::kBest;
  if (take_best && take_final && best == final_answer) {
    out->push_back(*best), out->back().which = "best,final";
    return;
  }
  if (take_best) out->push_back(*best), out->back().which = "best";
  if (take_final) out->push_back(*final_answer), out->back().which = "final";
}

}  // namespace

std::vector<RecordedAnswer> select_answers(const std::vector<RecordedAnswer>& all,
                                           const Selection& selection) {
  // Episodes in order of their first answer; an answer without a run id is its own episode.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const RecordedAnswer*>> episodes;
  for (const auto& a : all) {
    if (!selection.kernels.empty() && std::find(selection.kernels.begin(), selection.kernels.end(),
                                                a.kernel) == selection.kernels.end()) {
      continue;
    }
    if (!in_arms(a, selection.arms)) continue;
    const std::string key =
        a.episode.empty() ? "submission-" + std::to_string(a.id) : a.episode + "\n" + a.kernel;
    if (!episodes.count(key)) order.push_back(key);
    episodes[key].push_back(&a);
  }
  std::vector<RecordedAnswer> out;
  for (const auto& key : order) take_from_episode(episodes[key], selection.which, &out);
  std::sort(out.begin(), out.end(),
            [](const RecordedAnswer& x, const RecordedAnswer& y) { return x.id < y.id; });
  return out;
}

Result<Platform> parse_platform(const std::string& text) {
  Platform p;
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
  if (parts.empty() || parts[0].empty() || parts.size() > 3) {
    return Error{"platform '" + text + "' is not ARCH[:ISA_LEVEL[:VENDOR,...]]"};
  }
  p.arch = parts[0];
  if (parts.size() > 1 && !parts[1].empty()) {
    if (isa_level_rank(parts[1]) < 0) {
      return Error{"platform '" + text + "': ISA level '" + parts[1] +
                   "' is not x86-64, x86-64-v2, x86-64-v3 or x86-64-v4"};
    }
    p.isa_level = parts[1];
  }
  if (parts.size() > 2) {
    std::stringstream vendors(parts[2]);
    for (std::string v; std::getline(vendors, v, ',');) {
      if (v != "nvidia" && v != "amd")
        return Error{"platform '" + text + "': GPU vendor '" + v + "' is not nvidia or amd"};
      p.gpu_vendors.push_back(v);
    }
  }
  return p;
}

std::optional<Platform> platform_from_fingerprint(const std::string& machine) {
  const std::string key = " | timing protocol ";
  const auto at = machine.find(key);
  if (at == std::string::npos) return std::nullopt;
  const auto bar = machine.find(" | ", at + key.size());
  if (bar == std::string::npos) return std::nullopt;
  const auto end = machine.find(" | ", bar + 3);
  std::stringstream in(machine.substr(bar + 3, end == std::string::npos ? end : end - bar - 3));
  Platform p;
  in >> p.arch >> p.isa_level;
  if (p.arch.empty()) return std::nullopt;
  return p;
}

}  // namespace hpcab::cli
