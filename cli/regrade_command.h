// `hpcab regrade` on the command line (cli/regrade.h does the work): options, then one run.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/regrade.h"

namespace hpcab::cli {

struct RegradeArgs {
  CLI::App* cmd = nullptr;
  RegradeOptions options;
  std::string judge_url;
  std::string which = "best,final";
  std::string target_platform, from_platform;
  std::string token_file;
  HttpTargetOptions http;
};

void add_regrade_command(CLI::App& app, RegradeArgs& a);
// Exit: 0 every selected answer is in the table, 1 an error, 3 incomplete (failed answers or
// --max-submits reached; rerun the same command to go on).
int run_regrade_command(RegradeArgs& a);

}  // namespace hpcab::cli
