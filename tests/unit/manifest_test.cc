#include "common/manifest.h"

#include <gtest/gtest.h>

#include "tests/unit/test_util.h"

namespace hpcab {
namespace {

using testing::minimal_manifest;
using testing::TempDir;
using testing::write_manifest;
using json = nlohmann::json;

// Loads a mutated manifest and returns the error text ("" when it loads).
std::string load_error(const json& j) {
  TempDir tmp;
  auto dir = write_manifest(tmp.path(), j);
  auto m = load_manifest(dir);
  return m.ok() ? "" : m.error().message;
}

void expect_error(const json& j, const std::string& field, const std::string& what) {
  std::string err = load_error(j);
  EXPECT_NE(err.find("kernel.json"), std::string::npos) << err;
  EXPECT_NE(err.find(field), std::string::npos) << "want field " << field << " in: " << err;
  EXPECT_NE(err.find(what), std::string::npos) << "want '" << what << "' in: " << err;
}

TEST(Manifest, LoadsTheRealGemm) {
  auto m = load_manifest(std::string(HPCAB_SOURCE_DIR) +
                         "/corpus/scientific_computing/dense_linear_algebra/gemm");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->id, "gemm");
  EXPECT_EQ(m->dwarf, "dense_linear_algebra");
  EXPECT_EQ(m->size_symbols, (std::vector<std::string>{"NI", "NJ", "NK"}));
  EXPECT_EQ(m->presets.at("S").at("NK"), 1200);
  ASSERT_EQ(m->arrays.size(), 3u);
  EXPECT_EQ(m->arrays[2].name, "C");
  EXPECT_EQ(m->arrays[2].intent, Intent::kInout);
  ASSERT_TRUE(m->reduction_length.has_value());
  EXPECT_EQ(*m->reduction_length->eval(m->presets.at("S")), 1200);
}

TEST(Manifest, MinimalIsValid) { EXPECT_EQ(load_error(minimal_manifest()), ""); }

TEST(Manifest, ErrorsNameFileFieldAndExpectation) {
  auto j = minimal_manifest();
  j["level"] = 7;
  expect_error(j, "level", "expected 1, 2 or 3");

  j = minimal_manifest();
  j["arrays"]["b"]["dtype"] = "complex128";
  expect_error(j, "arrays.b.dtype", "expected real, float64");

  j = minimal_manifest();
  j["arrays"]["b"]["shape"] = json::array({"N + M"});
  expect_error(j, "arrays.b.shape[0]", "unknown symbol 'M'");

  j = minimal_manifest();
  j["arrays"]["b"]["shape"] = json::array({"__import__('os').system('x')"});
  expect_error(j, "arrays.b.shape[0]", "unknown function '__import__'");

  j = minimal_manifest();
  j["sizes"]["M"] = {{"K", 3}};
  expect_error(j, "sizes.M", "same size symbols");

  j = minimal_manifest();
  j["sizes"].erase("XL");
  expect_error(j, "sizes.XL", "missing");

  j = minimal_manifest();
  j["arrays"]["a"]["intent"] = "in";
  expect_error(j, "arrays", "\"out\" or \"inout\"");

  j = minimal_manifest();
  j["arrays"]["a"]["intnet"] = "out";
  expect_error(j, "arrays.a.intnet", "unknown field");

  j = minimal_manifest();
  j["fuzzed"] = {{"N", {50, 10}}};
  expect_error(j, "fuzzed.N", "lo <= hi");

  j = minimal_manifest();
  j["arrays"]["b"]["domain"] = "imaginary";
  expect_error(j, "arrays.b.domain", "\"positive\"");

  j = minimal_manifest();
  j["arrays"]["b"]["range"] = {0, 3};
  expect_error(j, "arrays.b.range", "only integer arrays");

  j = minimal_manifest();
  j["precisions"] = {"fp16"};
  expect_error(j, "precisions", "\"fp64\" or \"fp32\"");

  j = minimal_manifest();
  j["dwarf"] = "dense_linear_algebra";
  expect_error(j, "dwarf", "only scientific_computing");

  j = minimal_manifest();
  j["scalars"] = {{"N", {{"dtype", "real"}, {"value", 1.0}}}};
  expect_error(j, "scalars.N", "already used");

  j = minimal_manifest();
  j["initializers"] = json::array({{{"kind", "spd"}, {"array", "b"}}});
  expect_error(j, "initializers[0].array", "square 2-D");

  j = minimal_manifest();
  j["initializers"] = json::array({{{"kind", "permutation"}, {"array", "b"}}});
  expect_error(j, "initializers[0].array", "must be int32 or int64");
}

// Each section of kernel.json reports its own mistakes under its own field, and a manifest with
// mistakes in several sections reports the first in file order (identity, tags, precisions,
// sizes, fuzzed, scalars, arrays, initializers, expressions, constraints, then the presets).
TEST(Manifest, EachSectionReportsItsFieldAndTheFirstSectionWins) {
  auto j = minimal_manifest();
  j["precisions"] = {"fp16"};
  j["sizes"].erase("XL");
  j["arrays"]["b"]["dtype"] = "complex128";
  expect_error(j, "precisions", "\"fp64\" or \"fp32\"");

  j = minimal_manifest();
  j["sizes"].erase("XL");
  j["fuzzed"] = {{"K", {1, 2}}};
  expect_error(j, "sizes.XL", "missing");

  j = minimal_manifest();
  j["fuzzed"] = {{"K", {1, 2}}};
  expect_error(j, "fuzzed.K", "not a size symbol of the presets");

  j = minimal_manifest();
  j["fuzzed"] = {{"N", {{"one_of", {3, 3}}}}};
  expect_error(j, "fuzzed.N.one_of", "duplicate 3");

  j = minimal_manifest();
  j["scalars"] = {{"alpha", {{"dtype", "complex"}, {"value", 1}}}};
  expect_error(j, "scalars.alpha.dtype", "expected \"real\" or \"int64\"");

  j = minimal_manifest();
  j["scalars"] = {{"K", {{"dtype", "int64"}, {"value", 1.5}}}};
  expect_error(j, "scalars.K.value", "expected an integer");

  j = minimal_manifest();
  j["arrays"]["b"]["dtype"] = "int32";
  j["arrays"]["b"]["domain"] = "positive";
  expect_error(j, "arrays.b.domain", "only real arrays have a domain");

  j = minimal_manifest();
  j["arrays"]["b"]["intent"] = "through";
  expect_error(j, "arrays.b.intent", "expected \"in\", \"out\" or \"inout\"");

  j = minimal_manifest();
  j["initializers"] = json::array({{{"kind", "spd"}, {"array", "a"}}});
  expect_error(j, "initializers[0].array", "'a' is an output; initializers fill inputs");

  j = minimal_manifest();
  j["initializers"] = json::array({{{"kind", "banded"}, {"array", "b"}}});
  expect_error(j, "initializers[0].array", "banded needs a 2-D array");

  j = minimal_manifest();
  j["arrays"]["p"] = {{"shape", {"N", "N"}}, {"dtype", "int32"}, {"intent", "in"}};
  j["arrays"]["i"] = {{"shape", {"N"}}, {"dtype", "int32"}, {"intent", "in"}};
  j["initializers"] = json::array(
      {{{"kind", "csr"}, {"indptr", "p"}, {"indices", "i"}, {"data", "b"}, {"cols", "N"}}});
  expect_error(j, "initializers[0]", "'p' must be 1-D");

  j = minimal_manifest();
  j["flops"] = "N * K";
  expect_error(j, "flops", "unknown symbol 'K'");

  j = minimal_manifest();
  j["constraints"] = {"N >= K"};
  expect_error(j, "constraints[0]", "unknown symbol 'K'");

  j = minimal_manifest();
  j["arrays"]["b"]["shape"] = {"N - 50"};
  expect_error(j, "arrays.b.shape", "negative extent at preset S");

  j = minimal_manifest();
  j["arrays"]["b"]["dtype"] = "int32";
  j["arrays"]["b"]["range"] = {"N", "20"};
  expect_error(j, "arrays.b.range", "empty or invalid at preset M");

  TempDir tmp;
  testing::write_file(tmp.path() / "k" / "kernel.json", "[1, 2]");
  auto m = load_manifest(tmp.path() / "k");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("kernel.json: expected a JSON object at the top level"),
            std::string::npos)
      << m.error().message;
}

