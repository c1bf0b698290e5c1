// The built-in optimizers (harness/builtin.h) against a fake judge transport: what each one
// sends, the library the autopar kinds build, and the exit codes of their failures. The real
// judge grades them in builtin_e2e_test.cc.
#include "harness/builtin.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <vector>

#include "common/reference_build.h"

namespace hpcab::harness {
namespace {

namespace fs = std::filesystem;

const std::string kReference =
    std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/tsvc_2_s000/reference.c";
const std::string kMl = std::string(HPCAB_SOURCE_DIR) + "/corpus/machine_learning/";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool have(const char* program) {
  return std::system((std::string("command -v ") + program + " >/dev/null 2>&1").c_str()) == 0;
}

class BuiltinTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "hpcab-builtin-XXXXXX").string();
    root_ = mkdtemp(t.data());
  }
  void TearDown() override { fs::remove_all(root_); }

  // A client whose transport records each request body and answers a grade.
  JudgeClient client(bool single = false) {
    JudgeSettings s;
    s.url = "http://judge.test";
    s.rank = 2;
    s.run_id = "ctl/tsvc_2_s000/0";
    s.optimizer = "autopar-gcc";
    s.single_submission = single;
    s.state_dir = root_.string();
    return JudgeClient(s,
                       [this](const std::string& method, const std::string& url,
                              const std::string& body) -> Result<HttpResult> {
                         requests_.push_back({method, url, body});
                         HttpResult r;
                         r.status = 200;
                         r.body = json{{"verdict", "ok"}, {"submission_id", 9}}.dump();
                         if (url.find("/task/") != std::string::npos) r.body = task_.dump();
                         return r;
                       });
  }

  int run(JudgeClient& c, const BuiltinOptions& o) {
    out_.str("");
    err_.str("");
    return run_builtin(c, o, out_, err_);
  }

  BuiltinOptions options(const std::string& kind) {
    BuiltinOptions o;
    o.kind = kind;
    o.kernel = "tsvc_2_s000";
    o.language = "c";
    o.reference_c = kReference;
    o.library_dir = (root_ / "shared" / "libraries").string();
    o.threads = 2;
    return o;
  }

  struct Request {
    std::string method, url, body;
  };
  // Whether /usr/bin/python3 imports Numba (numba-jit's compile check needs it).
  static bool have_numba() {
    return std::system("/usr/bin/python3 -c 'import numba' >/dev/null 2>&1") == 0;
  }

  fs::path root_;
  json task_ = json::object();  // the answer to GET /task
  std::vector<Request> requests_;
  std::ostringstream out_, err_;
};

TEST_F(BuiltinTest, IdentitySubmitsTheReferenceSource) {
  auto c = client();
  ASSERT_EQ(run(c, options("identity")), kExitGraded) << err_.str();
  ASSERT_EQ(requests_.size(), 1u);
  EXPECT_EQ(requests_[0].url, "http://judge.test/submit");
  json body = json::parse(requests_[0].body);
  EXPECT_EQ(body["source"], reference_as_submission(slurp(kReference), Precision::kFp64));
  EXPECT_EQ(body["language"], "c");
  EXPECT_EQ(body["kernel"], "tsvc_2_s000");
  EXPECT_EQ(body["rank"], 2);
  EXPECT_EQ(body["run_id"], "ctl/tsvc_2_s000/0");
  EXPECT_FALSE(body.contains("library"));
  EXPECT_EQ(json::parse(out_.str())["verdict"], "ok");

  // Without HPCAB_REFERENCE_C the corpus's reference.c is found by kernel id.
  auto o = options("identity");
  o.reference_c.clear();
  ASSERT_EQ(run(c, o), kExitGraded) << err_.str();
  EXPECT_EQ(json::parse(requests_.back().body)["source"],
            reference_as_submission(slurp(kReference), Precision::kFp64));
}

TEST_F(BuiltinTest, IdentityNeedsCAndAReference) {
  auto c = client();
  auto o = options("identity");
  o.language = "fortran";
  EXPECT_EQ(run(c, o), kExitUsage);
  EXPECT_NE(err_.str().find("LANGUAGE is 'fortran'"), std::string::npos) << err_.str();
  o = options("identity");
  o.reference_c = (root_ / "missing.c").string();
  EXPECT_EQ(run(c, o), kExitUsage);
  EXPECT_NE(err_.str().find("missing.c"), std::string::npos) << err_.str();
  o = options("identity");
  o.reference_c.clear();
  o.kernel = "no_such_kernel";
  EXPECT_EQ(run(c, o), kExitUsage);
  EXPECT_NE(err_.str().find("HPCAB_REFERENCE_C"), std::string::npos) << err_.str();
  o.kernel = "";
  EXPECT_EQ(run(c, o), kExitUsage);
  EXPECT_NE(err_.str().find("KERNEL"), std::string::npos) << err_.str();
  EXPECT_TRUE(requests_.empty());
}

