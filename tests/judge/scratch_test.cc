// ScratchClaim: each judge works in its own locked run dir; dirs of dead judges are swept at the
// next start, live judges' dirs never are.
#include "judge/sandbox/scratch.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;

class ScratchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-scratch-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(ScratchTest, ClaimCreatesALockedRunDirAndRemoveDeletesIt) {
  auto c = ScratchClaim::claim(root_.string());
  ASSERT_TRUE(c.ok()) << c.error().message;
  fs::path dir = c->dir();
  EXPECT_EQ(dir.parent_path(), root_);
  EXPECT_EQ(dir.filename().string().rfind("run-", 0), 0u);
  EXPECT_TRUE(fs::exists(dir / "owner.lock"));
  // Held: another open file description cannot take it.
  int fd = open((dir / "owner.lock").c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  EXPECT_NE(flock(fd, LOCK_EX | LOCK_NB), 0);
  close(fd);
  c->remove();
  EXPECT_FALSE(fs::exists(dir));
}

TEST_F(ScratchTest, SweepsDirsOfDeadJudgesOnly) {
  // A judge killed with SIGKILL mid-grade: its run dir, lock file and grade dir remain.
  pid_t child = fork();
  if (child == 0) {
    auto c = ScratchClaim::claim(root_.string());
    if (!c.ok()) _exit(1);
    fs::create_directories(fs::path(c->dir()) / "grade-abcdef" / "s0");
    std::ofstream(fs::path(c->dir()) / "grade-abcdef" / "s0" / "lib.so") << "x";
    kill(getpid(), SIGKILL);
    _exit(2);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  std::vector<fs::path> dead;
  for (const auto& e : fs::directory_iterator(root_)) {
    if (e.path().filename().string().rfind("run-", 0) == 0) dead.push_back(e.path());
  }
  ASSERT_EQ(dead.size(), 1u);
  ASSERT_TRUE(fs::exists(dead[0] / "grade-abcdef"));
  // A run dir whose judge died before creating its lock file is stale too.
  fs::create_directories(root_ / "run-nolock");

  // A live judge in this process.
  auto live = ScratchClaim::claim(root_.string());
  ASSERT_TRUE(live.ok()) << live.error().message;
  EXPECT_FALSE(fs::exists(dead[0])) << "the dead judge's dir was not swept";
  EXPECT_FALSE(fs::exists(root_ / "run-nolock"));
  ASSERT_EQ(live->removed().size(), 2u);
  const std::string pid_text = "(pid " + std::to_string(child) + ")";
  EXPECT_TRUE(live->removed()[0].find(pid_text) != std::string::npos ||
              live->removed()[1].find(pid_text) != std::string::npos)
      << "the log line names the dead judge's pid";

  // A second judge on the same root sweeps nothing of the first, which is alive.
  std::ofstream(fs::path(live->dir()) / "marker") << "busy";
  auto other = ScratchClaim::claim(root_.string());
  ASSERT_TRUE(other.ok()) << other.error().message;
  EXPECT_TRUE(other->removed().empty());
  EXPECT_TRUE(fs::exists(fs::path(live->dir()) / "marker"));
  EXPECT_NE(other->dir(), live->dir());
  // Shutting one down leaves the other's dir.
  std::string other_dir = other->dir();
  other->remove();
  EXPECT_FALSE(fs::exists(other_dir));
  EXPECT_TRUE(fs::exists(fs::path(live->dir()) / "marker"));
}

TEST_F(ScratchTest, SweepKillsSandboxesThatOutlivedTheirJudge) {
  // A dead judge's run dir, and a process still naming it in its arguments (as a bwrap caught
  // in its own set-up by the judge's SIGKILL does), plus an unrelated process.
  fs::create_directories(root_ / "run-dead" / "grade-x" / "s1");
  const std::string mount = (root_ / "run-dead" / "grade-x" / "s1").string();
  auto spawn = [](const std::string& arg) {
    pid_t pid = fork();
    if (pid == 0) {
      execl("/bin/sh", "sh", "-c", "while :; do sleep 0.1; done", arg.c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    return pid;
  };
  pid_t leftover = spawn(mount);
  pid_t bystander = spawn((root_ / "elsewhere").string());
  ASSERT_GT(leftover, 0);
  ASSERT_GT(bystander, 0);
  usleep(200 * 1000);  // let both exec
  auto live = ScratchClaim::claim(root_.string());
  ASSERT_TRUE(live.ok()) << live.error().message;
  int status = 0;
  ASSERT_EQ(waitpid(leftover, &status, 0), leftover);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  ASSERT_EQ(live->removed().size(), 1u);
  EXPECT_NE(live->removed()[0].find("killed 1 leftover sandbox process"), std::string::npos)
      << live->removed()[0];
  EXPECT_EQ(waitpid(bystander, &status, WNOHANG), 0) << "an unrelated process was killed";
  kill(bystander, SIGKILL);
  waitpid(bystander, &status, 0);
}

TEST_F(ScratchTest, MovedClaimKeepsItsDir) {
  auto c = ScratchClaim::claim(root_.string());
  ASSERT_TRUE(c.ok());
  std::string dir = c->dir();
  {
    ScratchClaim moved = std::move(*c);
    EXPECT_EQ(moved.dir(), dir);
    EXPECT_TRUE(fs::exists(dir));  // the moved-from object's destruction must not remove it
  }
  EXPECT_FALSE(fs::exists(dir));  // the owner's destruction does
}

}  // namespace
}  // namespace hpcab::judge
