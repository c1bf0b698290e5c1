#include "harness/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "harness/tool_policy.h"

namespace hpcab::harness {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string fmt_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

std::string duration_text(int64_t s) {
  if (s < 60) return std::to_string(s) + " s";
  if (s < 3600) {
    return std::to_string(s / 60) + " min" + (s % 60 ? " " + std::to_string(s % 60) + " s" : "");
  }
  return std::to_string(s / 3600) + " h " + std::to_string(s % 3600 / 60) + " min";
}

Status write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Error{"workspace: cannot write " + p.string()};
  return Ok{};
}

bool is_placeholder_char(char c, bool first) {
  return (c >= 'a' && c <= 'z') || c == '_' || (!first && c >= '0' && c <= '9');
}

}  // namespace

std::string episode_id(const std::string& arm, const std::string& kernel, int repetition) {
  return arm + "/" + kernel + "/" + std::to_string(repetition);
}

Result<Shard> parse_shard(std::string_view text) {
  auto number = [](std::string_view s, int* out) {
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string_view::npos) {
      return false;
    }
    *out = std::stoi(std::string(s));
    return true;
  };
  const auto slash = text.find('/');
  Shard sh;
  if (slash == std::string_view::npos || !number(text.substr(0, slash), &sh.index) ||
      !number(text.substr(slash + 1), &sh.count)) {
    return Error{"'" + std::string(text) +
                 "' is not I/N (this daemon's shard index I and the shard count N, e.g. 0/2)"};
  }
  if (sh.count < 1) return Error{"'" + std::string(text) + "': the shard count N must be >= 1"};
  if (sh.index >= sh.count) {
    return Error{"'" + std::string(text) + "': the shard index I must be below N (0.." +
                 std::to_string(sh.count - 1) + ")"};
  }
  return sh;
}

std::vector<EpisodeSpec> plan_episodes(const Arm& arm, const Shard& shard) {
  std::vector<EpisodeSpec> out;
  out.reserve(arm.kernels.size() * static_cast<std::size_t>(arm.repetitions));
  int64_t seq = 0;
  for (int rep = 0; rep < arm.repetitions; ++rep) {
    for (const auto& k : arm.kernels) {
      if (shard.contains(seq)) out.push_back({episode_id(arm.name, k, rep), arm.name, k, rep, seq});
      ++seq;
    }
  }
  return out;
}

Pin pin_worker(const Arm& arm, int worker) {
  Pin p;
  p.worker = worker;
  if (!arm.inference_urls.empty()) {
    p.inference_url =
        arm.inference_urls[static_cast<std::size_t>(worker) % arm.inference_urls.size()];
  }
  if (!arm.judge_urls.empty()) {
    std::size_t j = static_cast<std::size_t>(worker) % arm.judge_urls.size();
    p.judge_url = arm.judge_urls[j];
    p.rank = static_cast<int>(j);
  }
  return p;
}

Pin pin_worker(const Arm& arm, int worker, const std::vector<int>& route) {
  Pin p = pin_worker(arm, worker);
  if (route.empty() || arm.judge_urls.empty()) return p;
  const int j = route[static_cast<std::size_t>(worker) % route.size()];
  p.judge_url = arm.judge_urls[static_cast<std::size_t>(j)];
  p.rank = j;
  return p;
}

Result<std::vector<int>> gpu_judges(const Arm& arm,
                                    const std::vector<std::optional<nlohmann::json>>& health) {
  std::vector<int> all, with_gpu;
  std::string seen;
  for (std::size_t j = 0; j < arm.judge_urls.size(); ++j) {
    all.push_back(static_cast<int>(j));
    const auto* h = j < health.size() && health[j] ? &*health[j] : nullptr;
    const bool gpu = h && h->is_object() && h->contains("gpus") && h->at("gpus").is_array() &&
                     !h->at("gpus").empty();
    if (gpu) with_gpu.push_back(static_cast<int>(j));
    seen += (seen.empty() ? "" : "; ") + arm.judge_urls[j] + ": " +
            (!h ? "no /health answer"
             : h->is_object() && h->contains("gpus") && h->at("gpus").is_array()
                 ? "no GPU"
                 : "no \"gpus\" in /health");
  }
  if (!gpu_language(arm.language)) return all;
  if (with_gpu.empty()) {
    return Error{"arm '" + arm.name + "' has LANGUAGE=" + arm.language +
                 ", which needs a judge with a GPU, and none of its JUDGE_URLS reports one in "
                 "GET /health (" +
                 seen + ")"};
  }
  return with_gpu;
}

