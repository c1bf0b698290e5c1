// The harness daemon (SPEC §6): runs every episode of one arm with W workers.
//
// Worker w is pinned for its whole life to inference_urls[w % I] (through its own metering
// proxy on loopback) and judge_urls[w % J], and its agents always send rank w % J. A worker
// claims episodes from the episode database until none is waiting; each attempt gets a fresh
// workspace, a rendered prompt, and an agent process group that is killed at the end.
//
// Limits, as exit codes recorded on the episode: wall clock 124 (SIGTERM to the group, then
// SIGKILL after a grace period), token budget 125 (the proxy refuses further requests and the
// group is stopped), context overflow 126. An attempt stopped by 124 or 125 is rerun once with
// the budget times LIMIT_RERUN_FACTOR. A crashed agent (non-zero exit) is relaunched in the same
// workspace up to MAX_RELAUNCHES times within the same deadline and token budget.
//
// Several daemons can share an arm (one per agent node under the Slurm launcher): each runs
// the episodes of its `shard` (seq % N == I) from its own database, and its worker v is the
// arm's global worker `worker_offset` + v for pinning, ranks and the recorded `worker` column,
// so the daemons together pin exactly as one daemon with all their workers would.
//
// Restartable: one daemon per (database, arm) at a time (a lock file beside the database); a
// new daemon kills what a dead one left running (every agent carries an environment marker),
// turns its `running` episodes into `interrupted` and hands them out again; finished episodes
// are never rerun.
//
// Outages: a worker waits out an unreachable or overloaded judge or model server for
// up to OUTAGE_WAIT_S (its /task, its agent's tools, its proxy), and the attempt's deadline moves
// by the time lost; past the wait, or when a grade is a judge fault, the episode is
// `infra_failed` (not an agent failure), handed out again up to INFRA_RETRIES times in this run
// and again by the next run, and a worker whose URL stayed down takes no further episode.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

#include "common/result.h"
#include "harness/arm.h"
#include "harness/daemon_effects.h"
#include "harness/episode_db.h"
#include "harness/plan.h"

namespace hpcab::harness {

struct DaemonOptions {
  // Workspaces: <workspace_root>/<arm>/<kernel>/<repetition>/attempt-<n>.
  std::filesystem::path workspace_root = "var/episodes";
  std::string tool_path;             // absolute path of hpcab-tool (its folder goes first in PATH)
  std::filesystem::path corpus_dir;  // where reference.c of each kernel is read (built-ins)
  double term_grace_s = 5;           // SIGTERM -> SIGKILL
  double judge_timeout_s = 60;       // one try of the daemon's own /task request
  // How often the daemon probes its workers' judges (GET /health) to know which are down since
  // when (the progress line, and confirming a tool's "the judge stayed unreachable"); at most a
  // quarter of OUTAGE_WAIT_S so that no outage the tools wait out goes unseen.
  double health_interval_s = 2;
  // Real API key given to the upstream by the proxies ('' = forward the agent's own header).
  std::string upstream_api_key;
  std::string upstream_ca_file;  // extra CA bundle for https inference URLs
  // Progress: a line every `progress_interval_s` on `progress` (nullptr = silent); rewritten in
  // place when `progress_tty`. Episode ends are logged as lines on `log` (nullptr = silent).
  std::ostream* progress = nullptr;
  bool progress_tty = false;
  double progress_interval_s = 10;
  std::ostream* log = nullptr;
  // This daemon's slice of the arm (--shard I/N) and the global number of its worker 0
  // (--worker-offset K): worker v is pinned as pin_worker(arm, K + v).
  Shard shard;
  int worker_offset = 0;
  // Set from a signal handler thread: stop claiming, stop the running agents, leave their
  // episodes `interrupted` for the next daemon.
  const std::atomic<bool>* stop = nullptr;
};

struct RunSummary {
  EpisodeCounts counts;
  int attempts_run = 0;      // attempts this daemon started
  int reached_judge = 0;     // attempts whose /task answered
  bool interrupted = false;  // stopped by `stop` before the queue drained
  int retired_workers = 0;   // stopped taking episodes: their judge or model server stayed down
  double elapsed_s = 0;
};

// Runs the arm until no episode is waiting (or `stop`). Errors: the database cannot be opened,
// another daemon holds the arm's lock, the tool is missing.
Result<RunSummary> run_arm(const Arm& arm, const DaemonOptions& options);
// The same with the given side effects (harness/daemon_effects.h); the overload above uses the
// real ones (harness/daemon_real_effects.h).
Result<RunSummary> run_arm(const Arm& arm, const DaemonOptions& options,
                           const DaemonEffects& effects);

// Every setting of the arm as a JSON object (lower-case keys as in a JSON arm file, kernels
// resolved), recorded in the episode database's `arms` table for research outputs.
std::string arm_setup_json(const Arm& arm);

// "elapsed 1 min 5 s"-style duration text used by the progress line.
std::string format_duration(double seconds);

// The episode table `hpcab-harness status` and the demo print: one row per episode with its
// status, attempt, worker, rank, exit reason and code, tokens, submission and verdict.
std::string episode_table(const std::vector<EpisodeRow>& rows);

}  // namespace hpcab::harness
