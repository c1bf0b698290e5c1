// harness/schema.h names what other components (report/) read of the episode database; every
// name must exist in a file made by EpisodeDb::open.
#include "harness/schema.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "common/db.h"
#include "harness/episode_db.h"

namespace hpcab::harness {
namespace {

namespace fs = std::filesystem;

TEST(HarnessSchemaTest, EveryNameExistsInAMigratedFile) {
  fs::path dir = fs::temp_directory_path() / ("hpcab-harness-schema-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string path = (dir / "harness.db").string();
  {
    auto episodes = EpisodeDb::open(path);
    ASSERT_TRUE(episodes.ok()) << episodes.error().message;
  }
  db::Options o;
  o.owner = path;
  auto c = db::Connection::open_readonly(path, o);
  ASSERT_TRUE(c.ok()) << c.error().message;
  auto has = [&](const char* table, const char* column) {
    auto st =
        c->prepare("SELECT count(*) AS n FROM pragma_table_xinfo(:t) WHERE name = :c", "xinfo");
    if (!st.ok()) return false;
    auto q = st->use();
    q.text(":t", table);
    q.text(":c", column);
    auto row = q.step("xinfo");
    return row.ok() && *row && q.col_int("n") == 1;
  };
  namespace E = schema::episodes;
  for (const char* col : {E::kId,
                          E::kArm,
                          E::kKernel,
                          E::kRepetition,
                          E::kSeq,
                          E::kAttempt,
                          E::kRank,
                          E::kStartedAt,
                          E::kEndedAt,
                          E::kStatus,
                          E::kExitReason,
                          E::kExitCode,
                          E::kInputTokens,
                          E::kCachedTokens,
                          E::kOutputTokens,
                          E::kWeightedTokens,
                          E::kRequests,
                          E::kSearches,
                          E::kFinalSubmissionId,
                          E::kFinalVerdict}) {
    EXPECT_TRUE(has(E::kTable, col)) << E::kTable << "." << col;
  }
  namespace A = schema::arms;
  EXPECT_TRUE(has(A::kTable, A::kName));
  EXPECT_TRUE(has(A::kTable, A::kSetupJson));
  namespace S = schema::searches;
  for (const char* col : {S::kEpisodeId, S::kQuery, S::kResultsJson}) {
    EXPECT_TRUE(has(S::kTable, col)) << S::kTable << "." << col;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hpcab::harness