Budget episode_budget(const Arm& arm, double factor) {
  Budget b;
  b.wall_s = static_cast<int64_t>(std::llround(static_cast<double>(arm.wall_budget_s) * factor));
  b.tokens = static_cast<int64_t>(std::llround(static_cast<double>(arm.token_budget) * factor));
  b.weights = arm.token_weights;
  b.kind = arm.token_budget_kind;
  return b;
}

TokenWeights Budget::budget_weights() const {
  if (kind == "total") return TokenWeights{1.0, 1.0, 1.0};
  return weights;
}

std::string budget_sentence(const Budget& b) {
  std::string s = "You have " + std::to_string(b.wall_s) + " seconds (" + duration_text(b.wall_s) +
                  ") of wall-clock time";
  if (b.tokens > 0 && b.kind == "total") {
    s += " and a budget of " + std::to_string(b.tokens) +
         " tokens (input, cached input and output tokens each count 1)";
    s += ". When either runs out the episode is stopped";
  } else if (b.tokens > 0) {
    s += " and a budget of " + std::to_string(b.tokens) +
         " weighted tokens (each input token counts " + fmt_number(b.weights.input) +
         ", each cached input token " + fmt_number(b.weights.cached) + ", each output token " +
         fmt_number(b.weights.output) + ")";
    s += ". When either runs out the episode is stopped";
  } else {
    s += "; there is no token limit. When the time runs out the episode is stopped";
  }
  s += ", and only what you submitted before then counts.";
  return s;
}

std::string tools_text(const std::string& submission_policy,
                       const std::vector<std::string>& tools) {
  const std::vector<std::string> names = tools.empty() ? ToolSet::defaults().allowed : tools;
  auto has = [&](std::string_view n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  std::string s =
      "Tools (the CLI and the MCP server are equivalent; both add the rank, run id and token "
      "count for you):\n";
  if (has("task")) {
    s += "- `hpcab-tool task`: the task specification (signature, reference, tolerances, ABI).\n";
  }
  if (has("baseline")) s += "- `hpcab-tool baseline`: the time(s) to beat.\n";
  if (has("score")) {
    s += "- `hpcab-tool score FILE`: grade FILE on the public inputs; not recorded; use it to "
         "iterate.\n";
  }
  if (has("submit")) {
    s += "- `hpcab-tool submit FILE`: grade FILE on public and hidden inputs; recorded as your "
         "answer.\n";
  }
  if (has("profile")) {
    s += "- `hpcab-tool profile FILE`: run FILE once on a public input with the judge's profiler: "
         "time per call, counters, hotspots, roofline position; not a grade.\n";
  }
  if (has("syntax-check")) {
    s += "- `hpcab-tool syntax-check FILE`: compile FILE with the judge's exact flags without "
         "running it; the compiler's diagnostics (file, line, message) in a second or two.\n";
  }
  std::string mcp;
  for (const auto& n : names) {
    if (is_implemented_tool(n)) mcp += (mcp.empty() ? "" : ", ") + n;
  }
  s += "MCP tools: " + (mcp.empty() ? std::string("none") : mcp) + ".\n";
  for (const auto& n : names) {
    if (!is_implemented_tool(n)) {
      s += "(`" + n + "` is listed for this run but not available: a call is refused.)\n";
    }
  }
  if (!has("score")) {
    s += "There is no score tool in this run: you cannot test a candidate on the judge before "
         "you submit it.\n";
  }
  if (!has("submit")) {
    s += "There is no submit tool in this run.";
  } else if (submission_policy == "single") {
    s += has("score")
             ? "You may submit once: a second submit is refused, so score until you are confident."
             : "You may submit once: a second submit is refused.";
  } else {
    s += "You may submit several times; your last submission is your answer.";
  }
  return s;
}

Result<std::string> prompt_template_text(const Arm& arm) {
  auto read = [](const fs::path& p) -> Result<std::string> {
    std::ifstream in(p, std::ios::binary);
    if (!in) return Error{"cannot read " + p.string()};
    std::stringstream buf;
    buf << in.rdbuf();
    return buf.str();
  };
  if (!arm.prompt_template.empty()) return read(arm.prompt_template);
  if (arm.prompt_fragments.empty()) return std::string(kDefaultPromptTemplate);
  std::string out;
  for (const auto& f : arm.prompt_fragments) {
    auto text = read(arm.prompt_fragments_dir / (f + ".md"));
    if (!text) return Error{"PROMPT_FRAGMENTS '" + f + "': " + text.error().message};
    if (!out.empty()) {
      while (!out.empty() && out.back() == '\n') out.pop_back();
      out += "\n\n";
    }
    out += *text;
  }
  return out;
}

Result<std::vector<std::string>> list_skills(const fs::path& skills_dir) {
  std::error_code ec;
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(skills_dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!fs::is_directory(it->symlink_status(ec))) {
      files.push_back(
          (fs::path(kSkillsDir) / it->path().lexically_relative(skills_dir)).generic_string());
    }
  }
  if (ec) return Error{"skills: cannot list " + skills_dir.string() + ": " + ec.message()};
  std::sort(files.begin(), files.end());
  return files;
}

