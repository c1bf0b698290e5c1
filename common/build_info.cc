#include "common/build_info.h"

namespace hpcab {

const char* source_dir() { return HPCAB_SOURCE_DIR; }

}  // namespace hpcab
