#include "common/abi.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>

namespace hpcab {

std::string abi_symbol(const Manifest& m, Precision p) {
  return m.id + "_" + std::string(precision_name(p));
}

std::vector<AbiArg> abi_args(const Manifest& m, Precision p) {
  std::vector<AbiArg> args;
  for (const auto& a : m.arrays) {  // already sorted by name
    args.push_back({a.name, AbiArg::Kind::kArray, a.dtype(p), a.intent == Intent::kIn, a.intent});
  }
  std::vector<AbiArg> values;
  for (const auto& s : m.size_symbols) {
    values.push_back({s, AbiArg::Kind::kSize, DType::kInt64, false, Intent::kIn});
  }
  for (const auto& s : m.scalars) {
    values.push_back({s.name, s.is_real ? AbiArg::Kind::kRealScalar : AbiArg::Kind::kIntScalar,
                      s.is_real ? real_dtype(p) : DType::kInt64, false, Intent::kIn});
  }
  std::sort(values.begin(), values.end(),
            [](const AbiArg& x, const AbiArg& y) { return x.name < y.name; });
  args.insert(args.end(), values.begin(), values.end());
  args.push_back({"workspace", AbiArg::Kind::kWorkspace, DType::kUint8, false, Intent::kInout});
  args.push_back(
      {"workspace_size", AbiArg::Kind::kWorkspaceSize, DType::kInt64, false, Intent::kIn});
  return args;
}

namespace {

// The C form of the ABI; `mpi`: the distributed entry, whose communicator comes before the
// workspace.
std::string c_like(const Manifest& m, Precision p, const char* restrict_kw, bool mpi = false) {
  std::ostringstream os;
  os << "void " << (mpi ? abi_mpi_symbol(m, p) : abi_symbol(m, p)) << "(";
  bool first = true;
  for (const auto& a : abi_args(m, p)) {
    if (!first) os << ", ";
    first = false;
    if (mpi && a.kind == AbiArg::Kind::kWorkspace) os << "MPI_Comm comm, ";
    bool pointer = a.kind == AbiArg::Kind::kArray || a.kind == AbiArg::Kind::kWorkspace;
    if (pointer) {
      os << (a.is_const ? "const " : "") << c_type_name(a.dtype) << " *" << restrict_kw << " "
         << a.name;
    } else {
      os << "const " << c_type_name(a.dtype) << " " << a.name;
    }
  }
  os << ");";
  return os.str();
}

std::string fortran_type(DType t) {
  switch (t) {
    case DType::kFloat64:
      return "real(c_double)";
    case DType::kFloat32:
      return "real(c_float)";
    case DType::kInt64:
      return "integer(c_int64_t)";
    case DType::kInt32:
      return "integer(c_int32_t)";
    case DType::kUint16:
      return "integer(c_int16_t)";
    case DType::kUint8:
    case DType::kInt8:
      return "integer(c_int8_t)";
    case DType::kBool:
      return "logical(c_bool)";
  }
  return "";
}

std::string fortran_like(const Manifest& m, Precision p, bool mpi);

}  // namespace

std::string c_prototype(const Manifest& m, Precision p) { return c_like(m, p, "restrict"); }

std::string cpp_prototype(const Manifest& m, Precision p) {
  return "extern \"C\" " + c_like(m, p, "__restrict__");
}

std::string fortran_name(const std::string& symbol) {
  constexpr std::size_t kMax = 63;  // Fortran 2003's longest name
  if (symbol.size() <= kMax) return symbol;
  std::uint32_t h = 2166136261u;  // FNV-1a: distinct long symbols keep distinct names
  for (unsigned char c : symbol) h = (h ^ c) * 16777619u;
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", h);
  return symbol.substr(0, kMax - 9) + "_" + hex;
}

std::string fortran_interface(const Manifest& m, Precision p) { return fortran_like(m, p, false); }

std::string abi_mpi_symbol(const Manifest& m, Precision p) {
  return m.id + "_mpi_" + std::string(precision_name(p));
}

std::string c_mpi_prototype(const Manifest& m, Precision p) {
  return c_like(m, p, "restrict", true);
}

std::string cpp_mpi_prototype(const Manifest& m, Precision p) {
  return "extern \"C\" " + c_like(m, p, "__restrict__", true);
}

std::string fortran_mpi_interface(const Manifest& m, Precision p) {
  return fortran_like(m, p, true);
}

namespace {

std::string fortran_like(const Manifest& m, Precision p, bool mpi) {
  auto args = abi_args(m, p);
  if (mpi) {
    // The communicator's Fortran handle (MPI_Comm_c2f): an integer the subroutine puts in a
    // type(MPI_Comm)'s MPI_VAL to use mpi_f08.
    auto ws = std::find_if(args.begin(), args.end(),
                           [](const AbiArg& a) { return a.kind == AbiArg::Kind::kWorkspace; });
    args.insert(ws, {"comm", AbiArg::Kind::kIntScalar, DType::kInt32, false, Intent::kIn});
  }
  std::ostringstream os;
  const std::string symbol = mpi ? abi_mpi_symbol(m, p) : abi_symbol(m, p);
  // The C symbol is the bind(C) name; the Fortran name is the same unless it is too long.
  const std::string sym = fortran_name(symbol);
  // Free-form Fortran allows 132 characters a line: the argument list is continued with '&'
  // before a line passes 120, so long kernel names and many arguments still compile.
  std::string line = "  subroutine " + sym + "(";
  os << "interface\n";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string piece = (i ? ", " : "") + args[i].name;
    if (line.size() + piece.size() > 120) {
      os << line << (i ? "," : "") << " &\n";
      line = "      " + args[i].name;
    } else {
      line += piece;
    }
  }
  os << line << ") &\n      bind(C, name=\"" << symbol
     << "\")\n    use, intrinsic :: iso_c_binding\n"
     << "    implicit none\n";
  for (const auto& a : args) {
    os << "    " << fortran_type(a.dtype);
    if (a.kind == AbiArg::Kind::kArray || a.kind == AbiArg::Kind::kWorkspace) {
      const char* intent = a.intent == Intent::kIn    ? "in"
                           : a.intent == Intent::kOut ? "out"
                                                      : "inout";
      os << ", intent(" << intent << ") :: " << a.name << "(*)\n";
    } else {
      os << ", value :: " << a.name << "\n";
    }
  }
  os << "  end subroutine " << sym << "\nend interface";
  return os.str();
}

}  // namespace

