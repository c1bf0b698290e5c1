#include "common/check_record.h"

#include <fstream>
#include <iterator>

#include "common/hmac.h"

namespace hpcab {

namespace fs = std::filesystem;

Result<std::string> kernel_content_hash(const Manifest& m) {
  std::string all;
  for (const char* name : {"kernel.json", "reference.py", "reference.c"}) {
    const fs::path file = m.dir / name;
    std::error_code ec;
    if (std::string(name) == "reference.c" && !fs::exists(file, ec)) continue;
    std::ifstream in(file, std::ios::binary);
    if (!in) return Error{file.string() + ": cannot read"};
    std::string text((std::istreambuf_iterator<char>(in)), {});
    all += std::string(name) + "\n" + std::to_string(text.size()) + "\n" + text;
  }
  return to_hex(sha256(all));
}

Result<CheckRecord> read_check_record(const fs::path& file) {
  CheckRecord out;
  std::error_code ec;
  if (!fs::exists(file, ec)) return out;
  std::ifstream in(file);
  if (!in) return Error{file.string() + ": cannot read"};
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    if (tab == std::string::npos || tab == 0 || line.size() - tab - 1 != 64) {
      return Error{file.string() + ":" + std::to_string(n) +
                   ": expected '<kernel id>\\t<64 hex digits>'"};
    }
    out[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return out;
}

Status write_check_record(const fs::path& file, const CheckRecord& record) {
  const fs::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) return Error{tmp.string() + ": cannot write"};
    out << "# Kernels that passed the last full `hpcab corpus check` (make corpus-check), with "
           "the\n"
           "# SHA-256 of their files: make test checks those whose files changed since.\n";
    for (const auto& [id, hash] : record) out << id << '\t' << hash << '\n';
    if (!out.flush()) return Error{tmp.string() + ": write failed"};
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) return Error{file.string() + ": " + ec.message()};
  return Ok{};
}

CheckRecord updated_check_record(const CheckRecord& old, const CheckRecord& passed,
                                 const std::set<std::string>& checked,
                                 const std::set<std::string>& corpus_ids) {
  CheckRecord next;
  for (const auto& id : corpus_ids) {
    if (auto p = passed.find(id); p != passed.end()) {
      next[id] = p->second;
    } else if (auto o = old.find(id); o != old.end() && !checked.count(id)) {
      next[id] = o->second;
    }
  }
  return next;
}

}  // namespace hpcab
