#include "common/invoke.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace hpcab {

Result<SharedLibrary> SharedLibrary::open(const std::string& path) {
  // RTLD_LOCAL keeps the kernel's symbols out of the global namespace, so two libraries that
  // export the same kernel symbol (oracle and candidate) never bind to each other.
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* err = dlerror();
    return Error{"cannot load '" + path + "': " + (err ? err : "unknown error")};
  }
  return SharedLibrary(h);
}

SharedLibrary::SharedLibrary(SharedLibrary&& o) noexcept : handle_(o.handle_) {
  o.handle_ = nullptr;
}

SharedLibrary& SharedLibrary::operator=(SharedLibrary&& o) noexcept {
  if (this != &o) {
    if (handle_) dlclose(handle_);
    handle_ = o.handle_;
    o.handle_ = nullptr;
  }
  return *this;
}

SharedLibrary::~SharedLibrary() {
  if (handle_) dlclose(handle_);
}

Result<void*> SharedLibrary::symbol(const std::string& name) const {
  dlerror();
  void* p = dlsym(handle_, name.c_str());
  if (p == nullptr) {
    return Error{"symbol '" + name +
                 "' not found (the kernel must export exactly this name; "
                 "C++ needs extern \"C\")"};
  }
  return p;
}

Result<KernelCall> KernelCall::prepare(const Manifest& m, Precision p, void* fn) {
  KernelCall c;
  c.args_ = abi_args(m, p);
  c.fn_ = fn;
  c.iface_ = std::make_shared<Interface>();
  auto& types = c.iface_->types;
  for (const auto& a : c.args_) {
    switch (a.kind) {
      case AbiArg::Kind::kArray:
      case AbiArg::Kind::kWorkspace:
        types.push_back(&ffi_type_pointer);
        break;
      case AbiArg::Kind::kSize:
      case AbiArg::Kind::kIntScalar:
      case AbiArg::Kind::kWorkspaceSize:
        types.push_back(&ffi_type_sint64);
        break;
      case AbiArg::Kind::kRealScalar:
        types.push_back(a.dtype == DType::kFloat64 ? &ffi_type_double : &ffi_type_float);
        break;
    }
  }
  for (const auto& s : m.scalars) {
    if (s.is_real) c.real_scalars_.emplace_back(s.name, s.real_value);
  }
  if (ffi_prep_cif(&c.iface_->cif, FFI_DEFAULT_ABI, static_cast<unsigned>(types.size()),
                   &ffi_type_void, types.data()) != FFI_OK) {
    return Error{"libffi could not prepare the call interface for " + abi_symbol(m, p)};
  }
  return c;
}

double KernelCall::real_scalar(const std::string& name) const {
  for (const auto& [n, v] : real_scalars_) {
    if (n == name) return v;
  }
  std::fprintf(stderr, "hpcab: KernelCall: no real scalar '%s'\n", name.c_str());
  std::abort();
}

void KernelCall::operator()(Draw& draw, uint8_t* workspace, int64_t workspace_size,
                            const std::map<std::string, void*>* array_pointers) const {
  // Storage for every argument value; libffi reads each through a pointer to it.
  struct Slot {
    void* ptr;
    int64_t i64;
    double f64;
    float f32;
  };
  std::vector<Slot> slots(args_.size());
  std::vector<void*> values(args_.size());
  for (std::size_t i = 0; i < args_.size(); ++i) {
    const AbiArg& a = args_[i];
    Slot& s = slots[i];
    switch (a.kind) {
      case AbiArg::Kind::kArray: {
        auto it = draw.arrays.find(a.name);
        if (it == draw.arrays.end() || it->second.dtype() != a.dtype) {
          std::fprintf(stderr, "hpcab: KernelCall: draw has no array '%s' of the ABI's type\n",
                       a.name.c_str());
          std::abort();
        }
        if (array_pointers != nullptr) {
          auto p = array_pointers->find(a.name);
          if (p == array_pointers->end()) {
            std::fprintf(stderr, "hpcab: KernelCall: no device pointer for array '%s'\n",
                         a.name.c_str());
            std::abort();
          }
          s.ptr = p->second;
        } else {
          s.ptr = it->second.data();
        }
        values[i] = &s.ptr;
        break;
      }
      case AbiArg::Kind::kWorkspace:
        s.ptr = workspace;
        values[i] = &s.ptr;
        break;
      case AbiArg::Kind::kWorkspaceSize:
        s.i64 = workspace_size;
        values[i] = &s.i64;
        break;
      case AbiArg::Kind::kSize:
      case AbiArg::Kind::kIntScalar: {
        auto it = draw.symbols.find(a.name);
        if (it == draw.symbols.end()) {
          std::fprintf(stderr, "hpcab: KernelCall: draw has no symbol '%s'\n", a.name.c_str());
          std::abort();
        }
        s.i64 = it->second;
        values[i] = &s.i64;
        break;
      }
      case AbiArg::Kind::kRealScalar:
        if (a.dtype == DType::kFloat64) {
          s.f64 = real_scalar(a.name);
          values[i] = &s.f64;
        } else {
          s.f32 = static_cast<float>(real_scalar(a.name));
          values[i] = &s.f32;
        }
        break;
    }
  }
  ffi_call(&iface_->cif, FFI_FN(fn_), nullptr, values.data());
}

}  // namespace hpcab
