// Result<T>: expected failures (bad manifest, build error, wrong answer) are values, not
// exceptions. An Error carries a message a human can act on and a code that callers branch on
// (never on the message text).
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <variant>

namespace hpcab {

// What kind of failure an Error is. Callers decide by code; the message is for people.
enum class Errc {
  kFailed,    // anything without a more specific code
  kTimeout,   // a deadline passed
  kClosed,    // the other end went away (EOF, broken pipe)
  kProtocol,  // a peer said something outside its protocol
  kNoSpace,   // a filesystem is full (ENOSPC, EDQUOT, EFBIG)
  kReadOnly,  // a filesystem or file is read-only (EROFS, EACCES on write)
  kNotFound,  // a file, binary or record that must exist does not
  kResource,  // the OS refused a resource (fork, pipe, memory, descriptors)
  kInvalid,   // bad input
  kNotSent,   // a request never left this process (resolve, connect, TLS failed): retry-safe
  kBusy,      // a shared resource was too busy to measure on (a judge slot's CPUs): retry later
};

struct Error {
  std::string message;
  Errc code = Errc::kFailed;
};

// The code for a failed system call's errno (filesystem and process resources).
inline Errc errc_from_errno(int e) {
  switch (e) {
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
      return Errc::kNoSpace;
    case EROFS:
    case EACCES:
    case EPERM:
      return Errc::kReadOnly;
    case ENOENT:
      return Errc::kNotFound;
    case EAGAIN:
    case ENOMEM:
    case ENFILE:
    case EMFILE:
      return Errc::kResource;
    default:
      return Errc::kFailed;
  }
}

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