TEST(Manifest, IdMustMatchFolder) {
  TempDir tmp;
  auto j = minimal_manifest("k");
  testing::write_file(tmp.path() / "other" / "kernel.json", j.dump());
  auto m = load_manifest(tmp.path() / "other");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("folder name"), std::string::npos);
}

TEST(Manifest, CaseInsensitiveNameClashIsRejected) {
  auto j = minimal_manifest();
  j["arrays"]["B"] = {{"shape", {"N"}}, {"dtype", "real"}, {"intent", "in"}};
  EXPECT_NE(load_error(j).find("differ only in case"), std::string::npos);
}

TEST(Manifest, XlDataLimit) {
  auto j = minimal_manifest();
  j["sizes"]["XL"]["N"] = int64_t{1} << 30;  // 2 arrays x 8 GiB
  EXPECT_NE(load_error(j).find("over the"), std::string::npos);
}

TEST(Manifest, InvalidJsonNamesTheFile) {
  TempDir tmp;
  testing::write_file(tmp.path() / "k" / "kernel.json", "{\"id\": ");
  auto m = load_manifest(tmp.path() / "k");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("kernel.json: invalid JSON"), std::string::npos);
}

TEST(Manifest, OracleField) {
  TempDir tmp;
  auto j = minimal_manifest();
  auto m = load_manifest(write_manifest(tmp.path(), j));
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_FALSE(m->oracle.has_value());  // the track's default, which the judge applies
  for (const char* oracle : {"c", "numpy"}) {
    j["oracle"] = oracle;
    m = load_manifest(write_manifest(tmp.path(), j));
    ASSERT_TRUE(m.ok()) << m.error().message;
    EXPECT_EQ(m->oracle, oracle);
  }
  j["oracle"] = "fortran";
  expect_error(j, "oracle", "expected \"c\" or \"numpy\", got \"fortran\"");
  j["oracle"] = "NumPy";
  expect_error(j, "oracle", "expected \"c\" or \"numpy\"");
  j["oracle"] = 1;
  expect_error(j, "oracle", "expected \"c\" or \"numpy\", got 1");
}

