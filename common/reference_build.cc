#include "common/reference_build.h"

#include <utility>

namespace hpcab {

std::string reference_prelude(Precision p) {
  const bool fp64 = p == Precision::kFp64;
  const std::string name(precision_name(p));
  const std::string lim = fp64 ? "DBL" : "FLT";
  // <tgmath.h> pulls in <complex.h>, whose `I` would replace an array or loop bound named I;
  // the type-generic macros do not use it.
  return "/* hpcab: reference.c instantiated at " + name +
         " (common/reference_build.h, docs/corpus.md \"reference.c\") */\n"
         "#include <float.h>\n"
         "#include <tgmath.h>\n"
         "#undef I\n"
         "typedef " +
         (fp64 ? "double" : "float") +
         " real;\n"
         "#define HPCAB_KERNEL(id) id##_" +
         name +
         "\n"
         "#define HPCAB_REAL_MAX " +
         lim +
         "_MAX\n"
         "#define HPCAB_REAL_MIN " +
         lim +
         "_MIN\n"
         "#define HPCAB_REAL_EPSILON " +
         lim + "_EPSILON\n" + "#define HPCAB_" + (fp64 ? "FP64" : "FP32") + " 1\n";
}

std::vector<StagedSource> reference_units(const std::vector<Precision>& precisions,
                                          const std::string& source_name, bool strict) {
  std::vector<StagedSource> units;
  for (Precision p : precisions) {
    std::string text = reference_prelude(p);
    if (strict && p == Precision::kFp32) {
      // Scoped to this unit: the fp64 unit may promote what it likes (it has nothing to lose).
      text += "#pragma GCC diagnostic error \"-Wdouble-promotion\"\n";
    }
    text += "#include \"" + source_name + "\"\n";
    units.push_back({"hpcab_reference_" + std::string(precision_name(p)) + ".c", std::move(text)});
  }
  return units;
}

std::vector<std::string> reference_command(std::vector<std::string> compiler_and_flags,
                                           const std::string& out,
                                           const std::vector<StagedSource>& units) {
  std::vector<std::string> cmd = std::move(compiler_and_flags);
  cmd.insert(cmd.end(), {"-o", out});
  for (const auto& u : units) cmd.push_back(u.name);
  cmd.push_back("-lm");
  return cmd;
}

std::string reference_as_submission(const std::string& source, Precision p) {
  return reference_prelude(p) + "#line 1 \"reference.c\"\n" + source;
}

bool is_single_source_reference(const std::string& source) {
  return source.find("HPCAB_KERNEL(") != std::string::npos;
}

}  // namespace hpcab
