// Arm files (SPEC §6; format in docs/harness.md): one campaign configuration, as env-style
// `KEY=value` lines or a JSON object with the same keys in lower case. Loading validates every
// key and names the file, the line (env) or key (JSON) and what was expected; unknown keys are
// rejected so a typo never silently falls back to a default.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/manifest.h"
#include "common/result.h"
#include "harness/search.h"
#include "harness/tokenizer.h"
#include "harness/usage.h"  // TokenWeights

namespace hpcab::harness {

// Agents that talk to a model through the metering proxy need MODEL and INFERENCE_URLS.
inline constexpr std::string_view kModelAgents[] = {"claude-code", "mini-swe-agent", "openhands",
                                                    "codex"};
// Every AGENT value: the model agents, a generic command, and the built-in optimizers.
inline constexpr std::string_view kAgentKinds[] = {
    "claude-code", "mini-swe-agent", "openhands",   "codex",         "command",
    "identity",    "replay",         "autopar-gcc", "autopar-polly", "numba-jit"};
// Every LANGUAGE value (the judge's languages, docs/api.md): python is a module defining the
// kernel's reference.py function (docs/api.md "The Python form").
inline constexpr std::string_view kLanguages[] = {"c", "cpp", "fortran", "python", "cuda", "hip"};
// LANGUAGE values whose episodes need a judge with a GPU (harness/plan.h gpu_judges).
inline bool gpu_language(std::string_view language) {
  return language == "cuda" || language == "hip";
}
// The {placeholders} an AGENT_COMMAND may use (filled when the agent is started, each as one
// shell-quoted word: see harness/agents.h). {tool_path} is the absolute hpcab-tool binary.
inline constexpr std::string_view kCommandPlaceholders[] = {
    "workspace", "prompt_file", "prompt", "kernel", "language", "model",
    "model_url", "judge_url",   "rank",   "run_id", "worker",   "tool_path"};

struct Arm {
  std::filesystem::path file;  // the arm file as given
  std::string name;
  std::vector<std::string> kernel_selectors;  // KERNELS as written
  std::vector<std::string> kernels;           // resolved ids (load_arm); first-seen order
  std::string language = "c";
  // RESIDENCY: where a GPU arm's arrays live while timed, sent with every score and submit
  // (docs/grading.md "GPU languages"): "host" (default) or "device" (cuda and hip only).
  std::string residency = "host";
  std::string agent;
  std::string agent_command;  // '' = the agent kind's built-in template
  std::string model;
  std::vector<std::string> inference_urls;  // '' entries never; may be empty (no-model agents)
  std::vector<std::string> judge_urls = {"http://127.0.0.1:8800"};  // rank order
  int workers = 1;
  int repetitions = 1;
  int64_t wall_budget_s = 3600;
  int64_t token_budget = 0;  // tokens in token_budget_kind's convention; 0 = no token limit
  TokenWeights token_weights;
  // TOKEN_BUDGET_KIND: how TOKEN_BUDGET counts. "weighted": the weighted cost with
  // TOKEN_WEIGHTS (the default); "total": input + cached + output tokens, each counting 1 (the
  // original benchmark's convention). The recorded weighted cost uses TOKEN_WEIGHTS either way.
  std::string token_budget_kind = "weighted";
  // TOKENIZER: a BPE vocabulary in the tiktoken format (harness/tokenizer.h), relative to the arm
  // file, that the proxy counts a response's tokens with when the server reports no usage; ''
  // = the estimate (docs/harness.md "Tokens without usage counts"). load_arm reads it into
  // `tokenizer_vocab`.
  std::filesystem::path tokenizer;
  std::shared_ptr<const BpeTokenizer> tokenizer_vocab;
  std::string submission_policy = "single";
  std::filesystem::path prompt_template;  // resolved against the arm file's folder; '' = built-in
  // PROMPT_FRAGMENTS: the prompt composed from named fragment files <dir>/<name>.md, joined in
  // order with one blank line (exclusive with PROMPT_TEMPLATE). PROMPT_FRAGMENTS_DIR: their
  // folder, relative to the arm file; default: the repository's deploy/arms/fragments.
  std::vector<std::string> prompt_fragments;
  std::filesystem::path prompt_fragments_dir;
  // SKILLS: a folder of skill files (relative to the arm file) copied read-only into each
  // workspace as skills/ and listed in the prompt. '' = none.
  std::filesystem::path skills_dir;
  // TOOLS: the agent tools (harness/tool_policy.h); empty = the defaults (task, baseline,
  // score, submit).
  std::vector<std::string> tools;
  // SEARCH_URL, SEARCH_DOMAINS, SEARCH_RESULTS, SEARCH_MAX_QUERIES, SEARCH_TIMEOUT_S: the search
  // tool's endpoint and limits (harness/search.h), served when TOOLS has search.
  SearchConfig search;
  // Per-kind agent settings (docs/harness.md "Agent settings"); each key is refused for a kind
  // whose CLI has no equivalent.
  struct AgentSettings {
    int max_turns = 0;  // AGENT_MAX_TURNS; 0 = the CLI's own default
    // AGENT_DISALLOWED_TOOLS: the CLI's own tools turned off (claude-code: --disallowedTools;
    // codex: web_search). Defaults per kind (default_disallowed_tools); "none" = an empty list.
    std::vector<std::string> disallowed_tools;
    bool disallowed_tools_set = false;
    std::string extra_args;  // AGENT_ARGS: appended to the kind's template, as shell text
  } agent_settings;
  int max_relaunches = 2;
  double limit_rerun_factor = 2.0;
  // Outages (docs/harness.md "Outages"): how long a worker, its tools and its proxy wait out an
  // unreachable or overloaded judge or model server before the attempt ends as an
  // infrastructure failure (default: a judge restart or a Slurm requeue of its node), the
  // longest pause between two tries, and how often one daemon run hands out an episode again
  // after an infrastructure failure (a restarted daemon runs them again in any case).
  double outage_wait_s = 600;
  double outage_backoff_max_s = 15;
  int infra_retries = 2;
  std::filesystem::path state_db = "var/harness.db";
  // Where the autopar built-ins write the libraries they build, relative to the daemon's working
  // directory. The judge must be started with a --shared-dir that contains it.
  std::filesystem::path library_dir = "var/shared/libraries";
  // Slurm launcher settings (deploy/slurm, docs/deploy.md); hpcab-harness itself ignores them.
  struct Deploy {
    int inference_nodes = 0;  // 0: agents use the arm's INFERENCE_URLS (external servers)
    int agent_nodes = 1;
    int judge_nodes = 1;
    std::string inference_command;  // run on each inference node; {model} {host} {port} {index}
    int inference_port = 8000;
    int judge_port = 8800;               // judge j listens on judge_port + j
    std::filesystem::path judge_config;  // hpcab-judge --config; '' = the judge's defaults
    double min_coverage = 0;             // share of the arm's kernels that must get a grade
    int64_t judge_startup_s = 600;       // wait for every judge's /health
    int64_t inference_startup_s = 1800;  // wait for every inference server's /v1/models
  } deploy;

