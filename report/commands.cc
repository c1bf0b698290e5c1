#include "report/commands.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "common/build_info.h"
#include "common/process.h"
#include "harness/schema.h"
#include "report/csv.h"
#include "report/regrade.h"

namespace hpcab::report {

namespace fs = std::filesystem;

namespace {

Result<std::string> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return Error{"cannot read " + p.string() + ": " + std::strerror(errno)};
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Written to a temporary beside the target and renamed: a reader never sees half a file.
Status write_file(const fs::path& p, const std::string& text) {
  std::error_code ec;
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  fs::path tmp = p;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Error{"cannot write " + tmp.string() + ": " + std::strerror(errno)};
    out << text;
    if (!out.flush()) return Error{"cannot write " + tmp.string() + ": " + std::strerror(errno)};
  }
  fs::rename(tmp, p, ec);
  if (ec) return Error{"cannot rename " + tmp.string() + " to " + p.string() + ": " + ec.message()};
  return Ok{};
}

Result<std::vector<Observation>> load(const fs::path& p) {
  auto text = read_file(p);
  if (!text) return Error{text.error().message};
  return parse_observations_csv(*text, p.string());
}

}  // namespace

Result<CostWeights> parse_weights(const std::string& text) {
  auto rows = parse_csv(text);
  if (!rows || rows->size() != 1 || (*rows)[0].size() != 3) {
    return Error{"weights must be three numbers 'input,cached,output' (got '" + text + "')"};
  }
  double v[3];
  for (int i = 0; i < 3; ++i) {
    const std::string& s = (*rows)[0][i];
    char* end = nullptr;
    v[i] = std::strtod(s.c_str(), &end);
    if (s.empty() || !end || *end || !(v[i] >= 0) || !std::isfinite(v[i])) {
      return Error{"weights must be three numbers >= 0 'input,cached,output' (got '" + text + "')"};
    }
  }
  return CostWeights{v[0], v[1], v[2]};
}

int run_extract(const ExtractOptions& options, const fs::path& out_csv, std::ostream& out,
                std::ostream& err) {
  auto r = extract_observations(options);
  if (!r) {
    err << "hpcab report extract: " << r.error().message << "\n";
    return 1;
  }
  for (const auto& w : r->warnings) err << "warning: " << w << "\n";
  if (auto st = write_file(out_csv, observations_csv(r->rows)); !st) {
    err << "hpcab report extract: " << st.error().message << "\n";
    return 1;
  }
  out << arm_lines(r->rows, r->excluded);
  out << "wrote " << r->rows.size() << " observations to " << out_csv.string() << "\n";
  return 0;
}

int run_summary(const fs::path& observations, const SummaryOptions& options,
                const fs::path& out_csv, const fs::path& breakdown_out, std::ostream& out,
                std::ostream& err) {
  auto loaded = load(observations);
  if (!loaded) {
    err << "hpcab report summary: " << loaded.error().message << "\n";
    return 1;
  }
  const auto rows = apply_pick(std::move(*loaded), options.pick);
  auto shown = breakdowns(rows, options.by, options.c_max);
  if (!shown) {
    err << "hpcab report summary: --by: " << shown.error().message << "\n";
    return 2;
  }
  auto s = summarize(rows, options);
  out << "answer per episode: its " << pick_name(options.pick) << " submission\n";
  out << summary_text(s, options);
  out << breakdown_text(*shown);
  if (!breakdown_out.empty()) {
    auto all = breakdowns(rows, {"track", "dwarf", "level"}, options.c_max);
    if (auto st = write_file(breakdown_out, breakdown_csv(*all)); !st) {
      err << "hpcab report summary: " << st.error().message << "\n";
      return 1;
    }
    out << "wrote " << breakdown_out.string() << "\n";
  }
  if (!out_csv.empty()) {
    if (auto st = write_file(out_csv, summary_csv(s)); !st) {
      err << "hpcab report summary: " << st.error().message << "\n";
      return 1;
    }
    out << "wrote " << out_csv.string() << "\n";
  }
  return 0;
}

