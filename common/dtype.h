// Element types of kernel arrays and the run precisions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hpcab {

enum class DType { kFloat64, kFloat32, kInt64, kInt32, kUint16, kUint8, kInt8, kBool };

// The run precision: what `real` means for one call.
enum class Precision { kFp64, kFp32 };

std::size_t dtype_size(DType t);
bool dtype_is_float(DType t);
bool dtype_is_integer(DType t);                           // every non-float type, bool included
std::string_view dtype_name(DType t);                     // "float64", "int32", ...
std::optional<DType> parse_dtype(std::string_view name);  // fixed names only, not "real"
std::string_view c_type_name(DType t);                    // "double", "int32_t", "bool", ...

std::string_view precision_name(Precision p);  // "fp64" / "fp32"
std::optional<Precision> parse_precision(std::string_view name);
DType real_dtype(Precision p);
// Machine epsilon of the precision's accumulation type (DBL_EPSILON / FLT_EPSILON).
double precision_epsilon(Precision p);

}  // namespace hpcab