// "graded_because": an output upstream does not return says why it is graded; only outputs
// carry it, with a non-empty reason, and at least one output stays upstream's result.
TEST(Manifest, GradedBecauseDeclaresAnOutputUpstreamDoesNotReturn) {
  auto j = minimal_manifest();
  j["arrays"]["c"] = {{"shape", {"N"}},
                      {"dtype", "real"},
                      {"intent", "out"},
                      {"graded_because", "upstream's temporary, kept for a reason"}};
  TempDir tmp;
  auto m = load_manifest(write_manifest(tmp.path(), j));
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_EQ(m->arrays.size(), 3u);
  EXPECT_EQ(m->arrays[0].graded_because, "");  // a: upstream's result
  EXPECT_EQ(m->arrays[2].graded_because, "upstream's temporary, kept for a reason");

  auto bad = j;
  bad["arrays"]["c"]["graded_because"] = "";
  expect_error(bad, "arrays.c.graded_because", "non-empty string");
  bad = j;
  bad["arrays"]["c"]["graded_because"] = 1;
  expect_error(bad, "arrays.c.graded_because", "non-empty string");
  bad = j;
  bad["arrays"]["b"]["graded_because"] = "an input";
  expect_error(bad, "arrays.b.graded_because", "only an \"out\" or \"inout\" array");
  bad = j;
  bad["arrays"]["a"]["graded_because"] = "every output declared";
  expect_error(bad, "arrays", "at least one must be upstream's result");
}

