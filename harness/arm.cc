// Arm file loading. Both formats are reduced to the same (key, value text, location) entries
// and validated by the same code (parse_arm), so env and JSON arms accept and reject exactly the
// same values.
#include "harness/arm.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <span>
#include <sstream>

#include "common/build_info.h"
#include "common/url.h"
#include "harness/search.h"
#include "harness/tool_policy.h"

namespace hpcab::harness {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Entry {
  std::string key;    // upper case
  std::string value;  // text; lists are comma-separated
  std::string where;  // "<label>:<line> (KEY)" or "<label>: key 'key'"
};

// Every key, in the order docs/harness.md lists them.
constexpr std::string_view kKeys[] = {"NAME",
                                      "KERNELS",
                                      "LANGUAGE",
                                      "RESIDENCY",
                                      "AGENT",
                                      "AGENT_COMMAND",
                                      "MODEL",
                                      "INFERENCE_URLS",
                                      "JUDGE_URLS",
                                      "WORKERS",
                                      "REPETITIONS",
                                      "WALL_BUDGET_S",
                                      "TOKEN_BUDGET",
                                      "TOKEN_WEIGHTS",
                                      "TOKEN_BUDGET_KIND",
                                      "TOKENIZER",
                                      "SUBMISSION_POLICY",
                                      "PROMPT_TEMPLATE",
                                      "PROMPT_FRAGMENTS",
                                      "PROMPT_FRAGMENTS_DIR",
                                      "SKILLS",
                                      "TOOLS",
                                      "SEARCH_URL",
                                      "SEARCH_DOMAINS",
                                      "SEARCH_RESULTS",
                                      "SEARCH_MAX_QUERIES",
                                      "SEARCH_TIMEOUT_S",
                                      "AGENT_MAX_TURNS",
                                      "AGENT_DISALLOWED_TOOLS",
                                      "AGENT_ARGS",
                                      "MAX_RELAUNCHES",
                                      "LIMIT_RERUN_FACTOR",
                                      "OUTAGE_WAIT_S",
                                      "OUTAGE_BACKOFF_MAX_S",
                                      "INFRA_RETRIES",
                                      "STATE_DB",
                                      "LIBRARY_DIR"};

bool known_key(std::string_view k) {
  return std::find(std::begin(kKeys), std::end(kKeys), k) != std::end(kKeys) ||
         std::find(std::begin(kDeployKeys), std::end(kDeployKeys), k) != std::end(kDeployKeys);
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(std::string_view s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  auto e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

std::string known_keys_text() {
  std::string out;
  for (auto k : kKeys) out += (out.empty() ? "" : ", ") + std::string(k);
  for (auto k : kDeployKeys) out += ", " + std::string(k);
  return out;
}

template <typename List>
std::string join(const List& items) {
  std::string out;
  for (const auto& x : items) out += (out.empty() ? "" : ", ") + std::string(x);
  return out;
}

template <typename List>
bool one_of(const List& items, std::string_view v) {
  return std::find(std::begin(items), std::end(items), v) != std::end(items);
}

std::vector<std::string> split_list(const std::string& v) {
  std::vector<std::string> out;
  std::stringstream ss(v);
  for (std::string item; std::getline(ss, item, ',');) {
    std::string t = trim(item);
    if (!t.empty()) out.push_back(t);
  }
  return out;
}

// env: KEY=value, '#' comment lines, blank lines, an optional `export ` prefix, values optionally
// in matching single or double quotes. In an unquoted value, '#' after whitespace starts a
// comment (as in shell and dotenv); a '#' inside a word (a URL fragment) is kept.
Result<std::vector<Entry>> parse_env(std::string_view text, const std::string& label) {
  std::vector<Entry> out;
  std::stringstream ss{std::string(text)};
  int line_no = 0;
  for (std::string line; std::getline(ss, line);) {
    ++line_no;
    std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    std::string where = label + ":" + std::to_string(line_no);
    if (t.rfind("export ", 0) == 0) t = trim(t.substr(7));
    auto eq = t.find('=');
    if (eq == std::string::npos) {
      return Error{where + ": expected KEY=value, got '" + t + "'"};
    }
    std::string key = trim(t.substr(0, eq));
    std::string value = trim(t.substr(eq + 1));
    if (!value.empty() && (value[0] == '"' || value[0] == '\'')) {
      char q = value[0];
      auto close = value.find(q, 1);
      if (close == std::string::npos) {
        return Error{where + " (" + key + "): unterminated " + (q == '"' ? "double" : "single") +
                     " quote"};
      }
      std::string rest = trim(value.substr(close + 1));
      if (!rest.empty() && rest[0] != '#') {
        return Error{where + " (" + key + "): unexpected text after the closing quote: '" + rest +
                     "'"};
      }
      value = value.substr(1, close - 1);
    } else {
      for (std::size_t i = 1; i < value.size(); ++i) {
        if (value[i] == '#' && (value[i - 1] == ' ' || value[i - 1] == '\t')) {
          value = trim(value.substr(0, i));
          break;
        }
      }
    }
    if (!known_key(key)) {
      std::string hint = known_key(upper(key)) ? " (env keys are upper case: " + upper(key) + ")"
                                               : " (known keys: " + known_keys_text() + ")";
      return Error{where + ": unknown key '" + key + "'" + hint};
    }
    out.push_back({key, value, where + " (" + key + ")"});
  }
  return out;
}

// JSON: an object with the same keys in lower case. Strings and numbers are taken as their
// text; list keys also accept arrays (joined with commas), TOKEN_WEIGHTS also an object
// {input, cached, output}.
Result<std::vector<Entry>> parse_json(std::string_view text, const std::string& label) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) return Error{label + ": not valid JSON"};
  if (!doc.is_object()) return Error{label + ": expected a JSON object of arm keys"};
  std::vector<Entry> out;
  for (const auto& [k, v] : doc.items()) {
    std::string where = label + ": key '" + k + "'";
    if (!known_key(upper(k)) || k != lower(k)) {
      std::string hint = known_key(upper(k)) ? " (JSON keys are lower case: " + lower(k) + ")"
                                             : " (known keys: " + lower(known_keys_text()) + ")";
      return Error{where + ": unknown key" + hint};
    }
    std::string key = upper(k);
    auto scalar_text = [&](const json& x, std::string* s) {
      if (x.is_string()) {
        *s = x.get<std::string>();
      } else if (x.is_number()) {
        *s = x.dump();
      } else {
        return false;
      }
      return true;
    };
    std::string value;
    if (v.is_array()) {
      for (const auto& item : v) {
        std::string s;
        if (!scalar_text(item, &s)) {
          return Error{where + ": expected a list of strings or numbers, got " + item.dump()};
        }
        value += (value.empty() ? "" : ",") + s;
      }
    } else if (v.is_object() && key == "TOKEN_WEIGHTS") {
      for (const char* part : {"input", "cached", "output"}) {
        if (!v.contains(part) || !v[part].is_number()) {
          return Error{where + ": expected {\"input\": n, \"cached\": n, \"output\": n}"};
        }
        value += (value.empty() ? "" : ",") + v[part].dump();
      }
      if (v.size() != 3) return Error{where + ": only input, cached and output are weights"};
    } else if (!scalar_text(v, &value)) {
      return Error{where + ": expected a string or a number, got " + v.dump()};
    }
    out.push_back({key, value, where});
  }
  return out;
}

Result<int64_t> parse_int(const Entry& e, int64_t min) {
  int64_t v = 0;
  const char* b = e.value.data();
  const char* end = b + e.value.size();
  auto [p, ec] = std::from_chars(b, end, v);
  if (e.value.empty() || ec != std::errc() || p != end) {
    return Error{e.where + ": expected an integer, got '" + e.value + "'"};
  }
  if (v < min) {
    return Error{e.where + ": expected an integer >= " + std::to_string(min) + ", got " + e.value};
  }
  return v;
}

Result<double> parse_real(const std::string& text, const std::string& where) {
  double v = 0;
  const char* b = text.data();
  const char* end = b + text.size();
  auto [p, ec] = std::from_chars(b, end, v);
  if (text.empty() || ec != std::errc() || p != end || !std::isfinite(v)) {
    return Error{where + ": expected a number, got '" + text + "'"};
  }
  return v;
}

Result<std::vector<std::string>> parse_urls(const Entry& e) {
  auto urls = split_list(e.value);
  if (urls.empty()) return Error{e.where + ": expected a comma-separated list of http(s) URLs"};
  for (auto& u : urls) {
    if (auto parsed = parse_url(u); !parsed) return Error{e.where + ": " + parsed.error().message};
    while (u.size() > 8 && u.back() == '/') u.pop_back();
  }
  return urls;
}

// Checks the {placeholders} of an AGENT_COMMAND (or, with `known`, an INFERENCE_COMMAND):
// `{` + lower-case identifier + `}` is a placeholder and must be a known one; any other brace is
// literal text.
Status check_command_placeholders(const Entry& e,
                                  std::span<const std::string_view> known = kCommandPlaceholders) {
  const std::string& s = e.value;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '{') continue;
    std::size_t j = i + 1;
    while (j < s.size() && ((s[j] >= 'a' && s[j] <= 'z') || s[j] == '_' ||
                            (j > i + 1 && s[j] >= '0' && s[j] <= '9'))) {
      ++j;
    }
    if (j == i + 1 || j >= s.size() || s[j] != '}') continue;
    std::string name = s.substr(i + 1, j - i - 1);
    if (!one_of(known, name)) {
      return Error{e.where + ": unknown placeholder {" + name + "} (known: " + join(known) + ")"};
    }
  }
  return Ok{};
}

