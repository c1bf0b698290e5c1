// hpcab: the corpus maintainer's command line (list, abi, check, numba-status, demo), the judge
// database tools (db merge) and the research outputs (report). Wiring only; it lives in cli/
// because it depends on common, judge and report, and common/ depends on nothing above it.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "cli/merge.h"
#include "cli/replay.h"
#include "common/abi.h"
#include "common/build_info.h"
#include "common/check_record.h"
#include "common/corpus_check.h"
#include "common/http_client.h"
#include "common/manifest.h"
#include "report/commands.h"

namespace fs = std::filesystem;
using namespace hpcab;

namespace {

fs::path default_corpus() {
  if (const char* env = std::getenv("HPCAB_CORPUS_DIR")) return env;
  if (fs::exists("corpus/run_reference.py")) return "corpus";
  return fs::path(::hpcab::source_dir()) / "corpus";
}

std::string default_python() {
  if (const char* env = std::getenv("HPCAB_PYTHON")) return env;
  return HPCAB_DEFAULT_PYTHON;
}

Result<std::vector<Manifest>> select(const fs::path& corpus, const std::vector<std::string>& ids) {
  auto all = load_corpus(corpus);
  if (!all || ids.empty()) return all;
  auto chosen = select_kernels(*all, ids);
  if (!chosen) return Error{chosen.error().message + " in " + corpus.string()};
  std::vector<Manifest> out;
  for (const auto& id : *chosen) out.push_back(*find_kernel(*all, id));
  return out;
}

int cmd_list(const fs::path& corpus) {
  auto kernels = load_corpus(corpus);
  if (!kernels) {
    std::cerr << "hpcab: " << kernels.error().message << "\n";
    return 2;
  }
  int width = 16;
  for (const auto& m : *kernels) width = std::max(width, static_cast<int>(m.id.size()));
  std::printf("%-*s %-22s %-26s %-5s %-10s %s\n", width, "id", "track", "dwarf", "level",
              "precisions", "tags");
  for (const auto& m : *kernels) {
    std::string precs, tags;
    for (auto p : m.precisions)
      precs += (precs.empty() ? "" : ",") + std::string(precision_name(p));
    for (const auto& t : m.tags) tags += (tags.empty() ? "" : ",") + t;
    std::printf("%-*s %-22s %-26s %-5d %-10s %s\n", width, m.id.c_str(), m.track.c_str(),
                m.dwarf.empty() ? "-" : m.dwarf.c_str(), m.level, precs.c_str(),
                tags.empty() ? "-" : tags.c_str());
  }
  // Counts per track, dwarf, level and tag (the same object /health reports as "corpus").
  const auto counts = nlohmann::json::parse(corpus_counts_json(*kernels));
  std::printf("\n%zu kernels\n", kernels->size());
  for (const char* group : {"tracks", "dwarfs", "levels", "tags"}) {
    std::string line;
    for (const auto& [k, v] : counts[group].items()) {
      line += std::string(line.empty() ? "" : ", ") +
              (group == std::string("levels") ? "level " : "") + k + " " +
              std::to_string(v.get<int>());
    }
    std::printf("%s: %s\n", group, line.empty() ? "-" : line.c_str());
  }
  return 0;
}

int cmd_abi(const fs::path& corpus, const std::string& id, const std::string& precision,
            const std::string& language) {
  auto kernels = select(corpus, {id});
  if (!kernels) {
    std::cerr << "hpcab: " << kernels.error().message << "\n";
    return 2;
  }
  if (kernels->size() != 1) {
    std::cerr << "hpcab: '" << id << "' selects " << kernels->size()
              << " kernels; corpus abi takes one kernel id or path-style key\n";
    return 2;
  }
  const Manifest& m = kernels->front();
  for (Precision p : m.precisions) {
    if (precision != "all" && precision_name(p) != precision) continue;
    if (language == "c" || language == "all") std::cout << c_prototype(m, p) << "\n";
    if (language == "cpp" || language == "all") std::cout << cpp_prototype(m, p) << "\n";
    if (language == "fortran" || language == "all") std::cout << fortran_interface(m, p) << "\n";
    // CUDA and HIP: the host entry a .cu / .hip source defines has the C++ form (extern "C",
    // __restrict__); GET /task?language=cuda|hip gives a stub that launches a kernel from it.
    if (language == "cuda" || language == "hip") {
      std::cout << "// " << language << " host entry\n" << cpp_prototype(m, p) << "\n";
    }
  }
  // The Python form is the same for every precision (keyword arguments; docs/api.md).
  if (language == "python" || language == "all") std::cout << python_prototype(m) << "\n";
  return 0;
}

// A scratch directory for a check: --work-dir, else a fresh temp dir (removed unless kept).
bool make_work_dir(CheckOptions& options) {
  if (!options.work_dir.empty()) {
    fs::create_directories(options.work_dir);
    return true;
  }
  std::string tmpl = (fs::temp_directory_path() / "hpcab-check-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) {
    std::perror("hpcab: mkdtemp");
    return false;
  }
  options.work_dir = tmpl;
  return true;
}

void done_with_work_dir(const CheckOptions& options, bool own_dir, bool keep, bool quiet) {
  if (own_dir && !keep) {
    std::error_code ec;
    fs::remove_all(options.work_dir, ec);
  } else if (!quiet) {
    std::printf("work files kept in %s\n", options.work_dir.c_str());
  }
}

// Where the check's selection and record come from (--changed, --record): see CheckRecord.
struct RecordFiles {
  std::string changed, record;
};

// `ids`' kernels, plus with --changed every kernel whose files differ from their recorded hash
// (then, without ids, only those).
Result<std::vector<Manifest>> select_for_check(const fs::path& corpus,
                                               const std::vector<std::string>& ids,
                                               const RecordFiles& files) {
  if (files.changed.empty()) return select(corpus, ids);
  auto recorded = read_check_record(files.changed);
  if (!recorded) return recorded.error();
  auto all = load_corpus(corpus);
  if (!all) return all.error();
  std::set<std::string> chosen;
  if (!ids.empty()) {
    auto named = select_kernels(*all, ids);
    if (!named) return Error{named.error().message + " in " + corpus.string()};
    chosen.insert(named->begin(), named->end());
  }
  int changed = 0;
  for (const auto& m : *all) {
    auto hash = kernel_content_hash(m);
    if (!hash) return hash.error();
    auto it = recorded->find(m.id);
    if (it == recorded->end() || it->second != *hash) {
      changed += chosen.insert(m.id).second ? 1 : 0;
    }
  }
  std::printf("%d kernel(s) new or changed since %s, %zu named\n", changed, files.changed.c_str(),
              ids.empty() ? std::size_t{0} : chosen.size() - changed);
  std::vector<Manifest> out;
  for (const auto& m : *all) {
    if (chosen.count(m.id)) out.push_back(m);
  }
  return out;
}

int cmd_check(const fs::path& corpus, const std::vector<std::string>& ids, CheckOptions options,
              bool keep, const RecordFiles& files) {
  auto kernels = select_for_check(corpus, ids, files);
  if (!kernels) {
    std::cerr << "hpcab: " << kernels.error().message << "\n";
    return 2;
  }
  const bool own_dir = options.work_dir.empty();
  if (!make_work_dir(options)) return 2;
  std::printf(
      "memory check: the arrays of one call within %.4g MiB (a quarter of --memory-bytes)\n",
      static_cast<double>(data_budget(options.memory_bytes)) / (1 << 20));
  std::printf("%-16s %-22s %-4s %9s  %-10s  %s\n", "kernel", "track", "", "max_rel", "checked",
              options.numba ? "reason, numba status" : "reason");
  std::fflush(stdout);
  int failed = 0;
  std::vector<std::string> with_c, numpy_only;
  CheckRecord passed;
  auto t0 = std::chrono::steady_clock::now();
  for (const auto& m : *kernels) {
    KernelCheck k = check_kernel(m, options);
    failed += k.ok ? 0 : 1;
    if (k.ok) {
      if (auto hash = kernel_content_hash(m)) passed[m.id] = *hash;
    }
    (k.numpy_only ? numpy_only : with_c).push_back(m.id);
    std::printf("%s\n", format_check_row(k).c_str());
    std::fflush(stdout);
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%zu kernels checked in %.1f s: %zu passed, %d failed\n", kernels->size(), secs,
              kernels->size() - static_cast<std::size_t>(failed), failed);
  auto list = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& id : v) s += (s.empty() ? "" : " ") + id;
    return v.empty() ? std::string("-") : s;
  };
  std::printf("reference.c against reference.py (%zu): %s\n", with_c.size(), list(with_c).c_str());
  std::printf("reference.py alone, no reference.c (%zu): %s\n", numpy_only.size(),
              list(numpy_only).c_str());
  if (!options.numba) std::printf("numba: not checked (--no-numba)\n");
  done_with_work_dir(options, own_dir, keep, false);
  if (!files.record.empty()) {
    // Only a check with Numba and the linter vouches for a kernel; kernels that no longer exist
    // leave the record, those not checked this time keep their line.
    if (!options.numba || !options.lint) {
      std::fprintf(stderr, "hpcab: --record needs the full check (no --no-numba, --no-lint)\n");
      return 2;
    }
    auto record = read_check_record(files.record);
    auto all = load_corpus(corpus);
    if (!record || !all) {
      std::fprintf(stderr, "hpcab: %s\n", (!record ? record.error() : all.error()).message.c_str());
      return 2;
    }
    std::set<std::string> checked, ids;
    for (const auto& m : *kernels) checked.insert(m.id);
    for (const auto& m : *all) ids.insert(m.id);
    const CheckRecord next = updated_check_record(*record, passed, checked, ids);
    if (auto st = write_check_record(files.record, next); !st) {
      std::fprintf(stderr, "hpcab: %s\n", st.error().message.c_str());
      return 2;
    }
    std::printf("recorded %zu passing kernel(s) in %s\n", next.size(), files.record.c_str());
  }
  return failed == 0 ? 0 : 1;
}

