// hpcab-load: a bounded load test for a running judge. N clients, each a thread with
// one keep-alive connection, send a weighted mix of GET /health, GET /task/<kernel> and
// POST /score for a fixed duration, then finish the request they have in flight. Prints
// throughput, p50/p99 latency per route, counts by status class and the number of lost grades:
// /score requests that got no graded answer (a 200 without a verdict or with verdict
// judge_error, a 5xx, a dropped connection). 429/503 with Retry-After are load shedding, not
// errors: counted apart and retried after the advertised delay (a /score still being shed when
// the time is up is "shed", not lost).
//
// Exit status: 0 when there were no 5xx, no lost grades, no transport errors and no 4xx other
// than shedding; 1 otherwise; 2 for bad arguments or an unreachable judge.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "common/http_client.h"

namespace hpcab {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace fs = std::filesystem;
using tcp = asio::ip::tcp;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

enum Route { kHealth = 0, kTask = 1, kScore = 2, kRoutes = 3 };
const char* const kRouteNames[kRoutes] = {"health", "task", "score"};

struct Options {
  std::string url = "http://127.0.0.1:8800";
  int clients = 64;
  double duration_s = 30;
  std::string mix = "8:4:1";
  std::vector<std::string> kernels = {"tsvc_2_s000"};
  std::string source_dir;  // <dir>/<kernel>.c for /score; default: the /task stub
  int rank = 0;
  double timeout_s = 600;  // one request; grades queue behind each other
  std::string out;
  unsigned seed = 1;
};

// What one client saw; merged at the end.
struct Tally {
  std::vector<double> latency_ms[kRoutes];
  std::map<int, uint64_t> status[kRoutes];
  uint64_t in_window = 0;                           // answers that arrived before the deadline
  uint64_t shed_retried = 0, transport_errors = 0;  // shed: 429/503 with Retry-After
  uint64_t server_errors = 0, other_4xx = 0;        // 5xx not shedding; 4xx not 429
  uint64_t score_requested = 0, score_graded = 0, score_lost = 0, score_shed_unfinished = 0;
  uint64_t judge_errors = 0;
  std::map<std::string, uint64_t> verdicts;
  std::vector<std::string> problems;  // first few, for the report

  void problem(std::string s) {
    if (problems.size() < 5) problems.push_back(std::move(s));
  }
  void merge(const Tally& o) {
    for (int r = 0; r < kRoutes; ++r) {
      latency_ms[r].insert(latency_ms[r].end(), o.latency_ms[r].begin(), o.latency_ms[r].end());
      for (const auto& [s, n] : o.status[r]) status[r][s] += n;
    }
    in_window += o.in_window;
    shed_retried += o.shed_retried;
    server_errors += o.server_errors;
    other_4xx += o.other_4xx;
    transport_errors += o.transport_errors;
    score_requested += o.score_requested;
    score_graded += o.score_graded;
    score_lost += o.score_lost;
    score_shed_unfinished += o.score_shed_unfinished;
    judge_errors += o.judge_errors;
    for (const auto& [v, n] : o.verdicts) verdicts[v] += n;
    for (const auto& p : o.problems) problem(p);
  }
};

struct Answer {
  int status = 0;
  std::string body;
  std::optional<double> retry_after_s;
};

// One keep-alive connection with per-request deadlines (Beast's deadlines need asynchronous
// operations, so each request runs a private io_context to completion).
class Connection {
 public:
  Connection(std::string host, std::string port) : host_(std::move(host)), port_(std::move(port)) {}

