#include "harness/judge_client.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace hpcab::harness {

namespace fs = std::filesystem;

namespace {

// A 200 grade whose harness_fault is set: the judge failed, recorded no answer (docs/grading.md).
bool judge_fault(const Result<json>& r) {
  return r && r->is_object() && r->value("harness_fault", false) == true;
}

}  // namespace

namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

// Query values and path segments: unreserved characters pass, everything else is %XX.
std::string percent_encode(const std::string& s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string query(const std::map<std::string, std::string>& params) {
  std::string q;
  for (const auto& [k, v] : params) {
    if (v.empty()) continue;
    q += (q.empty() ? "?" : "&") + k + "=" + percent_encode(v);
  }
  return q;
}

// A run id becomes part of a file name: keep [A-Za-z0-9._-], map the rest to '_'.
std::string file_safe(const std::string& s) {
  std::string out;
  for (unsigned char c : s) out += std::isalnum(c) || c == '.' || c == '_' || c == '-' ? c : '_';
  return out;
}

}  // namespace

Result<JudgeSettings> JudgeSettings::from_env() {
  JudgeSettings s;
  s.url = env_or("JUDGE_URL", "");
  const std::string rank = env_or("JUDGE_RANK", "0");
  if (rank.empty() || rank.size() > 9 || rank.find_first_not_of("0123456789") != std::string::npos)
    return Error{"JUDGE_RANK must be a non-negative integer, got '" + rank + "'"};
  s.rank = std::stoi(rank);
  s.run_id = env_or("RUN_ID", "");
  s.optimizer = env_or("AGENT", "agent");
  s.token = env_or("JUDGE_TOKEN", "");
  if (s.token.empty()) {
    if (const std::string file = env_or("JUDGE_TOKEN_FILE", ""); !file.empty()) {
      auto t = read_client_token_file(file);
      if (!t) return Error{"JUDGE_TOKEN_FILE: " + t.error().message};
      s.token = *t;
    }
  }
  s.ca_file = env_or("JUDGE_CA_FILE", "");
  if (const std::string t = env_or("HPCAB_TOOL_TIMEOUT", ""); !t.empty()) {
    char* end = nullptr;
    s.timeout_s = std::strtod(t.c_str(), &end);
    if (*end != '\0' || !(s.timeout_s > 0))
      return Error{"HPCAB_TOOL_TIMEOUT must be a positive number of seconds, got '" + t + "'"};
  }
  const std::string policy = env_or("HPCAB_SUBMISSION_POLICY", "multiple");
  if (policy != "single" && policy != "multiple")
    return Error{"HPCAB_SUBMISSION_POLICY must be 'single' or 'multiple', got '" + policy + "'"};
  s.single_submission = policy == "single";
  s.state_dir = env_or("HPCAB_TOOL_STATE", "");
  s.usage_url = env_or("HPCAB_USAGE_URL", "");
  return s;
}

JudgeClient::JudgeClient(JudgeSettings settings, Transport transport, UsageFetch usage)
    : JudgeClient(std::move(settings), CancellableTransport(), std::move(usage)) {
  if (transport) {
    transport_ = [plain = std::move(transport)](const std::string& method, const std::string& url,
                                                const std::string& body, const CancelToken*) {
      return plain(method, url, body);
    };
  }
}

JudgeClient::JudgeClient(JudgeSettings settings, CancellableTransport transport, UsageFetch usage)
    : settings_(std::move(settings)), transport_(std::move(transport)), usage_(std::move(usage)) {
  if (!transport_) {
    HttpOptions options{settings_.token, settings_.ca_file};
    const double timeout = settings_.timeout_s;
    transport_ = [options, timeout](const std::string& method, const std::string& url,
                                    const std::string& body, const CancelToken* cancel) {
      std::map<std::string, std::string> headers;
      if (!body.empty()) headers["Content-Type"] = "application/json";
      HttpOptions with_cancel = options;
      with_cancel.cancel = cancel;
      return http_request(method, url, body, headers, timeout, with_cancel);
    };
  }
  if (!usage_) {
    const double timeout = settings_.usage_timeout_s;
    usage_ = [timeout](const std::string& url) {
      return http_request("GET", url, "", {}, timeout, HttpOptions{});
    };
  }
}