TEST(Manifest, ReferenceCIsOptionalReferencePyIsNot) {
  TempDir tmp;
  auto j = minimal_manifest("np_only");
  // load_manifest reads kernel.json alone (the sandboxed runner has nothing else).
  auto m = load_manifest(write_manifest(tmp.path(), j));
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_FALSE(m->has_reference_py());
  EXPECT_FALSE(m->has_reference_c());
  auto st = check_kernel_files(*m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("kernel 'np_only' has no reference.py"), std::string::npos)
      << st.error().message;

  // kernel.json + reference.py: complete, with or without "oracle": "numpy".
  testing::write_numpy_kernel(tmp.path(), j, "def np_only(a, b, N):\n    a[:] = b + 1\n");
  m = load_manifest(tmp.path() / "np_only");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_TRUE(m->has_reference_py());
  EXPECT_FALSE(m->has_reference_c());
  EXPECT_TRUE(check_kernel_files(*m).ok());
  j["oracle"] = "numpy";
  write_manifest(tmp.path(), j);
  m = load_manifest(tmp.path() / "np_only");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_TRUE(check_kernel_files(*m).ok());

  // "oracle": "c" needs its reference.c.
  j["oracle"] = "c";
  write_manifest(tmp.path(), j);
  m = load_manifest(tmp.path() / "np_only");
  ASSERT_TRUE(m.ok()) << m.error().message;  // kernel.json itself is valid
  st = check_kernel_files(*m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("kernel 'np_only' declares \"oracle\": \"c\" but has no "
                                    "reference.c"),
            std::string::npos)
      << st.error().message;
  testing::write_file(tmp.path() / "np_only" / "reference.c", "/* the C oracle */\n");
  EXPECT_TRUE(m->has_reference_c());
  EXPECT_TRUE(check_kernel_files(*m).ok());
}

TEST(Corpus, KernelFilesAreChecked) {
  TempDir tmp;
  const auto root = tmp.path() / "machine_learning";
  auto j = minimal_manifest("np_only");
  j["track"] = "machine_learning";
  auto dir = testing::write_numpy_kernel(root, j, "def np_only(a, b, N):\n    a[:] = b + 1\n");
  auto all = load_corpus(tmp.path());
  ASSERT_TRUE(all.ok()) << all.error().message;  // no reference.c: complete
  ASSERT_EQ(all->size(), 1u);
  EXPECT_FALSE(all->front().has_reference_c());

  j["oracle"] = "c";
  write_manifest(root, j);
  all = load_corpus(tmp.path());
  ASSERT_FALSE(all.ok());
  EXPECT_NE(all.error().message.find("kernel 'np_only' declares \"oracle\": \"c\""),
            std::string::npos)
      << all.error().message;

  j.erase("oracle");
  write_manifest(root, j);
  std::filesystem::remove(dir / "reference.py");
  all = load_corpus(tmp.path());
  ASSERT_FALSE(all.ok());
  EXPECT_NE(all.error().message.find("kernel 'np_only' has no reference.py"), std::string::npos)
      << all.error().message;
}

TEST(Corpus, LayoutAndUniqueIds) {
  TempDir tmp;
  auto j = minimal_manifest("dup");
  testing::write_numpy_kernel(tmp.path() / "loop_level_reasoning", j, "def dup(a, b, N): pass\n");
  auto ok = load_corpus(tmp.path());
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->size(), 1u);

  // track mismatch with folder
  testing::write_numpy_kernel(tmp.path() / "machine_learning", j, "def dup(a, b, N): pass\n");
  auto bad = load_corpus(tmp.path());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("track/[dwarf/]id"), std::string::npos);
}