namespace {

// compare's output for both of its inputs (a CSV with named arms, an experiment file): the
// efficacy table, and the CSV when asked. Exit 2 for arms that cannot be compared, 1 for a
// write failure.
int compare_and_print(const std::vector<Observation>& rows, const std::string& control,
                      const std::vector<std::string>& treatments, const CompareOptions& options,
                      const fs::path& out_csv, std::ostream& out, std::ostream& err) {
  auto c = compare_arms(rows, control, treatments, options);
  if (!c) {
    err << "hpcab report compare: " << c.error().message << "\n";
    return 2;
  }
  out << comparisons_text(*c, options);
  if (!out_csv.empty()) {
    if (auto st = write_file(out_csv, comparisons_csv(*c)); !st) {
      err << "hpcab report compare: " << st.error().message << "\n";
      return 1;
    }
    out << "wrote " << out_csv.string() << "\n";
  }
  return 0;
}

}  // namespace

int run_compare(const fs::path& observations, const std::string& control,
                const std::vector<std::string>& treatments, const CompareOptions& options,
                const fs::path& out_csv, std::ostream& out, std::ostream& err) {
  auto rows = load(observations);
  if (!rows) {
    err << "hpcab report compare: " << rows.error().message << "\n";
    return 1;
  }
  return compare_and_print(*rows, control, treatments, options, out_csv, out, err);
}

int run_figures(const fs::path& observations, const fs::path& out_dir, const std::string& python,
                const CostWeights& weights, Pick pick, std::ostream& out, std::ostream& err) {
  // The CSV is checked here first, so a bad file gets this command's message, not a traceback.
  auto rows = load(observations);
  if (!rows) {
    err << "hpcab report figures: " << rows.error().message << "\n";
    return 1;
  }
  const fs::path script = fs::path(::hpcab::source_dir()) / "scripts" / "plot-report.py";
  ProcessOptions p;
  p.argv = {python,
            script.string(),
            observations.string(),
            "--out",
            out_dir.string(),
            "--weights",
            std::to_string(weights.input) + "," + std::to_string(weights.cached) + "," +
                std::to_string(weights.output),
            "--pick",
            pick_name(pick)};
  p.timeout_s = 300;
  p.extra_env = {"MPLBACKEND=Agg",
                 "MPLCONFIGDIR=" + (fs::temp_directory_path() / "hpcab-mpl").string()};
  auto r = run_process(p);
  if (!r) {
    err << "hpcab report figures: cannot run " << python << ": " << r.error().message << "\n";
    return 1;
  }
  out << r->output;
  if (!r->success()) {
    err << "hpcab report figures: " << script.string() << " failed (" << r->describe() << ")\n";
    return 1;
  }
  return 0;
}

