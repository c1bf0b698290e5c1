// A Device (judge/runner/device.h) made of host memory, for testing residency planning without
// a GPU: it counts copies and synchronizes, and records every operation in a log the test's
// clock writes into too, so the order of copies relative to the clock can be asserted.
// "Work left running" is modelled as closures queued with launch(): a synchronize runs them
// (and reports that work was pending), exactly what a real device does with queued kernels.
#pragma once

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "judge/runner/device.h"

namespace hpcab::runner::test {

struct Op {
  std::string kind;  // malloc free h2d d2h memset sync clock
  const void* ptr = nullptr;
  std::size_t bytes = 0;
  int value = 0;  // memset
};

class FakeDevice : public Device {
 public:
  std::vector<Op> log;
  std::vector<std::function<void()>> queued;
  int syncs = 0, h2d = 0, d2h = 0;
  bool fail_sync = false;

  // Work the "device" runs later (at the next synchronize).
  void launch(std::function<void()> work) { queued.push_back(std::move(work)); }
  bool owns(const void* p) const {
    for (const auto& [base, mem] : mem_) {
      const auto* b = static_cast<const unsigned char*>(base);
      if (p >= b && p < b + mem.size()) return true;
    }
    return false;
  }
  std::size_t live() const { return mem_.size(); }

  Result<void*> malloc(std::size_t bytes) override {
    std::vector<unsigned char> m(bytes, 0x5a);  // device memory is not zeroed
    void* p = m.data();
    mem_.emplace(p, std::move(m));
    log.push_back({"malloc", p, bytes});
    return p;
  }
  Status free(void* p) override {
    log.push_back({"free", p, 0});
    if (mem_.erase(p) == 0) return Error{"free of an unknown pointer"};
    return Ok{};
  }
  Status copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    if (!owns(dst)) return Error{"h2d to a non-device pointer"};
    ++h2d;
    log.push_back({"h2d", dst, bytes});
    std::memcpy(dst, src, bytes);
    return Ok{};
  }
  Status copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    if (!owns(src)) return Error{"d2h from a non-device pointer"};
    ++d2h;
    log.push_back({"d2h", src, bytes});
    std::memcpy(dst, src, bytes);
    return Ok{};
  }
  Status memset(void* dst, int value, std::size_t bytes) override {
    if (!owns(dst)) return Error{"memset of a non-device pointer"};
    log.push_back({"memset", dst, bytes, value});
    std::memset(dst, value, bytes);
    return Ok{};
  }
  Result<bool> synchronize() override {
    ++syncs;
    log.push_back({"sync", nullptr, 0});
    if (fail_sync) return Error{"fakeDeviceSynchronize failed (700): an illegal memory access"};
    const bool pending = !queued.empty();
    auto work = std::move(queued);
    queued.clear();
    for (auto& w : work) w();
    return pending;
  }
  Status last_error() override { return Ok{}; }
  Result<int> count() override { return 1; }
  Result<std::string> name(int) override { return std::string("fake device"); }

 private:
  std::map<void*, std::vector<unsigned char>> mem_;
};

}  // namespace hpcab::runner::test
