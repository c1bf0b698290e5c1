// Helpers shared by the unit tests: scratch directories and a minimal valid manifest.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace hpcab::testing {

// A fresh directory under TMPDIR, removed when the object dies.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "hpcab-test-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// A valid loop-level manifest (`a = b + 1` shaped) to mutate in tests.
inline nlohmann::json minimal_manifest(const std::string& id = "k") {
  auto j = nlohmann::json::parse(R"({
    "id": "k", "name": "n", "track": "loop_level_reasoning", "level": 1, "description": "d",
    "precisions": ["fp64", "fp32"],
    "sizes": {"S": {"N": 10}, "M": {"N": 100}, "L": {"N": 1000}, "XL": {"N": 10000}},
    "arrays": {"a": {"shape": ["N"], "dtype": "real", "intent": "out"},
               "b": {"shape": ["N"], "dtype": "real", "intent": "in"}}
  })");
  j["id"] = id;
  return j;
}

// Writes `j` as <root>/<id>/kernel.json and returns the kernel folder.
inline std::filesystem::path write_manifest(const std::filesystem::path& root,
                                            const nlohmann::json& j) {
  auto dir = root / j.value("id", std::string("k"));
  write_file(dir / "kernel.json", j.dump(2));
  return dir;
}

// A complete NumPy-only kernel folder: kernel.json and reference.py (its text, the function
// named like the id), no reference.c. Returns the kernel folder.
inline std::filesystem::path write_numpy_kernel(const std::filesystem::path& root,
                                                const nlohmann::json& j,
                                                const std::string& reference_py) {
  auto dir = write_manifest(root, j);
  write_file(dir / "reference.py", reference_py);
  return dir;
}

}  // namespace hpcab::testing
