#include "common/abi.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "common/compare.h"
#include "common/invoke.h"
#include "common/process.h"
#include "common/reference_build.h"
#include "tests/unit/test_util.h"

namespace hpcab {
namespace {

using testing::TempDir;

const std::string kCorpus = std::string(HPCAB_SOURCE_DIR) + "/corpus";

Manifest gemm() {
  auto m = load_manifest(kCorpus + "/scientific_computing/dense_linear_algebra/gemm");
  EXPECT_TRUE(m.ok());
  return *m;
}

TEST(Abi, GemmPrototypeIsExactlyTheSpecExample) {
  EXPECT_EQ(c_prototype(gemm(), Precision::kFp64),
            "void gemm_fp64(const double *restrict A, const double *restrict B, double *restrict "
            "C, const int64_t NI, const int64_t NJ, const int64_t NK, const double alpha, const "
            "double beta, uint8_t *restrict workspace, const int64_t workspace_size);");
  EXPECT_EQ(c_prototype(gemm(), Precision::kFp32),
            "void gemm_fp32(const float *restrict A, const float *restrict B, float *restrict C, "
            "const int64_t NI, const int64_t NJ, const int64_t NK, const float alpha, const float "
            "beta, uint8_t *restrict workspace, const int64_t workspace_size);");
}

TEST(Abi, CppAndFortranForms) {
  EXPECT_EQ(cpp_prototype(gemm(), Precision::kFp64)
                .rfind("extern \"C\" void gemm_fp64(const "
                       "double *__restrict__ A, ",
                       0),
            0u);
  std::string f = fortran_interface(gemm(), Precision::kFp32);
  EXPECT_NE(f.find("bind(C, name=\"gemm_fp32\")"), std::string::npos);
  EXPECT_NE(f.find("real(c_float), intent(in) :: A(*)"), std::string::npos);
  EXPECT_NE(f.find("real(c_float), intent(inout) :: C(*)"), std::string::npos);
  EXPECT_NE(f.find("integer(c_int64_t), value :: NI"), std::string::npos);
  EXPECT_NE(f.find("real(c_float), value :: alpha"), std::string::npos);
}

// The distributed entry: the ABI with the communicator before the workspace.
TEST(Abi, DistributedEntryInsertsTheCommunicatorBeforeTheWorkspace) {
  EXPECT_EQ(abi_mpi_symbol(gemm(), Precision::kFp32), "gemm_mpi_fp32");
  EXPECT_EQ(c_mpi_prototype(gemm(), Precision::kFp64),
            "void gemm_mpi_fp64(const double *restrict A, const double *restrict B, double "
            "*restrict C, const int64_t NI, const int64_t NJ, const int64_t NK, const double "
            "alpha, const double beta, MPI_Comm comm, uint8_t *restrict workspace, const int64_t "
            "workspace_size);");
  EXPECT_EQ(
      cpp_mpi_prototype(gemm(), Precision::kFp64).rfind("extern \"C\" void gemm_mpi_fp64(", 0), 0u);
  std::string f = fortran_mpi_interface(gemm(), Precision::kFp64);
  EXPECT_NE(f.find("bind(C, name=\"gemm_mpi_fp64\")"), std::string::npos);
  EXPECT_NE(f.find("beta, comm, workspace"), std::string::npos) << f;
  EXPECT_NE(f.find("integer(c_int32_t), value :: comm"), std::string::npos);
  // The single-node forms are untouched.
  EXPECT_EQ(c_prototype(gemm(), Precision::kFp64).find("comm"), std::string::npos);
  EXPECT_EQ(fortran_interface(gemm(), Precision::kFp64).find("comm"), std::string::npos);
}

TEST(Abi, OrderIsArraysThenValuesEachInAsciiOrder) {
  TempDir tmp;
  auto j = testing::minimal_manifest("k");
  j["arrays"]["Z"] = {{"shape", {"N"}}, {"dtype", "int32"}, {"intent", "in"}};
  j["scalars"] = {{"alpha", {{"dtype", "real"}, {"value", 2.0}}},
                  {"Steps", {{"dtype", "int64"}, {"value", 3}}}};
  auto m = load_manifest(testing::write_manifest(tmp.path(), j));
  ASSERT_TRUE(m.ok()) << m.error().message;
  std::vector<std::string> names;
  for (const auto& a : abi_args(*m, Precision::kFp64)) names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"Z", "a", "b", "N", "Steps", "alpha", "workspace",
                                             "workspace_size"}));
  EXPECT_EQ(c_prototype(*m, Precision::kFp64),
            "void k_fp64(const int32_t *restrict Z, double *restrict a, const double *restrict b, "
            "const int64_t N, const int64_t Steps, const double alpha, uint8_t *restrict "
            "workspace, const int64_t workspace_size);");
}

