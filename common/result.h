// Result<T>: expected failures (bad manifest, build error, wrong answer) are values, not
// exceptions. An Error carries a message a human can act on.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <variant>

namespace hpcab {

struct Error {
  std::string message;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return check(), std::get<0>(v_); }
  const T& value() const& { return check(), std::get<0>(v_); }
  T&& value() && { return check(), std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const {
    if (ok()) {
      std::fprintf(stderr, "hpcab: Result::error() called on a value\n");
      std::abort();
    }
    return std::get<1>(v_);
  }

 private:
  void check() const {
    if (!ok()) {
      std::fprintf(stderr, "hpcab: Result::value() called on an error: %s\n",
                   std::get<1>(v_).message.c_str());
      std::abort();
    }
  }
  std::variant<T, Error> v_;
};

// For operations that return nothing on success.
struct Ok {};
using Status = Result<Ok>;

}  // namespace hpcab
