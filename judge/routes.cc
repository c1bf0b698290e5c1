#include "judge/routes.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "common/abi.h"
#include "common/compare.h"
#include "judge/build.h"
#include "judge/request.h"
#include "judge/results_page.h"

namespace hpcab::judge {

namespace fs = std::filesystem;
using json = nlohmann::json;

// ---------------------------------------------------------------------------------------------
// JobQueue

JobQueue::JobQueue(std::size_t depth, int workers) : depth_(depth) {
  for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
}

JobQueue::~JobQueue() { shutdown(); }

bool JobQueue::try_push(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ || jobs_.size() >= depth_) return false;
    jobs_.push_back(std::move(job));
  }
  cv_.notify_one();
  return true;
}

std::size_t JobQueue::waiting() const {
  std::lock_guard<std::mutex> lock(mu_);
  return jobs_.size();
}

void JobQueue::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping and drained
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    ++running_;
    job();
    --running_;
  }
}

void JobQueue::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

// ---------------------------------------------------------------------------------------------
// Metrics (Prometheus text format 0.0.4)

void Metrics::request(const std::string& route, int status) {
  std::lock_guard<std::mutex> lock(mu_);
  ++requests_[{route, status}];
}

void Metrics::grade(const std::string& route, const std::string& verdict, double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  ++grades_[{route, verdict}];
  grade_seconds_sum_ += seconds;
  ++grade_seconds_count_;
}

void Metrics::stages(const std::map<std::string, double>& seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [stage, s] : seconds) {
    auto& slot = stage_seconds_[stage];
    slot.first += s;
    ++slot.second;
  }
}

std::string Metrics::render(std::size_t waiting, int running) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::ostringstream os;
  os << "# HELP hpcab_requests_total HTTP requests by route and status.\n"
     << "# TYPE hpcab_requests_total counter\n";
  for (const auto& [k, v] : requests_) {
    os << "hpcab_requests_total{route=\"" << k.first << "\",status=\"" << k.second << "\"} " << v
       << "\n";
  }
  os << "# HELP hpcab_grades_total Grades by route and verdict.\n"
     << "# TYPE hpcab_grades_total counter\n";
  for (const auto& [k, v] : grades_) {
    os << "hpcab_grades_total{route=\"" << k.first << "\",verdict=\"" << k.second << "\"} " << v
       << "\n";
  }
  os << "# HELP hpcab_grade_seconds Wall time of whole grades (build, runs, compare, record).\n"
     << "# TYPE hpcab_grade_seconds summary\n"
     << "hpcab_grade_seconds_sum " << grade_seconds_sum_ << "\n"
     << "hpcab_grade_seconds_count " << grade_seconds_count_ << "\n"
     << "# HELP hpcab_stage_seconds Wall time per grade stage (build, inputs, candidate, "
        "baseline, oracle, compare, record).\n"
     << "# TYPE hpcab_stage_seconds summary\n";
  for (const auto& [stage, v] : stage_seconds_) {
    os << "hpcab_stage_seconds_sum{stage=\"" << stage << "\"} " << v.first << "\n"
       << "hpcab_stage_seconds_count{stage=\"" << stage << "\"} " << v.second << "\n";
  }
  os << "# HELP hpcab_queue_waiting Jobs waiting in the grading queue.\n"
     << "# TYPE hpcab_queue_waiting gauge\n"
     << "hpcab_queue_waiting " << waiting << "\n"
     << "# HELP hpcab_queue_running Jobs being graded now.\n"
     << "# TYPE hpcab_queue_running gauge\n"
     << "hpcab_queue_running " << running << "\n";
  return os.str();
}

// ---------------------------------------------------------------------------------------------
// Helpers

