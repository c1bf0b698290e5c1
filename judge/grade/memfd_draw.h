// The production SharedDraw (judge/grade/effects.h): a sealed memfd.
#pragma once

#include <memory>
#include <vector>

#include "common/inputs.h"
#include "common/manifest.h"
#include "common/result.h"
#include "judge/grade/effects.h"

namespace hpcab::judge {

// A memfd sized for the draw's layout (shared_draw_layout), its pages allocated up front, mapped
// read-write in the judge and then sealed against shrinking, growing, any new write access
// (F_SEAL_FUTURE_WRITE: no writable mapping and no write(2), even through a descriptor reopened
// via /proc) and further seal changes. Runners get the descriptor (RunnerSpec::draw_fd) and map
// it read-only; the judge's mapping made before the seal stays the one writer.
//
// Why allocated up front: a page the kernel could not supply later would be a SIGBUS in
// whichever process touched it first (the judge generating, or a runner reading its inputs),
// and a runner's would be charged to a candidate. An Error here is the judge's (kResource).
//
// fill() generates on `cpus`: with more than one, on a thread of its own (run_on_cpus), so the
// generator's OpenMP team ends with it and spins through none of the timed calls that follow.
Result<std::unique_ptr<SharedDraw>> make_memfd_draw(const Manifest& m, Precision p,
                                                    const SymbolTable& sizes,
                                                    const std::vector<int>& cpus);

}  // namespace hpcab::judge