TEST_F(BuiltinTest, IdentityForPythonSubmitsReferencePy) {
  auto c = client();
  auto o = options("identity");
  o.kernel = "relu";
  o.language = "python";
  ASSERT_EQ(run(c, o), kExitGraded) << err_.str();
  ASSERT_EQ(requests_.size(), 1u);
  json body = json::parse(requests_[0].body);
  EXPECT_EQ(body["language"], "python");
  EXPECT_EQ(body["source"], slurp(kMl + "relu/reference.py"));
  // HPCAB_REFERENCE_PY wins over the corpus.
  std::ofstream(root_ / "mine.py") << "def relu(out, x, N):\n    out[:] = x\n";
  o.reference_py = (root_ / "mine.py").string();
  ASSERT_EQ(run(c, o), kExitGraded) << err_.str();
  EXPECT_EQ(json::parse(requests_.back().body)["source"], slurp(root_ / "mine.py"));
  // A kernel outside the local corpus: the judge's reference_numpy (GET /task?language=python).
  task_ = {{"kernel", "remote_k"}, {"reference_numpy", "def remote_k(a, N):\n    pass\n"}};
  o.reference_py.clear();
  o.kernel = "remote_k";
  ASSERT_EQ(run(c, o), kExitGraded) << err_.str();
  ASSERT_EQ(requests_.size(), 4u);
  EXPECT_NE(requests_[2].url.find("/task/remote_k?"), std::string::npos) << requests_[2].url;
  EXPECT_NE(requests_[2].url.find("language=python"), std::string::npos) << requests_[2].url;
  EXPECT_EQ(json::parse(requests_[3].body)["source"], task_["reference_numpy"]);
  task_ = json::object();  // no reference_numpy: nothing submitted
  EXPECT_EQ(run(c, o), kExitUsage);
  EXPECT_EQ(requests_.size(), 5u);
  EXPECT_NE(err_.str().find("reference_numpy"), std::string::npos) << err_.str();
}

