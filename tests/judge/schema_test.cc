// judge/store/schema.h names what other components (report/) read of the judge's database; every
// name must exist in a file made by Store::open (and, for merged_*, by merge_databases).
#include "judge/store/schema.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "cli/merge.h"
#include "common/db.h"
#include "judge/store/store.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;

// Whether `table` of the file at `path` has a stored or generated column `column`.
bool HasColumn(const std::string& path, const char* table, const char* column) {
  db::Options o;
  o.owner = path;
  auto c = db::Connection::open_readonly(path, o);
  EXPECT_TRUE(c.ok()) << c.error().message;
  if (!c.ok()) return false;
  auto st = c->prepare("SELECT count(*) AS n FROM pragma_table_xinfo(:t) WHERE name = :c", "xinfo");
  EXPECT_TRUE(st.ok()) << st.error().message;
  if (!st.ok()) return false;
  auto q = st->use();
  q.text(":t", table);
  q.text(":c", column);
  auto row = q.step("xinfo");
  return row.ok() && *row && q.col_int("n") == 1;
}

TEST(JudgeSchemaTest, EveryNameExistsInAMigratedAndAMergedFile) {
  fs::path dir = fs::temp_directory_path() / ("hpcab-judge-schema-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string shard = (dir / "shard.db").string(), merged = (dir / "merged.db").string();
  {
    auto store = Store::open(shard);
    ASSERT_TRUE(store.ok()) << store.error().message;
  }
  auto rep = cli::merge_databases(merged, {shard});
  ASSERT_TRUE(rep.ok()) << rep.error().message;

  namespace S = schema::submissions;
  for (const char* c : {S::kId,
                        S::kRank,
                        S::kKernel,
                        S::kVerdict,
                        S::kRunId,
                        S::kSpeedup,
                        S::kSuspect,
                        S::kFinishedAt,
                        S::kIdempotencyKey,
                        S::kOptimizer,
                        S::kResponseJson,
                        S::kRoute,
                        S::kLanguage,
                        S::kPrecision,
                        S::kPreset,
                        S::kSource,
                        S::kBuildTokensJson,
                        S::kWorkspaceBytes,
                        S::kMachine,
                        S::kRequestJson}) {
    EXPECT_TRUE(HasColumn(shard, S::kTable, c)) << S::kTable << "." << c;
    EXPECT_TRUE(HasColumn(merged, S::kTable, c)) << "merged " << S::kTable << "." << c;
  }
  namespace C = schema::score_calls;
  for (const char* c : {C::kRunId, C::kVerdict, C::kSpeedup, C::kFinishedAt}) {
    EXPECT_TRUE(HasColumn(shard, C::kTable, c)) << C::kTable << "." << c;
  }
  namespace P = schema::samples;
  for (const char* c :
       {P::kSubmissionId, P::kSetIndex, P::kConfig, P::kSide, P::kCallIndex, P::kNs}) {
    EXPECT_TRUE(HasColumn(shard, P::kTable, c)) << P::kTable << "." << c;
  }
  namespace M = schema::merged_submissions;
  EXPECT_TRUE(HasColumn(merged, M::kTable, M::kId));
  EXPECT_TRUE(HasColumn(merged, M::kTable, M::kShardSubmissionId));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hpcab::judge