// Every corpus reference.c must define exactly the prototype the ABI derives: a definition that
// conflicts with a prior declaration is a compile error. The C++ and Fortran forms must compile.
TEST(Abi, EveryCorpusKernelMatchesItsDerivedPrototypes) {
  auto all = load_corpus(kCorpus);
  ASSERT_TRUE(all.ok()) << all.error().message;
  TempDir tmp;
  std::string cpp_src = "#include <cstdint>\n";
  std::string f_src = "module abi_check\ncontains\nsubroutine all_kernels()\n";
  std::vector<std::vector<std::string>> commands;
  for (const auto& m : *all) {
    // One translation unit per kernel: references may have file-local helpers of equal names.
    std::string c_src = "#include <stdbool.h>\n#include <stdint.h>\n";
    for (Precision p : m.precisions) {
      c_src += c_prototype(m, p) + "\n";
      cpp_src += cpp_prototype(m, p) + "\n";
      f_src += fortran_interface(m, p) + "\n";
    }
    if (!m.has_reference_c()) continue;  // NumPy-only: no C definition to hold to its prototype
    // Each instantiation of the single-source reference as the build makes it (its prelude,
    // then the file: common/reference_build.h), after every prototype the ABI derives.
    for (const auto& unit : reference_units(m.precisions, m.reference_c().string(), true)) {
      auto file = tmp.path() / (m.id + "-" + unit.name);
      testing::write_file(file, c_src + unit.text);
      commands.push_back({"gcc", "-std=c11", "-Wall", "-Werror", "-fsyntax-only", file.string()});
    }
  }
  f_src += "end subroutine all_kernels\nend module abi_check\n";
  testing::write_file(tmp.path() / "all.cc", cpp_src);
  testing::write_file(tmp.path() / "all.f90", f_src);
  commands.push_back(
      {"g++", "-std=c++17", "-Wall", "-Werror", "-fsyntax-only", (tmp.path() / "all.cc").string()});
  commands.push_back(
      {"gfortran", "-fsyntax-only", "-J", tmp.path().string(), (tmp.path() / "all.f90").string()});
  for (const auto& argv : commands) {
    ProcessOptions o;
    o.argv = argv;
    auto r = run_process(o);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->success()) << argv.back() << ": " << r->output;
  }
}

// The Python form passes keyword arguments named by the prototype: every corpus reference.py
// must take exactly those names, and the stub must be a module Python parses.
TEST(Abi, PythonFormMatchesEveryReferencePyAndTheStubParses) {
  EXPECT_EQ(python_prototype(gemm()), "def gemm(A, B, C, NI, NJ, NK, alpha, beta):");
  auto all = load_corpus(kCorpus);
  ASSERT_TRUE(all.ok()) << all.error().message;
  TempDir tmp;
  auto names = [](const std::string& def) {
    std::set<std::string> out;
    const auto open = def.find('('), close = def.find(')', open);
    std::stringstream ss(def.substr(open + 1, close - open - 1));
    for (std::string item; std::getline(ss, item, ',');) {
      const auto b = item.find_first_not_of(" \n"), e = item.find_last_not_of(" \n");
      if (b != std::string::npos) out.insert(item.substr(b, e - b + 1));
    }
    return out;
  };
  for (const auto& m : *all) {
    std::ifstream in(m.reference_py());
    const std::string py((std::istreambuf_iterator<char>(in)), {});
    const auto at = py.find("def " + m.id + "(");
    ASSERT_NE(at, std::string::npos) << m.id << ": reference.py defines no " << m.id << "()";
    EXPECT_EQ(names(py.substr(at, py.find("):", at) - at + 1)), names(python_prototype(m))) << m.id;
    const auto stub = tmp.path() / (m.id + "_stub.py");
    testing::write_file(stub, python_stub(m, m.precisions.front()));
    ProcessOptions o;
    o.argv = {HPCAB_DEFAULT_PYTHON, "-I", "-c",
              "import ast, sys; ast.parse(open(sys.argv[1]).read())", stub.string()};
    auto r = run_process(o);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->success()) << m.id << ": " << r->output;
  }
}

}  // namespace
}  // namespace hpcab