int run_regrade_report(const fs::path& dir, const std::string& python, std::ostream& out,
                       std::ostream& err) {
  auto rows = read_regrade_csv(dir / "regrade.csv");
  if (!rows) {
    err << "hpcab report regrade: " << rows.error().message << "\n";
    return 1;
  }
  std::ifstream summary_file(dir / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(summary_file, nullptr, false);
  const auto name = [&](const char* key, const char* fallback) {
    return summary.is_object() ? summary.value(key, fallback) : std::string(fallback);
  };
  out << format_regrade_table(regrade_table(*rows), name("judge_a", "A"), name("judge_b", "B"));
  const fs::path script = fs::path(::hpcab::source_dir()) / "scripts" / "plot-regrade.py";
  ProcessOptions p;
  p.argv = {python, script.string(), (dir / "regrade.csv").string(), "--out", dir.string()};
  p.timeout_s = 300;
  p.extra_env = {"MPLBACKEND=Agg",
                 "MPLCONFIGDIR=" + (fs::temp_directory_path() / "hpcab-mpl").string()};
  auto r = run_process(p);
  if (!r) {
    err << "hpcab report regrade: cannot run " << python << ": " << r.error().message << "\n";
    return 1;
  }
  out << r->output;
  if (!r->success()) {
    err << "hpcab report regrade: " << script.string() << " failed (" << r->describe() << ")\n";
    return 1;
  }
  return 0;
}

namespace {

// An experiment record's arms and their observations.
struct ExperimentRows {
  std::string control;
  std::vector<std::string> treatments;
  std::string heading;  // "experiment N: control C; T (KEY=VALUE)"
  std::vector<Observation> rows;
};

// The pairing lookup: an experiment.json written by `hpcab-harness
// experiment` names the control, the treatments and the databases, so neither compare nor
// figures needs flags. On failure the message is written to `err` under `command`'s name and
// the exit code returned (2: not an experiment record, or no judge database; 1: unreadable).
std::optional<ExperimentRows> load_experiment(const fs::path& experiment,
                                              const fs::path& corpus_dir,
                                              const std::string& command, std::ostream& err,
                                              int* code) {
  namespace x = harness::schema::experiment;
  auto text = read_file(experiment);
  if (!text) {
    err << "hpcab report " << command << ": " << text.error().message << "\n";
    *code = 1;
    return std::nullopt;
  }
  const auto j = nlohmann::json::parse(*text, nullptr, false);
  auto str = [](const nlohmann::json& o, const char* k) -> std::string {
    return o.is_object() && o.contains(k) && o[k].is_string() ? o[k].get<std::string>() : "";
  };
  ExperimentRows e;
  ExtractOptions ex;
  ex.corpus_dir = corpus_dir;
  auto add_db = [&](const std::string& db) {
    if (db.empty()) return;
    for (const auto& h : ex.harness_dbs) {
      if (h == db) return;
    }
    ex.harness_dbs.emplace_back(db);
  };
  bool ok = j.is_object() && j.contains(x::kControl) && j.contains(x::kTreatments) &&
            j[x::kTreatments].is_array();
  if (ok) {
    e.control = str(j[x::kControl], x::kArm);
    add_db(str(j[x::kControl], x::kStateDb));
    for (const auto& t : j[x::kTreatments]) {
      e.treatments.push_back(str(t, x::kArm));
      add_db(str(t, x::kStateDb));
      if (e.treatments.back().empty()) ok = false;
    }
    if (j.contains(x::kJudgeDbs) && j[x::kJudgeDbs].is_array()) {
      for (const auto& d : j[x::kJudgeDbs]) {
        if (d.is_string()) ex.judge_dbs.emplace_back(d.get<std::string>());
      }
    }
  }
  if (!ok || e.control.empty() || e.treatments.empty() || ex.harness_dbs.empty()) {
    err << "hpcab report " << command << ": " << experiment.string()
        << " is not an experiment record (hpcab-harness experiment writes one: control, "
           "treatments, their state databases)\n";
    *code = 2;
    return std::nullopt;
  }
  if (ex.judge_dbs.empty()) {
    err << "hpcab report " << command << ": " << experiment.string()
        << " records no judge database (run hpcab-harness experiment with --judge-db), so no "
           "speedup is known\n";
    *code = 2;
    return std::nullopt;
  }
  auto r = extract_observations(ex);
  if (!r) {
    err << "hpcab report " << command << ": " << r.error().message << "\n";
    *code = 1;
    return std::nullopt;
  }
  for (const auto& w : r->warnings) err << "warning: " << w << "\n";
  e.heading = "experiment " + str(j, x::kName) + ": control " + e.control;
  for (const auto& t : j[x::kTreatments]) {
    e.heading += "; " + str(t, x::kArm);
    if (t.contains(x::kVary)) {
      e.heading += " (" + str(t[x::kVary], x::kKey) + "=" + str(t[x::kVary], x::kValue) + ")";
    }
  }
  // Only the experiment's arms: a database shared with other arms contributes nothing else.
  std::erase_if(r->rows, [&e](const Observation& o) {
    return o.arm != e.control &&
           std::find(e.treatments.begin(), e.treatments.end(), o.arm) == e.treatments.end();
  });
  e.rows = std::move(r->rows);
  return e;
}

}  // namespace

int run_compare_experiment(const fs::path& experiment, const fs::path& corpus_dir,
                           const CompareOptions& options, const fs::path& out_csv,
                           std::ostream& out, std::ostream& err) {
  int code = 0;
  auto e = load_experiment(experiment, corpus_dir, "compare", err, &code);
  if (!e) return code;
  out << e->heading << "\n";
  return compare_and_print(e->rows, e->control, e->treatments, options, out_csv, out, err);
}

int run_figures_experiment(const fs::path& experiment, const fs::path& corpus_dir,
                           const fs::path& out_dir, const std::string& python,
                           const CostWeights& weights, Pick pick, std::ostream& out,
                           std::ostream& err) {
  int code = 0;
  auto e = load_experiment(experiment, corpus_dir, "figures", err, &code);
  if (!e) return code;
  out << e->heading << "\n";
  const fs::path csv = out_dir / "observations.csv";
  if (auto st = write_file(csv, observations_csv(e->rows)); !st) {
    err << "hpcab report figures: " << st.error().message << "\n";
    return 1;
  }
  out << "wrote " << e->rows.size() << " observations of the experiment's arms to " << csv.string()
      << "\n";
  return run_figures(csv, out_dir, python, weights, pick, out, err);
}

}  // namespace hpcab::report
