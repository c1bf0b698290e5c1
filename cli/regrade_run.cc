// `hpcab regrade`'s run: the journal, the resubmission loop and the outputs (cli/regrade.h).
#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "cli/regrade.h"
#include "judge/host/platform.h"

namespace hpcab::cli {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using report::RegradeRow;

json row_json(const RegradeRow& r) {
  auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  return {{"submission_id", r.submission_id},
          {"episode", r.episode},
          {"kernel", r.kernel},
          {"language", r.language},
          {"which", r.which},
          {"verdict_a", r.verdict_a},
          {"speedup_a", opt(r.speedup_a)},
          {"status", r.status},
          {"skip_code", r.skip_code},
          {"reason", r.reason},
          {"verdict_b", r.verdict_b},
          {"speedup_b", opt(r.speedup_b)},
          {"submission_id_b", r.submission_id_b}};
}

std::optional<RegradeRow> row_from_json(const json& j) {
  if (!j.is_object() || !j.contains("submission_id") || !j["submission_id"].is_number_integer()) {
    return std::nullopt;
  }
  auto opt = [&](const char* k) -> std::optional<double> {
    return j.contains(k) && j[k].is_number() ? std::optional<double>(j[k].get<double>())
                                             : std::nullopt;
  };
  RegradeRow r;
  r.submission_id = j["submission_id"];
  r.episode = j.value("episode", "");
  r.kernel = j.value("kernel", "");
  r.language = j.value("language", "");
  r.which = j.value("which", "");
  r.verdict_a = j.value("verdict_a", "");
  r.speedup_a = opt("speedup_a");
  r.status = j.value("status", "");
  r.skip_code = j.value("skip_code", "");
  r.reason = j.value("reason", "");
  r.verdict_b = j.value("verdict_b", "");
  r.speedup_b = opt("speedup_b");
  r.submission_id_b = j.value("submission_id_b", 0LL);
  return r;
}

// The journal: one JSON row per line, appended and fsynced per answer, so a kill loses at most
// the answer in flight (whose Idempotency-Key makes its resubmission a replay on B). A torn
// last line is ignored; a later line for the same answer replaces an earlier one.
class Journal {
 public:
  static Result<Journal> open(const fs::path& path) {
    Journal j;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
      auto row = row_from_json(json::parse(line, nullptr, false));
      if (row) j.rows_[row->submission_id] = *row;
    }
    j.fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (j.fd_ < 0) return Error{path.string() + ": cannot write the journal"};
    return j;
  }
  Journal() = default;
  Journal(Journal&& o) noexcept : rows_(std::move(o.rows_)), fd_(o.fd_) { o.fd_ = -1; }
  ~Journal() {
    if (fd_ >= 0) ::close(fd_);
  }
  // The recorded row of an answer that needs no resubmission (graded or skipped).
  std::optional<RegradeRow> done(long long id) const {
    auto it = rows_.find(id);
    if (it == rows_.end() || it->second.status == "failed") return std::nullopt;
    return it->second;
  }
  Status append(const RegradeRow& r) {
    const std::string line = row_json(r).dump() + "\n";
    if (::write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size()) ||
        ::fsync(fd_) != 0) {
      return Error{"cannot append to the regrade journal"};
    }
    rows_[r.submission_id] = r;
    return Ok{};
  }

 private:
  std::map<long long, RegradeRow> rows_;
  int fd_ = -1;
};

RegradeRow base_row(const RecordedAnswer& a) {
  RegradeRow r;
  r.submission_id = a.id;
  r.episode = a.episode;
  r.kernel = a.kernel;
  r.language = a.language;
  r.which = a.which;
  r.verdict_a = a.verdict;
  r.speedup_a = a.speedup;
  return r;
}

// Why `a` is not resubmitted to a judge on `to` (status skipped), or nullopt.
std::optional<RegradeRow> skip_row(const RecordedAnswer& a, const RegradeOptions& o,
                                   const Platform& to) {
  RegradeRow r = base_row(a);
  r.status = "skipped";
  if (a.source.empty()) {
    r.skip_code = "library";
    r.reason = "a library submission: no source to resubmit";
    return r;
  }
  const Platform from =
      o.from_platform ? *o.from_platform
                      : platform_from_fingerprint(a.machine).value_or(judge::host_platform({}));
  const auto issues = portability_issues(a.language, a.source, a.build, from, to);
  if (issues.empty()) return std::nullopt;
  r.skip_code = issues.front().code;
  for (const auto& i : issues) {
    r.reason += (r.reason.empty() ? "" : "; ") +
                (i.line > 0 ? "line " + std::to_string(i.line) + ": " : std::string()) + i.message;
  }
  return r;
}

json submit_body(const RecordedAnswer& a, const RegradeOptions& o, int rank) {
  json body = {{"kernel", a.kernel},
               {"language", a.language},
               {"precision", a.precision},
               {"preset", a.preset},
               {"residency", a.residency},
               {"source", a.source},
               {"build", a.build},
               {"run_id", o.label + "/" +
                              (a.run_id.empty() ? "submission-" + std::to_string(a.id) : a.run_id)},
               {"optimizer", a.optimizer},
               {"rank", rank}};
  if (!a.workspace_bytes.is_null()) body["workspace_bytes"] = a.workspace_bytes;
  return body;
}