std::string python_prototype(const Manifest& m) {
  std::string out = "def " + m.id + "(";
  bool first = true;
  for (const auto& a : abi_args(m, Precision::kFp64)) {
    if (a.kind == AbiArg::Kind::kWorkspace || a.kind == AbiArg::Kind::kWorkspaceSize) continue;
    out += (first ? "" : ", ") + a.name;
    first = false;
  }
  return out + "):";
}

std::string python_stub(const Manifest& m, Precision p) {
  std::ostringstream os;
  const char* real = p == Precision::kFp32 ? "float32" : "float64";
  os << "import numpy as np\n\n\n"
     << python_prototype(m) << "\n    \"\"\"" << m.id
     << ": write the kernel here.\n\n    Called with keyword arguments. Arrays are NumPy views "
        "of the judge's buffers\n    (C order; inputs are read-only):\n";
  std::vector<std::string> outputs;
  for (const auto& a : m.arrays) {
    os << "      " << a.name << ": " << (a.fixed_dtype ? dtype_name(*a.fixed_dtype) : real) << "[";
    for (std::size_t i = 0; i < a.shape.size(); ++i) os << (i ? ", " : "") << a.shape[i].text();
    os << "] "
       << (a.intent == Intent::kIn    ? "in"
           : a.intent == Intent::kOut ? "out"
                                      : "inout")
       << "\n";
    if (a.is_output()) outputs.push_back(a.name);
  }
  os << "    Size symbols and integer scalars are int; real scalars are "
     << (p == Precision::kFp32 ? "np.float32" : "float") << ".\n    Write the outputs in place ("
     << outputs.front() << "[...] = ...) or return them (";
  if (outputs.size() == 1) {
    os << "the array";
  } else {
    os << "a tuple in the order ";
    for (std::size_t i = 0; i < outputs.size(); ++i) os << (i ? ", " : "") << outputs[i];
  }
  os << ").\n    NumPy and Numba are importable; nothing else is promised.\n    \"\"\"\n"
     << "    raise NotImplementedError\n";
  return os.str();
}

}  // namespace hpcab
