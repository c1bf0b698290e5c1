// Calling a kernel through the SPEC §3 ABI without compiling a shim: the .so is opened with
// dlopen and the call is assembled at run time with libffi from the manifest's argument list.
// This is what runs a kernel in-process; the judge does it only inside its sandboxed runner.
#pragma once

#include <ffi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/abi.h"
#include "common/inputs.h"
#include "common/result.h"

namespace hpcab {

class SharedLibrary {
 public:
  static Result<SharedLibrary> open(const std::string& path);
  SharedLibrary(SharedLibrary&&) noexcept;
  SharedLibrary& operator=(SharedLibrary&&) noexcept;
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;
  ~SharedLibrary();
  Result<void*> symbol(const std::string& name) const;

 private:
  explicit SharedLibrary(void* handle) : handle_(handle) {}
  void* handle_ = nullptr;
};

class KernelCall {
 public:
  // Prepares the call interface for `m` at precision `p` on the function `fn`.
  static Result<KernelCall> prepare(const Manifest& m, Precision p, void* fn);

  // Calls the kernel on `draw` (arrays and symbols must come from the same manifest). With
  // `array_pointers` the array arguments are those pointers instead of the draw's buffers (a
  // device-resident GPU call passes device addresses; every array must be present).
  void operator()(Draw& draw, uint8_t* workspace = nullptr, int64_t workspace_size = 0,
                  const std::map<std::string, void*>* array_pointers = nullptr) const;

 private:
  // The cif points into `types`, so both live together and are shared by copies.
  struct Interface {
    ffi_cif cif;
    std::vector<ffi_type*> types;
  };
  std::vector<AbiArg> args_;
  std::shared_ptr<Interface> iface_;
  void* fn_ = nullptr;
  double real_scalar(const std::string& name) const;
  std::vector<std::pair<std::string, double>> real_scalars_;
};

}  // namespace hpcab