Status check_selector(const Entry& e, const std::string& sel) {
  if (sel == "all") return Ok{};
  auto colon = sel.find(':');
  if (colon == std::string::npos) {
    if (!valid_kernel_key(sel)) {
      return Error{e.where + ": '" + sel +
                   "' is neither a kernel id or path-style key nor a selector (track:<t>, "
                   "dwarf:<d>, level:<n>, tag:<name>, all)"};
    }
    return Ok{};
  }
  std::string kind = sel.substr(0, colon), arg = sel.substr(colon + 1);
  if (kind == "track") {
    if (!one_of(kTracks, arg)) {
      return Error{e.where + ": unknown track '" + arg + "' (known: " + join(kTracks) + ")"};
    }
  } else if (kind == "dwarf") {
    if (arg.empty()) return Error{e.where + ": 'dwarf:' needs a dwarf name"};
  } else if (kind == "level") {
    Entry tmp{e.key, arg, e.where + " selector '" + sel + "'"};
    if (auto v = parse_int(tmp, 1); !v.ok()) return v.error();
  } else if (kind == "tag") {
    if (arg.empty()) return Error{e.where + ": 'tag:' needs a tag name"};
  } else {
    return Error{e.where + ": unknown selector kind '" + kind +
                 ":' (expected track:, dwarf:, level:, tag: or all)"};
  }
  return Ok{};
}

