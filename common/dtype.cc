#include "common/dtype.h"

#include <cfloat>
#include <cstdio>
#include <cstdlib>

namespace hpcab {

namespace {
struct DTypeInfo {
  DType type;
  std::string_view name;
  std::string_view c_name;
  std::size_t size;
};
constexpr DTypeInfo kTypes[] = {
    {DType::kFloat64, "float64", "double", 8}, {DType::kFloat32, "float32", "float", 4},
    {DType::kInt64, "int64", "int64_t", 8},    {DType::kInt32, "int32", "int32_t", 4},
    {DType::kUint16, "uint16", "uint16_t", 2}, {DType::kUint8, "uint8", "uint8_t", 1},
    {DType::kInt8, "int8", "int8_t", 1},       {DType::kBool, "bool", "bool", 1},
};

const DTypeInfo& info(DType t) {
  for (const auto& i : kTypes) {
    if (i.type == t) return i;
  }
  std::fprintf(stderr, "hpcab: invalid DType %d\n", static_cast<int>(t));
  std::abort();
}
}  // namespace

std::size_t dtype_size(DType t) { return info(t).size; }
bool dtype_is_float(DType t) { return t == DType::kFloat64 || t == DType::kFloat32; }
bool dtype_is_integer(DType t) { return !dtype_is_float(t); }
std::string_view dtype_name(DType t) { return info(t).name; }
std::string_view c_type_name(DType t) { return info(t).c_name; }

std::optional<DType> parse_dtype(std::string_view name) {
  for (const auto& i : kTypes) {
    if (i.name == name) return i.type;
  }
  return std::nullopt;
}

std::string_view precision_name(Precision p) { return p == Precision::kFp64 ? "fp64" : "fp32"; }

std::optional<Precision> parse_precision(std::string_view name) {
  if (name == "fp64") return Precision::kFp64;
  if (name == "fp32") return Precision::kFp32;
  return std::nullopt;
}

DType real_dtype(Precision p) { return p == Precision::kFp64 ? DType::kFloat64 : DType::kFloat32; }

double precision_epsilon(Precision p) {
  return p == Precision::kFp64 ? DBL_EPSILON : static_cast<double>(FLT_EPSILON);
}

}  // namespace hpcab
