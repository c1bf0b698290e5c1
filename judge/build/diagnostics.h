// Compiler diagnostics as values (POST /syntax-check, docs/api.md): the lines of a build log
// that name a place in the submission, parsed from the formats of the judge's toolchains. Pure.
#pragma once

#include <string>
#include <vector>

namespace hpcab::judge {

struct Diagnostic {
  std::string file;      // as the compiler named it (submission.c, kernel.py, a header)
  int line = 0;          // 1-based; 0 when the compiler named no line
  int column = 0;        // 1-based; 0 when none
  std::string severity;  // "error" | "warning" | "note"
  std::string message;
};

// GCC, Clang and hipcc (`file:line[:col]: [fatal ]error|warning|note: message`), nvcc
// (`file(line): error|warning: message`), gfortran (`file:line:col:` then, a few lines on,
// `Error: message` / `Warning: message`) and CPython (`File "file", line N` then the final
// `SomethingError: message`). Lines of other shapes (the compiler's context lines, carets,
// "In function" headers, linker output without a place) are not diagnostics. At most `limit`
// diagnostics, in log order.
std::vector<Diagnostic> parse_diagnostics(const std::string& log, const std::string& language,
                                          std::size_t limit = 200);

}  // namespace hpcab::judge