// The Slurm launcher's keys (kDeployKeys; docs/deploy.md), stored in Arm::deploy.
Status parse_deploy_key(const Entry& e, const fs::path& base_dir, Arm::Deploy* d) {
  const std::string& k = e.key;
  const std::string& v = e.value;
  if (k == "INFERENCE_NODES" || k == "AGENT_NODES" || k == "JUDGE_NODES") {
    auto n = parse_int(e, k == "INFERENCE_NODES" ? 0 : 1);
    if (!n.ok()) return n.error();
    if (*n > 10000) return Error{e.where + ": " + v + " is implausibly large (max 10000)"};
    (k == "INFERENCE_NODES" ? d->inference_nodes
     : k == "AGENT_NODES"   ? d->agent_nodes
                            : d->judge_nodes) = static_cast<int>(*n);
  } else if (k == "INFERENCE_COMMAND") {
    if (trim(v).empty()) return Error{e.where + ": expected a command"};
    if (auto s = check_command_placeholders(e, kInferencePlaceholders); !s.ok()) return s.error();
    d->inference_command = v;
  } else if (k == "INFERENCE_PORT" || k == "JUDGE_PORT") {
    auto n = parse_int(e, 1);
    if (!n.ok()) return n.error();
    if (*n > 65535) return Error{e.where + ": expected a port between 1 and 65535, got " + v};
    (k == "INFERENCE_PORT" ? d->inference_port : d->judge_port) = static_cast<int>(*n);
  } else if (k == "JUDGE_CONFIG") {
    if (v.empty()) return Error{e.where + ": expected a file path"};
    fs::path p(v);
    d->judge_config = p.is_absolute() ? p : base_dir / p;
  } else if (k == "MIN_COVERAGE") {
    auto x = parse_real(v, e.where);
    if (!x.ok()) return x.error();
    if (*x < 0 || *x > 1) {
      return Error{e.where + ": expected a share of the arm's kernels between 0 and 1, got " + v};
    }
    d->min_coverage = *x;
  } else if (k == "JUDGE_STARTUP_S" || k == "INFERENCE_STARTUP_S") {
    auto n = parse_int(e, 1);
    if (!n.ok()) return n.error();
    (k == "JUDGE_STARTUP_S" ? d->judge_startup_s : d->inference_startup_s) = *n;
  }
  return Ok{};
}

}  // namespace

bool Arm::uses_model() const { return one_of(kModelAgents, agent); }

std::vector<std::string> Arm::tool_names() const {
  return tools.empty() ? ToolSet::defaults().allowed : tools;
}

bool Arm::gives_search() const {
  const auto names = tool_names();
  return std::find(names.begin(), names.end(), "search") != names.end();
}

std::vector<std::string> default_disallowed_tools(std::string_view kind) {
  if (kind == "claude-code") return {"WebFetch", "WebSearch"};
  if (kind == "codex") return {"web_search"};
  return {};
}

std::vector<std::string> disallowable_tools(std::string_view kind) {
  if (kind == "claude-code") return {"*"};  // any Claude Code tool or permission rule
  if (kind == "codex") return {"web_search"};
  return {};
}

fs::path default_fragments_dir() {
  return fs::path(::hpcab::source_dir()) / "deploy" / "arms" / "fragments";
}

