// What a submission may say about its build, as pure functions: its language and its build
// tokens. The request parser (judge/http/grade_request.cc) and the builder (judge/build/build.cc)
// apply the same rules, so a request refused at the door would be refused by the build too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab::judge {

// Largest workspace a request may ask for (1 TiB), the grader's own bound.
inline constexpr int64_t kMaxWorkspaceBytes = int64_t{1} << 40;

// Submission languages: c, cpp, fortran, python, cuda, hip.
bool known_language(const std::string& language);
// The GPU languages (cuda, hip): built with a GPU toolchain for the judge's GPU targets, run
// only by a judge with a GPU, and the only ones a `residency` of "device" applies to.
bool gpu_language(const std::string& language);
// The languages as a client reads them in an error message: "c, cpp, fortran, python, cuda or
// hip".
const char* language_list();

// Only -I<dir>, -D<name>[=value], -l<name> and -L<dir> (SPEC §4); anything else, optimization and
// math flags above all, is refused with a message naming the token.
Status validate_build_tokens(const std::vector<std::string>& tokens);

}  // namespace hpcab::judge
