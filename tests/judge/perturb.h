// A perturbed variant of a kernel's reference.c, for tests that a judge tells a wrong answer
// from a right one on every kernel (issue 16): the reference renamed, wrapped by functions of
// the ABI's names that call it and then move one element of the first output (its locals are
// prefixed hpcab_ so they never shadow a parameter such as `k` or `n`) far outside any
// tolerance (reals: by a tenth of the output's largest finite magnitude plus one, more than
// rtol, atol and the reassociation floor together, since the floor stays below rtol x max|e|
// on gradeable configurations; integers: plus one; bool: flipped).
#pragma once

#include <fstream>
#include <iterator>
#include <string>

#include "common/abi.h"
#include "common/manifest.h"

namespace hpcab::judge::test {

inline std::string perturbed_reference_c(const Manifest& m) {
  std::ifstream in(m.reference_c());
  std::string ref((std::istreambuf_iterator<char>(in)), {});
  std::string head, tail = "\n#include <math.h>\n#include <stdint.h>\n";
  for (Precision p : m.precisions) {
    const std::string sym = abi_symbol(m, p);
    head += "#define " + sym + " hpcab_unperturbed_" + sym + "\n";
    tail += "#undef " + sym + "\n";
  }
  for (Precision p : m.precisions) {
    const std::string sym = abi_symbol(m, p);
    std::string proto = c_prototype(m, p);
    proto.pop_back();  // the ';'
    std::string call, target;
    for (const AbiArg& a : abi_args(m, p)) {
      call += (call.empty() ? "" : ", ") + a.name;
      if (target.empty() && a.kind == AbiArg::Kind::kArray && a.intent != Intent::kIn) {
        target = a.name;
      }
    }
    const ArraySpec* out = m.array(target);
    std::string count = "1";
    for (const auto& e : out->shape) count += " * (int64_t)(" + e.text() + ")";
    const DType t = out->dtype(p);
    std::string body;
    if (t == DType::kFloat64 || t == DType::kFloat32) {
      body =
          "  double hpcab_big = 0;\n"
          "  for (int64_t hpcab_i = 0; hpcab_i < hpcab_n; hpcab_i++) {\n"
          "    double hpcab_v = fabs((double)" +
          target +
          "[hpcab_i]);\n"
          "    if (isfinite(hpcab_v) && hpcab_v > hpcab_big) hpcab_big = hpcab_v;\n"
          "  }\n"
          "  int64_t hpcab_k = hpcab_n / 2;\n"
          "  if (!isfinite((double)" +
          target +
          "[hpcab_k])) hpcab_k = 0;\n"
          "  " +
          target + "[hpcab_k] += 0.1 * hpcab_big + 1.0;\n";
    } else if (t == DType::kBool) {
      body = "  " + target + "[hpcab_n / 2] = !" + target + "[hpcab_n / 2];\n";
    } else {
      body = "  " + target + "[hpcab_n / 2] += 1;\n";
    }
    tail += proto + " {\n  hpcab_unperturbed_" + sym + "(" + call +
            ");\n  const int64_t hpcab_n = " + count + ";\n  if (hpcab_n <= 0) return;\n" + body +
            "}\n";
  }
  return head + ref + tail;
}

}  // namespace hpcab::judge::test