Result<std::vector<std::pair<std::string, std::string>>> arm_entries(std::string_view text,
                                                                     const std::string& label) {
  auto first = text.find_first_not_of(" \t\r\n");
  bool is_json = first != std::string_view::npos && text[first] == '{';
  auto entries = is_json ? parse_json(text, label) : parse_env(text, label);
  if (!entries.ok()) return entries.error();
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& e : *entries) out.emplace_back(e.key, e.value);
  return out;
}

namespace {

// The keys that name the agent and where it runs: NAME, KERNELS, LANGUAGE, RESIDENCY, AGENT,
// AGENT_COMMAND, MODEL, INFERENCE_URLS and JUDGE_URLS. Each key-group parser returns nullopt
// for a key of another group.
std::optional<Status> parse_agent_key(const Entry& e, Arm& arm) {
  const std::string& v = e.value;
  const std::string& k = e.key;
  if (k == "NAME") {
    bool ok = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
    });
    if (!ok) return Error{e.where + ": expected a name of letters, digits, '_', '-', '.'"};
    arm.name = v;
  } else if (k == "KERNELS") {
    arm.kernel_selectors = split_list(v);
    if (arm.kernel_selectors.empty()) {
      return Error{e.where + ": expected a comma-separated list of kernel ids or selectors"};
    }
    for (const auto& sel : arm.kernel_selectors) {
      if (auto s = check_selector(e, sel); !s.ok()) return s.error();
    }
  } else if (k == "LANGUAGE") {
    if (!one_of(kLanguages, v)) {
      return Error{e.where + ": expected one of " + join(kLanguages) + ", got '" + v + "'"};
    }
    arm.language = v;
  } else if (k == "RESIDENCY") {
    if (v != "host" && v != "device") {
      return Error{e.where + ": expected host or device, got '" + v + "'"};
    }
    arm.residency = v;
  } else if (k == "AGENT") {
    if (!one_of(kAgentKinds, v)) {
      return Error{e.where + ": expected one of " + join(kAgentKinds) + ", got '" + v + "'"};
    }
    arm.agent = v;
  } else if (k == "AGENT_COMMAND") {
    if (auto s = check_command_placeholders(e); !s.ok()) return s.error();
    arm.agent_command = v;
  } else if (k == "MODEL") {
    arm.model = v;
  } else if (k == "INFERENCE_URLS" || k == "JUDGE_URLS") {
    auto u = parse_urls(e);
    if (!u.ok()) return u.error();
    (k == "INFERENCE_URLS" ? arm.inference_urls : arm.judge_urls) = *u;
  } else {
    return std::nullopt;
  }
  return Ok{};
}

// TOKEN_WEIGHTS: three non-negative weights input,cached,output.
Status parse_token_weights(const Entry& e, Arm& arm) {
  auto parts = split_list(e.value);
  if (parts.size() != 3) {
    return Error{e.where + ": expected three weights input,cached,output (e.g. 1,0.1,1), got '" +
                 e.value + "'"};
  }
  double w[3];
  for (int i = 0; i < 3; ++i) {
    auto x = parse_real(parts[static_cast<std::size_t>(i)], e.where);
    if (!x.ok()) return x.error();
    if (*x < 0) return Error{e.where + ": weights must be >= 0, got " + parts[i]};
    w[i] = *x;
  }
  arm.token_weights = {w[0], w[1], w[2]};
  return Ok{};
}

// The plan and the budgets: WORKERS, REPETITIONS, MAX_RELAUNCHES, WALL_BUDGET_S, TOKEN_BUDGET,
// TOKEN_WEIGHTS, TOKEN_BUDGET_KIND and SUBMISSION_POLICY.
std::optional<Status> parse_budget_key(const Entry& e, Arm& arm) {
  const std::string& v = e.value;
  const std::string& k = e.key;
  if (k == "WORKERS" || k == "REPETITIONS" || k == "MAX_RELAUNCHES") {
    auto n = parse_int(e, k == "MAX_RELAUNCHES" ? 0 : 1);
    if (!n.ok()) return n.error();
    if (*n > 100000) return Error{e.where + ": " + v + " is implausibly large (max 100000)"};
    int iv = static_cast<int>(*n);
    (k == "WORKERS" ? arm.workers : k == "REPETITIONS" ? arm.repetitions : arm.max_relaunches) = iv;
  } else if (k == "WALL_BUDGET_S" || k == "TOKEN_BUDGET") {
    auto n = parse_int(e, k == "WALL_BUDGET_S" ? 1 : 0);
    if (!n.ok()) return n.error();
    (k == "WALL_BUDGET_S" ? arm.wall_budget_s : arm.token_budget) = *n;
  } else if (k == "TOKEN_WEIGHTS") {
    return parse_token_weights(e, arm);
  } else if (k == "SUBMISSION_POLICY") {
    if (v != "single" && v != "multiple") {
      return Error{e.where + ": expected single or multiple, got '" + v + "'"};
    }
    arm.submission_policy = v;
  } else if (k == "TOKEN_BUDGET_KIND") {
    if (v != "weighted" && v != "total") {
      return Error{e.where +
                   ": expected weighted (TOKEN_WEIGHTS cost) or total (input + cached + "
                   "output tokens), got '" +
                   v + "'"};
    }
    arm.token_budget_kind = v;
  } else {
    return std::nullopt;
  }
  return Ok{};
}