Result<std::vector<std::string>> install_skills(const fs::path& skills_dir,
                                                const fs::path& workspace) {
  std::error_code ec;
  const fs::path dest = workspace / kSkillsDir;
  if (fs::exists(dest, ec)) {
    return Error{"skills: " + dest.string() + " already exists in the workspace"};
  }
  fs::copy(skills_dir, dest, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) {
    return Error{"skills: cannot copy " + skills_dir.string() + " to " + dest.string() + ": " +
                 ec.message()};
  }
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(dest, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const auto st = it->symlink_status(ec);
    if (!fs::is_directory(st)) {
      files.push_back(it->path().lexically_relative(workspace).generic_string());
      if (!fs::is_symlink(st)) {
        fs::permissions(it->path(),
                        fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                        fs::perm_options::remove, ec);
      }
    }
  }
  if (ec) return Error{"skills: cannot list " + dest.string() + ": " + ec.message()};
  std::sort(files.begin(), files.end());
  return files;
}

std::string skills_text(const std::vector<std::string>& files, std::size_t max_listed) {
  if (files.empty()) return "";
  std::string s = "## Skills\nThe folder `" + std::string(kSkillsDir) +
                  "/` (read-only) holds skill files for this task; read the ones that help:\n";
  for (std::size_t i = 0; i < files.size() && i < max_listed; ++i) s += "- `" + files[i] + "`\n";
  if (files.size() > max_listed) {
    s += "- and " + std::to_string(files.size() - max_listed) + " more files\n";
  }
  return s;
}

