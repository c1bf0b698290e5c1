// The pure parts of running an arm (SPEC §6): which episodes exist, which URLs and rank a worker
// is pinned to, the order the queue hands episodes out, the prompt an agent reads and the
// workspace it starts in. No network, no database: the daemon composes these.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "harness/arm.h"

namespace hpcab::harness {

struct EpisodeSpec {
  std::string id;  // "<arm>/<kernel>/<repetition>", stable across daemon restarts
  std::string arm;
  std::string kernel;
  int repetition = 0;  // 0-based
  int64_t seq = 0;     // position in the queue order (0 first)
};

// A slice of an arm's queue for one of several daemons (the Slurm launcher runs one per agent
// node, docs/deploy.md): shard `index` of `count` holds the episodes whose seq % count == index.
// {0, 1} is the whole arm. The shards of one count partition the plan exactly.
struct Shard {
  int index = 0;
  int count = 1;
  bool contains(int64_t seq) const { return seq % count == index; }
};

// "I/N" as `--shard` takes it: decimal integers, N >= 1, 0 <= I < N. The error says which.
Result<Shard> parse_shard(std::string_view text);

// Every episode of the arm, in queue order: repetition-major, then kernel in the arm's resolved
// order (rep 0 of every kernel before rep 1 of any), so a campaign cut short still covers every
// kernel once before it repeats any. With a shard: only its episodes, their ids and seq
// unchanged (seq stays the position in the whole arm's queue).
std::vector<EpisodeSpec> plan_episodes(const Arm& arm, const Shard& shard = {});

std::string episode_id(const std::string& arm, const std::string& kernel, int repetition);

// Worker w of an arm: inference_urls[w % I] ('' when the arm has none), judge_urls[w % J] and
// rank = w % J, fixed for the life of the worker. w is the arm's global worker number: a daemon
// started with --worker-offset K pins its own worker v as worker K + v.
struct Pin {
  int worker = 0;
  std::string inference_url;
  std::string judge_url;
  int rank = 0;
};
Pin pin_worker(const Arm& arm, int worker);
// The same over a subset of the judges: `route` lists the judge_urls indices the arm's workers
// may use (gpu_judges), worker w taking route[w % size] and that index as its rank. An empty
// route is every judge (the overload above).
Pin pin_worker(const Arm& arm, int worker, const std::vector<int>& route);

// The judges a GPU arm (LANGUAGE cuda or hip) may be pinned to: the judge_urls indices whose
// GET /health body (`health[j]`, nullopt when judge j did not answer) lists at least one GPU
// in "gpus" (docs/api.md). An arm of a CPU language gets every index. An Error naming the arm,
// its language and what each judge reported when a GPU arm has none: its episodes would only
// be rejected ("this judge has no GPU"), so the arm fails before any is started.
Result<std::vector<int>> gpu_judges(const Arm& arm,
                                    const std::vector<std::optional<nlohmann::json>>& health);

// The budget an episode attempt runs under: the arm's values times `factor` (1, or the
// LIMIT_RERUN_FACTOR for the rerun of an episode stopped by a limit). The enforcer and the
// prompt's budget sentence both read this struct.
struct Budget {
  int64_t wall_s = 3600;
  int64_t tokens = 0;  // in `kind`'s convention; 0 = no token limit
  TokenWeights weights;
  std::string kind = "weighted";  // TOKEN_BUDGET_KIND: weighted or total
  // The weights the proxy's budget check counts with: `weights` for weighted, all 1 for total.
  TokenWeights budget_weights() const;
};
Budget episode_budget(const Arm& arm, double factor = 1.0);

// "You have 1 h 0 min (3600 s) of wall-clock time and 200000 weighted tokens ...".
std::string budget_sentence(const Budget& b);

// The tools paragraph for the prompt ({tools}), stating the submission policy. `tools`: the
// arm's TOOLS ({} = every implemented tool); only those are described, a named but unimplemented
// one is said to be unavailable, and without `score` the agent is told it works blind.
std::string tools_text(const std::string& submission_policy,
                       const std::vector<std::string>& tools = {});

// The arm's prompt template text: PROMPT_TEMPLATE's file, the PROMPT_FRAGMENTS files joined with
// one blank line, or kDefaultPromptTemplate.
Result<std::string> prompt_template_text(const Arm& arm);

// Copies the SKILLS folder into <workspace>/skills (kSkillsDir), makes every copied file
// read-only (modes a-w; folders stay writable so the workspace can be removed, and an agent
// running as root can still write) and returns the copied files' paths relative to the
// workspace, sorted. Symbolic links are copied as links, not followed.
inline constexpr std::string_view kSkillsDir = "skills";
Result<std::vector<std::string>> install_skills(const std::filesystem::path& skills_dir,
                                                const std::filesystem::path& workspace);

// The files install_skills would copy, as it names them (skills/<path>), sorted.
Result<std::vector<std::string>> list_skills(const std::filesystem::path& skills_dir);

// The prompt's skills paragraph ({skills}); '' when there are none. At most `max_listed` files
// are named, the rest counted.
std::string skills_text(const std::vector<std::string>& files, std::size_t max_listed = 50);

// Replaces `{name}` placeholders (name: lower-case letters, digits, '_', starting with a
// letter or '_') by values[name]. Any other brace is literal text. A placeholder with no value
// is an error naming it and `what`.
Result<std::string> render_template(std::string_view text,
                                    const std::map<std::string, std::string>& values,
                                    const std::string& what);

// The built-in prompt template used when an arm sets no PROMPT_TEMPLATE.
extern const char* const kDefaultPromptTemplate;

// Renders a prompt template with {kernel}, {language}, {budget_sentence}, {tools},
// {signature}, {reference_numpy} and {abi} (the last three from the judge's /task JSON), and
// {skills} (skills_text(skill_files)). A template without {skills} gets the skills paragraph
// appended when there are skills, so every template names them.
Result<std::string> render_prompt(std::string_view templ, const nlohmann::json& task,
                                  const std::string& language, const Budget& budget,
                                  const std::string& submission_policy,
                                  const std::vector<std::string>& tools = {},
                                  const std::vector<std::string>& skill_files = {});

// The stub's file name for a language: kernel.c, kernel.cpp, kernel.f90, kernel.py, kernel.cu,
// kernel.hip.
std::string stub_file_name(const std::string& language);

// ABI.md text from the /task JSON: the symbol, the prototype, the arrays, sizes, tolerances and
// the judge's ABI summary.
std::string abi_markdown(const nlohmann::json& task);

// Creates `dir` (it must not exist, or be an empty folder) and writes reference.py,
// kernel.<ext>, ABI.md, PROMPT.md and task.json (the /task answer verbatim). The task JSON must
// carry kernel, language, signature, reference_numpy and abi_doc as strings.
Status prepare_workspace(const std::filesystem::path& dir, const nlohmann::json& task,
                         const std::string& prompt);

}  // namespace hpcab::harness
