#include "judge/build/languages.h"

namespace hpcab::judge {

bool known_language(const std::string& language) {
  return language == "c" || language == "cpp" || language == "fortran" || language == "python" ||
         gpu_language(language);
}

bool gpu_language(const std::string& language) { return language == "cuda" || language == "hip"; }

const char* language_list() { return "c, cpp, fortran, python, cuda or hip"; }

Status validate_build_tokens(const std::vector<std::string>& tokens) {
  for (const auto& t : tokens) {
    bool ok =
        t.size() > 2 && t[0] == '-' && (t[1] == 'I' || t[1] == 'D' || t[1] == 'l' || t[1] == 'L');
    // A -D value or path may not smuggle a second flag or a response file.
    ok = ok && t.find_first_of(" \t\n'\"\\`$;@") == std::string::npos;
    if (t.size() > 1 && t[1] == 'l') {
      ok = ok &&
           t.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-.",
                               2) == std::string::npos;
    }
    if (!ok) {
      return Error{"build token '" + t +
                   "' is not allowed: only -I<dir>, -D<name>[=value], -l<name> and -L<dir>; "
                   "optimization and math flags are fixed by the judge"};
    }
  }
  return Ok{};
}

}  // namespace hpcab::judge