Result<std::string> render_template(std::string_view text,
                                    const std::map<std::string, std::string>& values,
                                    const std::string& what) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{' && i + 1 < text.size() && is_placeholder_char(text[i + 1], true)) {
      std::size_t j = i + 1;
      while (j < text.size() && is_placeholder_char(text[j], false)) ++j;
      if (j < text.size() && text[j] == '}') {
        std::string name(text.substr(i + 1, j - i - 1));
        auto it = values.find(name);
        if (it == values.end()) {
          std::string known;
          for (const auto& [k, v] : values) known += (known.empty() ? "" : ", ") + ("{" + k + "}");
          return Error{what + ": unknown placeholder {" + name + "} (known: " + known + ")"};
        }
        out += it->second;
        i = j;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

const char* const kDefaultPromptTemplate = R"(# Task: make `{kernel}` fast

Write an optimized {language} implementation of the kernel `{kernel}`. It must compute the same
outputs as the NumPy reference below (within the tolerances of `hpcab-tool task`) and be faster
than the baseline the judge measures.

{budget_sentence}

## Files in this folder
- `PROMPT.md`: this text.
- `reference.py`: the NumPy reference (the definition of correct).
- the stub source to fill in (its signature is fixed by the ABI).
- `ABI.md`: the calling convention, arrays, sizes and tolerances.

## Signature
```
{signature}
```

## NumPy reference
```python
{reference_numpy}
```

## ABI
{abi}

## Tools
{tools}
)";

Result<std::string> render_prompt(std::string_view templ, const json& task,
                                  const std::string& language, const Budget& budget,
                                  const std::string& submission_policy,
                                  const std::vector<std::string>& tools,
                                  const std::vector<std::string>& skill_files) {
  auto field = [&](const char* k) -> std::string {
    return task.contains(k) && task[k].is_string() ? task[k].get<std::string>() : std::string();
  };
  std::map<std::string, std::string> values = {
      {"kernel", field("kernel")},
      {"language", language},
      {"budget_sentence", budget_sentence(budget)},
      {"tools", tools_text(submission_policy, tools)},
      {"skills", skills_text(skill_files)},
      {"signature", field("signature")},
      {"reference_numpy", field("reference_numpy")},
      {"abi", field("abi_doc")},
  };
  for (const char* k : {"kernel", "signature", "reference_numpy", "abi_doc"}) {
    if (field(k).empty()) return Error{std::string("prompt: the task JSON has no '") + k + "'"};
  }
  auto out = render_template(templ, values, "prompt template");
  if (!out) return out;
  if (!skill_files.empty() && templ.find("{skills}") == std::string_view::npos) {
    while (!out->empty() && out->back() == '\n') out->pop_back();
    *out += "\n\n" + skills_text(skill_files);
  }
  return out;
}

std::string stub_file_name(const std::string& language) {
  if (language == "cpp") return "kernel.cpp";
  if (language == "fortran") return "kernel.f90";
  if (language == "cuda") return "kernel.cu";
  if (language == "hip") return "kernel.hip";
  if (language == "python") return "kernel.py";
  return "kernel.c";
}

std::string abi_markdown(const json& task) {
  auto str = [&](const char* k) {
    if (!task.contains(k) || task[k].is_null()) return std::string();
    return task[k].is_string() ? task[k].get<std::string>() : task[k].dump();
  };
  std::string s = "# ABI of " + str("kernel") + "\n\n";
  if (!str("symbol").empty()) s += "Symbol: `" + str("symbol") + "`\n\n";
  if (!str("prototype").empty()) s += "Prototype:\n```\n" + str("prototype") + "\n```\n\n";
  if (task.contains("arrays") && task["arrays"].is_array() && !task["arrays"].empty()) {
    s += "| array | dtype | shape | intent |\n|---|---|---|---|\n";
    for (const auto& a : task["arrays"]) {
      std::string shape;
      if (a.contains("shape") && a["shape"].is_array()) {
        for (const auto& d : a["shape"]) {
          shape += (shape.empty() ? "" : ", ") + (d.is_string() ? d.get<std::string>() : d.dump());
        }
      }
      s += "| " + a.value("name", std::string()) + " | " + a.value("dtype", std::string()) +
           " | (" + shape + ") | " + a.value("intent", std::string()) + " |\n";
    }
    s += "\n";
  }
  if (task.contains("sizes") && task["sizes"].is_object()) {
    s += "Sizes (preset " + str("preset") + "): " + task["sizes"].dump() + "\n\n";
  }
  if (!str("rtol").empty())
    s += "Tolerances: rtol " + str("rtol") + ", atol " + str("atol") + "\n\n";
  s += str("abi_doc") + "\n";
  return s;
}

Status prepare_workspace(const fs::path& dir, const json& task, const std::string& prompt) {
  for (const char* k : {"kernel", "language", "signature", "reference_numpy", "abi_doc"}) {
    if (!task.contains(k) || !task[k].is_string()) {
      return Error{std::string("workspace: the task JSON has no string '") + k + "'"};
    }
  }
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec) || !fs::is_empty(dir, ec)) {
      return Error{"workspace: " + dir.string() + " exists and is not an empty folder"};
    }
  } else if (!fs::create_directories(dir, ec) || ec) {
    return Error{"workspace: cannot create " + dir.string() + ": " + ec.message()};
  }
  const std::string language = task["language"].get<std::string>();
  struct File {
    std::string name, text;
  };
  const File files[] = {
      {"reference.py", task["reference_numpy"].get<std::string>()},
      {stub_file_name(language), task["signature"].get<std::string>()},
      {"ABI.md", abi_markdown(task)},
      {"PROMPT.md", prompt},
      {"task.json", task.dump(2) + "\n"},
  };
  for (const auto& f : files) {
    if (auto s = write_file(dir / f.name, f.text); !s.ok()) return s;
  }
  return Ok{};
}

}  // namespace hpcab::harness
