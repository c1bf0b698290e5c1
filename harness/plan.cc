#include "harness/plan.h"

#include <cmath>
#include <cstdio>
#include <fstream>

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

Budget episode_budget(const Arm& arm, double factor) {
  Budget b;
  b.wall_s = static_cast<int64_t>(std::llround(static_cast<double>(arm.wall_budget_s) * factor));
  b.tokens = static_cast<int64_t>(std::llround(static_cast<double>(arm.token_budget) * factor));
  b.weights = arm.token_weights;
  return b;
}

std::string budget_sentence(const Budget& b) {
  std::string s = "You have " + std::to_string(b.wall_s) + " seconds (" + duration_text(b.wall_s) +
                  ") of wall-clock time";
  if (b.tokens > 0) {
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

std::string tools_text(const std::string& submission_policy) {
  std::string s =
      "Tools (the CLI and the MCP server are equivalent; both add the rank, run id and token "
      "count for you):\n"
      "- `hpcab-tool task`: the task specification (signature, reference, tolerances, ABI).\n"
      "- `hpcab-tool baseline`: the time(s) to beat.\n"
      "- `hpcab-tool score FILE`: grade FILE on the public inputs; not recorded; use it to "
      "iterate.\n"
      "- `hpcab-tool submit FILE`: grade FILE on public and hidden inputs; recorded as your "
      "answer.\n"
      "MCP tools: task, score, submit.\n";
  if (submission_policy == "single") {
    s += "You may submit once: a second submit is refused, so score until you are confident.";
  } else {
    s += "You may submit several times; your last submission is your answer.";
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
                                  const std::string& submission_policy) {
  auto field = [&](const char* k) -> std::string {
    return task.contains(k) && task[k].is_string() ? task[k].get<std::string>() : std::string();
  };
  std::map<std::string, std::string> values = {
      {"kernel", field("kernel")},
      {"language", language},
      {"budget_sentence", budget_sentence(budget)},
      {"tools", tools_text(submission_policy)},
      {"signature", field("signature")},
      {"reference_numpy", field("reference_numpy")},
      {"abi", field("abi_doc")},
  };
  for (const char* k : {"kernel", "signature", "reference_numpy", "abi_doc"}) {
    if (field(k).empty()) return Error{std::string("prompt: the task JSON has no '") + k + "'"};
  }
  return render_template(templ, values, "prompt template");
}

std::string stub_file_name(const std::string& language) {
  if (language == "cpp") return "kernel.cpp";
  if (language == "fortran") return "kernel.f90";
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