// Which kernels' reference.py Numba compiles (plain and parallel) and agrees with NumPy on: a
// table, or with --json {"kernels": [check_json...]} for the judge. Exit 1 when a kernel fails
// (its NumPy run, or a Numba run that compiled), not when Numba cannot compile one.
int cmd_numba_status(const fs::path& corpus, const std::vector<std::string>& ids,
                     CheckOptions options, bool as_json) {
  auto kernels = select(corpus, ids);
  if (!kernels) {
    std::cerr << "hpcab: " << kernels.error().message << "\n";
    return 2;
  }
  const bool own_dir = options.work_dir.empty();
  if (!make_work_dir(options)) return 2;
  nlohmann::json out = {{"kernels", nlohmann::json::array()}};
  int failed = 0;
  if (!as_json) std::printf("%-16s %-4s  %s\n", "kernel", "", "numba status");
  for (const auto& m : *kernels) {
    KernelCheck k = check_numba(m, options);
    failed += k.ok ? 0 : 1;
    if (as_json) {
      out["kernels"].push_back(check_json(k));
      continue;
    }
    std::printf("%-16s %-4s  numba: %s, numba-parallel: %s%s\n", k.id.c_str(), k.ok ? "ok" : "FAIL",
                k.numba.text().c_str(), k.numba_parallel.text().c_str(),
                k.ok ? "" : ("  " + k.reason).c_str());
    std::fflush(stdout);
  }
  if (as_json) std::printf("%s\n", out.dump(1).c_str());
  done_with_work_dir(options, own_dir, false, as_json);
  return failed == 0 ? 0 : 1;
}