  bool uses_model() const;
  // TOOLS, or the default tools.
  std::vector<std::string> tool_names() const;
  // TOOLS has search (load_arm then guarantees SEARCH_URL and a model proxy to serve it).
  bool gives_search() const;
};

// The CLI tools a kind turns off when the arm does not say: claude-code WebFetch, WebSearch (as
// in the paper's runs); codex web_search; none for the others.
std::vector<std::string> default_disallowed_tools(std::string_view kind);
// The tools AGENT_DISALLOWED_TOOLS may name for a kind ({} = the key is refused for it; {"*"} =
// any name, passed through to the CLI).
std::vector<std::string> disallowable_tools(std::string_view kind);

// The arm keys only the Slurm launcher reads (hpcab-harness accepts and ignores them).
inline constexpr std::string_view kDeployKeys[] = {
    "INFERENCE_NODES", "AGENT_NODES",  "JUDGE_NODES",  "INFERENCE_COMMAND", "INFERENCE_PORT",
    "JUDGE_PORT",      "JUDGE_CONFIG", "MIN_COVERAGE", "JUDGE_STARTUP_S",   "INFERENCE_STARTUP_S"};
// The {placeholders} an INFERENCE_COMMAND may use (filled by the launcher per inference node).
inline constexpr std::string_view kInferencePlaceholders[] = {"model", "host", "port", "index"};

// The arm text's entries as (KEY, value) pairs in file order, env or JSON, keys upper case and
// values as parse_arm reads them (lists comma-joined). Unknown keys are errors, as in parse_arm.
Result<std::vector<std::pair<std::string, std::string>>> arm_entries(std::string_view text,
                                                                     const std::string& label);

// The arm keys whose values are paths relative to the arm file's folder.
inline constexpr std::string_view kArmPathKeys[] = {
    "PROMPT_TEMPLATE", "TOKENIZER", "PROMPT_FRAGMENTS_DIR", "SKILLS", "JUDGE_CONFIG"};

// The default PROMPT_FRAGMENTS_DIR: HPCAB_SOURCE_DIR/deploy/arms/fragments.
std::filesystem::path default_fragments_dir();

// Parses an arm from text. `label` names the source in errors (usually the path); `base_dir`
// resolves PROMPT_TEMPLATE. JSON when the first non-blank character is '{', env lines otherwise.
// Kernel selectors are syntax-checked but not resolved (see resolve_kernels).
Result<Arm> parse_arm(std::string_view text, const std::string& label,
                      const std::filesystem::path& base_dir);

// Expands KERNELS selectors against a loaded corpus: an id or path-style key
// (`loop_level_reasoning/tsvc_2_s000`), `track:<t>`, `dwarf:<d>`, `level:<n>`, `tag:<name>`
// (the manifest's `tags`, e.g. `tag:llr-focus40`) or `all`. Each selector contributes its kernels
// sorted by id; duplicates keep their first position. A selector matching nothing, or an unknown
// id, is an error.
Result<std::vector<std::string>> resolve_kernels(const std::vector<std::string>& selectors,
                                                 const std::vector<Manifest>& corpus);

// A comma list of http(s) URLs as JUDGE_URLS / INFERENCE_URLS take it (trailing '/' dropped);
// for command-line overrides of an arm's URLs.
Result<std::vector<std::string>> parse_url_list(const std::string& text);

// The default corpus: HPCAB_SOURCE_DIR/corpus.
std::filesystem::path default_corpus_dir();

// Reads and parses `file`, checks PROMPT_TEMPLATE, the prompt fragments and SKILLS exist, loads the
// corpus at `corpus_dir` and resolves the kernels.
Result<Arm> load_arm(const std::filesystem::path& file,
                     const std::filesystem::path& corpus_dir = default_corpus_dir());

}  // namespace hpcab::harness
