// The fixed C ABI every native kernel exposes (SPEC §3):
//   void <id>_<fp64|fp32>(arrays sorted by name..., scalars and size symbols sorted by name...,
//                         uint8_t *restrict workspace, const int64_t workspace_size);
// ASCII order, so upper case sorts before lower case. Non-output arrays are const; every
// pointer is restrict; integer scalars and size symbols are const int64_t; real scalars are
// const double / const float.
#pragma once

#include <string>
#include <vector>

#include "common/dtype.h"
#include "common/manifest.h"

namespace hpcab {

struct AbiArg {
  enum class Kind { kArray, kSize, kIntScalar, kRealScalar, kWorkspace, kWorkspaceSize };
  std::string name;
  Kind kind = Kind::kArray;
  DType dtype = DType::kFloat64;  // element type for arrays; value type for scalars
  bool is_const = false;          // arrays: pointer to const
  Intent intent = Intent::kIn;    // arrays only
};

std::string abi_symbol(const Manifest& m, Precision p);  // "gemm_fp64"
std::vector<AbiArg> abi_args(const Manifest& m, Precision p);

// The Fortran name of a C symbol in the interfaces and stubs: the symbol itself, or, above
// Fortran's 63 characters, its first 54 characters, '_' and 8 hex digits of its hash (the
// bind(C) name stays the symbol, so the library exports what the judge calls).
std::string fortran_name(const std::string& symbol);

// Prototypes, terminated with ';' (C, C++) or a full interface block (Fortran).
std::string c_prototype(const Manifest& m, Precision p);
std::string cpp_prototype(const Manifest& m, Precision p);
std::string fortran_interface(const Manifest& m, Precision p);
// The distributed residency's entry (docs/abi.md "The distributed residency"): the symbol
// "<id>_mpi_<fp64|fp32>" with the parameters of the ABI above and the communicator before the
// workspace: `MPI_Comm comm` in C and C++ (<mpi.h>), in Fortran `integer(c_int32_t), value ::
// comm`, the communicator's Fortran handle (MPI_Comm_c2f; mpi_f08 code puts it in a
// type(MPI_Comm)'s MPI_VAL). Arrays are the rank's local blocks (MpiSpec, common/mpi_spec.h); sizes
// and scalars are the global problem's.
std::string abi_mpi_symbol(const Manifest& m, Precision p);
std::string c_mpi_prototype(const Manifest& m, Precision p);
std::string cpp_mpi_prototype(const Manifest& m, Precision p);
std::string fortran_mpi_interface(const Manifest& m, Precision p);
// The Python form (hpcab-pyrunner): "def gemm(A, B, C, NI, NJ, NK, alpha, beta):", the C ABI's
// parameters without the workspace; called with keyword arguments, so their order is a courtesy.
std::string python_prototype(const Manifest& m);
// A module for language python: the definition with a docstring of the calling convention.
std::string python_stub(const Manifest& m, Precision p);

}  // namespace hpcab