namespace hpcab {
namespace {

// The C, C++ and Fortran examples in docs/abi.md (copied verbatim under
// tests/fixtures/abi_examples/) build into libraries that the ABI call machinery runs, and they
// agree with reference.c.
TEST(Abi, DocumentedExamplesRunThroughTheAbi) {
  Manifest m = gemm();
  TempDir tmp;
  const std::string dir = std::string(HPCAB_TEST_FIXTURES) + "/abi_examples/";
  struct Build {
    std::string compiler, source;
  };
  // reference.c at fp64 as one C file (it is single-source: common/reference_build.h).
  std::ifstream ref_in(m.reference_c());
  const std::string ref((std::istreambuf_iterator<char>(ref_in)), {});
  testing::write_file(tmp.path() / "reference_fp64.c",
                      reference_as_submission(ref, Precision::kFp64));
  std::vector<Build> builds = {{"gcc", (tmp.path() / "reference_fp64.c").string()},
                               {"gcc", dir + "gemm.c"},
                               {"g++", dir + "gemm.cc"},
                               {"gfortran", dir + "gemm.f90"}};
  DrawSpec spec;
  spec.seed = 99;
  spec.sizes = m.presets.at("S");
  auto base = generate_draw(m, spec);
  ASSERT_TRUE(base.ok());
  std::optional<NdArray> expected;
  for (std::size_t i = 0; i < builds.size(); ++i) {
    std::string so = (tmp.path() / ("lib" + std::to_string(i) + ".so")).string();
    ProcessOptions o;
    o.argv = {builds[i].compiler,  "-O2", "-fPIC", "-shared",       "-fopenmp", "-J",
              tmp.path().string(), "-o",  so,      builds[i].source};
    if (builds[i].compiler != "gfortran") o.argv.erase(o.argv.begin() + 5, o.argv.begin() + 7);
    auto r = run_process(o);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r->success()) << builds[i].source << ": " << r->output;
    auto lib = SharedLibrary::open(so);
    ASSERT_TRUE(lib.ok()) << lib.error().message;
    auto fn = lib->symbol("gemm_fp64");
    ASSERT_TRUE(fn.ok()) << fn.error().message;
    auto call = KernelCall::prepare(m, Precision::kFp64, *fn);
    ASSERT_TRUE(call.ok());
    Draw d = *base;
    (*call)(d);
    if (!expected) {
      expected = d.arrays.at("C");
      continue;
    }
    auto cmp =
        compare_array("C", *expected, d.arrays.at("C"), CompareOptions{Precision::kFp64, 80});
    EXPECT_TRUE(cmp.passed()) << builds[i].source << ": " << cmp.detail;
  }
}

}  // namespace
}  // namespace hpcab

namespace hpcab {
namespace {

// Fortran names stop at 63 characters; the paper's longest kernel ids give 89-character symbols.
TEST(Abi, FortranNamesOfLongSymbolsFitAndStayDistinct) {
  EXPECT_EQ(fortran_name("gemm_fp64"), "gemm_fp64");
  const std::string a =
      "conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated_fp64";
  const std::string b =
      "conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated_fp32";
  EXPECT_EQ(fortran_name(a).size(), 63u);
  EXPECT_NE(fortran_name(a), fortran_name(b));
  EXPECT_EQ(fortran_name(a), fortran_name(a));
  EXPECT_EQ(fortran_name(a).substr(0, 54), a.substr(0, 54));
  EXPECT_EQ(fortran_name(std::string(63, 'a')), std::string(63, 'a'));
}

}  // namespace
}  // namespace hpcab