  // An error string for transport failures (refused, reset, timed out), else the answer.
  std::variant<Answer, std::string> request(http::verb verb, const std::string& target,
                                            const std::string& body, double timeout_s) {
    ioc_.restart();
    std::string failure;
    Answer answer;
    auto deadline =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
    req_ = {verb, target, 11};
    req_.set(http::field::host, host_);
    req_.set(http::field::user_agent, "hpcab-load");
    req_.keep_alive(true);
    if (verb == http::verb::post) {
      req_.set(http::field::content_type, "application/json");
      req_.body() = body;
    }
    req_.prepare_payload();
    res_.emplace();
    res_->body_limit(64u << 20);
    auto fail = [&failure](const char* what, beast::error_code ec) {
      failure = std::string(what) + ": " + ec.message();
    };
    auto read = [&] {
      stream_->expires_after(deadline);
      http::async_read(*stream_, buffer_, *res_, [&](beast::error_code ec, std::size_t) {
        if (ec) return fail("read", ec);
        const auto& msg = res_->get();
        answer.status = static_cast<int>(msg.result_int());
        answer.body = msg.body();
        auto ra = msg.find(http::field::retry_after);
        if (ra != msg.end()) {
          try {
            answer.retry_after_s = std::stod(std::string(ra->value()));
          } catch (...) {
          }
        }
        keep_ = msg.keep_alive();
      });
    };
    auto write = [&] {
      stream_->expires_after(deadline);
      http::async_write(*stream_, req_, [&](beast::error_code ec, std::size_t) {
        if (ec) return fail("write", ec);
        read();
      });
    };
    if (!stream_) {
      stream_.emplace(ioc_);
      buffer_.clear();
      tcp::resolver resolver(ioc_);
      beast::error_code ec;
      auto results = resolver.resolve(host_, port_, ec);
      if (ec) {
        stream_.reset();
        return "resolve: " + ec.message();
      }
      stream_->expires_after(deadline);
      stream_->async_connect(results, [&](beast::error_code c_ec, const tcp::endpoint&) {
        if (c_ec) return fail("connect", c_ec);
        write();
      });
    } else {
      write();
    }
    ioc_.run();
    if (!failure.empty() || !keep_) {
      beast::error_code ignore;
      if (stream_) stream_->socket().shutdown(tcp::socket::shutdown_both, ignore);
      stream_.reset();
    }
    if (!failure.empty()) return failure;
    return answer;
  }

 private:
  std::string host_, port_;
  asio::io_context ioc_;
  std::optional<beast::tcp_stream> stream_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> req_;
  std::optional<http::response_parser<http::string_body>> res_;
  bool keep_ = true;
};

struct Target {
  std::string host, port, base_path;
};

std::optional<Target> parse_url(const std::string& url) {
  const std::string scheme = "http://";
  if (url.rfind(scheme, 0) != 0) return std::nullopt;
  std::string rest = url.substr(scheme.size());
  auto slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  auto colon = authority.rfind(':');
  if (colon == std::string::npos || colon + 1 == authority.size()) return std::nullopt;
  Target t{authority.substr(0, colon), authority.substr(colon + 1), ""};
  if (slash != std::string::npos) t.base_path = rest.substr(slash);
  while (!t.base_path.empty() && t.base_path.back() == '/') t.base_path.pop_back();
  return t;
}

void client(const Options& o, const Target& t, const std::vector<double>& weights,
            const std::map<std::string, std::string>& sources, Clock::time_point deadline,
            unsigned seed, Tally& tally) {
  std::mt19937 rng(seed);
  std::discrete_distribution<int> pick(weights.begin(), weights.end());
  std::uniform_int_distribution<std::size_t> pick_kernel(0, o.kernels.size() - 1);
  Connection conn(t.host, t.port);
  const std::string rank = std::to_string(o.rank);
  while (Clock::now() < deadline) {
    const int route = pick(rng);
    const std::string& kernel = o.kernels[pick_kernel(rng)];
    http::verb verb = http::verb::get;
    std::string target, body;
    if (route == kHealth) {
      target = t.base_path + "/health";
    } else if (route == kTask) {
      target = t.base_path + "/task/" + kernel + "?language=c&rank=" + rank;
    } else {
      verb = http::verb::post;
      target = t.base_path + "/score";
      body = json{{"kernel", kernel},       {"language", "c"},
                  {"rank", o.rank},         {"source", sources.at(kernel)},
                  {"run_id", "hpcab-load"}, {"optimizer", "load"}}
                 .dump();
      ++tally.score_requested;
    }
    for (;;) {  // retries after load shedding
      const auto t0 = Clock::now();
      auto r = conn.request(verb, target, body, o.timeout_s);
      const auto t1 = Clock::now();
      if (std::holds_alternative<std::string>(r)) {
        ++tally.transport_errors;
        if (route == kScore) ++tally.score_lost;
        tally.problem(std::string(kRouteNames[route]) + ": " + std::get<std::string>(r));
        break;
      }
      const Answer& a = std::get<Answer>(r);
      tally.latency_ms[route].push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      ++tally.status[route][a.status];
      if (t1 <= deadline) ++tally.in_window;
      if ((a.status == 429 || a.status == 503) && a.retry_after_s) {
        ++tally.shed_retried;
        auto wake = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(*a.retry_after_s));
        if (wake >= deadline) {
          if (route == kScore) ++tally.score_shed_unfinished;
          std::this_thread::sleep_until(deadline);
          break;
        }
        std::this_thread::sleep_until(wake);
        continue;
      }
      if (a.status >= 500) {
        ++tally.server_errors;
        if (route == kScore) ++tally.score_lost;
        tally.problem(std::string(kRouteNames[route]) + ": HTTP " + std::to_string(a.status) + " " +
                      a.body.substr(0, 200));
      } else if (a.status != 200) {
        if (a.status >= 400) ++tally.other_4xx;
        tally.problem(std::string(kRouteNames[route]) + ": HTTP " + std::to_string(a.status) + " " +
                      a.body.substr(0, 200));
        if (route == kScore) ++tally.score_lost;
      } else if (route == kScore) {
        json j = json::parse(a.body, nullptr, false);
        std::string verdict;
        if (j.is_object() && j.contains("verdict") && j["verdict"].is_string()) {
          verdict = j["verdict"].get<std::string>();
        }
        if (verdict.empty() || verdict == "judge_error") {
          ++tally.score_lost;
          if (verdict == "judge_error") ++tally.judge_errors;
          tally.problem("score: no graded answer: " + a.body.substr(0, 300));
        } else {
          ++tally.score_graded;
        }
        ++tally.verdicts[verdict.empty() ? "(none)" : verdict];
      }
      break;
    }
  }
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1;
  return v[std::min(i, v.size() - 1)];
}

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