TEST_F(BuiltinTest, NumbaJitWrapsWhatNumbaCompilesElseSubmitsTheReference) {
  if (!have_numba()) GTEST_SKIP() << "/usr/bin/python3 has no numba";
  auto c = client();
  auto o = options("numba-jit");
  o.language = "";  // numba-jit's default: python
  o.kernel = "relu";
  ASSERT_EQ(run(c, o), kExitGraded) << err_.str();
  ASSERT_EQ(requests_.size(), 1u);
  json body = json::parse(requests_[0].body);
  EXPECT_EQ(body["language"], "python");
  const std::string relu = slurp(kMl + "relu/reference.py");
  EXPECT_EQ(body["source"], numba_jit_module(relu, "relu"));
  EXPECT_EQ(body["source"].get<std::string>().rfind(relu, 0), 0u);  // the reference, untouched
  EXPECT_NE(body["source"].get<std::string>().find("relu = _hpcab_numba.njit(relu)"),
            std::string::npos);
  EXPECT_NE(err_.str().find("numba.njit compiles relu"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("x: readonly array(float64, 1d, C)"), std::string::npos) << err_.str();

  // fp32, with a real scalar (alpha) typed float32.
  o.kernel = "elu";
  o.precision = "fp32";
  ASSERT_EQ(run(c, o), kExitGraded) << err_.str();
  EXPECT_NE(err_.str().find("alpha: float32"), std::string::npos) << err_.str();
  EXPECT_EQ(json::parse(requests_.back().body)["source"],
            numba_jit_module(slurp(kMl + "elu/reference.py"), "elu"));

  // softmax's x.max(axis=1, keepdims=True) is beyond Numba: the NumPy reference, unchanged.
  o.kernel = "softmax";
  o.precision = "";
  ASSERT_EQ(run(c, o), kExitGraded) << err_.str();
  EXPECT_EQ(json::parse(requests_.back().body)["source"], slurp(kMl + "softmax/reference.py"));
  EXPECT_NE(err_.str().find("numba.njit cannot compile softmax"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("NumPy reference unchanged"), std::string::npos) << err_.str();
}

TEST_F(BuiltinTest, NumbaJitRefusesOtherLanguagesAndAnUncheckableReference) {
  auto c = client();
  auto o = options("numba-jit");
  o.kernel = "relu";
  o.language = "c";
  EXPECT_EQ(run(c, o), kExitUsage);
  EXPECT_NE(err_.str().find("LANGUAGE=python"), std::string::npos) << err_.str();
  o.language = "python";
  o.python = (root_ / "no-python").string();
  EXPECT_EQ(run(c, o), kExitCompile);
  EXPECT_NE(err_.str().find("nothing submitted"), std::string::npos) << err_.str();
  o.python = "/usr/bin/python3";
  o.kernel = "no_such_kernel";
  EXPECT_EQ(run(c, o), kExitUsage);
  EXPECT_NE(err_.str().find("kernel.json"), std::string::npos) << err_.str();
  EXPECT_TRUE(requests_.empty());
  if (!have_numba()) return;
  o.kernel = "relu";
  std::ofstream(root_ / "broken.py") << "import numpy as np\ndef relu(out, x, N:\n";
  o.reference_py = (root_ / "broken.py").string();
  EXPECT_EQ(run(c, o), kExitCompile);
  EXPECT_NE(err_.str().find("SyntaxError"), std::string::npos) << err_.str();
  EXPECT_TRUE(requests_.empty());
}

TEST(Builtin, NumbaJitModuleRebindsTheFunction) {
  EXPECT_EQ(numba_jit_module("def k(a):\n    pass", "k"),
            "def k(a):\n    pass\n\n\n# hpcab-tool builtin numba-jit: the function compiled by "
            "Numba (sequential)\nimport numba as _hpcab_numba\nk = _hpcab_numba.njit(k)\n");
  const std::string dir = std::string(HPCAB_SOURCE_DIR) + "/corpus/machine_learning/relu";
  EXPECT_EQ(corpus_kernel_file("relu", "kernel.json"), dir + "/kernel.json");
  EXPECT_EQ(corpus_kernel_file("relu", "nope.txt"), std::nullopt);
  EXPECT_EQ(corpus_kernel_file("../relu", "kernel.json"), std::nullopt);
}

TEST_F(BuiltinTest, ReplayFindsBothLayoutsOrSubmitsNothing) {
  const fs::path dir = root_ / "prepared";
  fs::create_directories(dir / "tsvc_2_s000");
  std::ofstream(dir / "tsvc_2_s000" / "kernel.cpp") << "// nested cpp\n";
  std::ofstream(dir / "tsvc_2_s000.c") << "// flat c\n";
  std::ofstream(dir / "tsvc_2_s000" / "kernel.c") << "// nested c (the flat file wins)\n";
  EXPECT_EQ(find_prepared_source(dir.string(), "tsvc_2_s000", "c"),
            (dir / "tsvc_2_s000.c").string());
  EXPECT_EQ(find_prepared_source(dir.string(), "tsvc_2_s000", "cpp"),
            (dir / "tsvc_2_s000" / "kernel.cpp").string());
  EXPECT_EQ(find_prepared_source(dir.string(), "tsvc_2_s000", "fortran"), std::nullopt);
  std::ofstream(dir / "tsvc_2_s000.py") << "# flat python\n";
  EXPECT_EQ(find_prepared_source(dir.string(), "tsvc_2_s000", "python"),
            (dir / "tsvc_2_s000.py").string());

  auto c = client();
  auto o = options("replay");
  o.replay_dir = dir.string();
  o.language = "cpp";
  ASSERT_EQ(run(c, o), kExitGraded) << err_.str();
  ASSERT_EQ(requests_.size(), 1u);
  json body = json::parse(requests_[0].body);
  EXPECT_EQ(body["source"], "// nested cpp\n");
  EXPECT_EQ(body["language"], "cpp");

  o.language = "fortran";
  ASSERT_EQ(run(c, o), kExitGraded);
  EXPECT_EQ(requests_.size(), 1u);  // nothing sent
  EXPECT_TRUE(out_.str().empty());
  EXPECT_NE(err_.str().find("no prepared source for tsvc_2_s000 in " + dir.string()),
            std::string::npos)
      << err_.str();

  o.replay_dir = (root_ / "nope").string();
  EXPECT_EQ(run(c, o), kExitUsage);  // a missing folder is a mistake, not "nothing prepared"
  o.replay_dir.clear();
  EXPECT_EQ(run(c, o), kExitUsage);
  EXPECT_EQ(requests_.size(), 1u);
}

TEST_F(BuiltinTest, AutoparGccBuildsALibraryAndSubmitsItsPath) {
  if (!have("gcc")) GTEST_SKIP() << "gcc not installed";
  auto c = client();
  ASSERT_EQ(run(c, options("autopar-gcc")), kExitGraded) << err_.str();
  ASSERT_EQ(requests_.size(), 1u);
  json body = json::parse(requests_[0].body);
  EXPECT_FALSE(body.contains("source"));
  const std::string lib = body["library"];
  EXPECT_EQ(body["language"], "c");
  EXPECT_EQ(fs::path(lib).parent_path(), root_ / "shared" / "libraries");
  EXPECT_TRUE(std::regex_match(fs::path(lib).filename().string(),
                               std::regex("tsvc_2_s000-autopar-gcc-[0-9a-f]{12}\\.so")))
      << lib;
  struct stat st {};
  ASSERT_EQ(::stat(lib.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  // Nothing else is left in the folder (the temporary was renamed).
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(root_ / "shared" / "libraries")) {
    ++files;
  }
  EXPECT_EQ(files, 1);
  EXPECT_NE(err_.str().find("-ftree-parallelize-loops=2"), std::string::npos) << err_.str();

  // The same source builds the same bytes: the same name, still one file.
  ASSERT_EQ(run(c, options("autopar-gcc")), kExitGraded) << err_.str();
  EXPECT_EQ(json::parse(requests_.back().body)["library"], lib);
}

TEST_F(BuiltinTest, AutoparPollyBuildsALibrary) {
  if (!have("clang")) GTEST_SKIP() << "clang not installed";
  auto c = client();
  ASSERT_EQ(run(c, options("autopar-polly")), kExitGraded) << err_.str();
  ASSERT_EQ(requests_.size(), 1u);
  const std::string lib = json::parse(requests_[0].body)["library"];
  EXPECT_TRUE(std::regex_match(fs::path(lib).filename().string(),
                               std::regex("tsvc_2_s000-autopar-polly-[0-9a-f]{12}\\.so")))
      << lib;
  EXPECT_TRUE(fs::is_regular_file(lib));
}

TEST_F(BuiltinTest, CompilerFailureShowsItsOutputAndSendsNothing) {
  if (!have("gcc")) GTEST_SKIP() << "gcc not installed";
  const fs::path bad = root_ / "broken.c";
  std::ofstream(bad) << "void tsvc_2_s000_fp64(double *a) { this is not C; }\n";
  auto c = client();
  auto o = options("autopar-gcc");
  o.reference_c = bad.string();
  EXPECT_EQ(run(c, o), kExitCompile);
  EXPECT_TRUE(requests_.empty());
  EXPECT_TRUE(out_.str().empty());
  EXPECT_NE(err_.str().find("the compiler failed (exit code 1)"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("broken.c:1"), std::string::npos) << err_.str();  // gcc's message
  EXPECT_TRUE(fs::is_empty(root_ / "shared" / "libraries"));                  // no temporary left

  o = options("autopar-gcc");
  o.library_dir.clear();
  EXPECT_EQ(run(c, o), kExitUsage);
  EXPECT_NE(err_.str().find("HPCAB_LIBRARY_DIR"), std::string::npos) << err_.str();
}

TEST_F(BuiltinTest, LibrarySubmissionsFollowTheSinglePolicy) {
  auto c = client(/*single=*/true);
  Submission s;
  s.kernel = "tsvc_2_s000";
  ASSERT_TRUE(c.submit_library(s, "/srv/shared/a.so").ok());
  auto again = c.submit_library(s, "/srv/shared/a.so");
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(c.last_failure(), Failure::kPolicy);
  EXPECT_EQ(requests_.size(), 1u);
  EXPECT_EQ(json::parse(requests_[0].body)["library"], "/srv/shared/a.so");
  ASSERT_TRUE(c.score_library(s, "/srv/shared/a.so").ok());
  EXPECT_EQ(requests_.back().url, "http://judge.test/score");
  EXPECT_FALSE(c.score_library(s, "").ok());
  EXPECT_EQ(c.last_failure(), Failure::kLocal);
}

TEST(Builtin, AutoparCommandsAreArgvNotShell) {
  auto gcc = autopar_command("autopar-gcc", "/r e f.c", "/o.so", 8);
  EXPECT_EQ(gcc,
            (std::vector<std::string>{"gcc", "-O3", "-march=native", "-fPIC", "-shared",
                                      "-ftree-parallelize-loops=8", "-o", "/o.so", "/r e f.c"}));
  auto polly = autopar_command("autopar-polly", "/ref.c", "/o.so", 8);
  EXPECT_EQ(polly.front(), "clang");
  EXPECT_EQ(polly.back(), "-lgomp");
  for (const char* flag : {"-polly", "-polly-parallel", "-polly-omp-backend=GNU"}) {
    EXPECT_NE(std::find(polly.begin(), polly.end(), flag), polly.end()) << flag;
  }
}

}  // namespace
}  // namespace hpcab::harness
