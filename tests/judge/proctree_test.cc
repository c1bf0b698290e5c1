// The process census's view of a tree (judge/sandbox/proctree.h): the cheap walk through the
// children files must find what the full /proc scan finds, re-parented orphans and children of
// non-main threads included, since the judge's "left ... running" rejections rest on it.
#include "judge/sandbox/proctree.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <set>
#include <thread>

namespace hpcab::judge {
namespace {

std::set<pid_t> pids(const std::vector<ProcEntry>& v) {
  std::set<pid_t> s;
  for (const auto& e : v) s.insert(e.pid);
  return s;
}

// Polls until `root` has `n` descendants (zombies reaped), or 5 s pass.
std::vector<ProcEntry> wait_for(pid_t root, std::size_t n) {
  std::vector<ProcEntry> d;
  for (int i = 0; i < 500; ++i) {
    d = descendants(root);
    if (d.size() == n) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return d;
}

void kill_tree(pid_t root) {
  for (const auto& e : descendants_by_full_scan(root)) ::kill(e.pid, SIGKILL);
  ::kill(root, SIGKILL);
  waitpid(root, nullptr, 0);
}

// A subreaper stands in for the sandbox's PID namespace init: its grandchild, orphaned by a
// double fork with setsid (the daemon pattern of tests/adversarial/attacks/daemon_disguised.c),
// is re-parented to it and must still be found below it, by either method.
TEST(ProcTree, FindsAGrandchildReParentedByADoubleFork) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t reaper = fork();
  ASSERT_GE(reaper, 0);
  if (reaper == 0) {
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    if (fork() == 0) {
      setsid();
      if (fork() == 0) {
        prctl(PR_SET_NAME, "bwrap");  // a lie the census must not believe
        (void)!write(ready[1], "x", 1);
        for (;;) pause();
      }
      _exit(0);
    }
    for (;;) {
      // Reap the middle process (as the namespace's init would) so only the daemon remains.
      if (waitpid(-1, nullptr, WNOHANG) < 0) pause();
      usleep(1000);
    }
  }
  close(ready[1]);
  char c;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  close(ready[0]);
  auto cheap = wait_for(reaper, 1);  // the middle process gone and reaped
  ASSERT_EQ(cheap.size(), 1u);
  EXPECT_EQ(cheap[0].ppid, reaper);  // re-parented: its own parent exited
  EXPECT_EQ(cheap[0].comm, "bwrap");
  EXPECT_EQ(pids(cheap), pids(descendants_by_full_scan(reaper)));
  kill_tree(reaper);
}

// A child forked from a thread other than the main one is listed under that thread's children
// file, not the process's: the walk reads every thread's.
TEST(ProcTree, FindsAChildForkedByAThreadAndItsOwnChildren) {
  const pid_t root = fork();
  ASSERT_GE(root, 0);
  if (root == 0) {
    std::thread t([] {
      if (fork() == 0) {
        if (fork() == 0) {
          for (;;) pause();
        }
        for (;;) pause();
      }
      for (;;) pause();
    });
    t.join();
    _exit(0);
  }
  auto cheap = wait_for(root, 2);
  EXPECT_EQ(cheap.size(), 2u);
  EXPECT_EQ(pids(cheap), pids(descendants_by_full_scan(root)));
  // Parents before children.
  ASSERT_EQ(cheap.size(), 2u);
  EXPECT_EQ(cheap[0].ppid, root);
  EXPECT_EQ(cheap[1].ppid, cheap[0].pid);
  kill_tree(root);
}

TEST(ProcTree, AProcessWithoutChildrenHasNoDescendantsAndAGoneOneNone) {
  const pid_t root = fork();
  ASSERT_GE(root, 0);
  if (root == 0) {
    for (;;) pause();
  }
  EXPECT_TRUE(descendants(root).empty());
  kill_tree(root);
  EXPECT_TRUE(descendants(root).empty());
}

}  // namespace
}  // namespace hpcab::judge
