// `hpcab report extract|summary|compare|figures` (docs/research.md): the research outputs as
// commands. Each returns the process exit code and writes messages to `err`.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "report/analysis.h"
#include "report/observations.h"

namespace hpcab::report {

// Exit codes: 0 done, 1 an input could not be read or an output written, 2 usage.
int run_extract(const ExtractOptions& options, const std::filesystem::path& out_csv,
                std::ostream& out, std::ostream& err);

// Applies options.pick, prints the per-arm summary (and the breakdowns options.by names);
// writes the summary table to out_csv and the breakdowns by track, dwarf and level to
// breakdown_csv when those are not empty. Exit 2 for a bad options.by.
int run_summary(const std::filesystem::path& observations, const SummaryOptions& options,
                const std::filesystem::path& out_csv, const std::filesystem::path& breakdown_csv,
                std::ostream& out, std::ostream& err);

int run_compare(const std::filesystem::path& observations, const std::string& control,
                const std::vector<std::string>& treatments, const CompareOptions& options,
                const std::filesystem::path& out_csv, std::ostream& out, std::ostream& err);

// compare without pairing flags: reads an experiment.json (harness/schema.h, experiment) written
// by `hpcab-harness experiment`, extracts the observations of its control and treatments from
// the harness and judge databases it names, and compares them. Exit codes as run_compare; 2 also
// for a file that is not an experiment record or records no judge database.
int run_compare_experiment(const std::filesystem::path& experiment,
                           const std::filesystem::path& corpus_dir, const CompareOptions& options,
                           const std::filesystem::path& out_csv, std::ostream& out,
                           std::ostream& err);

// The figures of an experiment record's arms: their observations (extracted as for
// run_compare_experiment) are written to OUT_DIR/observations.csv and drawn from it. Exit codes
// as run_compare_experiment, then as run_figures.
int run_figures_experiment(const std::filesystem::path& experiment,
                           const std::filesystem::path& corpus_dir,
                           const std::filesystem::path& out_dir, const std::string& python,
                           const CostWeights& weights, Pick pick, std::ostream& out,
                           std::ostream& err);

// Runs scripts/plot-report.py (matplotlib) on the observations; it writes each figure as SVG
// and PNG with the CSV table it was drawn from beside it, and figures.json (what it counted:
// episodes, solved and credited per arm, under `pick`).
int run_figures(const std::filesystem::path& observations, const std::filesystem::path& out_dir,
                const std::string& python, const CostWeights& weights, Pick pick, std::ostream& out,
                std::ostream& err);

// `hpcab report regrade DIR` (docs/regrade.md): the table of a regrade's DIR/regrade.csv printed
// again (judge names from DIR/summary.json), and scripts/plot-regrade.py drawing per-kernel
// speedups on A against B (DIR/regrade-speedups.svg and .png). Exit: 0 drawn, 1 error.
int run_regrade_report(const std::filesystem::path& dir, const std::string& python,
                       std::ostream& out, std::ostream& err);

// "1,0.1,1" -> weights; errors name the text.
Result<CostWeights> parse_weights(const std::string& text);

}  // namespace hpcab::report