// The built-in demo client behind `make run`: for each kernel, submits the reference and the
// faster version kept under tests/solutions/, and prints what the judge answered.
int cmd_demo(const std::string& judge, const std::string& solutions,
             const std::vector<std::string>& kernels, double wait_s, const HttpOptions& http) {
  using json = nlohmann::json;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
  for (;;) {
    auto h = http_request("GET", judge + "/health", "", {}, 5, http);
    if (h && h->status == 200) break;
    if (std::chrono::steady_clock::now() > deadline) {
      std::cerr << "hpcab demo: no judge answering at " << judge << "/health\n";
      return 2;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  auto health = json::parse(http_request("GET", judge + "/health", "", {}, 5, http)->body);
  const int rank = health.value("rank", 0);
  std::printf("%-12s %-28s %-12s %9s %14s %14s %8s\n", "kernel", "submission", "verdict", "speedup",
              "native_ns", "baseline_ns", "time_s");
  int failures = 0;
  for (const auto& k : kernels) {
    auto task = http_request(
        "GET", judge + "/task/" + k + "?language=c&rank=" + std::to_string(rank), "", {}, 60, http);
    if (!task || task->status != 200) {
      std::cerr << "hpcab demo: /task/" << k << " failed: "
                << (task ? "HTTP " + std::to_string(task->status) + " " + task->body
                         : task.error().message)
                << "\n";
      return 2;
    }
    auto corpus = load_corpus(default_corpus());
    std::string reference;
    if (corpus) {
      for (const auto& m : *corpus) {
        if (m.id == k) {
          std::ifstream in(m.reference_c());
          reference.assign(std::istreambuf_iterator<char>(in), {});
        }
      }
    }
    auto read_solution = [&](const std::string& ext) {
      std::ifstream in(fs::path(solutions) / (k + ext));
      return std::string((std::istreambuf_iterator<char>(in)), {});
    };
    struct Entry {
      std::string label, language, source;
    };
    // The Python one (where there is one) is graded like the C ones: same draws, same rules.
    for (const auto& [label, language, source] :
         std::vector<Entry>{{"reference.c (resubmitted)", "c", reference},
                            {"tests/solutions/" + k + ".c", "c", read_solution(".c")},
                            {"tests/solutions/" + k + ".py", "python", read_solution(".py")}}) {
      if (source.empty()) continue;
      json body = {{"kernel", k},      {"language", language}, {"rank", rank},
                   {"source", source}, {"run_id", "demo"},     {"optimizer", "make-run"}};
      auto t0 = std::chrono::steady_clock::now();
      auto r = http_request("POST", judge + "/submit", body.dump(), {}, 3600, http);
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (!r || r->status != 200) {
        std::printf("%-12s %-28s %-12s\n", k.c_str(), label.c_str(),
                    r ? ("HTTP " + std::to_string(r->status)).c_str() : "no answer");
        ++failures;
        continue;
      }
      auto j = json::parse(r->body);
      auto num = [&](const char* f) {
        return j[f].is_number() ? j[f].get<double>() : std::nan("");
      };
      std::printf("%-12s %-28s %-12s %9.2f %14.0f %14.0f %8.1f\n", k.c_str(), label.c_str(),
                  j.value("verdict", "?").c_str(), num("speedup"), num("native_ns"),
                  num("baseline_ns"), secs);
      // Against the other baselines too (reported, unpaired; the credit is the first figure).
      if (j.contains("speedups") && j["speedups"].size() > 1) {
        std::string line = "  speedups (credited: " + j.value("baseline", "?") + "):";
        for (const auto& [name, v] : j["speedups"].items()) {
          if (v.is_number())
            line += " " + name + " " + std::to_string(v.get<double>()).substr(0, 5);
        }
        std::printf("%s\n", line.c_str());
      }
      if (j.value("verdict", "") != "ok") ++failures;
    }
  }
  std::printf(
      "speedup: credited (geometric mean over timed configurations; 1.00 when the "
      "Mann-Whitney test is inconclusive). Stored in the judge database.\n");
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hpcab: HPCAgent-Bench corpus tools"};
  app.require_subcommand(1);
  std::string corpus = default_corpus().string();
  app.add_option("--corpus", corpus, "corpus root (env HPCAB_CORPUS_DIR)")->capture_default_str();

  auto* corpus_cmd = app.add_subcommand("corpus", "inspect and check the kernel corpus");
  corpus_cmd->require_subcommand(1);

  auto* list = corpus_cmd->add_subcommand("list", "list kernels");

  auto* abi = corpus_cmd->add_subcommand(
      "abi", "print a kernel's C, C++ and Fortran prototypes and its Python def line");
  std::string abi_id, abi_precision = "all", abi_language = "all";
  abi->add_option("id", abi_id, "kernel id or path-style key (loop_level_reasoning/tsvc_2_s000)")
      ->required();
  abi->add_option("--precision", abi_precision, "fp64, fp32 or all")
      ->check(CLI::IsMember({"fp64", "fp32", "all"}))
      ->capture_default_str();
  abi->add_option("--language", abi_language, "c, cpp, fortran, python, cuda, hip or all")
      ->check(CLI::IsMember({"c", "cpp", "fortran", "python", "cuda", "hip", "all"}))
      ->capture_default_str();

  auto* check = corpus_cmd->add_subcommand(
      "check",
      "check reference.c against reference.py (reference.py alone where there is no reference.c), "
      "lint, and report whether Numba compiles reference.py (all kernels when no id given)");
  std::vector<std::string> ids;
  CheckOptions options;
  options.python = default_python();
  std::string work_dir;
  bool keep = false, no_lint = false, no_numba = false;
  check->add_option("ids", ids,
                    "kernel ids, path-style keys (loop_level_reasoning/tsvc_2_s000) or selectors "
                    "(tag:llr-focus40, track:<t>, dwarf:<d>, level:<n>, all)");
  RecordFiles record_files;
  check
      ->add_option("--changed", record_files.changed,
                   "also check every kernel whose files differ from their hash in this record "
                   "(corpus/checked.tsv); with no ids, only those")
      ->check(CLI::ExistingFile);
  check->add_option("--record", record_files.record,
                    "after the check, record the hash of every kernel that passed in this file");
  check->add_option("--python", options.python, "python3 with NumPy (env HPCAB_PYTHON)")
      ->capture_default_str();
  check->add_option("--work-dir", work_dir, "scratch directory (default: a fresh temp dir)");
  check->add_flag("--keep", keep, "keep the scratch directory");
  check->add_option("--seed", options.seed, "base seed of the check's draws")
      ->capture_default_str();
  check->add_option("--fuzzed-draws", options.fuzzed_draws, "fuzzed size draws per precision")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  check->add_flag("--no-lint", no_lint, "skip the degenerate-task linter");
  check->add_flag("--no-numba", no_numba,
                  "skip compiling reference.py under Numba (numba and numba-parallel baselines)");
  check
      ->add_option("--memory-bytes", options.memory_bytes,
                   "the judge's memory_bytes: presets whose arrays exceed a quarter of it are "
                   "listed, a preset S that does is a failure")
      ->check(CLI::Range(uint64_t{1} << 20, uint64_t{1} << 50))
      ->capture_default_str();

  auto* numba_status = corpus_cmd->add_subcommand(
      "numba-status",
      "whether Numba compiles each reference.py (plain and parallel) and agrees with NumPy, on "
      "one fuzzed case (all kernels when no id given)");
  std::vector<std::string> numba_ids;
  CheckOptions numba_options;
  numba_options.python = default_python();
  bool numba_json = false;
  numba_status->add_option("ids", numba_ids,
                           "kernel ids, path-style keys (loop_level_reasoning/tsvc_2_s000) or "
                           "selectors (tag:llr-focus40, track:<t>, dwarf:<d>, level:<n>, all)");
  numba_status->add_option("--python", numba_options.python, "python3 with NumPy and Numba")
      ->capture_default_str();
  numba_status->add_flag("--json", numba_json, "print {\"kernels\": [...]} as JSON");

  auto* demo = app.add_subcommand("demo", "submit references and faster solutions to a judge");
  std::string judge_url = "http://127.0.0.1:8800";
  std::string solutions = (fs::path(::hpcab::source_dir()) / "tests" / "solutions").string();
  std::vector<std::string> demo_kernels = {"gemm", "jacobi_2d", "softmax"};
  double wait_s = 60;
  demo->add_option("--judge", judge_url, "judge URL")->capture_default_str();
  demo->add_option("--solutions", solutions, "folder with <kernel>.c")->capture_default_str();
  demo->add_option("--kernels", demo_kernels, "kernels to submit")->capture_default_str();
  demo->add_option("--wait", wait_s, "seconds to wait for /health")->capture_default_str();
  HttpOptions http;
  std::string token_file;
  demo->add_option("--token-file", token_file,
                   "file holding the bearer token for a judge with access control (mode 0600)")
      ->envname("HPCAB_TOKEN_FILE");
  demo->add_option("--ca-file", http.ca_file, "PEM CA certificates to verify an https judge")
      ->envname("HPCAB_CA_FILE");

  auto* db_cmd = app.add_subcommand("db", "judge database tools");
  db_cmd->require_subcommand(1);
  auto* merge = db_cmd->add_subcommand(
      "merge",
      "merge judge databases (one shard per rank, e.g. of a Slurm arm) into the new database OUT. "
      "Submissions get new ids; table merged_submissions maps each to its shard, judge rank and "
      "the submission_id that judge returned (docs/database.md). Exit: 0 merged, 1 error");
  std::string merge_out;
  std::vector<std::string> merge_shards;
  merge->add_option("OUT", merge_out, "the merged database to create (must not exist)")->required();
  merge->add_option("SHARD", merge_shards, "judge databases, in rank order")->required();
  auto* replay = db_cmd->add_subcommand(
      "replay",
      "replay the credit rules (the paper's, + equivalence margin, + process replication) on the "
      "recorded samples of ok /submits, as recorded and with a known effect injected into the "
      "candidate's samples: the A/A error and the power each rule gives on this machine's own "
      "noise (docs/grading.md \"Credit rules\"). Exit: 0 printed, 1 error");
  std::string replay_db;
  cli::ReplayOptions replay_options;
  bool replay_json = false;
  replay->add_option("DB", replay_db, "judge database (its samples table)")->required();
  replay->add_option("--optimizer", replay_options.optimizers,
                     "only submissions with this optimizer (repeatable; the validity benchmark's "
                     "A/A sources are validity-<kernel>-ref); default every ok /submit");
  replay
      ->add_option("--effects", replay_options.effects,
                   "true ratios injected, each > 1, replayed faster and slower")
      ->delimiter(',')
      ->capture_default_str();
  replay->add_option("--alpha", replay_options.alpha, "one-sided Mann-Whitney level")
      ->check(CLI::Range(1e-6, 0.5))
      ->capture_default_str();
  replay
      ->add_option("--equivalence-margin", replay_options.equivalence_margin,
                   "the margin of the +margin rules")
      ->check(CLI::Range(0.0, 0.5))
      ->capture_default_str();
  replay->add_flag("--json", replay_json, "print {\"grades\", \"rows\": [...]} as JSON");

  // Research outputs (docs/research.md).
  auto* report_cmd = app.add_subcommand(
      "report", "research outputs: observations CSV, per-arm summaries, arm comparisons, figures");
  report_cmd->require_subcommand(1);
  auto* extract = report_cmd->add_subcommand(
      "extract",
      "judge + harness databases -> one observations CSV (one row per episode); prints one line "
      "per arm so a missing arm shows. Exit: 0 written, 1 a database could not be read");
  report::ExtractOptions ex;
  std::vector<std::string> judge_dbs, harness_dbs;
  std::string obs_out = "observations.csv";
  extract->add_option("--judge-db", judge_dbs, "judge database (repeat for shards)");
  extract->add_option("--harness-db", harness_dbs, "harness episode database (repeatable)")
      ->required();
  extract->add_option("--out", obs_out, "observations CSV to write")->capture_default_str();

  std::string obs_in, table_out, weights_text = "1,0.1,1";
  auto* summary = report_cmd->add_subcommand(
      "summary",
      "per arm: kernels, success rate, geometric-mean speedup over solved (bootstrap CI), fast_p "
      "at 1, 1.5, 2, the suite score in the original's convention (per dwarf too), tokens by "
      "kind, weighted cost (also with cached input at 0 and at full); breakdowns by track, "
      "dwarf and level");
  report::SummaryOptions so;
  summary->add_option("OBSERVATIONS", obs_in, "observations CSV (hpcab report extract)")
      ->required();
  summary->add_option("--out", table_out, "also write the summary table as CSV");
  summary->add_option("--weights", weights_text, "token weights input,cached,output")
      ->capture_default_str();
  summary->add_option("--resamples", so.resamples, "bootstrap resamples")
      ->check(CLI::Range(100, 1000000))
      ->capture_default_str();
  summary->add_option("--seed", so.seed, "bootstrap seed")->capture_default_str();
  summary->add_option("--level", so.level, "interval level")
      ->check(CLI::Range(0.5, 0.999))
      ->capture_default_str();
  std::string pick_text = "final", breakdown_out;
  summary
      ->add_option("--pick", pick_text,
                   "each episode's answer: its final submission (the paper's rule) or its best "
                   "(highest credited speedup of the last attempt)")
      ->check(CLI::IsMember({"final", "best"}))
      ->capture_default_str();
  summary
      ->add_option("--c-max", so.c_max,
                   "suite score cap: speedups clamped to [1, c_max] (the original's default)")
      ->check(CLI::Range(1.0, 1e9))
      ->capture_default_str();
  summary->add_option("--by", so.by,
                      "also print a breakdown by track, dwarf or level (repeatable)");
  summary->add_option("--breakdown-out", breakdown_out,
                      "write the breakdowns by track, dwarf and level as CSV");

  auto* compare = report_cmd->add_subcommand(
      "compare",
      "intervention efficacy paired by (kernel, repetition): solved-count change (exact "
      "McNemar), speedup ratio on jointly solved kernels (log-t interval, paired t and Wilcoxon), "
      "cost ratio over all kernels, Benjamini-Hochberg q-values over the run. Exit: 0, 1 "
      "unreadable input, 2 unknown arm");
  report::CompareOptions co;
  std::string control;
  std::vector<std::string> treatments;
  compare
      ->add_option("OBSERVATIONS", obs_in,
                   "observations CSV (with --control and --treatment), or an experiment.json "
                   "from hpcab-harness experiment (the pairing and the databases it names)")
      ->required();
  compare->add_option("--control", control, "the control arm (with an observations CSV)");
  compare->add_option("--treatment", treatments, "treatment arm (repeatable; with --control)");
  compare->add_option("--out", table_out, "also write the comparison table as CSV");
  compare->add_option("--weights", weights_text, "token weights input,cached,output")
      ->capture_default_str();
  compare->add_option("--level", co.level, "interval level")
      ->check(CLI::Range(0.5, 0.999))
      ->capture_default_str();
  compare->add_option("--min-pairs", co.min_pairs, "no speedup interval below this many pairs")
      ->check(CLI::Range(2, 1000))
      ->capture_default_str();

  auto* figures = report_cmd->add_subcommand(
      "figures",
      "figures from the observations CSV (matplotlib): speedup and spend per arm, speedup vs "
      "cost per kernel, token breakdown, candidate history per episode; each as SVG and PNG "
      "with its CSV table beside it, and figures.json (episodes, solved, credited per arm)");
  std::string fig_dir = "figures";
  std::string fig_python = default_python();
  figures
      ->add_option("OBSERVATIONS", obs_in,
                   "observations CSV, or an experiment.json (hpcab-harness experiment): its arms' "
                   "observations are extracted to OUT/observations.csv first")
      ->required();
  figures->add_option("--out", fig_dir, "output folder")->capture_default_str();
  figures->add_option("--weights", weights_text, "token weights input,cached,output")
      ->capture_default_str();
  figures->add_option("--python", fig_python, "python3 with matplotlib")->capture_default_str();
  figures
      ->add_option("--pick", pick_text, "each episode's answer: its final or its best submission")
      ->check(CLI::IsMember({"final", "best"}))
      ->capture_default_str();

  CLI11_PARSE(app, argc, argv);
  if (*report_cmd) {
    auto w = report::parse_weights(weights_text);
    if (!w) {
      std::cerr << "hpcab report: --weights: " << w.error().message << "\n";
      return 2;
    }
    so.weights = co.weights = *w;
    if (*extract) {
      for (const auto& j : judge_dbs) ex.judge_dbs.emplace_back(j);
      for (const auto& h : harness_dbs) ex.harness_dbs.emplace_back(h);
      ex.corpus_dir = corpus;
      return report::run_extract(ex, obs_out, std::cout, std::cerr);
    }
    auto pick = report::parse_pick(pick_text);
    if (!pick) {
      std::cerr << "hpcab report: --pick: " << pick.error().message << "\n";
      return 2;
    }
    so.pick = *pick;
    if (*summary) {
      return report::run_summary(obs_in, so, table_out, breakdown_out, std::cout, std::cerr);
    }
    if (*compare && control.empty() && treatments.empty()) {
      return report::run_compare_experiment(obs_in, corpus, co, table_out, std::cout, std::cerr);
    }
    if (*compare) {
      if (control.empty() || treatments.empty()) {
        std::cerr << "hpcab report compare: --control and --treatment go together (or give an "
                     "experiment.json without either)\n";
        return 2;
      }
      return report::run_compare(obs_in, control, treatments, co, table_out, std::cout, std::cerr);
    }
    if (fs::path(obs_in).extension() == ".json") {
      return report::run_figures_experiment(obs_in, corpus, fig_dir, fig_python, *w, *pick,
                                            std::cout, std::cerr);
    }
    return report::run_figures(obs_in, fig_dir, fig_python, *w, *pick, std::cout, std::cerr);
  }
  if (*replay) {
    auto report = cli::replay_credits(replay_db, replay_options);
    if (!report) {
      std::cerr << "hpcab db replay: " << report.error().message << "\n";
      return 1;
    }
    if (replay_json) {
      nlohmann::json rows = nlohmann::json::array();
      for (const auto& r : report->rows) {
        rows.push_back({{"rules", r.rules},
                        {"effect", r.effect},
                        {"grades", r.grades},
                        {"right", r.right},
                        {"median_credit", r.median_credit}});
      }
      std::cout << nlohmann::json{{"grades", report->grades},
                                  {"timing_processes", report->timing_processes},
                                  {"rows", rows}}
                       .dump(1)
                << "\n";
      return 0;
    }
    std::cout << report->grades << " grades replayed (timing_processes " << report->timing_processes
              << "); right side: within +-3 % of 1 at effect 1, above 1 for a faster candidate, "
                 "below 1 for a slower one\n"
              << cli::replay_table(*report);
    return 0;
  }
  if (*merge) {
    auto report = cli::merge_databases(merge_out, merge_shards);
    if (!report) {
      std::cerr << "hpcab db merge: " << report.error().message << "\n";
      return 1;
    }
    for (std::size_t i = 0; i < report->shards.size(); ++i) {
      const auto& s = report->shards[i];
      std::string ranks;
      for (int r : s.ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
      std::cout << "shard " << i << " (rank " << (ranks.empty() ? "-" : ranks) << ") " << s.file
                << ": " << s.submissions << " submissions, " << s.score_calls << " score calls, "
                << s.baselines << " new baselines\n";
    }
    std::cout << "merged " << report->shards.size() << " shard(s) into " << merge_out << ": "
              << report->submissions << " submissions, " << report->score_calls << " score calls, "
              << report->baselines << " baselines\n";
    return 0;
  }
  if (*demo) {
    if (!token_file.empty()) {
      auto token = read_client_token_file(token_file);
      if (!token) {
        std::cerr << "hpcab demo: " << token.error().message << "\n";
        return 2;
      }
      http.bearer_token = *token;
    } else if (const char* t = std::getenv("HPCAB_TOKEN"); t != nullptr) {
      http.bearer_token = t;
    }
    return cmd_demo(judge_url, solutions, demo_kernels, wait_s, http);
  }
  if (*list) return cmd_list(corpus);
  if (*abi) return cmd_abi(corpus, abi_id, abi_precision, abi_language);
  if (*check) {
    options.work_dir = work_dir;
    options.lint = !no_lint;
    options.numba = !no_numba;
    return cmd_check(corpus, ids, options, keep, record_files);
  }
  if (*numba_status) return cmd_numba_status(corpus, numba_ids, numba_options, numba_json);
  return 2;
}
