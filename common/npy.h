// NumPy .npy files (format versions 1.0-3.0 read, 1.0 written), C order only, little-endian
// float64/float32/int64/int32/uint16/uint8/bool. Used to exchange arrays with reference.py.
#pragma once

#include <string>

#include "common/ndarray.h"
#include "common/result.h"

namespace hpcab {

Status write_npy(const std::string& path, const NdArray& array);
Result<NdArray> read_npy(const std::string& path);

}  // namespace hpcab
