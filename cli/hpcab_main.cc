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
#include <optional>
#include <set>
#include <thread>

#include "cli/merge.h"
#include "cli/regrade_command.h"
#include "cli/replay.h"
#include "common/abi.h"
#include "common/build_info.h"
#include "common/check_record.h"
#include "common/corpus_check.h"
#include "common/http_client.h"
#include "common/manifest.h"
#include "common/reference_build.h"
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

// `corpus list`'s narrowing: selectors (their union; none: every kernel), then every filter
// that is set.
struct ListFilter {
  std::vector<std::string> selectors;
  std::string track, dwarf, tag;
  int level = 0;  // 0: any
  bool ids_only = false;
};

bool matches(const Manifest& m, const ListFilter& f) {
  return (f.track.empty() || m.track == f.track) && (f.dwarf.empty() || m.dwarf == f.dwarf) &&
         (f.level == 0 || m.level == f.level) &&
         (f.tag.empty() || std::find(m.tags.begin(), m.tags.end(), f.tag) != m.tags.end());
}

void print_kernel_table(const std::vector<Manifest>& kernels) {
  int width = 16;
  for (const auto& m : kernels) width = std::max(width, static_cast<int>(m.id.size()));
  std::printf("%-*s %-22s %-26s %-5s %-10s %s\n", width, "id", "track", "dwarf", "level",
              "precisions", "tags");
  for (const auto& m : kernels) {
    std::string precs, tags;
    for (auto p : m.precisions)
      precs += (precs.empty() ? "" : ",") + std::string(precision_name(p));
    for (const auto& t : m.tags) tags += (tags.empty() ? "" : ",") + t;
    std::printf("%-*s %-22s %-26s %-5d %-10s %s\n", width, m.id.c_str(), m.track.c_str(),
                m.dwarf.empty() ? "-" : m.dwarf.c_str(), m.level, precs.c_str(),
                tags.empty() ? "-" : tags.c_str());
  }
  // Counts per track, dwarf, level and tag (the same object /health reports as "corpus").
  const auto counts = nlohmann::json::parse(corpus_counts_json(kernels));
  std::printf("\n%zu kernels\n", kernels.size());
  for (const char* group : {"tracks", "dwarfs", "levels", "tags"}) {
    std::string line;
    for (const auto& [k, v] : counts[group].items()) {
      line += std::string(line.empty() ? "" : ", ") +
              (group == std::string("levels") ? "level " : "") + k + " " +
              std::to_string(v.get<int>());
    }
    std::printf("%s: %s\n", group, line.empty() ? "-" : line.c_str());
  }
}