std::string speedup_text(const std::optional<double>& s) {
  if (!s) return "-";
  std::ostringstream out;
  out.precision(3);
  out << *s << "x";
  return out.str();
}

Status write_file(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) return Error{tmp.string() + ": cannot write"};
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return Error{path.string() + ": " + ec.message()};
  return Ok{};
}

Status write_outputs(const RegradeOptions& o, const TargetInfo& b, RegradeResult& r) {
  r.table = report::regrade_table(r.rows);
  const fs::path out = o.out_dir;
  if (auto st = write_file(out / "regrade.csv", report::regrade_csv(r.rows)); !st) return st;
  const std::string text = report::format_regrade_table(r.table, o.judge_a, o.judge_b);
  if (auto st = write_file(out / "table.txt", text); !st) return st;
  json summary = {{"db", o.db_path},        {"judge_a", o.judge_a},   {"judge_b", o.judge_b},
                  {"machine_b", b.machine}, {"selected", r.selected}, {"graded", r.graded},
                  {"skipped", r.skipped},   {"failed", r.failed},     {"complete", r.complete},
                  {"label", o.label}};
  summary["summaries"] = json::array();
  const auto number = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  for (const auto& s : r.table.summaries) {
    summary["summaries"].push_back(
        {{"language", s.language},
         {"pairs", s.pairs},
         {"answers", s.answers},
         {"skipped", s.skipped},
         {"failed", s.failed},
         {"correct_a", s.correct_a},
         {"still_correct", s.still_correct},
         {"still_correct_share", number(s.still_correct_share)},
         {"spearman",
          s.spearman ? json{{"r", s.spearman->r}, {"p", s.spearman->p_value}, {"n", s.spearman->n}}
                     : json(nullptr)},
         {"best_pairs", s.best_pairs},
         {"best_agrees_share", number(s.best_agrees_share)},
         {"within_90_share", number(s.within_90_share)}});
  }
  return write_file(out / "summary.json", summary.dump(1) + "\n");
}

// Resubmits `a` (or records why not) and appends it to the journal.
Result<RegradeRow> regrade_one(const RecordedAnswer& a, const RegradeOptions& o,
                               const TargetInfo& b, RegradeTarget& target, Journal& journal) {
  RegradeRow row;
  if (auto skipped = skip_row(a, o, b.platform)) {
    row = *skipped;
  } else {
    row = base_row(a);
    const TargetAnswer answer =
        target.submit(submit_body(a, o, b.rank), o.label + ":" + std::to_string(a.id));
    row.status = answer.graded ? "graded" : "failed";
    row.verdict_b = answer.verdict;
    row.speedup_b = answer.speedup;
    row.submission_id_b = answer.submission_id;
    if (!answer.graded) row.reason = answer.reason;
  }
  if (auto st = journal.append(row); !st) return st.error();
  return row;
}

Status check_label(const std::string& label) {
  const bool ok = !label.empty() && label.size() <= 64 &&
                  label.find_first_not_of(
                      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                      "0123456789._-") == std::string::npos;
  if (!ok) return Error{"--label '" + label + "': 1 to 64 letters, digits, '.', '_' or '-'"};
  return Ok{};
}

}  // namespace

Result<RegradeResult> run_regrade(const RegradeOptions& o, RegradeTarget& target,
                                  std::ostream& progress) {
  if (auto st = check_label(o.label); !st) return st.error();
  auto all = read_answers(o.db_path);
  if (!all) return all.error();
  const std::vector<RecordedAnswer> selected = select_answers(*all, o.selection);
  std::error_code ec;
  fs::create_directories(o.out_dir, ec);
  if (ec) return Error{o.out_dir + ": " + ec.message()};
  auto b = target.health();
  if (!b) return b.error();
  if (o.target_platform) b->platform = *o.target_platform;
  if (b->platform.arch.empty()) {
    return Error{"judge B reports no platform in /health (an older judge): pass --target-platform"};
  }
  auto journal = Journal::open(fs::path(o.out_dir) / "journal.jsonl");
  if (!journal) return journal.error();

  RegradeResult r;
  r.selected = static_cast<int>(selected.size());
  int submits = 0;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const RecordedAnswer& a = selected[i];
    std::optional<RegradeRow> row = journal->done(a.id);
    if (row) {
      ++r.resumed;
      row->which = a.which;
    } else {
      if (o.max_submits > 0 && submits >= o.max_submits) break;
      auto fresh = regrade_one(a, o, *b, target, *journal);
      if (!fresh) return fresh.error();
      row = *fresh;
      submits += row->status == "skipped" ? 0 : 1;
      progress << "[" << i + 1 << "/" << selected.size() << "] " << a.kernel << " " << a.language
               << " #" << a.id << " (" << a.which << ", A: " << a.verdict << " "
               << speedup_text(a.speedup) << ") -> " << row->status
               << (row->status == "graded"
                       ? " " + row->verdict_b + " " + speedup_text(row->speedup_b)
                       : ": " + row->skip_code + " " + row->reason)
               << "\n"
               << std::flush;
    }
    r.graded += row->status == "graded";
    r.skipped += row->status == "skipped";
    r.failed += row->status == "failed";
    r.rows.push_back(*row);
  }
  r.complete = r.rows.size() == selected.size() && r.failed == 0;
  if (auto st = write_outputs(o, *b, r); !st) return st.error();
  return r;
}

}  // namespace hpcab::cli