std::optional<std::int64_t> JudgeClient::tokens_used() {
  if (settings_.usage_url.empty()) return std::nullopt;
  auto r = usage_(settings_.usage_url);
  if (!r || r->status != 200) return std::nullopt;
  const json j = json::parse(r->body, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;
  std::int64_t total = 0;
  for (const char* field : {"input", "cached", "output"}) {
    auto it = j.find(field);
    if (it == j.end() || !it->is_number_integer()) return std::nullopt;
    if (it->is_number_unsigned() ? it->get<std::uint64_t>() > std::uint64_t{INT64_MAX} / 4
                                 : it->get<std::int64_t>() < 0)
      return std::nullopt;
    total += it->get<std::int64_t>();
  }
  return total;
}

Result<json> JudgeClient::fail(Call& call, Failure kind, std::string message) {
  call.failure = kind;
  std::lock_guard lock(mu_);
  last_failure_ = kind;
  return Error{std::move(message)};
}

JudgeClient::Call JudgeClient::begin(const CancelToken* cancel) {
  std::lock_guard lock(mu_);
  last_failure_ = Failure::kNone;
  return Call{cancel, Failure::kNone};
}

std::string JudgeClient::submission_marker() const {
  fs::path dir = settings_.state_dir.empty() ? fs::current_path() : fs::path(settings_.state_dir);
  std::string name = ".hpcab-submitted";
  if (!settings_.run_id.empty()) name += "." + file_safe(settings_.run_id);
  return (dir / name).string();
}

Result<json> JudgeClient::get(Call& call, const std::string& path_and_query) {
  if (settings_.url.empty())
    return fail(call, Failure::kLocal, "no judge URL: set JUDGE_URL or pass --url");
  return exchange(call, "GET", path_and_query, "", path_and_query, "");
}

Result<json> JudgeClient::exchange(Call& call, const std::string& method, const std::string& path,
                                   const std::string& body, const std::string& label,
                                   const std::string& refusal_note) {
  std::string base = settings_.url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  auto r = transport_(method, base + path, body, call.cancel);
  if (!r) {
    call.unsent = r.error().code == Errc::kNotSent;
    return fail(call, Failure::kTransport, "judge unreachable: " + r.error().message);
  }
  json answer = json::parse(r->body, nullptr, false);
  if (r->status != 200) {
    std::string why = answer.is_object() && answer.contains("error") && answer["error"].is_string()
                          ? answer["error"].get<std::string>()
                          : r->body.substr(0, 500);
    return fail(call, Failure::kHttp,
                "judge answered HTTP " + std::to_string(r->status) + " for " + label +
                    refusal_note + ": " + why);
  }
  if (answer.is_discarded()) {
    return fail(call, Failure::kHttp,
                "judge answered HTTP 200 for " + label +
                    " with a body that is not JSON: " + r->body.substr(0, 200));
  }
  return answer;
}

Result<json> JudgeClient::task(const std::string& kernel, const std::string& language,
                               const std::string& preset, const std::string& precision,
                               const CancelToken* cancel) {
  Call call = begin(cancel);
  if (kernel.empty()) return fail(call, Failure::kLocal, "no kernel: pass one or set KERNEL");
  return get(call, "/task/" + percent_encode(kernel) +
                       query({{"language", language},
                              {"preset", preset},
                              {"precision", precision},
                              {"rank", std::to_string(settings_.rank)}}));
}

Result<json> JudgeClient::baseline(const std::string& kernel, const std::string& language,
                                   const std::string& preset, const std::string& precision,
                                   const CancelToken* cancel) {
  Call call = begin(cancel);
  if (kernel.empty()) return fail(call, Failure::kLocal, "no kernel: pass one or set KERNEL");
  return get(call, "/baseline/" + percent_encode(kernel) +
                       query({{"language", language},
                              {"preset", preset},
                              {"precision", precision},
                              {"rank", std::to_string(settings_.rank)}}));
}

Result<json> JudgeClient::post(Call& call, const std::string& route, const Submission& s,
                               const std::string& library) {
  if (settings_.url.empty())
    return fail(call, Failure::kLocal, "no judge URL: set JUDGE_URL or pass --url");
  if (s.kernel.empty()) return fail(call, Failure::kLocal, "no kernel: pass one or set KERNEL");
  if (library.empty() && s.source.empty())
    return fail(call, Failure::kLocal, "the source is empty");
  json body = {{"kernel", s.kernel},
               {"language", s.language.empty() ? "c" : s.language},
               {"rank", settings_.rank},
               {library.empty() ? "source" : "library", library.empty() ? s.source : library},
               {"build", json::array()},
               {"workspace_bytes", nullptr},
               {"preset", s.preset.empty() ? json(nullptr) : json(s.preset)},
               {"run_id", settings_.run_id},
               {"optimizer", settings_.optimizer},
               {"tokens", nullptr}};
  // After the local checks, so a call that sends nothing asks nothing either.
  if (auto tokens = tokens_used()) body["tokens"] = *tokens;
  if (!s.precision.empty()) body["precision"] = s.precision;
  return exchange(call, "POST", "/" + route, body.dump(), "/" + route, " (nothing was graded)");
}

Result<json> JudgeClient::score(const Submission& s, const CancelToken* cancel) {
  Call call = begin(cancel);
  return post(call, "score", s, "");
}

Result<json> JudgeClient::submit(const Submission& s, const CancelToken* cancel) {
  Call call = begin(cancel);
  return record_submission(s, submit_impl(call, s, ""));
}

Result<json> JudgeClient::record_submission(const Submission& s, Result<json> r) {
  // Every graded submit, any policy, for the harness: the last line is the episode's final
  // submission (docs/harness.md). Only where the harness asked for it (HPCAB_TOOL_STATE). A
  // grade the judge's machinery failed (harness_fault) is no answer and is not listed.
  if (r && !judge_fault(r) && !settings_.state_dir.empty()) {
    json line = {
        {"run_id", settings_.run_id},
        {"kernel", s.kernel},
        {"verdict", r->value("verdict", json(nullptr))},
        {"submission_id", r->value("submission_id", json(nullptr))},
        {"speedup", r->value("speedup", json(nullptr))},
        {"time", std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
                     .count()}};
    std::ofstream out(fs::path(settings_.state_dir) / "submissions.jsonl", std::ios::app);
    out << line.dump() << "\n";
  }
  return r;
}

Result<json> JudgeClient::score_library(const Submission& s, const std::string& library_path) {
  Call call = begin(nullptr);
  if (library_path.empty()) return fail(call, Failure::kLocal, "no library path");
  return post(call, "score", s, library_path);
}

Result<json> JudgeClient::submit_library(const Submission& s, const std::string& library_path) {
  Call call = begin(nullptr);
  if (library_path.empty()) return fail(call, Failure::kLocal, "no library path");
  return record_submission(s, submit_impl(call, s, library_path));
}

Result<json> JudgeClient::submit_impl(Call& call, const Submission& s, const std::string& library) {
  if (!settings_.single_submission) return post(call, "submit", s, library);
  // Checked before the marker, so a call that could never be sent does not use up the run's
  // single submission.
  if (settings_.url.empty())
    return fail(call, Failure::kLocal, "no judge URL: set JUDGE_URL or pass --url");
  if (s.kernel.empty()) return fail(call, Failure::kLocal, "no kernel: pass one or set KERNEL");
  if (library.empty() && s.source.empty())
    return fail(call, Failure::kLocal, "the source is empty");
  // O_EXCL: of two concurrent calls (two tool processes, or two MCP calls) exactly one creates
  // the marker and submits.
  const std::string marker = submission_marker();
  int fd = ::open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EEXIST) {
    std::ifstream in(marker);
    std::string previous((std::istreambuf_iterator<char>(in)), {});
    return fail(call, Failure::kPolicy,
                "submission refused: this run (RUN_ID '" + settings_.run_id +
                    "') has already submitted once and the submission policy is 'single'. Use "
                    "score to evaluate further versions; only the first submit is graded. "
                    "(marker " +
                    marker + (previous.empty() ? "" : ": " + previous) + ")");
  }
  if (fd < 0) {
    return fail(call, Failure::kLocal,
                "cannot create the submission marker " + marker + ": " + std::strerror(errno));
  }
  auto r = post(call, "submit", s, library);
  json record = {
      {"run_id", settings_.run_id},
      {"kernel", s.kernel},
      {"time",
       std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count()}};
  if (r) {
    record["verdict"] = r->value("verdict", json(nullptr));
    record["submission_id"] = r->value("submission_id", json(nullptr));
  } else {
    record["error"] = r.error().message;
  }
  const std::string text = record.dump() + "\n";
  // The marker's presence is the record; its text is only for a human.
  [[maybe_unused]] ssize_t n = ::write(fd, text.data(), text.size());
  ::close(fd);
  // The judge said it graded nothing (4xx/5xx), the request never left (connection refused),
  // or the judge's own machinery failed (harness_fault: it recorded no answer): the run keeps
  // its submission. A timeout or a dropped connection keeps the marker, since the judge may
  // have recorded the answer.
  if ((!r && (call.failure == Failure::kHttp || call.unsent)) || judge_fault(r)) {
    ::unlink(marker.c_str());
  }
  return r;
}

std::optional<std::string> language_from_extension(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".c") return "c";
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C" || ext == ".c++") return "cpp";
  if (ext == ".f" || ext == ".f90" || ext == ".f95" || ext == ".f03" || ext == ".F90" ||
      ext == ".F")
    return "fortran";
  return std::nullopt;
}

Result<std::string> read_source_file(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return Error{"cannot read source file '" + path + "'"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open source file '" + path + "': " + std::strerror(errno)};
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace hpcab::harness
