#include "cli/regrade_command.h"

#include <cstdlib>
#include <iostream>

namespace hpcab::cli {

void add_regrade_command(CLI::App& app, RegradeArgs& a) {
  a.cmd = app.add_subcommand(
      "regrade",
      "resubmit the answers a judge recorded (its database) to another judge and write the "
      "paper's Table IV: speedups on both, the share still correct, Spearman r_s of per-kernel "
      "speedups, whether the best answer stays best (docs/regrade.md). Answers not portable to "
      "the other judge are skipped with their reason. Resumable: rerun the same command after a "
      "stop. Exit: 0 complete, 1 error, 3 incomplete (rerun to go on)");
  RegradeOptions& o = a.options;
  a.cmd->add_option("--from", o.db_path, "judge A's database (judge.db, or a merged file)")
      ->required();
  a.cmd->add_option("--judge", a.judge_url, "judge B's URL (http://host:port)")->required();
  a.cmd->add_option("--out", o.out_dir, "output directory (journal, regrade.csv, table.txt)")
      ->required();
  a.cmd->add_option("--kernels", o.selection.kernels, "only these kernels")->delimiter(',');
  a.cmd->add_option("--arms", o.selection.arms, "only these arms (run ids '<arm>/...')")
      ->delimiter(',');
  a.cmd->add_option("--which", a.which, "each episode's best, final, best,final or all answers")
      ->capture_default_str();
  a.cmd->add_option("--label", o.label, "run id prefix and Idempotency-Key prefix on judge B")
      ->capture_default_str();
  a.cmd->add_option("--target-platform", a.target_platform,
                    "check portability against ARCH[:ISA_LEVEL[:VENDOR,..]] instead of judge B's "
                    "/health (e.g. aarch64 before a move to an Arm cluster)");
  a.cmd->add_option("--from-platform", a.from_platform,
                    "judge A's ARCH[:ISA_LEVEL] when its records do not name it (default: from "
                    "each answer's machine fingerprint, else this host)");
  a.cmd->add_option("--name-a", o.judge_a, "judge A's name in the table")->capture_default_str();
  a.cmd->add_option("--name-b", o.judge_b, "judge B's name in the table (default: its URL)");
  a.cmd->add_option("--max-submits", o.max_submits, "stop after N resubmissions (0: no limit)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  a.cmd->add_option("--attempts", a.http.attempts, "attempts per answer on judge faults")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  a.cmd->add_option("--submit-timeout", a.http.submit_timeout_s, "seconds per /submit")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  a.cmd->add_option("--token-file", a.token_file, "bearer token file for judge B (mode 0600)")
      ->envname("HPCAB_TOKEN_FILE");
  a.cmd->add_option("--ca-file", a.http.http.ca_file, "PEM CA certificates for an https judge")
      ->envname("HPCAB_CA_FILE");
}

namespace {

Status resolve(RegradeArgs& a) {
  auto which = parse_which(a.which);
  if (!which) return which.error();
  a.options.selection.which = *which;
  if (!a.target_platform.empty()) {
    auto p = parse_platform(a.target_platform);
    if (!p) return Error{"--target-platform: " + p.error().message};
    a.options.target_platform = *p;
  }
  if (!a.from_platform.empty()) {
    auto p = parse_platform(a.from_platform);
    if (!p) return Error{"--from-platform: " + p.error().message};
    a.options.from_platform = *p;
  }
  if (!a.token_file.empty()) {
    auto token = read_client_token_file(a.token_file);
    if (!token) return token.error();
    a.http.http.bearer_token = *token;
  } else if (const char* t = std::getenv("HPCAB_TOKEN"); t != nullptr) {
    a.http.http.bearer_token = t;
  }
  if (a.options.judge_b.empty()) a.options.judge_b = a.judge_url;
  return Ok{};
}

}  // namespace

int run_regrade_command(RegradeArgs& a) {
  if (auto st = resolve(a); !st) {
    std::cerr << "hpcab regrade: " << st.error().message << "\n";
    return 2;
  }
  auto target = http_target(a.judge_url, a.http);
  auto r = run_regrade(a.options, *target, std::cerr);
  if (!r) {
    std::cerr << "hpcab regrade: " << r.error().message << "\n";
    return 1;
  }
  std::cout << report::format_regrade_table(r->table, a.options.judge_a, a.options.judge_b);
  std::cerr << "hpcab regrade: " << r->selected << " answers selected, " << r->resumed
            << " from the journal, " << r->graded << " graded, " << r->skipped << " skipped, "
            << r->failed << " failed; outputs in " << a.options.out_dir << "\n";
  if (!r->complete) {
    std::cerr << "hpcab regrade: incomplete (" << r->selected - static_cast<int>(r->rows.size())
              << " not yet sent, " << r->failed << " failed): rerun the same command to go on\n";
    return 3;
  }
  return 0;
}

}  // namespace hpcab::cli
