// GET /task/<kernel> (SPEC §4, docs/api.md): what an agent starts from, the kernel's contract,
// sizes and tolerances, its reference, a stub that compiles and the goal in words.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "common/manifest.h"
#include "judge/config/config.h"
#include "judge/grade/service.h"
#include "judge/http/http_errors.h"

namespace hpcab::judge {

// Stub sources that compile as they are (SPEC §4 /task): c, cpp, fortran.
std::string stub_source(const Manifest& m, Precision p, const std::string& language);

// The /task body for `kernel` and the query (rank, language, precision, preset), or the error to
// answer: the rank check (400/421), an unknown kernel (404), a bad language, precision or preset
// (400). Reads the kernel's reference.py.
ApiResult<nlohmann::json> task_view(const GradeService& grader, const JudgeConfig& config,
                                    const std::string& kernel,
                                    const std::map<std::string, std::string>& query);

}  // namespace hpcab::judge
