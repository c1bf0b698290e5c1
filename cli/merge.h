// Merging judge databases: a Slurm arm runs one judge per rank, each with its own
// SQLite shard; at the end the launcher merges them into one file for the researchers
// (`hpcab db merge OUT SHARD...`, docs/deploy.md and docs/database.md).
//
// The merged file is an ordinary judge database (same schema and version, created by
// Store::open) plus two provenance tables:
//   merge_shards        one row per shard: its position, file, judge rank(s), row counts
//   merged_submissions  one row per submission: its id here, its shard, the grading judge's rank
//                       and the submission_id that judge gave the client
// Submissions get new ids in the merged file (every shard counts from 1), so a shard's
// submission id is only meaningful with its rank: (rank, shard_submission_id) identifies a
// submission, and that is what an episode records (its judge rank and final_submission_id).
// Samples and configuration results follow their submission; score calls are copied with new
// ids (their rank column tells the judge); cached baselines are copied once per unique key.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab::cli {

struct ShardReport {
  std::string file;
  std::vector<int> ranks;  // distinct judge ranks found in the shard (usually one)
  int64_t submissions = 0, score_calls = 0, baselines = 0;  // rows copied
};

struct MergeReport {
  std::vector<ShardReport> shards;  // in argument order
  int64_t submissions = 0, score_calls = 0, baselines = 0;
};

// Creates `out` (which must not exist) and copies every shard into it, one transaction per
// shard. Errors (nothing is left at `out`): a missing shard, a shard at another schema version,
// a rank found in two shards (the ids would be ambiguous), any SQLite error.
Result<MergeReport> merge_databases(const std::string& out, const std::vector<std::string>& shards);

}  // namespace hpcab::cli
