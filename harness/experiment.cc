// Experiments: treatment arms derived from a control by one key. The control's entries are
// copied as text (arm_entries), so a treatment carries every setting of the control, including
// the ones left at their defaults (those stay unset in both).
#include "harness/experiment.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "harness/schema.h"

namespace hpcab::harness {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

template <typename List>
bool one_of(const List& items, std::string_view v) {
  return std::find(std::begin(items), std::end(items), v) != std::end(items);
}

std::string component_keys_text() {
  std::string out;
  for (auto k : kComponentKeys) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}

Result<std::string> read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return Error{p.string() + ": cannot read the arm file"};
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

// An env value as parse_env reads it back: double quotes when it has a '#', a quote or spaces
// at its ends (a value never holds a line break: arm_entries would not have produced one).
std::string env_value(const std::string& v) {
  const bool plain = v.find_first_of("#\"'") == std::string::npos &&
                     (v.empty() || (v.front() != ' ' && v.back() != ' '));
  if (plain) return v;
  if (v.find('"') == std::string::npos) return "\"" + v + "\"";
  return "'" + v + "'";
}

fs::path absolute_against(const std::string& v, const fs::path& base) {
  fs::path p(v);
  return (p.is_absolute() ? p : base / p).lexically_normal();
}

}  // namespace

Result<Variation> parse_variation(std::string_view text) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return Error{"--vary '" + std::string(text) + "': expected KEY=VALUE (KEY one of " +
                 component_keys_text() + ")"};
  }
  Variation v;
  for (char c : text.substr(0, eq))
    v.key += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  v.value = std::string(text.substr(eq + 1));
  if (!one_of(kComponentKeys, v.key)) {
    return Error{"--vary " + v.key + ": not a component an experiment varies (one of " +
                 component_keys_text() + ")"};
  }
  if (v.value.find_first_of("\n\r") != std::string::npos) {
    return Error{"--vary " + v.key + ": the value contains a line break"};
  }
  return v;
}

std::string treatment_name(const std::string& control, const Variation& v) {
  std::string key;
  for (char c : v.key)
    key += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string value;
  for (char c : v.value) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
    if (!ok && !value.empty() && value.back() == '-') continue;  // one '-' per run
    value += ok ? c : '-';
    if (value.size() >= 40) break;
  }
  if (value.empty()) value = "none";
  return control + "." + key + "-" + value;
}

Result<Experiment> plan_experiment(const fs::path& control_file,
                                   const std::vector<Variation>& variations,
                                   const fs::path& out_dir, const std::string& name,
                                   const fs::path& corpus_dir) {
  if (variations.empty()) return Error{"an experiment needs at least one --vary KEY=VALUE"};
  auto control = load_arm(control_file, corpus_dir);
  if (!control) return control.error();
  auto text = read_text(control_file);
  if (!text) return text.error();
  auto entries = arm_entries(*text, control_file.string());
  if (!entries) return entries.error();
  const fs::path base = fs::absolute(control_file).parent_path();

  Experiment e;
  e.name = name.empty() ? control->name + ".experiment" : name;
  e.dir = fs::absolute(out_dir.empty() ? fs::path("var/experiments") / e.name : out_dir)
              .lexically_normal();
  e.file = e.dir / schema::experiment::kFileName;
  e.control.name = control->name;
  e.control.file = fs::absolute(control_file).lexically_normal();
  e.control.state_db = fs::absolute(control->state_db).lexically_normal();

  std::set<std::string> names = {control->name};
  for (const Variation& v : variations) {
    // The control's value of the key, as written ('' when unset).
    std::string before;
    bool present = false;
    for (const auto& [k, val] : *entries) {
      if (k == v.key) before = val, present = true;
    }
    const bool is_path = one_of(kArmPathKeys, v.key);
    std::string after = v.value;
    if (is_path && !after.empty()) after = absolute_against(after, base).string();
    if (present && (is_path ? absolute_against(before, base).string() : before) == after) {
      return Error{"--vary " + v.key + "=" + v.value + ": the control " + control_file.string() +
                   " already has this value (a treatment must differ from the control)"};
    }
    ExperimentArm t;
    t.vary = v;
    t.name = treatment_name(control->name, v);
    if (!names.insert(t.name).second) {
      return Error{"--vary " + v.key + "=" + v.value + ": the treatment name " + t.name +
                   " is taken (two variations give the same name)"};
    }
    std::string out = "# Written by hpcab-harness experiment " + e.name + ": the control " +
                      e.control.file.string() + " with " + v.key + " changed.\n";
    bool replaced = false;
    for (const auto& [k, val] : *entries) {
      std::string value = val;
      if (k == "NAME") {
        value = t.name;
      } else if (k == v.key) {
        value = after;
        replaced = true;
      } else if (one_of(kArmPathKeys, k) && !value.empty()) {
        value = absolute_against(value, base).string();
      }
      out += k + "=" + env_value(value) + "\n";
    }
    if (!replaced) out += v.key + "=" + env_value(after) + "\n";
    t.arm_text = out;
    t.file = e.dir / (t.name + ".env");
    // Loaded now from its text (paths are absolute), so an invalid treatment fails before
    // anything runs or is written.
    auto parsed = parse_arm(out, t.file.string(), e.dir);
    if (!parsed) return parsed.error();
    t.state_db = fs::absolute(parsed->state_db).lexically_normal();
    e.treatments.push_back(std::move(t));
  }
  return e;
}

std::string experiment_json(const Experiment& e) {
  namespace s = schema::experiment;
  auto arm = [](const ExperimentArm& a) {
    json j = {{s::kArm, a.name}, {s::kFile, a.file.string()}, {s::kStateDb, a.state_db.string()}};
    if (!a.vary.key.empty()) j[s::kVary] = {{s::kKey, a.vary.key}, {s::kValue, a.vary.value}};
    return j;
  };
  json t = json::array();
  for (const auto& x : e.treatments) t.push_back(arm(x));
  json dbs = json::array();
  for (const auto& d : e.judge_dbs) dbs.push_back(fs::absolute(d).lexically_normal().string());
  json j = {
      {s::kName, e.name}, {s::kControl, arm(e.control)}, {s::kTreatments, t}, {s::kJudgeDbs, dbs}};
  return j.dump(2) + "\n";
}

Status write_experiment(const Experiment& e) {
  std::error_code ec;
  fs::create_directories(e.dir, ec);
  if (ec) return Error{"cannot create " + e.dir.string() + ": " + ec.message()};
  auto write = [](const fs::path& p, const std::string& text) -> Status {
    fs::path tmp = p;
    tmp += ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << text;
      out.close();
      if (!out) return Error{"cannot write " + tmp.string()};
    }
    std::error_code rc;
    fs::rename(tmp, p, rc);
    if (rc) return Error{"cannot rename " + tmp.string() + ": " + rc.message()};
    return Ok{};
  };
  for (const auto& t : e.treatments) {
    if (auto st = write(t.file, t.arm_text); !st) return st;
  }
  return write(e.file, experiment_json(e));
}

}  // namespace hpcab::harness