// PROMPT_FRAGMENTS: fragment names, each the stem of a <name>.md file.
Status parse_prompt_fragments(const Entry& e, Arm& arm) {
  arm.prompt_fragments = split_list(e.value);
  if (arm.prompt_fragments.empty()) {
    return Error{e.where + ": expected a comma list of fragment names (e.g. base,hardware)"};
  }
  for (const auto& f : arm.prompt_fragments) {
    bool ok = std::all_of(f.begin(), f.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
    if (!ok) {
      return Error{e.where + ": fragment name '" + f +
                   "' must be lower-case letters, digits, '-' or '_' (the file is <name>.md)"};
    }
  }
  return Ok{};
}

// What the agent is given and may do: PROMPT_TEMPLATE, PROMPT_FRAGMENTS, PROMPT_FRAGMENTS_DIR,
// SKILLS, TOOLS, AGENT_MAX_TURNS, AGENT_DISALLOWED_TOOLS and AGENT_ARGS. Relative paths are
// taken from `base_dir`.
std::optional<Status> parse_prompt_key(const Entry& e, const fs::path& base_dir, Arm& arm) {
  const std::string& v = e.value;
  const std::string& k = e.key;
  if (k == "PROMPT_TEMPLATE") {
    if (v.empty()) return Error{e.where + ": expected a file path"};
    fs::path p(v);
    arm.prompt_template = p.is_absolute() ? p : base_dir / p;
  } else if (k == "PROMPT_FRAGMENTS") {
    return parse_prompt_fragments(e, arm);
  } else if (k == "PROMPT_FRAGMENTS_DIR" || k == "SKILLS") {
    if (v.empty()) return Error{e.where + ": expected a folder path"};
    fs::path p(v);
    (k == "SKILLS" ? arm.skills_dir : arm.prompt_fragments_dir) =
        p.is_absolute() ? p : base_dir / p;
  } else if (k == "TOOLS") {
    auto t = parse_tool_set(v, e.where);
    if (!t.ok()) return t.error();
    arm.tools = t->allowed;
  } else if (k == "AGENT_MAX_TURNS") {
    auto n = parse_int(e, 1);
    if (!n.ok()) return n.error();
    if (*n > 100000) return Error{e.where + ": " + v + " is implausibly large (max 100000)"};
    arm.agent_settings.max_turns = static_cast<int>(*n);
  } else if (k == "AGENT_DISALLOWED_TOOLS") {
    arm.agent_settings.disallowed_tools_set = true;
    if (trim(v) != "none") arm.agent_settings.disallowed_tools = split_list(v);
    for (const auto& t : arm.agent_settings.disallowed_tools) {
      if (t.find_first_of(" \t'\"") != std::string::npos) {
        return Error{e.where + ": tool name '" + t + "' contains a space or a quote"};
      }
    }
  } else if (k == "AGENT_ARGS") {
    if (v.find_first_of("\n\r") != std::string::npos) {
      return Error{e.where + ": expected one line of arguments"};
    }
    if (auto st = check_command_placeholders(e); !st.ok()) return st.error();
    arm.agent_settings.extra_args = trim(v);
  } else {
    return std::nullopt;
  }
  return Ok{};
}

// The search tool's endpoint and limits (harness/search.h): SEARCH_URL, SEARCH_DOMAINS,
// SEARCH_RESULTS, SEARCH_MAX_QUERIES, SEARCH_TIMEOUT_S.
std::optional<Status> parse_search_key(const Entry& e, SearchConfig& search) {
  const std::string& v = e.value;
  const std::string& k = e.key;
  if (k == "SEARCH_URL") {
    if (auto parsed = parse_url(v); !parsed) return Error{e.where + ": " + parsed.error().message};
    search.url = v;
  } else if (k == "SEARCH_DOMAINS") {
    for (const auto& d : split_list(v)) {
      auto domain = normalize_domain(d);
      if (!domain) return Error{e.where + ": " + domain.error().message};
      search.allowed_domains.push_back(*domain);
    }
    if (search.allowed_domains.empty()) return Error{e.where + ": expected a list of domains"};
  } else if (k == "SEARCH_RESULTS" || k == "SEARCH_MAX_QUERIES") {
    auto n = parse_int(e, 1);
    if (!n.ok()) return n.error();
    const int64_t most = k == "SEARCH_RESULTS" ? 50 : 100000;
    if (*n > most) return Error{e.where + ": at most " + std::to_string(most) + ", got " + v};
    (k == "SEARCH_RESULTS" ? search.results : search.max_queries) = static_cast<int>(*n);
  } else if (k == "SEARCH_TIMEOUT_S") {
    auto x = parse_real(v, e.where);
    if (!x.ok()) return x.error();
    if (*x <= 0 || *x > 600) return Error{e.where + ": expected seconds in (0, 600], got " + v};
    search.timeout_s = *x;
  } else {
    return std::nullopt;
  }
  return Ok{};
}

// The run's resilience and files: LIMIT_RERUN_FACTOR, OUTAGE_WAIT_S, OUTAGE_BACKOFF_MAX_S,
// INFRA_RETRIES, STATE_DB and LIBRARY_DIR.
std::optional<Status> parse_run_key(const Entry& e, Arm& arm) {
  const std::string& v = e.value;
  const std::string& k = e.key;
  if (k == "LIMIT_RERUN_FACTOR") {
    auto x = parse_real(v, e.where);
    if (!x.ok()) return x.error();
    if (*x < 1 || *x > 16) {
      return Error{e.where + ": expected a multiple between 1 and 16 (SPEC: 2-4), got " + v};
    }
    arm.limit_rerun_factor = *x;
  } else if (k == "OUTAGE_WAIT_S" || k == "OUTAGE_BACKOFF_MAX_S") {
    auto x = parse_real(v, e.where);
    if (!x.ok()) return x.error();
    const bool wait = k == "OUTAGE_WAIT_S";
    // A week bounds a typo (an extra digit) without limiting any real campaign.
    if (*x < (wait ? 0 : 0.01) || *x > 604800) {
      return Error{e.where + ": expected seconds between " + (wait ? "0" : "0.01") +
                   " and 604800, got " + v};
    }
    (wait ? arm.outage_wait_s : arm.outage_backoff_max_s) = *x;
  } else if (k == "INFRA_RETRIES") {
    auto n = parse_int(e, 0);
    if (!n.ok()) return n.error();
    if (*n > 100) return Error{e.where + ": " + v + " is implausibly large (max 100)"};
    arm.infra_retries = static_cast<int>(*n);
  } else if (k == "STATE_DB") {
    if (v.empty()) return Error{e.where + ": expected a file path"};
    arm.state_db = v;
  } else if (k == "LIBRARY_DIR") {
    if (v.empty()) return Error{e.where + ": expected a folder path"};
    arm.library_dir = v;
  } else {
    return std::nullopt;
  }
  return Ok{};
}

// One entry into `arm`; the value checks are the same for env and JSON arms.
Status parse_entry(const Entry& e, const fs::path& base_dir, Arm& arm) {
  if (e.key == "TOKENIZER") {
    if (e.value.empty()) return Error{e.where + ": expected a vocabulary file path"};
    const fs::path p(e.value);
    arm.tokenizer = p.is_absolute() ? p : base_dir / p;
    return Ok{};
  }
  if (auto st = parse_agent_key(e, arm)) return *st;
  if (auto st = parse_budget_key(e, arm)) return *st;
  if (auto st = parse_prompt_key(e, base_dir, arm)) return *st;
  if (auto st = parse_run_key(e, arm)) return *st;
  if (auto st = parse_search_key(e, arm.search)) return *st;
  if (one_of(kDeployKeys, e.key)) return parse_deploy_key(e, base_dir, &arm.deploy);
  return Ok{};
}

// Errors about the arm as a whole name its keys as the file spells them (lower case in JSON).
struct ArmFile {
  const std::string& label;
  bool is_json;

  std::string key(const char* k) const { return is_json ? lower(k) : std::string(k); }
  Error missing(const char* k, const std::string& why) const {
    return Error{label + ": " + key(k) + " is required" + why};
  }
};

// The keys an arm needs, and the pairs of keys that exclude each other.
Status check_required_keys(const Arm& arm, const ArmFile& f) {
  if (arm.name.empty()) return f.missing("NAME", "");
  if (arm.kernel_selectors.empty()) return f.missing("KERNELS", "");
  if (arm.agent.empty()) return f.missing("AGENT", " (one of " + join(kAgentKinds) + ")");
  if (arm.uses_model()) {
    if (arm.model.empty()) return f.missing("MODEL", " for AGENT=" + arm.agent);
    if (arm.inference_urls.empty() && arm.deploy.inference_nodes == 0) {
      return f.missing("INFERENCE_URLS",
                       " for AGENT=" + arm.agent + " (or INFERENCE_NODES > 0 under the launcher)");
    }
  }
  if ((arm.agent == "command" || arm.agent == "replay") && arm.agent_command.empty()) {
    return f.missing("AGENT_COMMAND", arm.agent == "command"
                                          ? " for AGENT=command"
                                          : " for AGENT=replay (the folder of prepared sources)");
  }
  if (arm.agent == "numba-jit" && arm.language != "python") {
    return Error{f.label + ": AGENT=numba-jit submits Python (reference.py under numba.njit): it " +
                 "needs " + f.key("LANGUAGE") + "=python; LANGUAGE is " + arm.language};
  }
  if (arm.residency == "device" && !gpu_language(arm.language)) {
    return Error{f.label + ": " + f.key("RESIDENCY") +
                 "=device is for LANGUAGE cuda or hip (the judge copies arrays to a GPU); " +
                 "LANGUAGE is " + arm.language};
  }
  if (!arm.prompt_fragments.empty() && !arm.prompt_template.empty()) {
    return Error{f.label + ": " +
                 (f.is_json ? std::string("prompt_fragments and prompt_template")
                            : std::string("PROMPT_FRAGMENTS and PROMPT_TEMPLATE")) +
                 " exclude each other (the fragments compose the template)"};
  }
  if (!arm.prompt_fragments_dir.empty() && arm.prompt_fragments.empty()) {
    return f.missing("PROMPT_FRAGMENTS", " when PROMPT_FRAGMENTS_DIR is set");
  }
  return Ok{};
}

// Agent settings the kind's CLI cannot take are refused rather than silently dropped.
Status check_agent_settings(const Arm& arm, const ArmFile& f) {
  const auto& st = arm.agent_settings;
  const bool turns_ok = arm.agent == "claude-code" || arm.agent == "mini-swe-agent";
  if (st.max_turns > 0 && !turns_ok) {
    return Error{f.label + ": " + f.key("AGENT_MAX_TURNS") +
                 " is not supported for AGENT=" + arm.agent +
                 " (claude-code: --max-turns; mini-swe-agent: agent.step_limit; the other "
                 "CLIs have no turn cap)"};
  }
  if (st.disallowed_tools_set) {
    auto allowed = disallowable_tools(arm.agent);
    if (allowed.empty()) {
      return Error{f.label + ": " + f.key("AGENT_DISALLOWED_TOOLS") +
                   " is not supported for AGENT=" + arm.agent +
                   " (claude-code: --disallowedTools; codex: web_search)"};
    }
    if (!(allowed.size() == 1 && allowed[0] == "*")) {
      for (const auto& t : st.disallowed_tools) {
        if (!one_of(allowed, t)) {
          return Error{f.label + ": " + f.key("AGENT_DISALLOWED_TOOLS") + ": AGENT=" + arm.agent +
                       " can turn off only " + join(allowed) + ", got '" + t + "'"};
        }
      }
    }
  }
  if (!st.extra_args.empty() && !arm.agent_command.empty()) {
    return Error{f.label + ": " + f.key("AGENT_ARGS") + " and " + f.key("AGENT_COMMAND") +
                 " exclude each other (write the arguments into the command)"};
  }
  if (!st.extra_args.empty() && (arm.agent == "command" || arm.agent == "replay")) {
    return Error{f.label + ": " + f.key("AGENT_ARGS") + " is not supported for AGENT=" + arm.agent};
  }
  return Ok{};
}

// The search tool is served by the worker's metering proxy, so it needs SEARCH_URL and an
// arm whose agents talk to a model through one.
Status check_search(const Arm& arm, const ArmFile& f) {
  if (!arm.gives_search()) return Ok{};
  if (arm.search.url.empty()) return f.missing("SEARCH_URL", " when TOOLS has search");
  if (arm.inference_urls.empty() && arm.deploy.inference_nodes == 0) {
    return Error{f.label + ": " + f.key("TOOLS") +
                 " has search, which the metering proxy serves: the arm needs " +
                 f.key("INFERENCE_URLS") + " (or INFERENCE_NODES > 0 under the launcher)"};
  }
  return Ok{};
}

// The launcher either starts the inference servers (INFERENCE_NODES > 0, INFERENCE_COMMAND)
// or points the agents at INFERENCE_URLS; never both.
Status check_inference_launch(const Arm& arm, const ArmFile& f) {
  const Arm::Deploy& d = arm.deploy;
  if (d.inference_nodes > 0 && d.inference_command.empty()) {
    return f.missing("INFERENCE_COMMAND", " when INFERENCE_NODES > 0 (it starts each server)");
  }
  if (d.inference_nodes == 0 && !d.inference_command.empty()) {
    return Error{f.label + ": " + f.key("INFERENCE_COMMAND") + " is set but " +
                 f.key("INFERENCE_NODES") + " is 0 (give the servers nodes, or drop it)"};
  }
  if (d.inference_nodes > 0 && !arm.inference_urls.empty()) {
    return Error{f.label + ": " + f.key("INFERENCE_URLS") + " and " + f.key("INFERENCE_NODES") +
                 " > 0 exclude each other (the launcher passes the URLs of the servers it starts)"};
  }
  if (d.inference_command.find("{model}") != std::string::npos && arm.model.empty()) {
    return f.missing("MODEL", " when INFERENCE_COMMAND uses {model}");
  }
  return Ok{};
}

}  // namespace

