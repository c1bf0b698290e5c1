// Residency planning (judge/runner/residency.h) against the fake device: what is copied when,
// relative to the clock, and what the post-call checks catch.
#include "judge/runner/residency.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "tests/runner/fake_device.h"

namespace hpcab::runner {
namespace {

using runner_protocol::PostProblem;
using test::FakeDevice;
using test::Op;

constexpr std::size_t kN = 64;  // doubles per array

// tsvc_2_s000's shape: a (out) = b (in) + 1, plus an inout c and a workspace.
struct Fixture {
  FakeDevice dev;
  std::unique_ptr<DeviceArrays> arrays;
  std::vector<double> b = std::vector<double>(kN), c = std::vector<double>(kN);
  std::vector<double> a_out = std::vector<double>(kN), c_out = std::vector<double>(kN);
  int64_t ticks = 0;

  Fixture() {
    for (std::size_t i = 0; i < kN; ++i) {
      b[i] = static_cast<double>(i);
      c[i] = 2.0 * static_cast<double>(i);
    }
    auto r = DeviceArrays::create(dev,
                                  {{"a", Intent::kOut, kN * 8, 8},
                                   {"b", Intent::kIn, kN * 8, 8},
                                   {"c", Intent::kInout, kN * 8, 8}},
                                  128);
    EXPECT_TRUE(r) << r.error().message;
    arrays = std::move(*r);
  }
  double* dptr(const std::string& name) {
    return static_cast<double*>(arrays->pointers().at(name));
  }
  std::function<int64_t()> clock() {
    return [this] {
      dev.log.push_back({"clock", nullptr, 0});
      return ++ticks * 1000;
    };
  }
  // One call the way the runner makes it: stage, timed call, copy-out.
  int64_t call(Residency r, const std::function<void()>& kernel) {
    EXPECT_TRUE(arrays->stage({{"b", b.data()}, {"c", c.data()}}));
    auto ns = timed_gpu_call(dev, r, kernel, clock());
    EXPECT_TRUE(ns);
    EXPECT_TRUE(arrays->copy_out({{"a", a_out.data()}, {"c", c_out.data()}}));
    return ns ? *ns : -1;
  }
  DeviceFinding check() {
    auto f = arrays->check({{"b", b.data()}}, {{"a", a_out.data()}, {"c", c_out.data()}});
    EXPECT_TRUE(f) << f.error().message;
    return f ? *f : DeviceFinding{};
  }
  // Index in the log of the n-th op of `kind` (n from 0), or -1.
  int index_of(const std::string& kind, int n = 0) const {
    for (std::size_t i = 0; i < dev.log.size(); ++i) {
      if (dev.log[i].kind == kind && n-- == 0) return static_cast<int>(i);
    }
    return -1;
  }
};

// The honest kernel, on device pointers: a = b + 1, c *= 2.
void honest(Fixture& f) {
  double* a = f.dptr("a");
  double* b = f.dptr("b");
  double* c = f.dptr("c");
  for (std::size_t i = 0; i < kN; ++i) {
    a[i] = b[i] + 1;
    c[i] *= 2;
  }
}

TEST(Residency, ParsesItsNames) {
  EXPECT_EQ(*parse_residency("host"), Residency::kHost);
  EXPECT_EQ(*parse_residency("device"), Residency::kDevice);
  EXPECT_FALSE(parse_residency("managed"));
  EXPECT_EQ(parse_residency("").error().code, Errc::kInvalid);
  EXPECT_EQ(*parse_gpu_runtime("cuda"), GpuRuntime::kCuda);
  EXPECT_FALSE(parse_gpu_runtime("opencl"));
}

TEST(Residency, DeviceCopiesInBeforeTheClockAndOutAfterASynchronize) {
  Fixture f;
  f.dev.log.clear();
  const int h2d_before = f.dev.h2d;
  int kernel_at = -1;
  const int64_t ns = f.call(Residency::kDevice, [&] {
    kernel_at = static_cast<int>(f.dev.log.size());
    f.dev.log.push_back({"kernel", nullptr, 0});
    // The kernel gets device addresses, and its inputs are already there.
    for (const auto& [name, p] : f.arrays->pointers()) EXPECT_TRUE(f.dev.owns(p)) << name;
    EXPECT_EQ(f.dptr("b")[5], 5.0);
    EXPECT_EQ(f.dptr("c")[5], 10.0);
    honest(f);
  });
  EXPECT_EQ(ns, 1000);
  const int t0 = f.index_of("clock", 0), t1 = f.index_of("clock", 1);
  ASSERT_GE(t0, 0);
  ASSERT_GT(t1, t0);
  EXPECT_EQ(kernel_at, t0 + 1);
  // Inside the clock: the kernel, then the synchronize that ends the call, nothing else.
  EXPECT_EQ(t1 - t0, 3);
  EXPECT_EQ(f.dev.log[t1 - 1].kind, "sync");
  // Every copy to the device (b and c: the two inputs) before the clock, every copy back after.
  EXPECT_EQ(f.dev.h2d - h2d_before, 2);
  for (int i = 0; i < static_cast<int>(f.dev.log.size()); ++i) {
    if (f.dev.log[i].kind == "h2d" || f.dev.log[i].kind == "memset") {
      EXPECT_LT(i, t0);
    }
    if (f.dev.log[i].kind == "d2h") {
      EXPECT_GT(i, t1);
    }
  }
  // A synchronize right before the clock starts (the census).
  EXPECT_EQ(f.dev.log[t0 - 1].kind, "sync");
  // Two outputs (a, c) came back, with the kernel's results.
  EXPECT_EQ(f.a_out[7], 8.0);
  EXPECT_EQ(f.c_out[7], 28.0);
  EXPECT_EQ(f.check().problem, PostProblem::kNone);
}

TEST(Residency, HostResidencyDoesNotSynchronizeInsideTheClock) {
  Fixture f;
  f.dev.log.clear();
  f.call(Residency::kHost, [&] { f.dev.log.push_back({"kernel", nullptr, 0}); });
  const int t0 = f.index_of("clock", 0), t1 = f.index_of("clock", 1);
  EXPECT_EQ(t1 - t0, 2);  // only the call between the clock reads
}

TEST(Residency, OutputsArePoisonedBeforeEveryCall) {
  Fixture f;
  unsigned char poison[8];
  std::memset(poison, 0xff, 8);
  f.call(Residency::kDevice, [&] {
    EXPECT_EQ(std::memcmp(f.dptr("a"), poison, 8), 0);
    honest(f);
  });
  // The second call does not see the first one's answer in its output.
  f.call(Residency::kDevice, [&] {
    EXPECT_EQ(std::memcmp(f.dptr("a") + kN - 1, poison, 8), 0);
    EXPECT_NE(f.dptr("a")[0], 1.0);
  });
  // A kernel that does nothing returns the poison, not a right answer.
  EXPECT_EQ(std::memcmp(f.a_out.data(), poison, 8), 0);
  // The workspace is zeroed for every call.
  f.call(Residency::kDevice, [&] {
    auto* ws = static_cast<unsigned char*>(f.arrays->workspace());
    EXPECT_TRUE(std::all_of(ws, ws + 128, [](unsigned char x) { return x == 0; }));
    std::memset(ws, 7, 128);
  });
  f.call(Residency::kDevice,
         [&] { EXPECT_EQ(static_cast<unsigned char*>(f.arrays->workspace())[3], 0); });
}

TEST(Residency, AWriteThroughAConstDevicePointerIsCaught) {
  Fixture f;
  f.call(Residency::kDevice, [&] {
    honest(f);
    f.dptr("b")[3] = -1;
  });
  const DeviceFinding d = f.check();
  EXPECT_EQ(d.problem, PostProblem::kConst);
  EXPECT_EQ(d.name, "b");
  EXPECT_EQ(d.index, "3");
}

TEST(Residency, AGuardOverrunOnTheDeviceIsCaught) {
  Fixture f;
  f.call(Residency::kDevice, [&] {
    honest(f);
    f.dptr("a")[kN] = 0;  // one past the end
  });
  DeviceFinding d = f.check();
  EXPECT_EQ(d.problem, PostProblem::kGuard);
  EXPECT_EQ(d.name, "a");
  EXPECT_EQ(d.index, "0");
  // Guards are refilled at the next call; one byte before the start of c this time.
  f.call(Residency::kDevice, [&] {
    honest(f);
    reinterpret_cast<unsigned char*>(f.dptr("c"))[-1] = 0;
  });
  d = f.check();
  EXPECT_EQ(d.problem, PostProblem::kGuard);
  EXPECT_EQ(d.name, "c");
  EXPECT_EQ(d.index, "-1");
  // And the workspace's guard.
  f.call(Residency::kDevice, [&] {
    honest(f);
    static_cast<unsigned char*>(f.arrays->workspace())[128] = 0;
  });
  d = f.check();
  EXPECT_EQ(d.problem, PostProblem::kGuard);
  EXPECT_EQ(d.name, DeviceArrays::kWorkspaceName);
}

TEST(Residency, WorkQueuedInsideTheCallCountsInsideTheClock) {
  Fixture f;
  // An asynchronous launch: the synchronize before the clock stops runs it, so its result is
  // in the copy-out and nothing is left running.
  f.call(Residency::kDevice, [&] { f.dev.launch([&] { honest(f); }); });
  EXPECT_EQ(f.a_out[1], 2.0);
  EXPECT_EQ(f.check().problem, PostProblem::kNone);
  EXPECT_FALSE(f.arrays->left_running());
}

TEST(Residency, AKernelLeftRunningIsCaughtAtTheNextSynchronize) {
  Fixture f;
  // Work appearing after the clock stopped (a helper thread launching it) is pending at the
  // post-call census...
  f.call(Residency::kDevice, [&] { honest(f); });
  f.dev.launch([&] { f.dptr("a")[0] = 42; });
  DeviceFinding d = f.check();
  EXPECT_EQ(d.problem, PostProblem::kRunning);
  // ...and work queued between post and the next call is pending at that call's staging.
  f.call(Residency::kDevice, [&] { honest(f); });
  EXPECT_EQ(f.check().problem, PostProblem::kNone);
  f.dev.launch([] {});
  f.call(Residency::kDevice, [&] { honest(f); });
  EXPECT_TRUE(f.arrays->left_running());
  EXPECT_EQ(f.check().problem, PostProblem::kRunning);
}

TEST(Residency, AnOutputChangedAfterTheCopyOutIsLate) {
  Fixture f;
  f.call(Residency::kDevice, [&] { honest(f); });
  f.dptr("c")[9] = 0;  // on the device, after the copy-out, with nothing queued
  const DeviceFinding d = f.check();
  EXPECT_EQ(d.problem, PostProblem::kLate);
  EXPECT_EQ(d.name, "c");
  EXPECT_EQ(d.index, "9");
}

TEST(Residency, ADeviceFaultIsAnErrorValue) {
  Fixture f;
  f.dev.fail_sync = true;
  auto ns = timed_gpu_call(
      f.dev, Residency::kDevice, [] {}, f.clock());
  ASSERT_FALSE(ns);
  EXPECT_NE(ns.error().message.find("illegal"), std::string::npos);
}

TEST(Residency, BuffersAreFreedWithTheirOwner) {
  FakeDevice dev;
  {
    auto r = DeviceArrays::create(dev, {{"x", Intent::kIn, 10, 1}}, 0);
    ASSERT_TRUE(r);
    EXPECT_EQ(dev.live(), 2u);  // x and the (empty) workspace
    EXPECT_EQ((*r)->workspace(), nullptr);
  }
  EXPECT_EQ(dev.live(), 0u);
}

TEST(Residency, OpeningAMissingRuntimeIsAValue) {
  DeviceOptions o;
  o.runtime = GpuRuntime::kCuda;
  o.library = "/nonexistent/libcudart.so";
  auto d = open_device(o);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, Errc::kNotFound);
  o.runtime = GpuRuntime::kNone;
  EXPECT_EQ(open_device(o).error().code, Errc::kInvalid);
}

}  // namespace
}  // namespace hpcab::runner

namespace hpcab::runner {
namespace {

TEST(Residency, TheRunningFindingCrossesTheProtocol) {
  namespace proto = hpcab::runner_protocol;
  const std::string line = proto::posted_reply(proto::PostProblem::kRunning, "(device)", "pending");
  EXPECT_EQ(line, "posted running (device) pending");
  const proto::Reply r = proto::parse_reply(line);
  EXPECT_EQ(r.kind, proto::Reply::Kind::kPosted);
  EXPECT_EQ(r.problem, proto::PostProblem::kRunning);
  EXPECT_EQ(r.name, "(device)");
  EXPECT_EQ(proto::parse_reply("posted running").kind, proto::Reply::Kind::kUnknown);
}

}  // namespace
}  // namespace hpcab::runner