TEST(Manifest, TagsField) {
  auto j = minimal_manifest();
  j["tags"] = json::array({"llr-focus40", "tsvc_2"});
  TempDir tmp;
  auto m = load_manifest(write_manifest(tmp.path(), j));
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->tags, (std::vector<std::string>{"llr-focus40", "tsvc_2"}));
  EXPECT_TRUE(m->has_tag("llr-focus40"));
  EXPECT_FALSE(m->has_tag("llr"));
  j["tags"] = "llr-focus40";
  expect_error(j, "tags", "expected an array of strings");
  j["tags"] = json::array({"LLR"});
  expect_error(j, "tags", "[a-z0-9][a-z0-9_-]*");
  j["tags"] = json::array({"a", 3});
  expect_error(j, "tags", "[a-z0-9][a-z0-9_-]*");
  j["tags"] = json::array({"a", "a"});
  expect_error(j, "tags", "duplicate");
}

// Three kernels in two tracks, one with a dwarf and one tagged: what find_kernel and
// select_kernels see.
std::vector<Manifest> small_corpus(const TempDir& tmp) {
  auto a = minimal_manifest("tsvc_2_s000");
  a["tags"] = json::array({"llr-focus40"});
  testing::write_numpy_kernel(tmp.path() / "loop_level_reasoning", a,
                              "def tsvc_2_s000(a, b, N): pass\n");
  auto b = minimal_manifest("tsvc_2_s111");
  b["level"] = 2;
  testing::write_numpy_kernel(tmp.path() / "loop_level_reasoning", b,
                              "def tsvc_2_s111(a, b, N): pass\n");
  auto g = minimal_manifest("gemm");
  g["track"] = "scientific_computing";
  g["dwarf"] = "dense_linear_algebra";
  testing::write_numpy_kernel(tmp.path() / "scientific_computing" / "dense_linear_algebra", g,
                              "def gemm(a, b, N): pass\n");
  auto all = load_corpus(tmp.path());
  EXPECT_TRUE(all.ok()) << all.error().message;
  return all.ok() ? *all : std::vector<Manifest>{};
}

TEST(Corpus, KernelsAreFoundByIdOrByTheOriginalsPathStyleKey) {
  TempDir tmp;
  auto corpus = small_corpus(tmp);
  ASSERT_EQ(corpus.size(), 3u);
  const Manifest* s000 = find_kernel(corpus, "tsvc_2_s000");
  ASSERT_NE(s000, nullptr);
  EXPECT_EQ(s000->key(), "loop_level_reasoning/tsvc_2_s000");
  EXPECT_EQ(find_kernel(corpus, "loop_level_reasoning/tsvc_2_s000"), s000);
  const Manifest* gemm = find_kernel(corpus, "scientific_computing/dense_linear_algebra/gemm");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->id, "gemm");
  // A path must be the kernel's own: its track, and its dwarf where it has one.
  EXPECT_EQ(find_kernel(corpus, "machine_learning/tsvc_2_s000"), nullptr);
  EXPECT_EQ(find_kernel(corpus, "scientific_computing/gemm"), nullptr);
  EXPECT_EQ(find_kernel(corpus, "scientific_computing/sparse_linear_algebra/gemm"), nullptr);
  EXPECT_EQ(find_kernel(corpus, "tsvc_2_s999"), nullptr);
  EXPECT_EQ(find_kernel(corpus, "s000"), nullptr);

  for (const char* ok : {"tsvc_2_s000", "loop_level_reasoning/tsvc_2_s000",
                         "scientific_computing/dense_linear_algebra/gemm"}) {
    EXPECT_TRUE(valid_kernel_key(ok)) << ok;
  }
  for (const char* bad : {"", "/tsvc_2_s000", "loop_level_reasoning/", "a//b", "a/b/c/d", "../x",
                          "a/./b", "A", "a-b", "a/b\\c", "1abc"}) {
    EXPECT_FALSE(valid_kernel_key(bad)) << bad;
  }
  // The paper's longest id (84 characters) is a valid name; one past the limit is not.
  EXPECT_TRUE(valid_kernel_key(
      "conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated"));
  EXPECT_TRUE(valid_kernel_key(std::string(kMaxKernelIdLength, 'a')));
  EXPECT_FALSE(valid_kernel_key(std::string(kMaxKernelIdLength + 1, 'a')));
}

