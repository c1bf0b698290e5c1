// One-component intervention experiments (docs/harness.md "Interventions"):
// from a control arm file and one or more `KEY=VALUE` variations, the treatment arm files that
// differ from the control in exactly that key, and the experiment record (experiment.json) that
// `hpcab report compare EXPERIMENT` reads to find the pairing without flags.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "harness/arm.h"

namespace hpcab::harness {

// The arm keys an experiment may vary: the components of an agent setup. Infrastructure keys
// (NAME, KERNELS, URLs, WORKERS, STATE_DB, the launcher's) never differ between paired arms.
inline constexpr std::string_view kComponentKeys[] = {"SKILLS",
                                                      "PROMPT_TEMPLATE",
                                                      "PROMPT_FRAGMENTS",
                                                      "PROMPT_FRAGMENTS_DIR",
                                                      "TOOLS",
                                                      "SUBMISSION_POLICY",
                                                      "AGENT",
                                                      "AGENT_COMMAND",
                                                      "AGENT_MAX_TURNS",
                                                      "AGENT_DISALLOWED_TOOLS",
                                                      "AGENT_ARGS",
                                                      "MODEL",
                                                      "LANGUAGE",
                                                      "TOKEN_BUDGET",
                                                      "TOKEN_BUDGET_KIND",
                                                      "TOKEN_WEIGHTS",
                                                      "WALL_BUDGET_S"};

struct Variation {
  std::string key;  // upper case, one of kComponentKeys
  std::string value;
};

// "KEY=VALUE" (the key in either case). Errors name the text and the component keys.
Result<Variation> parse_variation(std::string_view text);

// The treatment's NAME: <control>.<key in lower case, '_' as '-'>-<value with every character
// outside [A-Za-z0-9_.-] as '-', at most 40>, e.g. identity-demo.agent-autopar-gcc.
std::string treatment_name(const std::string& control, const Variation& v);

struct ExperimentArm {
  std::string name;
  std::filesystem::path file;      // absolute
  std::filesystem::path state_db;  // absolute (relative STATE_DB: against the working directory)
  std::string arm_text;            // the file's text (treatments; the control's is its own)
  Variation vary;                  // empty key for the control
};

struct Experiment {
  std::string name;
  std::filesystem::path dir;   // where the treatment arms and experiment.json are written
  std::filesystem::path file;  // <dir>/experiment.json
  ExperimentArm control;
  std::vector<ExperimentArm> treatments;
  std::vector<std::filesystem::path> judge_dbs;  // recorded for `hpcab report compare`
};

// Builds the experiment in memory: reads the control arm, derives one treatment per variation
// (the control's entries with that key replaced or added and NAME derived; path keys made
// absolute against the control's folder, a relative varied path too) and loads every arm
// against the corpus, so a treatment that would not load is an error now. Errors: a variation
// key that is not a component, a value equal to the control's, two variations with the same
// derived name.
Result<Experiment> plan_experiment(const std::filesystem::path& control_file,
                                   const std::vector<Variation>& variations,
                                   const std::filesystem::path& out_dir, const std::string& name,
                                   const std::filesystem::path& corpus_dir);

// Writes the treatment arm files and experiment.json (format: harness/schema.h, experiment).
Status write_experiment(const Experiment& e);

// The experiment record as JSON text.
std::string experiment_json(const Experiment& e);

}  // namespace hpcab::harness