Result<Arm> parse_arm(std::string_view text, const std::string& label, const fs::path& base_dir) {
  auto first = text.find_first_not_of(" \t\r\n");
  bool is_json = first != std::string_view::npos && text[first] == '{';
  auto entries = is_json ? parse_json(text, label) : parse_env(text, label);
  if (!entries.ok()) return entries.error();

  Arm arm;
  std::map<std::string, std::string> seen;  // key -> where
  for (const Entry& e : *entries) {
    if (auto it = seen.find(e.key); it != seen.end()) {
      return Error{e.where + ": " + e.key + " is already set at " + it->second};
    }
    seen[e.key] = e.where;
    if (auto st = parse_entry(e, base_dir, arm); !st.ok()) return st.error();
  }

  const ArmFile file{label, is_json};
  if (auto st = check_required_keys(arm, file); !st.ok()) return st.error();
  if (arm.prompt_fragments_dir.empty()) arm.prompt_fragments_dir = default_fragments_dir();
  if (auto st = check_agent_settings(arm, file); !st.ok()) return st.error();
  if (!arm.agent_settings.disallowed_tools_set) {
    arm.agent_settings.disallowed_tools = default_disallowed_tools(arm.agent);
  }
  if (auto st = check_inference_launch(arm, file); !st.ok()) return st.error();
  if (auto st = check_search(arm, file); !st.ok()) return st.error();
  return arm;
}