namespace {

HttpResponse json_response(const json& body, int status = 200) {
  HttpResponse r;
  r.status = status;
  r.body = body.dump();
  return r;
}

// The rank check (SPEC §4): 400 when missing or malformed, 421 when it is another judge's.
std::optional<HttpResponse> check_rank(const std::optional<int>& rank, bool present, int own) {
  if (!present) {
    return error_response(400,
                          "missing 'rank' (this judge serves rank " + std::to_string(own) + ")");
  }
  if (!rank) {
    return error_response(400, "'rank' must be a non-negative ASCII integer");
  }
  if (*rank != own) {
    HttpResponse r;
    r.status = 421;
    r.body = json{
        {"error", "misdirected request: this judge serves rank " + std::to_string(own) +
                      ", the request names rank " + std::to_string(*rank)},
        {"rank", own},
        {"requested_rank",
         *rank}}.dump();
    return r;
  }
  return std::nullopt;
}

std::optional<HttpResponse> check_query_rank(const std::map<std::string, std::string>& q, int own) {
  auto it = q.find("rank");
  return check_rank(it == q.end() ? std::nullopt : parse_rank_text(it->second), it != q.end(), own);
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Resolves `rel` inside `root`; nullopt when it escapes (.., symlinks) or does not exist.
std::optional<fs::path> inside_dir(const std::string& root, const std::string& rel) {
  std::error_code ec;
  fs::path base = fs::canonical(root, ec);
  if (ec) return std::nullopt;
  // The OS would read a path only up to a NUL byte; refuse it rather than resolve a prefix.
  if (rel.empty() || rel.find('\0') != std::string::npos) return std::nullopt;
  fs::path p = fs::path(rel).is_absolute() ? fs::path(rel) : base / rel;
  fs::path real = fs::canonical(p, ec);
  if (ec) return std::nullopt;
  auto [b, r] = std::mismatch(base.begin(), base.end(), real.begin(), real.end());
  if (b != base.end()) return std::nullopt;
  if (!fs::is_regular_file(real, ec)) return std::nullopt;
  return real;
}

// Admin responses quote stored text (build logs carry compiler output): invalid UTF-8 is
// replaced rather than failing the response.
HttpResponse lenient_json_response(const json& body) {
  HttpResponse r;
  r.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  return r;
}

// A stored JSON text as JSON; a text that does not parse is returned as the string itself.
json stored_json(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return j.is_discarded() ? json(text) : j;
}

// Non-negative ASCII decimal of at most `digits` digits.
std::optional<int64_t> parse_count(const std::string& s, std::size_t digits) {
  if (s.empty() || s.size() > digits) return std::nullopt;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  return std::stoll(s);
}

constexpr int64_t kAdminDefaultLimit = 100;
constexpr int64_t kAdminMaxLimit = 1000;
// The results page groups what it lists by kernel, so by default it lists as much as it may.
constexpr int64_t kResultsDefaultLimit = kAdminMaxLimit;

// The listing filters of /admin/submissions and the results page: exact-match text filters,
// `limit` 1 to kAdminMaxLimit and (admin only) `offset`. Any other parameter is refused, so a
// misspelt filter never silently lists everything. Returns the 400 to answer, or fills `f`.
std::optional<HttpResponse> parse_submission_filter(const std::map<std::string, std::string>& q,
                                                    bool with_offset, int64_t default_limit,
                                                    SubmissionFilter& f) {
  for (const auto& [k, v] : q) {
    const bool known = k == "kernel" || k == "run_id" || k == "optimizer" || k == "verdict" ||
                       k == "limit" || (with_offset && k == "offset");
    if (!known) {
      return error_response(400, "unknown query parameter '" + k +
                                     "' (kernel, run_id, optimizer, verdict, limit" +
                                     (with_offset ? ", offset)" : ")"));
    }
  }
  auto text = [&q](const char* k) -> std::optional<std::string> {
    auto it = q.find(k);
    return it == q.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  f.kernel = text("kernel");
  f.run_id = text("run_id");
  f.optimizer = text("optimizer");
  f.verdict = text("verdict");
  f.limit = default_limit;
  if (auto l = text("limit")) {
    auto n = parse_count(*l, 4);
    if (!n || *n < 1 || *n > kAdminMaxLimit) {
      return error_response(
          400, "'limit' must be an integer from 1 to " + std::to_string(kAdminMaxLimit));
    }
    f.limit = *n;
  }
  if (auto o = text("offset")) {
    auto n = parse_count(*o, 15);
    if (!n) return error_response(400, "'offset' must be a non-negative integer");
    f.offset = *n;
  }
  return std::nullopt;
}

const char* kAbiDoc =
    "C ABI: void <kernel>_<fp64|fp32>(array pointers sorted by name (ASCII), then scalars and "
    "size symbols sorted by name (ASCII), then uint8_t *restrict workspace, const int64_t "
    "workspace_size). Pointers to inputs are const, all pointers restrict; integer scalars and "
    "sizes are const int64_t; real scalars const double (fp64) / const float (fp32). Arrays are "
    "contiguous and row-major. Write every output element; never write inputs; return with no "
    "threads or processes left running; no timing, no allocation of outputs. C++ uses extern "
    "\"C\" and __restrict__; Fortran uses bind(C) with value scalars.";

}  // namespace

std::string stub_source(const Manifest& m, Precision p, const std::string& language) {
  if (language == "fortran") {
    std::string iface = fortran_interface(m, p);
    // The interface block's body is a valid subroutine definition with an empty body.
    auto start = iface.find("  subroutine");
    auto end = iface.find("end interface");
    std::string body = iface.substr(start, end - start);
    std::string out;
    std::stringstream ss(body);
    for (std::string line; std::getline(ss, line);) {
      out += (line.size() >= 2 ? line.substr(2) : line) + "\n";
      if (line.find("implicit none") != std::string::npos) continue;
    }
    return "! " + m.id + ": write the kernel in this subroutine.\n" + out;
  }
  std::string proto = language == "cpp" ? cpp_prototype(m, p) : c_prototype(m, p);
  proto.pop_back();  // the ';'
  std::string head = language == "cpp" ? "#include <cstdint>\n\n"
                                       : "#include <stdbool.h>\n#include <stdint.h>\n\n";
  return head + proto + " {\n  /* " + m.id + ": write the kernel here. */\n}\n";
}

Routes::Routes(const JudgeConfig& config, Grader* grader, JobQueue* queue, Metrics* metrics,
               Store* store, const Access* access)
    : config_(config),
      grader_(grader),
      queue_(queue),
      metrics_(metrics),
      store_(store),
      access_(access) {}

HttpResponse Routes::health(const std::map<std::string, std::string>&) {
  // Any rank may ask: /health reports this judge's own rank.
  return json_response({{"status", "ok"},
                        {"rank", config_.rank},
                        {"version", HPCAB_VERSION},
                        {"kernels", grader_->corpus().size()},
                        {"oracle", "reference.c"},
                        {"baseline", config_.track_baseline},
                        {"input_mode", config_.input_mode},
                        {"queue_waiting", queue_->waiting()},
                        {"machine", grader_->machine()}});
}

HttpResponse Routes::task(const std::string& id, const std::map<std::string, std::string>& q) {
  if (auto bad = check_query_rank(q, config_.rank)) return *bad;
  const Manifest* m = valid_kernel_name(id) ? grader_->kernel(id) : nullptr;
  if (!m) return error_response(404, "unknown kernel '" + id + "'");
  std::string language = q.count("language") ? q.at("language") : "c";
  if (!known_language(language)) {
    return error_response(400, "unknown language '" + language + "' (c, cpp or fortran)");
  }
  std::string precision = q.count("precision") ? q.at("precision") : "fp64";
  auto p = parse_precision(precision);
  if (!p || !m->supports(*p)) {
    return error_response(400,
                          "kernel '" + id + "' does not support precision '" + precision + "'");
  }
  std::string preset = q.count("preset") ? q.at("preset") : config_.default_preset;
  if (!m->presets.count(preset)) return error_response(400, "unknown preset '" + preset + "'");
  json precisions = json::array();
  for (auto x : m->precisions) precisions.push_back(precision_name(x));
  json sizes = json::object();
  for (const auto& [k, v] : m->presets.at(preset)) sizes[k] = v;
  json arrays = json::array();
  for (const auto& a : m->arrays) {
    json shape = json::array();
    for (const auto& e : a.shape) shape.push_back(e.text());
    arrays.push_back({{"name", a.name},
                      {"dtype", a.fixed_dtype ? std::string(dtype_name(*a.fixed_dtype)) : "real"},
                      {"shape", shape},
                      {"intent", a.intent == Intent::kIn    ? "in"
                                 : a.intent == Intent::kOut ? "out"
                                                            : "inout"}});
  }
  Tolerance band = tolerance_band(*p);
  std::string base = grader_->baseline_name(*m);
  return json_response(
      {{"kernel", m->id},
       {"name", m->name},
       {"description", m->description},
       {"track", m->track},
       {"dwarf", m->dwarf.empty() ? json(nullptr) : json(m->dwarf)},
       {"level", m->level},
       {"language", language},
       {"precision", precision},
       {"precisions", precisions},
       {"signature", stub_source(*m, *p, language)},
       {"symbol", abi_symbol(*m, *p)},
       {"prototype", language == "cpp" ? cpp_prototype(*m, *p) : c_prototype(*m, *p)},
       {"reference_numpy", read_text(m->reference_py())},
       {"rtol", band.rtol},
       {"atol", band.atol},
       {"reduction_length",
        m->reduction_length ? json(m->reduction_length->text()) : json(nullptr)},
       {"preset", preset},
       {"sizes", sizes},
       {"arrays", arrays},
       {"oracle", "reference.c"},
       {"baseline", base},
       {"input_mode", config_.input_mode},
       {"abi_doc", kAbiDoc},
       {"goal", "Make " + abi_symbol(*m, *p) + " faster than the '" + base +
                    "' baseline (reference.c" +
                    (base == "c-autopar" ? " with automatic parallelization" : ", sequential") +
                    ") while matching reference_numpy within rtol/atol on every output. POST "
                    "/score to iterate on the public inputs; POST /submit once for the final, "
                    "recorded answer graded on hidden inputs."}});
}

void Routes::baseline(const std::string& id, const std::map<std::string, std::string>& q,
                      Responder respond) {
  if (auto bad = check_query_rank(q, config_.rank)) return respond(*bad);
  const Manifest* m = valid_kernel_name(id) ? grader_->kernel(id) : nullptr;
  if (!m) return respond(error_response(404, "unknown kernel '" + id + "'"));
  std::string preset = q.count("preset") ? q.at("preset") : config_.default_preset;
  if (!m->presets.count(preset))
    return respond(error_response(400, "unknown preset '" + preset + "'"));
  std::string precision = q.count("precision") ? q.at("precision") : "fp64";
  auto p = parse_precision(precision);
  if (!p || !m->supports(*p)) {
    return respond(error_response(400, "precision '" + precision + "' not supported"));
  }
  bool queued = queue_->try_push([this, m, preset, precision, respond] {
    auto r = grader_->baseline_times(*m, preset, precision);
    respond(r ? json_response(*r) : error_response(500, r.error().message));
  });
  if (!queued) {
    auto r = error_response(429, "the grading queue is full; retry later");
    r.headers.push_back({"Retry-After", "5"});
    respond(r);
  }
}

void Routes::grade(const std::string& route, const HttpRequest& req, Responder respond) {
  auto parsed = parse_json_body(req.body, config_.max_json_depth);
  if (!parsed) return respond(error_response(400, parsed.error().message));
  json body = std::move(*parsed);
  if (!body.is_object()) return respond(error_response(400, "body must be a JSON object"));

  // rank: an integer, or a string of ASCII digits.
  std::optional<int> rank;
  bool has_rank = body.contains("rank") && !body["rank"].is_null();
  if (has_rank) rank = parse_rank_json(body["rank"]);
  if (auto bad = check_rank(rank, has_rank, config_.rank)) return respond(*bad);

  auto str_field = [&](const char* k, std::string def) -> std::optional<std::string> {
    if (!body.contains(k) || body[k].is_null()) return def;
    if (!body[k].is_string()) return std::nullopt;
    return body[k].get<std::string>();
  };
  GradeRequest g;
  g.route = route;
  g.rank = *rank;
  g.received_at =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  auto kernel = str_field("kernel", "");
  if (!kernel || kernel->empty()) return respond(error_response(400, "'kernel' must be a string"));
  const Manifest* m = valid_kernel_name(*kernel) ? grader_->kernel(*kernel) : nullptr;
  if (!m) return respond(error_response(404, "unknown kernel '" + *kernel + "'"));
  g.kernel = m->id;
  auto language = str_field("language", "c");
  if (!language || !known_language(*language)) {
    return respond(error_response(400, "'language' must be c, cpp or fortran"));
  }
  g.language = *language;
  auto precision = str_field("precision", "fp64");
  auto p = precision ? parse_precision(*precision) : std::nullopt;
  if (!p || !m->supports(*p)) {
    return respond(error_response(400, "'precision' must be one of the kernel's precisions"));
  }
  g.precision = *precision;

  int given = 0;
  for (const char* k : {"source", "source_file", "library"}) {
    if (body.contains(k) && !body[k].is_null()) ++given;
  }
  if (given != 1) {
    return respond(error_response(400, "give exactly one of 'source', 'source_file' or 'library'"));
  }
  const bool sources_ok = config_.input_mode == "source" || config_.input_mode == "any";
  const bool libraries_ok = config_.input_mode == "library" || config_.input_mode == "any";
  if (body.contains("source") && !body["source"].is_null()) {
    if (!body["source"].is_string())
      return respond(error_response(400, "'source' must be a string"));
    if (!sources_ok) {
      return respond(error_response(400, "this judge runs with input mode '" + config_.input_mode +
                                             "': source submissions are not accepted"));
    }
    g.source = body["source"].get<std::string>();
  } else {
    const char* field =
        body.contains("library") && !body["library"].is_null() ? "library" : "source_file";
    bool is_library = std::string(field) == "library";
    if (!body[field].is_string()) {
      return respond(error_response(400, std::string("'") + field + "' must be a string"));
    }
    if (config_.shared_dir.empty()) {
      return respond(error_response(
          400, std::string("'") + field + "' needs a judge started with --shared-dir"));
    }
    if (is_library ? !libraries_ok : !sources_ok) {
      return respond(error_response(400, "this judge runs with input mode '" + config_.input_mode +
                                             "': '" + field + "' is not accepted"));
    }
    auto path = inside_dir(config_.shared_dir, body[field].get<std::string>());
    if (!path) {
      return respond(error_response(
          400, std::string("'") + field +
                   "' must name an existing file inside the judge's shared directory; refused"));
    }
    if (is_library) {
      g.library_path = path->string();
    } else {
      // Checked before reading: the file may be far larger than the judge's memory.
      std::error_code size_ec;
      if (fs::file_size(*path, size_ec) > config_.max_source_bytes || size_ec) {
        return respond(error_response(
            413,
            "'source_file' is larger than " + std::to_string(config_.max_source_bytes) + " bytes"));
      }
      g.source = read_text(*path);
    }
  }
  if (g.source && g.source->size() > config_.max_source_bytes) {
    return respond(error_response(
        413, "source is larger than " + std::to_string(config_.max_source_bytes) + " bytes"));
  }
  if (body.contains("build") && !body["build"].is_null()) {
    if (!body["build"].is_array()) return respond(error_response(400, "'build' must be a list"));
    for (const auto& t : body["build"]) {
      if (!t.is_string()) return respond(error_response(400, "'build' must be a list of strings"));
      g.build_tokens.push_back(t.get<std::string>());
    }
    if (auto st = validate_build_tokens(g.build_tokens); !st) {
      return respond(error_response(400, st.error().message));
    }
  }
  if (body.contains("workspace_bytes") && !body["workspace_bytes"].is_null()) {
    const json& w = body["workspace_bytes"];
    std::string text;
    if (w.is_number_unsigned()) {
      text = std::to_string(w.get<uint64_t>());
    } else if (w.is_string()) {
      text = w.get<std::string>();
    } else {
      return respond(error_response(400,
                                    "'workspace_bytes' must be a non-negative integer or a "
                                    "size expression"));
    }
    auto e = Expr::parse(text);
    if (!e) return respond(error_response(400, "'workspace_bytes': " + e.error().message));
    auto v = e->eval(m->symbols(m->presets.at("S")));
    if (!v) return respond(error_response(400, "'workspace_bytes': " + v.error().message));
    if (*v < 0 || *v > kMaxWorkspaceBytes) {
      return respond(error_response(400, "'workspace_bytes' is " + std::to_string(*v) +
                                             " bytes at preset S; it must be between 0 and " +
                                             std::to_string(kMaxWorkspaceBytes)));
    }
    g.workspace_bytes = text;
  }
  if (body.contains("preset") && !body["preset"].is_null()) {
    if (!body["preset"].is_string() || !m->presets.count(body["preset"].get<std::string>())) {
      return respond(error_response(400, "'preset' must be S, M, L or XL"));
    }
    g.preset = body["preset"].get<std::string>();
  }
  auto run_id = str_field("run_id", "");
  auto optimizer = str_field("optimizer", "");
  if (!run_id || !optimizer) {
    return respond(error_response(400, "'run_id' and 'optimizer' must be strings"));
  }
  g.run_id = *run_id;
  g.optimizer = *optimizer;
  if (body.contains("tokens") && !body["tokens"].is_null()) {
    // An unsigned value above INT64_MAX is out of range too (it would wrap negative).
    const json& t = body["tokens"];
    if (!t.is_number_integer() ||
        (t.is_number_unsigned() ? t.get<uint64_t>() > uint64_t{INT64_MAX} : t.get<int64_t>() < 0)) {
      return respond(error_response(400, "'tokens' must be a non-negative integer or null"));
    }
    g.tokens = body["tokens"].get<int64_t>();
  }

  Metrics* metrics = metrics_;
  Grader* grader = grader_;
  bool queued = queue_->try_push([g, respond, metrics, grader] {
    auto t0 = std::chrono::steady_clock::now();
    json result = grader->grade(g);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    metrics->grade(g.route, result.value("verdict", "judge_error"), secs);
    if (result.contains("timings_s") && result["timings_s"].is_object()) {
      metrics->stages(result["timings_s"].get<std::map<std::string, double>>());
    }
    spdlog::info("{} {} {} -> {} (speedup {}) in {:.2f} s", g.route, g.kernel, g.language,
                 result.value("verdict", "?"), result["speedup"].dump(), secs);
    respond(json_response(result));
  });
  if (!queued) {
    auto r =
        error_response(429, "the grading queue is full (" + std::to_string(config_.queue_depth) +
                                " waiting); retry later");
    r.headers.push_back({"Retry-After", "10"});
    respond(r);
  }
}

HttpResponse Routes::admin_submissions(const std::map<std::string, std::string>& q) {
  SubmissionFilter f;
  if (auto bad = parse_submission_filter(q, /*with_offset=*/true, kAdminDefaultLimit, f)) {
    return *bad;
  }
  if (!store_) return error_response(500, "the judge has no database attached");
  auto page = store_->list_submissions(f);
  if (!page) return error_response(500, page.error().message);
  json rows = json::array();
  for (const auto& s : page->rows) {
    rows.push_back({{"submission_id", s.id},
                    {"kernel", s.kernel},
                    {"language", s.language},
                    {"precision", s.precision},
                    {"preset", s.preset},
                    {"verdict", s.verdict},
                    {"speedup", s.speedup ? json(*s.speedup) : json(nullptr)},
                    {"suspect", s.suspect},
                    {"run_id", s.run_id},
                    {"optimizer", s.optimizer},
                    {"received_at", s.received_at},
                    {"finished_at", s.finished_at},
                    {"content_hash", s.content_hash}});
  }
  return lenient_json_response({{"submissions", std::move(rows)},
                                {"total", page->total},
                                {"limit", f.limit},
                                {"offset", f.offset}});
}

HttpResponse Routes::admin_submission(const std::string& id_text) {
  auto id = parse_count(id_text, 18);
  if (!id || *id < 1) {
    return error_response(400, "submission id must be a positive integer (got '" + id_text + "')");
  }
  if (!store_) return error_response(500, "the judge has no database attached");
  auto got = store_->get_submission(*id);
  if (!got) return error_response(500, got.error().message);
  if (!got->has_value()) return error_response(404, "no submission " + std::to_string(*id));
  const SubmissionRecord& r = **got;
  auto opt = [](const auto& v) { return v ? json(*v) : json(nullptr); };
  json configs = json::array();
  for (const auto& c : r.configs) {
    configs.push_back({{"config", c.config},
                       {"sizes", stored_json(c.sizes_json)},
                       {"candidate_median_ns", c.candidate_median_ns},
                       {"baseline_median_ns", c.baseline_median_ns},
                       {"ratio", c.ratio},
                       {"p_faster", c.p_faster},
                       {"p_slower", c.p_slower},
                       {"credit", c.credit},
                       {"suspect", c.suspect}});
  }
  json samples = json::array();
  for (const auto& set : r.samples) {
    samples.push_back({{"config", set.config}, {"side", set.side}, {"ns", set.ns}});
  }
  // NaN statistics dump as null (strict JSON, SPEC §4).
  return lenient_json_response({{"submission_id", *id},
                                {"route", r.route},
                                {"rank", r.rank},
                                {"kernel", r.kernel},
                                {"language", r.language},
                                {"precision", r.precision},
                                {"preset", r.preset},
                                {"sizes", stored_json(r.sizes_json)},
                                {"source", r.source},
                                {"library_path", r.library_path},
                                {"build", stored_json(r.build_tokens_json)},
                                {"build_log", r.build_log},
                                {"content_hash", r.content_hash},
                                {"verdict", r.verdict},
                                {"detail", r.detail},
                                {"build_ok", r.build_ok},
                                {"correct", r.correct},
                                {"public_correct", r.public_correct},
                                {"hidden_correct", r.hidden_correct},
                                {"hidden_passed", r.hidden_passed},
                                {"hidden_total", r.hidden_total},
                                {"speedup", opt(r.speedup)},
                                {"baseline", r.baseline},
                                {"native_ns", opt(r.native_ns)},
                                {"baseline_ns", opt(r.baseline_ns)},
                                {"max_rel_error", opt(r.max_rel_error)},
                                {"suspect", r.suspect},
                                {"timed_out", r.timed_out},
                                {"machine", r.machine},
                                {"judge_version", r.judge_version},
                                {"run_id", r.run_id},
                                {"optimizer", r.optimizer},
                                {"tokens", opt(r.tokens)},
                                {"workspace_bytes", opt(r.workspace_bytes)},
                                {"received_at", r.received_at},
                                {"finished_at", r.finished_at},
                                {"response", stored_json(r.response_json)},
                                {"configs", std::move(configs)},
                                {"samples", std::move(samples)}});
}

HttpResponse Routes::results_page(const std::map<std::string, std::string>& q) {
  SubmissionFilter f;
  if (auto bad = parse_submission_filter(q, /*with_offset=*/false, kResultsDefaultLimit, f)) {
    return *bad;
  }
  if (!store_) return error_response(500, "the judge has no database attached");
  auto page = store_->list_submissions(f);
  if (!page) return error_response(500, page.error().message);
  ResultsPageView view;
  view.rows = std::move(page->rows);
  view.total = page->total;
  view.limit = f.limit;
  for (const auto& [k, v] : q) {
    if (k != "limit") view.filters[k] = v;
  }
  view.rank = config_.rank;
  view.judge_version = HPCAB_VERSION;
  view.generated_at =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  return results_html_response(render_results_page(view));
}

HttpResponse Routes::results_source(const std::string& id_text) {
  auto id = parse_count(id_text, 18);
  if (!id || *id < 1) {
    return error_response(400, "submission id must be a positive integer (got '" + id_text + "')");
  }
  if (!store_) return error_response(500, "the judge has no database attached");
  auto got = store_->get_submission(*id);
  if (!got) return error_response(500, got.error().message);
  if (!got->has_value()) return error_response(404, "no submission " + std::to_string(*id));
  return results_text_response(render_source_text(*id, **got));
}

void Routes::handle(HttpRequest req, Responder respond) {
  RequestTarget target = split_target(req.target);
  const std::string& path = target.path;
  const std::map<std::string, std::string>& query = target.query;
  // The metrics label: only known routes, so a client cannot mint label values (unbounded
  // memory, or quotes and newlines breaking the exposition format) with made-up paths.
  std::string route = "other";
  if (path == "/health" || path == "/metrics" || path == "/score" || path == "/submit" ||
      path == "/oracle") {
    route = path;
  }
  if (path.rfind("/task/", 0) == 0) route = "/task";
  if (path.rfind("/baseline/", 0) == 0) route = "/baseline";
  if (is_admin_path(path)) route = "/admin";
  if (is_results_path(path)) route = "/results";
  Metrics* metrics = metrics_;
  auto counted = [metrics, route, respond](HttpResponse r) {
    metrics->request(route, r.status);
    respond(std::move(r));
  };
  // Access control comes before any route (SPEC §4 additions, docs/api.md "Access control").
  static const Access kNoTokens;
  if (auto denied = (access_ ? *access_ : kNoTokens).check(path, req.headers)) {
    metrics->request(route, denied->status);
    return respond(std::move(*denied));
  }
  bool target_ok = valid_utf8(path);
  for (const auto& [k, v] : query) target_ok = target_ok && valid_utf8(k) && valid_utf8(v);
  if (!target_ok) {
    return counted(error_response(400,
                                  "the request target is not valid UTF-8 once "
                                  "percent-decoded"));
  }
  const bool get = req.method == "GET";
  const bool post = req.method == "POST";
  if (path == "/health") {
    if (!get) return counted(error_response(405, "use GET /health"));
    return counted(health(query));
  }
  if (path == "/metrics") {
    if (!get) return counted(error_response(405, "use GET /metrics"));
    HttpResponse r;
    r.content_type = "text/plain; version=0.0.4";
    r.body = metrics_->render(queue_->waiting(), queue_->running());
    return counted(r);
  }
  if (route == "/task") {
    if (!get) return counted(error_response(405, "use GET /task/<kernel>"));
    return counted(task(path.substr(6), query));
  }
  if (route == "/baseline") {
    if (!get) return counted(error_response(405, "use GET /baseline/<kernel>"));
    return baseline(path.substr(10), query, counted);
  }
  if (path == "/score" || path == "/submit" || path == "/oracle") {
    if (!post) return counted(error_response(405, "use POST " + path));
    return grade(path == "/score"    ? "score"
                 : path == "/oracle" ? "oracle"
                                     : "submit",
                 req, counted);
  }
  if (path == "/admin/submissions") {
    if (!get) return counted(error_response(405, "use GET /admin/submissions"));
    return counted(admin_submissions(query));
  }
  if (path.rfind("/admin/submissions/", 0) == 0) {
    if (!get) return counted(error_response(405, "use GET /admin/submissions/<id>"));
    return counted(admin_submission(path.substr(19)));
  }
  if (route == "/results") {
    if (!config_.results_page) {
      return counted(error_response(
          404, "the results page is turned off on this judge (setting results_page: false)"));
    }
    if (!get) return counted(error_response(405, "use GET " + path));
    if (path == "/" || path == "/results") return counted(results_page(query));
    // /results/<id>/source
    const std::string rest = path.substr(9);
    const auto slash = rest.find('/');
    if (slash != std::string::npos && rest.compare(slash, std::string::npos, "/source") == 0) {
      return counted(results_source(rest.substr(0, slash)));
    }
    return counted(error_response(404, "no route GET " + path +
                                           " (the results page has / , /results and "
                                           "/results/<id>/source)"));
  }
  return counted(error_response(404, "no route " + req.method + " " + path));
}

}  // namespace hpcab::judge