// Exit 0 with the table (or the ids, one a line); 2 for a bad selector or when nothing matches
// (a filter value nobody has is most likely a typo).
int cmd_list(const fs::path& corpus, const ListFilter& f) {
  auto kernels = select(corpus, f.selectors);
  if (!kernels) {
    std::cerr << "hpcab: " << kernels.error().message << "\n";
    return 2;
  }
  std::vector<Manifest> chosen;
  for (auto& m : *kernels) {
    if (matches(m, f)) chosen.push_back(std::move(m));
  }
  if (chosen.empty()) {
    std::cerr << "hpcab: no kernel matches (see `hpcab corpus list` for the tracks, dwarfs, "
                 "levels and tags)\n";
    return 2;
  }
  if (f.ids_only) {
    for (const auto& m : chosen) std::printf("%s\n", m.id.c_str());
    return 0;
  }
  print_kernel_table(chosen);
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

// `corpus reference <id> --precision P`: the kernel's reference.c as one self-contained C file
// exporting `<id>_<P>` (common/reference_build.h), for a script that submits the reference to a
// judge; a reference still in the old two-function form is printed as it is.
int cmd_reference(const fs::path& corpus, const std::string& id, const std::string& precision) {
  auto kernels = select(corpus, {id});
  if (!kernels || kernels->size() != 1) {
    std::cerr << "hpcab: "
              << (kernels ? "'" + id + "' does not select one kernel" : kernels.error().message)
              << "\n";
    return 2;
  }
  const Manifest& m = kernels->front();
  const auto p = parse_precision(precision);
  if (!m.has_reference_c() || !p ||
      std::find(m.precisions.begin(), m.precisions.end(), *p) == m.precisions.end()) {
    std::cerr << "hpcab: " << m.id << " has no reference.c at " << precision << "\n";
    return 2;
  }
  std::ifstream in(m.reference_c());
  const std::string source((std::istreambuf_iterator<char>(in)), {});
  std::cout << (is_single_source_reference(source) ? reference_as_submission(source, *p) : source);
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
          // Graded at fp64 (the body names no precision): the reference's fp64 instantiation.
          if (is_single_source_reference(reference)) {
            reference = reference_as_submission(reference, Precision::kFp64);
          }
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

// `hpcab corpus ...`: the subcommands and what they parse into.
struct CorpusArgs {
  CLI::App* list = nullptr;
  ListFilter list_filter;
  CLI::App* abi = nullptr;
  CLI::App* reference = nullptr;
  std::string reference_id, reference_precision = "fp64";
  CLI::App* check = nullptr;
  CLI::App* numba_status = nullptr;
  std::string abi_id, abi_precision = "all", abi_language = "all";
  std::vector<std::string> ids;
  CheckOptions options;
  std::string work_dir;
  bool keep = false, no_lint = false, no_numba = false;
  RecordFiles record_files;
  std::vector<std::string> numba_ids;
  CheckOptions numba_options;
  bool numba_json = false;
};

const char* const kSelectorHelp =
    "kernel ids, path-style keys (loop_level_reasoning/tsvc_2_s000) or selectors "
    "(tag:llr-focus40, track:<t>, dwarf:<d>, level:<n>, all)";

void add_abi(CLI::App& corpus_cmd, CorpusArgs& a) {
  a.abi = corpus_cmd.add_subcommand(
      "abi", "print a kernel's C, C++ and Fortran prototypes and its Python def line");
  a.abi
      ->add_option("id", a.abi_id, "kernel id or path-style key (loop_level_reasoning/tsvc_2_s000)")
      ->required();
  a.abi->add_option("--precision", a.abi_precision, "fp64, fp32 or all")
      ->check(CLI::IsMember({"fp64", "fp32", "all"}))
      ->capture_default_str();
  a.abi->add_option("--language", a.abi_language, "c, cpp, fortran, python, cuda, hip or all")
      ->check(CLI::IsMember({"c", "cpp", "fortran", "python", "cuda", "hip", "all"}))
      ->capture_default_str();
}

void add_check(CLI::App& corpus_cmd, CorpusArgs& a) {
  CLI::App* check = a.check = corpus_cmd.add_subcommand(
      "check",
      "check reference.c against reference.py (reference.py alone where there is no reference.c), "
      "lint, and report whether Numba compiles reference.py (all kernels when no id given)");
  a.options.python = default_python();
  check->add_option("ids", a.ids, kSelectorHelp);
  check
      ->add_option("--changed", a.record_files.changed,
                   "also check every kernel whose files differ from their hash in this record "
                   "(corpus/checked.tsv); with no ids, only those")
      ->check(CLI::ExistingFile);
  check->add_option("--record", a.record_files.record,
                    "after the check, record the hash of every kernel that passed in this file");
  check->add_option("--python", a.options.python, "python3 with NumPy (env HPCAB_PYTHON)")
      ->capture_default_str();
  check->add_option("--work-dir", a.work_dir, "scratch directory (default: a fresh temp dir)");
  check->add_flag("--keep", a.keep, "keep the scratch directory");
  check->add_option("--seed", a.options.seed, "base seed of the check's draws")
      ->capture_default_str();
  check->add_option("--fuzzed-draws", a.options.fuzzed_draws, "fuzzed size draws per precision")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  check->add_flag("--no-lint", a.no_lint, "skip the degenerate-task linter");
  check->add_flag("--no-numba", a.no_numba,
                  "skip compiling reference.py under Numba (numba and numba-parallel baselines)");
  check
      ->add_option("--memory-bytes", a.options.memory_bytes,
                   "the judge's memory_bytes: presets whose arrays exceed a quarter of it are "
                   "listed, a preset S that does is a failure")
      ->check(CLI::Range(uint64_t{1} << 20, uint64_t{1} << 50))
      ->capture_default_str();
}

void add_corpus_commands(CLI::App& app, CorpusArgs& a) {
  auto* corpus_cmd = app.add_subcommand("corpus", "inspect and check the kernel corpus");
  corpus_cmd->require_subcommand(1);
  a.list = corpus_cmd->add_subcommand(
      "list",
      "list kernels (id, track, dwarf, level, precisions, tags) and their counts; selectors and "
      "filters narrow the list (every filter given must hold)");
  ListFilter& f = a.list_filter;
  a.list->add_option("selectors", f.selectors, kSelectorHelp);
  a.list->add_option("--track", f.track, "only this track (loop_level_reasoning, ...)");
  a.list->add_option("--dwarf", f.dwarf, "only this dwarf (dense_linear_algebra, ...)");
  a.list->add_option("--level", f.level, "only this level (1, 2, 3)")->check(CLI::Range(1, 9));
  a.list->add_option("--tag", f.tag, "only kernels with this tag (llr-focus40, ...)");
  a.list->add_flag("--ids", f.ids_only,
                   "print only the ids, one a line (for HPCAB_KERNELS or another command)");
  add_abi(*corpus_cmd, a);
  a.reference = corpus_cmd->add_subcommand(
      "reference",
      "print a kernel's reference.c instantiated at one precision, as a self-contained C file "
      "(what a script submits to a judge)");
  a.reference->add_option("id", a.reference_id, "kernel id or path-style key")->required();
  a.reference->add_option("--precision", a.reference_precision, "fp64 or fp32")
      ->check(CLI::IsMember({"fp64", "fp32"}))
      ->capture_default_str();
  add_check(*corpus_cmd, a);
  a.numba_status = corpus_cmd->add_subcommand(
      "numba-status",
      "whether Numba compiles each reference.py (plain and parallel) and agrees with NumPy, on "
      "one fuzzed case (all kernels when no id given)");
  a.numba_options.python = default_python();
  a.numba_status->add_option("ids", a.numba_ids, kSelectorHelp);
  a.numba_status->add_option("--python", a.numba_options.python, "python3 with NumPy and Numba")
      ->capture_default_str();
  a.numba_status->add_flag("--json", a.numba_json, "print {\"kernels\": [...]} as JSON");
}

// The chosen corpus subcommand's exit status; nullopt when none was chosen.
std::optional<int> run_corpus_command(const fs::path& corpus, CorpusArgs& a) {
  if (*a.list) return cmd_list(corpus, a.list_filter);
  if (*a.abi) return cmd_abi(corpus, a.abi_id, a.abi_precision, a.abi_language);
  if (*a.reference) return cmd_reference(corpus, a.reference_id, a.reference_precision);
  if (*a.check) {
    a.options.work_dir = a.work_dir;
    a.options.lint = !a.no_lint;
    a.options.numba = !a.no_numba;
    return cmd_check(corpus, a.ids, a.options, a.keep, a.record_files);
  }
  if (*a.numba_status) return cmd_numba_status(corpus, a.numba_ids, a.numba_options, a.numba_json);
  return std::nullopt;
}

// `hpcab demo`.
struct DemoArgs {
  CLI::App* cmd = nullptr;
  std::string judge_url = "http://127.0.0.1:8800";
  std::string solutions = (fs::path(::hpcab::source_dir()) / "tests" / "solutions").string();
  std::vector<std::string> kernels = {"gemm", "jacobi_2d", "softmax"};
  double wait_s = 60;
  HttpOptions http;
  std::string token_file;
};

void add_demo_command(CLI::App& app, DemoArgs& a) {
  a.cmd = app.add_subcommand("demo", "submit references and faster solutions to a judge");
  a.cmd->add_option("--judge", a.judge_url, "judge URL")->capture_default_str();
  a.cmd->add_option("--solutions", a.solutions, "folder with <kernel>.c")->capture_default_str();
  a.cmd->add_option("--kernels", a.kernels, "kernels to submit")->capture_default_str();
  a.cmd->add_option("--wait", a.wait_s, "seconds to wait for /health")->capture_default_str();
  a.cmd
      ->add_option("--token-file", a.token_file,
                   "file holding the bearer token for a judge with access control (mode 0600)")
      ->envname("HPCAB_TOKEN_FILE");
  a.cmd->add_option("--ca-file", a.http.ca_file, "PEM CA certificates to verify an https judge")
      ->envname("HPCAB_CA_FILE");
}

int run_demo(DemoArgs& a) {
  if (!a.token_file.empty()) {
    auto token = read_client_token_file(a.token_file);
    if (!token) {
      std::cerr << "hpcab demo: " << token.error().message << "\n";
      return 2;
    }
    a.http.bearer_token = *token;
  } else if (const char* t = std::getenv("HPCAB_TOKEN"); t != nullptr) {
    a.http.bearer_token = t;
  }
  return cmd_demo(a.judge_url, a.solutions, a.kernels, a.wait_s, a.http);
}

// `hpcab db merge|replay`.
struct DbArgs {
  CLI::App* merge = nullptr;
  CLI::App* replay = nullptr;
  std::string merge_out;
  std::vector<std::string> merge_shards;
  std::string replay_db;
  cli::ReplayOptions replay_options;
  bool replay_json = false;
};

void add_replay(CLI::App& db_cmd, DbArgs& a) {
  CLI::App* replay = a.replay = db_cmd.add_subcommand(
      "replay",
      "replay the credit rules (the paper's, + equivalence margin, + process replication) on the "
      "recorded samples of ok /submits, as recorded and with a known effect injected into the "
      "candidate's samples: the A/A error and the power each rule gives on this machine's own "
      "noise (docs/grading.md \"Credit rules\"). Exit: 0 printed, 1 error");
  cli::ReplayOptions& o = a.replay_options;
  replay->add_option("DB", a.replay_db, "judge database (its samples table)")->required();
  replay->add_option("--optimizer", o.optimizers,
                     "only submissions with this optimizer (repeatable; the validity benchmark's "
                     "A/A sources are validity-<kernel>-ref); default every ok /submit");
  replay
      ->add_option("--effects", o.effects,
                   "true ratios injected, each > 1, replayed faster and slower")
      ->delimiter(',')
      ->capture_default_str();
  replay->add_option("--alpha", o.alpha, "one-sided Mann-Whitney level")
      ->check(CLI::Range(1e-6, 0.5))
      ->capture_default_str();
  replay
      ->add_option("--equivalence-margin", o.equivalence_margin, "the margin of the +margin rules")
      ->check(CLI::Range(0.0, 0.5))
      ->capture_default_str();
  replay->add_flag("--json", a.replay_json, "print {\"grades\", \"rows\": [...]} as JSON");
}

void add_db_commands(CLI::App& app, DbArgs& a) {
  auto* db_cmd = app.add_subcommand("db", "judge database tools");
  db_cmd->require_subcommand(1);
  a.merge = db_cmd->add_subcommand(
      "merge",
      "merge judge databases (one shard per rank, e.g. of a Slurm arm) into the new database OUT. "
      "Submissions get new ids; table merged_submissions maps each to its shard, judge rank and "
      "the submission_id that judge returned (docs/database.md). Exit: 0 merged, 1 error");
  a.merge->add_option("OUT", a.merge_out, "the merged database to create (must not exist)")
      ->required();
  a.merge->add_option("SHARD", a.merge_shards, "judge databases, in rank order")->required();
  add_replay(*db_cmd, a);
}

int run_replay(const DbArgs& a) {
  auto report = cli::replay_credits(a.replay_db, a.replay_options);
  if (!report) {
    std::cerr << "hpcab db replay: " << report.error().message << "\n";
    return 1;
  }
  if (a.replay_json) {
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

int run_merge(const DbArgs& a) {
  auto report = cli::merge_databases(a.merge_out, a.merge_shards);
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
  std::cout << "merged " << report->shards.size() << " shard(s) into " << a.merge_out << ": "
            << report->submissions << " submissions, " << report->score_calls << " score calls, "
            << report->baselines << " baselines\n";
  return 0;
}

// `hpcab report ...` (docs/research.md): the subcommands and what they parse into. The input,
// table, weights and pick options are shared by name across the subcommands.
struct ReportArgs {
  CLI::App* cmd = nullptr;
  CLI::App* extract = nullptr;
  CLI::App* summary = nullptr;
  CLI::App* compare = nullptr;
  CLI::App* figures = nullptr;
  CLI::App* regrade = nullptr;
  std::string regrade_dir;
  report::ExtractOptions ex;
  std::vector<std::string> judge_dbs, harness_dbs;
  std::string obs_out = "observations.csv";
  std::string obs_in, table_out, weights_text = "1,0.1,1";
  report::SummaryOptions so;
  std::string pick_text = "final", breakdown_out;
  report::CompareOptions co;
  std::string control;
  std::vector<std::string> treatments;
  std::string fig_dir = "figures";
  std::string fig_python = default_python();
};

void add_weights(CLI::App* cmd, ReportArgs& a) {
  cmd->add_option("--weights", a.weights_text, "token weights input,cached,output")
      ->capture_default_str();
}

void add_extract(ReportArgs& a) {
  a.extract = a.cmd->add_subcommand(
      "extract",
      "judge + harness databases -> one observations CSV (one row per episode); prints one line "
      "per arm so a missing arm shows. Exit: 0 written, 1 a database could not be read");
  a.extract->add_option("--judge-db", a.judge_dbs, "judge database (repeat for shards)");
  a.extract->add_option("--harness-db", a.harness_dbs, "harness episode database (repeatable)")
      ->required();
  a.extract->add_option("--out", a.obs_out, "observations CSV to write")->capture_default_str();
}

void add_summary(ReportArgs& a) {
  CLI::App* summary = a.summary = a.cmd->add_subcommand(
      "summary",
      "per arm: kernels, success rate, geometric-mean speedup over solved (bootstrap CI), fast_p "
      "at 1, 1.5, 2, the suite score in the original's convention (per dwarf too), tokens by "
      "kind, weighted cost (also with cached input at 0 and at full); breakdowns by track, "
      "dwarf and level");
  summary->add_option("OBSERVATIONS", a.obs_in, "observations CSV (hpcab report extract)")
      ->required();
  summary->add_option("--out", a.table_out, "also write the summary table as CSV");
  add_weights(summary, a);
  summary->add_option("--resamples", a.so.resamples, "bootstrap resamples")
      ->check(CLI::Range(100, 1000000))
      ->capture_default_str();
  summary->add_option("--seed", a.so.seed, "bootstrap seed")->capture_default_str();
  summary->add_option("--level", a.so.level, "interval level")
      ->check(CLI::Range(0.5, 0.999))
      ->capture_default_str();
  summary
      ->add_option("--pick", a.pick_text,
                   "each episode's answer: its final submission (the paper's rule) or its best "
                   "(highest credited speedup of the last attempt)")
      ->check(CLI::IsMember({"final", "best"}))
      ->capture_default_str();
  summary
      ->add_option("--c-max", a.so.c_max,
                   "suite score cap: speedups clamped to [1, c_max] (the original's default)")
      ->check(CLI::Range(1.0, 1e9))
      ->capture_default_str();
  summary->add_option("--by", a.so.by,
                      "also print a breakdown by track, dwarf or level (repeatable)");
  summary->add_option("--breakdown-out", a.breakdown_out,
                      "write the breakdowns by track, dwarf and level as CSV");
}

void add_compare(ReportArgs& a) {
  CLI::App* compare = a.compare = a.cmd->add_subcommand(
      "compare",
      "intervention efficacy paired by (kernel, repetition): solved-count change (exact "
      "McNemar), speedup ratio on jointly solved kernels (log-t interval, paired t and Wilcoxon), "
      "cost ratio over all kernels, Benjamini-Hochberg q-values over the run. Exit: 0, 1 "
      "unreadable input, 2 unknown arm");
  compare
      ->add_option("OBSERVATIONS", a.obs_in,
                   "observations CSV (with --control and --treatment), or an experiment.json "
                   "from hpcab-harness experiment (the pairing and the databases it names)")
      ->required();
  compare->add_option("--control", a.control, "the control arm (with an observations CSV)");
  compare->add_option("--treatment", a.treatments, "treatment arm (repeatable; with --control)");
  compare->add_option("--out", a.table_out, "also write the comparison table as CSV");
  add_weights(compare, a);
  compare->add_option("--level", a.co.level, "interval level")
      ->check(CLI::Range(0.5, 0.999))
      ->capture_default_str();
  compare->add_option("--min-pairs", a.co.min_pairs, "no speedup interval below this many pairs")
      ->check(CLI::Range(2, 1000))
      ->capture_default_str();
}

void add_figures(ReportArgs& a) {
  CLI::App* figures = a.figures = a.cmd->add_subcommand(
      "figures",
      "figures from the observations CSV (matplotlib): speedup and spend per arm, speedup vs "
      "cost per kernel, token breakdown, candidate history per episode; each as SVG and PNG "
      "with its CSV table beside it, and figures.json (episodes, solved, credited per arm)");
  figures
      ->add_option("OBSERVATIONS", a.obs_in,
                   "observations CSV, or an experiment.json (hpcab-harness experiment): its arms' "
                   "observations are extracted to OUT/observations.csv first")
      ->required();
  figures->add_option("--out", a.fig_dir, "output folder")->capture_default_str();
  add_weights(figures, a);
  figures->add_option("--python", a.fig_python, "python3 with matplotlib")->capture_default_str();
  figures
      ->add_option("--pick", a.pick_text, "each episode's answer: its final or its best submission")
      ->check(CLI::IsMember({"final", "best"}))
      ->capture_default_str();
}

void add_report_commands(CLI::App& app, ReportArgs& a) {
  a.cmd = app.add_subcommand(
      "report", "research outputs: observations CSV, per-arm summaries, arm comparisons, figures");
  a.cmd->require_subcommand(1);
  add_extract(a);
  add_summary(a);
  add_compare(a);
  add_figures(a);
  a.regrade = a.cmd->add_subcommand(
      "regrade",
      "the table of an `hpcab regrade` output folder again, and per-kernel speedups on judge A "
      "against judge B drawn (regrade-speedups.svg/.png, docs/regrade.md)");
  a.regrade->add_option("DIR", a.regrade_dir, "the folder `hpcab regrade --out` wrote")->required();
  a.regrade->add_option("--python", a.fig_python, "python3 with matplotlib")->capture_default_str();
}

int run_report(const std::string& corpus, ReportArgs& a) {
  if (*a.regrade)
    return report::run_regrade_report(a.regrade_dir, a.fig_python, std::cout, std::cerr);
  auto w = report::parse_weights(a.weights_text);
  if (!w) {
    std::cerr << "hpcab report: --weights: " << w.error().message << "\n";
    return 2;
  }
  a.so.weights = a.co.weights = *w;
  if (*a.extract) {
    for (const auto& j : a.judge_dbs) a.ex.judge_dbs.emplace_back(j);
    for (const auto& h : a.harness_dbs) a.ex.harness_dbs.emplace_back(h);
    a.ex.corpus_dir = corpus;
    return report::run_extract(a.ex, a.obs_out, std::cout, std::cerr);
  }
  auto pick = report::parse_pick(a.pick_text);
  if (!pick) {
    std::cerr << "hpcab report: --pick: " << pick.error().message << "\n";
    return 2;
  }
  a.so.pick = *pick;
  if (*a.summary) {
    return report::run_summary(a.obs_in, a.so, a.table_out, a.breakdown_out, std::cout, std::cerr);
  }
  if (*a.compare && a.control.empty() && a.treatments.empty()) {
    return report::run_compare_experiment(a.obs_in, corpus, a.co, a.table_out, std::cout,
                                          std::cerr);
  }
  if (*a.compare) {
    if (a.control.empty() || a.treatments.empty()) {
      std::cerr << "hpcab report compare: --control and --treatment go together (or give an "
                   "experiment.json without either)\n";
      return 2;
    }
    return report::run_compare(a.obs_in, a.control, a.treatments, a.co, a.table_out, std::cout,
                               std::cerr);
  }
  if (fs::path(a.obs_in).extension() == ".json") {
    return report::run_figures_experiment(a.obs_in, corpus, a.fig_dir, a.fig_python, *w, *pick,
                                          std::cout, std::cerr);
  }
  return report::run_figures(a.obs_in, a.fig_dir, a.fig_python, *w, *pick, std::cout, std::cerr);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hpcab: HPCAgent-Bench corpus tools"};
  app.require_subcommand(1);
  std::string corpus = default_corpus().string();
  app.add_option("--corpus", corpus, "corpus root (env HPCAB_CORPUS_DIR)")->capture_default_str();
  CorpusArgs corpus_args;
  DemoArgs demo;
  DbArgs db;
  ReportArgs report_args;
  cli::RegradeArgs regrade;
  add_corpus_commands(app, corpus_args);
  add_demo_command(app, demo);
  add_db_commands(app, db);
  add_report_commands(app, report_args);
  cli::add_regrade_command(app, regrade);

  CLI11_PARSE(app, argc, argv);
  if (*regrade.cmd) return cli::run_regrade_command(regrade);
  if (*report_args.cmd) return run_report(corpus, report_args);
  if (*db.replay) return run_replay(db);
  if (*db.merge) return run_merge(db);
  if (*demo.cmd) return run_demo(demo);
  return run_corpus_command(corpus, corpus_args).value_or(2);
}
