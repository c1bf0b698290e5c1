// Where this build's source tree is (the default corpus, scripts, test solutions).
// Defined in one translation unit only: a path baked into every compile command would make
// each checkout's objects differ and defeat compiler caches (ccache) across checkouts.
#pragma once

namespace hpcab {

const char* source_dir();

}  // namespace hpcab
