// A perturbed variant of a kernel's reference.c, for tests that a judge tells a wrong answer
// from a right one on every kernel: the reference renamed, wrapped by functions of
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
#include "common/reference_build.h"

namespace hpcab::judge::test {

// At precision `p` (a grade runs one): a single-source reference is instantiated there
// (common/reference_build.h); an old-form one keeps its other function as it is.
inline std::string perturbed_reference_c(const Manifest& m, Precision p) {
  std::ifstream in(m.reference_c());
  std::string ref((std::istreambuf_iterator<char>(in)), {});
  if (is_single_source_reference(ref)) ref = reference_as_submission(ref, p);
  std::string head, tail = "\n#include <math.h>\n#include <stdint.h>\n";
  {
    const std::string sym = abi_symbol(m, p);
    head += "#define " + sym + " hpcab_unperturbed_" + sym + "\n";
    tail += "#undef " + sym + "\n";
  }
  {
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

// The same for a NumPy-only kernel: reference.py with its function renamed, and a function of
// the kernel's name (python_prototype's parameters) that calls it, then moves one element of
// the first output the same way, in place.
inline std::string perturbed_reference_py(const Manifest& m) {
  std::ifstream in(m.reference_py());
  std::string ref((std::istreambuf_iterator<char>(in)), {});
  std::string def = python_prototype(m);  // "def <id>(a, b, N):"
  const auto open = def.find('('), close = def.rfind(')');
  const std::string params = def.substr(open + 1, close - open - 1);
  std::string call, target;
  for (std::size_t start = 0; start < params.size();) {
    std::size_t comma = params.find(',', start);
    if (comma == std::string::npos) comma = params.size();
    std::string name = params.substr(start, comma - start);
    name.erase(0, name.find_first_not_of(' '));
    call += (call.empty() ? "" : ", ") + name + "=" + name;
    const ArraySpec* a = m.array(name);
    if (target.empty() && a != nullptr && a->is_output()) target = name;
    start = comma + 1;
  }
  return ref + "\n\nimport numpy as _hpcab_np\n_hpcab_unperturbed = " + m.id + "\n\n\n" + def +
         "\n    _hpcab_unperturbed(" + call + ")\n    flat = " + target +
         ".reshape(-1)\n"
         "    if flat.dtype == _hpcab_np.bool_:\n"
         "        flat[flat.size // 2] = not flat[flat.size // 2]\n"
         "    elif flat.dtype.kind in 'iu':\n"
         "        flat[flat.size // 2] += 1\n"
         "    else:\n"
         "        finite = _hpcab_np.isfinite(flat)\n"
         "        big = float(_hpcab_np.max(_hpcab_np.abs(flat[finite]))) if finite.any() else "
         "0.0\n"
         "        k = flat.size // 2 if finite[flat.size // 2] else 0\n"
         "        flat[k] += flat.dtype.type(0.1 * big + 1.0)\n";
}

}  // namespace hpcab::judge::test