TEST(Corpus, SelectorsIncludeTagsAndPathKeys) {
  TempDir tmp;
  auto corpus = small_corpus(tmp);
  using V = std::vector<std::string>;
  EXPECT_EQ(*select_kernels(corpus, {"tag:llr-focus40"}), V{"tsvc_2_s000"});
  EXPECT_EQ(*select_kernels(corpus, {"loop_level_reasoning/tsvc_2_s111", "tag:llr-focus40"}),
            (V{"tsvc_2_s111", "tsvc_2_s000"}));
  EXPECT_EQ(*select_kernels(corpus, {"track:loop_level_reasoning"}),
            (V{"tsvc_2_s000", "tsvc_2_s111"}));
  EXPECT_EQ(*select_kernels(corpus, {"level:2", "all"}), (V{"tsvc_2_s111", "gemm", "tsvc_2_s000"}));
  EXPECT_EQ(*select_kernels(corpus, {"dwarf:dense_linear_algebra"}), V{"gemm"});
  auto bad = select_kernels(corpus, {"tag:nothing"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("'tag:nothing' matches no kernel"), std::string::npos);
  bad = select_kernels(corpus, {"machine_learning/tsvc_2_s000"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("unknown kernel"), std::string::npos);
}

TEST(Corpus, TheLoopLevelTrackHasEveryTsvc2LoopAndTheFocusSet) {
  auto all = load_corpus(std::string(HPCAB_SOURCE_DIR) + "/corpus");
  ASSERT_TRUE(all.ok()) << all.error().message;
  int loops = 0, tsvc = 0, focus = 0;
  for (const auto& m : *all) {
    if (m.track != "loop_level_reasoning") continue;
    ++loops;
    tsvc += m.id.rfind("tsvc_2_", 0) == 0 ? 1 : 0;
    focus += m.has_tag("llr-focus40") ? 1 : 0;
  }
  EXPECT_EQ(tsvc, 151);  // every TSVC-2 loop
  EXPECT_GE(loops, 150);
  EXPECT_EQ(focus, 40);
  for (const char* id : {"ext_break_capture", "fuse_diamond", "wf_triangular", "tsvc_2_vpvts",
                         "tsvc_2_s4121", "tsvc_2_vbor"}) {
    EXPECT_NE(find_kernel(*all, id), nullptr) << id;
  }
}

TEST(Corpus, TheRealCorpusHasTheTwentyFourPublicIds) {
  auto all = load_corpus(std::string(HPCAB_SOURCE_DIR) + "/corpus");
  ASSERT_TRUE(all.ok()) << all.error().message;
  std::set<std::string> ids;
  for (const auto& m : *all) ids.insert(m.id);
  for (const char* id : {"tsvc_2_s000",
                         "tsvc_2_s111",
                         "tsvc_2_s212",
                         "tsvc_2_s231",
                         "tsvc_2_s271",
                         "tsvc_2_s311",
                         "tsvc_2_s321",
                         "tsvc_2_s4112",
                         "gemm",
                         "atax",
                         "cholesky",
                         "jacobi_2d",
                         "heat_3d",
                         "floyd_warshall",
                         "spmv",
                         "crc16",
                         "relu",
                         "softmax",
                         "layer_norm",
                         "standard_matrix_multiplication",
                         "max_pooling_2d",
                         "cumsum",
                         "cross_entropy_loss",
                         "conv_standard_2d_square_input_square_kernel_variant_b"}) {
    EXPECT_TRUE(ids.count(id)) << id;
  }
  // swish is NumPy-only: kernel.json and reference.py, "oracle": "numpy".
  for (const auto& m : *all) {
    if (m.id != "swish") continue;
    EXPECT_EQ(m.oracle, "numpy");
    EXPECT_TRUE(m.has_reference_py());
    EXPECT_FALSE(m.has_reference_c());
  }
  EXPECT_TRUE(ids.count("swish"));
}

}  // namespace
}  // namespace hpcab