Result<std::vector<std::string>> resolve_kernels(const std::vector<std::string>& selectors,
                                                 const std::vector<Manifest>& corpus) {
  auto ids = select_kernels(corpus, selectors);
  if (!ids) return Error{"KERNELS: " + ids.error().message};
  return ids;
}

fs::path default_corpus_dir() { return fs::path(::hpcab::source_dir()) / "corpus"; }

Result<Arm> load_arm(const fs::path& file, const fs::path& corpus_dir) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Error{file.string() + ": cannot read the arm file"};
  std::stringstream buf;
  buf << in.rdbuf();
  auto arm = parse_arm(buf.str(), file.string(), file.parent_path());
  if (!arm.ok()) return arm.error();
  arm->file = file;
  if (!arm->prompt_template.empty()) {
    std::error_code ec;
    if (!fs::is_regular_file(arm->prompt_template, ec)) {
      return Error{file.string() + ": PROMPT_TEMPLATE " + arm->prompt_template.string() +
                   " is not a readable file (paths are relative to the arm file)"};
    }
  }
  for (const auto& f : arm->prompt_fragments) {
    std::error_code ec;
    const fs::path p = arm->prompt_fragments_dir / (f + ".md");
    if (!fs::is_regular_file(p, ec)) {
      return Error{file.string() + ": PROMPT_FRAGMENTS: fragment '" + f + "' has no file " +
                   p.string() + " (PROMPT_FRAGMENTS_DIR is relative to the arm file)"};
    }
  }
  if (!arm->skills_dir.empty()) {
    std::error_code ec;
    if (!fs::is_directory(arm->skills_dir, ec)) {
      return Error{file.string() + ": SKILLS " + arm->skills_dir.string() +
                   " is not a folder (paths are relative to the arm file)"};
    }
  }
  if (!arm->tokenizer.empty()) {
    auto vocab = BpeTokenizer::load(arm->tokenizer);
    if (!vocab.ok()) {
      return Error{file.string() + ": TOKENIZER: " + vocab.error().message +
                   " (paths are relative to the arm file)"};
    }
    arm->tokenizer_vocab = *vocab;
  }
  if (!arm->deploy.judge_config.empty()) {
    std::error_code ec;
    if (!fs::is_regular_file(arm->deploy.judge_config, ec)) {
      return Error{file.string() + ": JUDGE_CONFIG " + arm->deploy.judge_config.string() +
                   " is not a readable file (paths are relative to the arm file)"};
    }
  }
  auto corpus = load_corpus(corpus_dir);
  if (!corpus.ok()) {
    return Error{file.string() + ": loading the corpus at " + corpus_dir.string() + ": " +
                 corpus.error().message};
  }
  auto ids = resolve_kernels(arm->kernel_selectors, *corpus);
  if (!ids.ok()) return Error{file.string() + ": " + ids.error().message};
  arm->kernels = std::move(*ids);
  return arm;
}

Result<std::vector<std::string>> parse_url_list(const std::string& text) {
  return parse_urls(Entry{"URLS", text, "URL list"});
}

}  // namespace hpcab::harness