int run(const Options& o) {
  auto t = parse_url(o.url);
  if (!t) {
    std::cerr << "hpcab-load: --url must be http://host:port[/prefix], got " << o.url << "\n";
    return 2;
  }
  std::vector<double> weights;
  {
    std::string m = o.mix + ":";
    for (std::size_t pos = 0, next; (next = m.find(':', pos)) != std::string::npos;
         pos = next + 1) {
      try {
        weights.push_back(std::stod(m.substr(pos, next - pos)));
      } catch (...) {
        weights.clear();
        break;
      }
    }
    if (weights.size() != kRoutes ||
        std::any_of(weights.begin(), weights.end(), [](double w) { return !(w >= 0); }) ||
        weights[0] + weights[1] + weights[2] <= 0) {
      std::cerr << "hpcab-load: --mix must be three non-negative weights health:task:score, got "
                << o.mix << "\n";
      return 2;
    }
  }
  // Sources for /score: the given files, else the /task stub (a graded, incorrect answer).
  std::map<std::string, std::string> sources;
  for (const auto& k : o.kernels) {
    fs::path file = fs::path(o.source_dir) / (k + ".c");
    if (!o.source_dir.empty() && fs::exists(file)) {
      std::ifstream in(file);
      sources[k].assign(std::istreambuf_iterator<char>(in), {});
      continue;
    }
    auto r = http_request(
        "GET", o.url + "/task/" + k + "?language=c&rank=" + std::to_string(o.rank), "", {}, 60);
    if (!r.ok() || r->status != 200) {
      std::cerr << "hpcab-load: cannot fetch /task/" << k << ": "
                << (r.ok() ? "HTTP " + std::to_string(r->status) + " " + r->body
                           : r.error().message)
                << "\n";
      return 2;
    }
    json j = json::parse(r->body, nullptr, false);
    if (!j.is_object() || !j.contains("signature") || !j["signature"].is_string()) {
      std::cerr << "hpcab-load: /task/" << k << " has no signature\n";
      return 2;
    }
    sources[k] = j["signature"];
  }

  std::cout << "hpcab-load: " << o.clients << " clients for " << o.duration_s << " s against "
            << o.url << ", mix health:task:score = " << o.mix << ", kernels";
  for (const auto& k : o.kernels) std::cout << " " << k;
  std::cout << std::endl;
  std::vector<Tally> tallies(static_cast<std::size_t>(o.clients));
  std::vector<std::thread> threads;
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(o.duration_s));
  for (int c = 0; c < o.clients; ++c) {
    threads.emplace_back(client, std::cref(o), std::cref(*t), std::cref(weights),
                         std::cref(sources), deadline, o.seed * 7919u + static_cast<unsigned>(c),
                         std::ref(tallies[static_cast<std::size_t>(c)]));
  }
  for (auto& th : threads) th.join();
  const double total_s = std::chrono::duration<double>(Clock::now() - start).count();
  Tally all;
  for (const auto& x : tallies) all.merge(x);

  uint64_t answered = 0;
  json routes = json::object();
  for (int r = 0; r < kRoutes; ++r) {
    json statuses = json::object();
    for (const auto& [s, n] : all.status[r]) {
      statuses[std::to_string(s)] = n;
      answered += n;
    }
    routes[kRouteNames[r]] = {{"answers", all.latency_ms[r].size()},
                              {"p50_ms", number_or_null(percentile(all.latency_ms[r], 0.50))},
                              {"p99_ms", number_or_null(percentile(all.latency_ms[r], 0.99))},
                              {"max_ms", number_or_null(percentile(all.latency_ms[r], 1.0))},
                              {"status", statuses}};
  }
  const uint64_t ok_2xx = answered - all.shed_retried - all.server_errors - all.other_4xx;
  const bool ok = all.server_errors == 0 && all.score_lost == 0 && all.transport_errors == 0 &&
                  all.other_4xx == 0;
  json report = {{"url", o.url},
                 {"clients", o.clients},
                 {"duration_s", o.duration_s},
                 {"mix", o.mix},
                 {"kernels", o.kernels},
                 {"total_s", total_s},
                 {"answers", answered},
                 {"answers_in_window", all.in_window},
                 {"throughput_rps", static_cast<double>(all.in_window) / o.duration_s},
                 {"routes", routes},
                 {"classes",
                  {{"2xx", ok_2xx},
                   {"shed_429_503_retried", all.shed_retried},
                   {"4xx_other", all.other_4xx},
                   {"5xx", all.server_errors},
                   {"transport_errors", all.transport_errors}}},
                 {"score",
                  {{"requested", all.score_requested},
                   {"graded", all.score_graded},
                   {"lost", all.score_lost},
                   {"judge_error", all.judge_errors},
                   {"shed_unfinished_at_end", all.score_shed_unfinished},
                   {"verdicts", all.verdicts}}},
                 {"problems", all.problems},
                 {"ok", ok}};

  std::printf(
      "throughput: %.1f req/s (%llu answers in the %.0f s window; %llu in %.1f s with "
      "the drain)\n",
      static_cast<double>(all.in_window) / o.duration_s,
      static_cast<unsigned long long>(all.in_window), o.duration_s,
      static_cast<unsigned long long>(answered), total_s);
  std::printf("%-8s %9s %10s %10s %10s  %s\n", "route", "answers", "p50_ms", "p99_ms", "max_ms",
              "statuses");
  for (int r = 0; r < kRoutes; ++r) {
    std::string st;
    for (const auto& [s, n] : all.status[r])
      st += std::to_string(s) + ":" + std::to_string(n) + " ";
    std::printf("%-8s %9zu %10.2f %10.2f %10.2f  %s\n", kRouteNames[r], all.latency_ms[r].size(),
                percentile(all.latency_ms[r], 0.5), percentile(all.latency_ms[r], 0.99),
                percentile(all.latency_ms[r], 1.0), st.c_str());
  }
  std::printf(
      "classes: 2xx %llu, 429/503 shed (retried) %llu, other 4xx %llu, 5xx %llu, "
      "transport errors %llu\n",
      static_cast<unsigned long long>(ok_2xx), static_cast<unsigned long long>(all.shed_retried),
      static_cast<unsigned long long>(all.other_4xx),
      static_cast<unsigned long long>(all.server_errors),
      static_cast<unsigned long long>(all.transport_errors));
  std::printf("score: %llu requested, %llu graded, %llu lost, %llu still shed at the end\n",
              static_cast<unsigned long long>(all.score_requested),
              static_cast<unsigned long long>(all.score_graded),
              static_cast<unsigned long long>(all.score_lost),
              static_cast<unsigned long long>(all.score_shed_unfinished));
  for (const auto& p : all.problems) std::printf("problem: %s\n", p.c_str());
  std::printf("%s\n", ok ? "load: ok (no 5xx, no lost grades)" : "load: FAILED");
  std::fflush(stdout);
  if (!o.out.empty()) {
    std::ofstream out(o.out);
    out << report.dump(2) << "\n";
    if (!out) {
      std::cerr << "hpcab-load: cannot write " << o.out << "\n";
      return 2;
    }
  }
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace hpcab

int main(int argc, char** argv) {
  hpcab::Options o;
  CLI::App app{"hpcab-load: bounded load test of a running hpcab-judge"};
  app.add_option("--url", o.url, "judge base URL")->capture_default_str();
  app.add_option("--clients", o.clients, "concurrent clients (keep-alive connections)")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  app.add_option("--duration", o.duration_s, "seconds of load (in-flight requests then finish)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--mix", o.mix, "weights health:task:score")->capture_default_str();
  app.add_option("--kernel", o.kernels, "kernels for /task and /score (repeatable)")
      ->capture_default_str();
  app.add_option("--source-dir", o.source_dir,
                 "directory with <kernel>.c sources for /score (default: the /task stub)");
  app.add_option("--rank", o.rank, "the judge's rank")->capture_default_str();
  app.add_option("--timeout", o.timeout_s, "seconds one request may take")->capture_default_str();
  app.add_option("--seed", o.seed, "route and kernel choice seed")->capture_default_str();
  app.add_option("--out", o.out, "write the figures as JSON here");
  CLI11_PARSE(app, argc, argv);
  return hpcab::run(o);
}
