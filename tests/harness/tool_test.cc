// The agent tools without a judge: the MCP server's JSON-RPC handling (a scripted session), the
// client's request shapes, the token count it sends and the single-submission policy, against a
// fake transport that records every HTTP exchange (and a fake usage endpoint). The MCP server's
// concurrent serve() (progress, cancellation, limits, shutdown) runs against a slow HTTP judge
// on loopback through the real HTTP client.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <streambuf>
#include <thread>
#include <vector>

#include "harness/judge_client.h"
#include "harness/mcp.h"

namespace hpcab::harness {
namespace {

namespace fs = std::filesystem;

struct Exchange {
  std::string method, url, body;
};

// A judge that answers from a script and remembers what it was asked.
class FakeJudge {
 public:
  Transport transport() {
    return [this](const std::string& method, const std::string& url,
                  const std::string& body) -> Result<HttpResult> {
      {
        std::lock_guard lock(mu_);
        calls_.push_back({method, url, body});
      }
      if (delay_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
      if (unreachable) return Error{"HTTP " + method + " " + url + " failed: timed out"};
      if (refused) {
        return Error{"HTTP " + method + " " + url + " failed: connect: Connection refused",
                     Errc::kNotSent};
      }
      HttpResult r;
      r.status = status;
      if (status != 200) {
        r.body = json{{"code", "unknown_kernel"}, {"error", "unknown kernel 'nope'"}}.dump();
      } else if (judge_fault && url.find("/submit") != std::string::npos) {
        r.body = json{{"verdict", "judge_error"},
                      {"harness_fault", true},
                      {"fault", "scratch"},
                      {"speedup", nullptr},
                      {"detail", "judge fault: ..."}}
                     .dump();
      } else if (url.find("/task/") != std::string::npos) {
        r.body =
            json{{"kernel", "tsvc_2_s000"}, {"signature", "void tsvc_2_s000_fp64(...) {}"}}.dump();
      } else {
        r.body = json{{"verdict", "ok"}, {"speedup", 1.5}, {"submission_id", 7}}.dump();
      }
      return r;
    };
  }
  std::vector<Exchange> calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }
  int status = 200;
  bool unreachable = false;
  bool refused = false;      // the request never left (Errc::kNotSent)
  bool judge_fault = false;  // /submit answers a judge_error with harness_fault
  int delay_ms = 0;

 private:
  std::mutex mu_;
  std::vector<Exchange> calls_;
};

class TempDir {
 public:
  TempDir() {
    std::string t = (fs::temp_directory_path() / "hpcab-tool-test-XXXXXX").string();
    path_ = mkdtemp(t.data());
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

JudgeSettings settings(const fs::path& state, bool single = false) {
  JudgeSettings s;
  s.url = "http://judge.invalid:8800/";
  s.rank = 3;
  s.run_id = "run-42";
  s.optimizer = "claude";
  s.single_submission = single;
  s.state_dir = state.string();
  s.outage.wait_s = 0;  // no waiting out outages here (OutageRetries tests do)
  return s;
}

json request(int id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

TEST(McpServer, ScriptedSession) {
  TempDir dir;
  FakeJudge judge;
  JudgeClient client(settings(dir.path()), judge.transport());
  McpServer server(client, {"tsvc_2_s000", "c"});

  auto init = server.handle(request(1, "initialize",
                                    {{"protocolVersion", "2025-03-26"},
                                     {"capabilities", json::object()},
                                     {"clientInfo", {{"name", "test"}, {"version", "1"}}}}));
  ASSERT_TRUE(init);
  EXPECT_EQ((*init)["jsonrpc"], "2.0");
  EXPECT_EQ((*init)["id"], 1);
  EXPECT_EQ((*init)["result"]["protocolVersion"], "2025-03-26");  // a version we speak: echoed
  EXPECT_EQ((*init)["result"]["serverInfo"]["name"], "hpcab-tool");
  EXPECT_TRUE((*init)["result"]["capabilities"].contains("tools"));

  // A notification gets no reply.
  EXPECT_FALSE(server.handle({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}));

  auto list = server.handle(request(2, "tools/list"));
  ASSERT_TRUE(list);
  std::vector<std::string> names;
  for (const auto& t : (*list)["result"]["tools"]) {
    names.push_back(t["name"].get<std::string>());
    EXPECT_TRUE(t["description"].is_string());
    EXPECT_EQ(t["inputSchema"]["type"], "object");
    EXPECT_TRUE(t["inputSchema"]["properties"].contains("kernel"));
    EXPECT_TRUE(t["inputSchema"]["properties"].contains("language"));
    EXPECT_EQ(t["inputSchema"]["properties"]["language"]["enum"],
              json::array({"c", "cpp", "fortran", "python", "cuda", "hip"}));
    // KERNEL is known, so the kernel argument is optional.
    EXPECT_TRUE(t["inputSchema"]["required"].empty());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"task", "baseline", "score", "submit"}));
  for (const auto& t : (*list)["result"]["tools"]) {
    if (t["name"] == "score" || t["name"] == "submit") {
      EXPECT_TRUE(t["inputSchema"]["properties"].contains("source"));
      EXPECT_TRUE(t["inputSchema"]["properties"].contains("source_file"));
    }
  }

  auto task = server.handle(request(3, "tools/call", {{"name", "task"}, {"arguments", {}}}));
  ASSERT_TRUE(task);
  ASSERT_TRUE((*task).contains("result")) << task->dump();
  EXPECT_EQ((*task)["result"]["isError"], false);
  ASSERT_EQ((*task)["result"]["content"].size(), 1u);
  EXPECT_EQ((*task)["result"]["content"][0]["type"], "text");
  json text = json::parse((*task)["result"]["content"][0]["text"].get<std::string>());
  EXPECT_EQ(text["signature"], "void tsvc_2_s000_fp64(...) {}");
  ASSERT_EQ(judge.calls().size(), 1u);
  EXPECT_EQ(judge.calls()[0].method, "GET");
  // Default kernel and language, the rank added, the URL's trailing slash dropped.
  EXPECT_EQ(judge.calls()[0].url, "http://judge.invalid:8800/task/tsvc_2_s000?language=c&rank=3");

  auto bad_tool =
      server.handle(request(4, "tools/call", {{"name", "rm_rf"}, {"arguments", json::object()}}));
  ASSERT_TRUE(bad_tool);
  EXPECT_EQ((*bad_tool)["id"], 4);
  EXPECT_EQ((*bad_tool)["error"]["code"], -32602);
  EXPECT_NE((*bad_tool)["error"]["message"].get<std::string>().find("rm_rf"), std::string::npos);

  auto unknown = server.handle(request(5, "resources/list"));
  ASSERT_TRUE(unknown);
  EXPECT_EQ((*unknown)["error"]["code"], -32601);
  EXPECT_EQ((*unknown)["id"], 5);

  auto bad_params =
      server.handle({{"jsonrpc", "2.0"}, {"id", "six"}, {"method", "tools/call"}, {"params", 17}});
  ASSERT_TRUE(bad_params);
  EXPECT_EQ((*bad_params)["error"]["code"], -32602);
  EXPECT_EQ((*bad_params)["id"], "six");
  auto no_name = server.handle(request(7, "tools/call", {{"arguments", json::object()}}));
  EXPECT_EQ((*no_name)["error"]["code"], -32602);
  auto bad_args = server.handle(request(8, "tools/call", {{"name", "task"}, {"arguments", "x"}}));
  EXPECT_EQ((*bad_args)["error"]["code"], -32602);
  auto no_version = server.handle(request(9, "initialize", json::object()));
  EXPECT_EQ((*no_version)["error"]["code"], -32602);

  auto ping = server.handle(request(10, "ping"));
  ASSERT_TRUE(ping);
  EXPECT_EQ((*ping)["result"], json::object());

  // None of the refused calls reached the judge.
  EXPECT_EQ(judge.calls().size(), 1u);
}

TEST(McpServer, WireLevelErrors) {
  TempDir dir;
  FakeJudge judge;
  JudgeClient client(settings(dir.path()), judge.transport());
  McpServer server(client, {});

  auto parse = server.handle_line("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
  ASSERT_TRUE(parse);
  json p = json::parse(*parse);
  EXPECT_EQ(p["error"]["code"], -32700);
  EXPECT_TRUE(p["id"].is_null());

  EXPECT_FALSE(server.handle_line("   "));
  auto not_object = json::parse(*server.handle_line("42"));
  EXPECT_EQ(not_object["error"]["code"], -32600);
  auto no_version = json::parse(*server.handle_line(R"({"id": 3, "method": "ping"})"));
  EXPECT_EQ(no_version["error"]["code"], -32600);
  EXPECT_EQ(no_version["id"], 3);
  // Unknown notifications are ignored, as are responses.
  EXPECT_FALSE(server.handle_line(R"({"jsonrpc": "2.0", "method": "notifications/whatever"})"));
  EXPECT_FALSE(server.handle_line(R"({"jsonrpc": "2.0", "id": 1, "result": {}})"));

  // Unknown protocol version: answered with ours. No KERNEL: the argument is required.
  auto init = server.handle(request(1, "initialize", {{"protocolVersion", "1999-01-01"}}));
  EXPECT_EQ((*init)["result"]["protocolVersion"], McpServer::kLatestProtocol);
  for (const auto& t : server.tool_list()) {
    EXPECT_EQ(t["inputSchema"]["required"], json::array({"kernel"}));
  }
  auto missing = server.handle(request(2, "tools/call", {{"name", "task"}}));
  EXPECT_EQ((*missing)["result"]["isError"], true);
  EXPECT_NE((*missing)["result"]["content"][0]["text"].get<std::string>().find("kernel"),
            std::string::npos);

  // A batch: replies for requests only, in order.
  auto batch =
      server.handle(json::array({request(3, "ping"),
                                 {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
                                 request(4, "nope")}));
  ASSERT_TRUE(batch);
  ASSERT_EQ(batch->size(), 2u);
  EXPECT_EQ((*batch)[0]["id"], 3);
  EXPECT_EQ((*batch)[1]["error"]["code"], -32601);

  // serve(): one reply per line, nothing for the notification.
  std::istringstream in(request(5, "ping").dump() + "\n" +
                        R"({"jsonrpc":"2.0","method":"notifications/initialized"})" + "\n" +
                        request(6, "tools/list").dump() + "\n");
  std::ostringstream out;
  server.serve(in, out);
  std::istringstream lines(out.str());
  std::string l1, l2, l3;
  ASSERT_TRUE(std::getline(lines, l1));
  ASSERT_TRUE(std::getline(lines, l2));
  EXPECT_FALSE(std::getline(lines, l3));
  EXPECT_EQ(json::parse(l1)["id"], 5);
  EXPECT_EQ(json::parse(l2)["id"], 6);
  EXPECT_TRUE(judge.calls().empty());
}

TEST(McpServer, ScoreFromFileCarriesRankRunAndOptimizer) {
  TempDir dir;
  FakeJudge judge;
  JudgeClient client(settings(dir.path()), judge.transport());
  McpServer server(client, {"tsvc_2_s000", "c"});
  const fs::path file = dir.path() / "fast.cpp";
  std::ofstream(file) << "extern \"C\" void tsvc_2_s000_fp64() {}\n";

  auto r = server.handle(request(
      1, "tools/call", {{"name", "score"}, {"arguments", {{"source_file", file.string()}}}}));
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"]["isError"], false) << r->dump();
  EXPECT_EQ((*r)["result"]["structuredContent"]["verdict"], "ok");
  ASSERT_EQ(judge.calls().size(), 1u);
  EXPECT_EQ(judge.calls()[0].method, "POST");
  EXPECT_EQ(judge.calls()[0].url, "http://judge.invalid:8800/score");
  json body = json::parse(judge.calls()[0].body);
  EXPECT_EQ(body["kernel"], "tsvc_2_s000");
  EXPECT_EQ(body["language"], "cpp");  // from the extension
  EXPECT_EQ(body["rank"], 3);
  EXPECT_EQ(body["run_id"], "run-42");
  EXPECT_EQ(body["optimizer"], "claude");
  EXPECT_EQ(body["source"], "extern \"C\" void tsvc_2_s000_fp64() {}\n");
  EXPECT_FALSE(body.contains("source_file"));  // the judge's source_file is its own shared dir

  // Both or neither of source/source_file, a missing file: tool errors, nothing sent.
  auto both = server.handle(request(
      2, "tools/call",
      {{"name", "score"}, {"arguments", {{"source", "x"}, {"source_file", file.string()}}}}));
  EXPECT_EQ((*both)["result"]["isError"], true);
  auto neither = server.handle(request(3, "tools/call", {{"name", "score"}}));
  EXPECT_EQ((*neither)["result"]["isError"], true);
  auto missing = server.handle(request(
      4, "tools/call", {{"name", "score"}, {"arguments", {{"source_file", "/nonexistent.c"}}}}));
  EXPECT_EQ((*missing)["result"]["isError"], true);
  EXPECT_EQ(judge.calls().size(), 1u);
}

TEST(McpServer, JudgeFailuresAreToolErrors) {
  TempDir dir;
  FakeJudge judge;
  JudgeClient client(settings(dir.path()), judge.transport());
  McpServer server(client, {"tsvc_2_s000", "c"});
  judge.status = 404;
  auto r = server.handle(request(1, "tools/call", {{"name", "task"}}));
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"]["isError"], true);
  const std::string text = (*r)["result"]["content"][0]["text"];
  EXPECT_FALSE(text.empty());
  EXPECT_EQ(client.last_failure(), Failure::kHttp);
  EXPECT_EQ(client.last_error_code(), "unknown_kernel");

  judge.status = 200;
  judge.unreachable = true;
  auto t = server.handle(
      request(2, "tools/call", {{"name", "score"}, {"arguments", {{"source", "int x;"}}}}));
  EXPECT_EQ((*t)["result"]["isError"], true);
  EXPECT_EQ(client.last_error_code(), "");  // unreachable: no judge refused anything
  EXPECT_NE((*t)["result"]["content"][0]["text"].get<std::string>().find("unreachable"),
            std::string::npos);
  EXPECT_EQ(client.last_failure(), Failure::kTransport);
}

TEST(SubmissionPolicy, SecondSubmitIsRefusedWithoutARequest) {
  TempDir dir;
  FakeJudge judge;
  JudgeClient client(settings(dir.path(), /*single=*/true), judge.transport());
  Submission s{"tsvc_2_s000", "c", "void f(void) {}", "", ""};
  auto first = client.submit(s);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ((*first)["verdict"], "ok");
  EXPECT_TRUE(fs::exists(client.submission_marker()));
  EXPECT_EQ(fs::path(client.submission_marker()).filename(), ".hpcab-submitted.run-42");

  auto second = client.submit(s);
  ASSERT_FALSE(second);
  EXPECT_EQ(client.last_failure(), Failure::kPolicy);
  EXPECT_NE(second.error().message.find("already submitted"), std::string::npos);
  EXPECT_EQ(judge.calls().size(), 1u);  // the refusal made no request

  // A second process of the same run (a fresh client) is refused too; score still works.
  JudgeClient again(settings(dir.path(), true), judge.transport());
  EXPECT_FALSE(again.submit(s));
  EXPECT_EQ(again.last_failure(), Failure::kPolicy);
  EXPECT_TRUE(again.score(s));
  EXPECT_EQ(judge.calls().size(), 2u);

  // The MCP tool reports the refusal as a tool error.
  McpServer server(again, {"tsvc_2_s000", "c"});
  auto r = server.handle(
      request(1, "tools/call", {{"name", "submit"}, {"arguments", {{"source", "int x;"}}}}));
  EXPECT_EQ((*r)["result"]["isError"], true);
  EXPECT_NE((*r)["result"]["content"][0]["text"].get<std::string>().find("refused"),
            std::string::npos);
  EXPECT_EQ(judge.calls().size(), 2u);

  // Another run id has its own submission.
  JudgeSettings other = settings(dir.path(), true);
  other.run_id = "run-43";
  JudgeClient other_client(other, judge.transport());
  EXPECT_TRUE(other_client.submit(s));
  EXPECT_EQ(judge.calls().size(), 3u);
}

TEST(SubmissionPolicy, ConcurrentSubmitsSendExactlyOne) {
  TempDir dir;
  FakeJudge judge;
  judge.delay_ms = 100;  // both calls are in flight together
  std::atomic<int> accepted = 0, refused = 0;
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      JudgeClient client(settings(dir.path(), true), judge.transport());
      auto r = client.submit({"tsvc_2_s000", "c", "void f(void) {}", "", ""});
      if (r) ++accepted;
      if (!r && client.last_failure() == Failure::kPolicy) ++refused;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(accepted.load(), 1);
  EXPECT_EQ(refused.load(), 3);
  EXPECT_EQ(judge.calls().size(), 1u);
}

TEST(SubmissionPolicy, NothingGradedKeepsTheSubmission) {
  TempDir dir;
  FakeJudge judge;
  JudgeClient client(settings(dir.path(), true), judge.transport());
  Submission s{"tsvc_2_s000", "c", "void f(void) {}", "", ""};
  judge.status = 400;  // refused: the judge graded nothing
  EXPECT_FALSE(client.submit(s));
  EXPECT_EQ(client.last_failure(), Failure::kHttp);
  EXPECT_FALSE(fs::exists(client.submission_marker()));
  EXPECT_FALSE(fs::exists(client.pending_submission()));
  // A full queue that stays full past the outage wait (0 here): nothing graded either.
  judge.status = 429;
  EXPECT_FALSE(client.submit(s));
  EXPECT_EQ(client.last_failure(), Failure::kTransport);
  EXPECT_FALSE(fs::exists(client.submission_marker()));
  EXPECT_FALSE(fs::exists(client.pending_submission()));
  judge.status = 200;
  EXPECT_TRUE(client.submit(s));
  EXPECT_EQ(judge.calls().size(), 3u);

  // A timeout may have been recorded by the judge: no marker (no grade was received), but the
  // submit stays pending, and the run's next submit asks for its grade first.
  TempDir dir2;
  JudgeClient timed(settings(dir2.path(), true), judge.transport());
  judge.unreachable = true;
  EXPECT_FALSE(timed.submit(s));
  EXPECT_EQ(timed.last_failure(), Failure::kTransport);
  EXPECT_FALSE(fs::exists(timed.submission_marker()));
  EXPECT_TRUE(fs::exists(timed.pending_submission()));
}

TEST(SubmissionPolicy, RefusedConnectionKeepsTheSubmission) {
  TempDir dir;
  FakeJudge judge;
  JudgeClient client(settings(dir.path(), true), judge.transport());
  Submission s{"tsvc_2_s000", "c", "void f(void) {}", "", ""};
  judge.refused = true;
  EXPECT_FALSE(client.submit(s));
  EXPECT_EQ(client.last_failure(), Failure::kTransport);
  EXPECT_FALSE(fs::exists(client.submission_marker()));
  judge.refused = false;
  EXPECT_TRUE(client.submit(s));
}

// The judge's own machinery failed: it recorded no answer, so the run keeps its single
// submission and the harness's list of submissions does not name the fault as the final one.
TEST(SubmissionPolicy, JudgeFaultKeepsTheSubmissionAndIsNotTheFinalAnswer) {
  TempDir dir;
  FakeJudge judge;
  JudgeClient client(settings(dir.path(), true), judge.transport());
  Submission s{"tsvc_2_s000", "c", "void f(void) {}", "", ""};
  judge.judge_fault = true;
  auto r = client.submit(s);
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["verdict"], "judge_error");
  EXPECT_FALSE(fs::exists(client.submission_marker()));
  EXPECT_FALSE(fs::exists(dir.path() / "submissions.jsonl"));
  judge.judge_fault = false;
  auto again = client.submit(s);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ((*again)["verdict"], "ok");
  EXPECT_TRUE(fs::exists(client.submission_marker()));
  std::ifstream in(dir.path() / "submissions.jsonl");
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    EXPECT_EQ(json::parse(line)["verdict"], "ok");
  }
  EXPECT_EQ(lines, 1);
}

TEST(SubmissionPolicy, MultipleAllowsResubmission) {
  TempDir dir;
  FakeJudge judge;
  JudgeClient client(settings(dir.path(), false), judge.transport());
  Submission s{"tsvc_2_s000", "c", "void f(void) {}", "", ""};
  EXPECT_TRUE(client.submit(s));
  EXPECT_TRUE(client.submit(s));
  EXPECT_EQ(judge.calls().size(), 2u);
  EXPECT_FALSE(fs::exists(client.submission_marker()));
}

TEST(JudgeClient, LocalErrorsSendNothing) {
  TempDir dir;
  FakeJudge judge;
  JudgeSettings s = settings(dir.path(), true);
  s.url.clear();
  JudgeClient client(s, judge.transport());
  EXPECT_FALSE(client.task("tsvc_2_s000", "c"));
  EXPECT_EQ(client.last_failure(), Failure::kLocal);
  EXPECT_FALSE(client.submit({"tsvc_2_s000", "c", "int x;", "", ""}));
  EXPECT_EQ(client.last_failure(), Failure::kLocal);
  EXPECT_FALSE(fs::exists(client.submission_marker()));  // the one submission is not used up
  EXPECT_TRUE(judge.calls().empty());
}

// A usage endpoint answering from a script; counts its calls.
struct FakeUsage {
  UsageFetch fetch() {
    return [this](const std::string& url) -> Result<HttpResult> {
      std::lock_guard lock(mu);
      urls.push_back(url);
      if (unreachable) return Error{"HTTP GET " + url + " failed: connect: Connection refused"};
      return HttpResult{status, body, {}};
    };
  }
  std::mutex mu;
  std::vector<std::string> urls;
  bool unreachable = false;
  int status = 200;
  std::string body =
      json{{"episode", "ep"}, {"requests", 4},      {"input", 1200}, {"cached", 300},
           {"output", 45},    {"weighted", 1275.0}, {"budget", 0.0}, {"exhausted", false}}
          .dump();
};

TEST(JudgeClient, ScoreAndSubmitSendTheEpisodesTokens) {
  TempDir dir;
  FakeJudge judge;
  FakeUsage usage;
  JudgeSettings s = settings(dir.path(), /*single=*/true);
  s.usage_url = "http://127.0.0.1:9/hpcab/usage";
  JudgeClient client(s, judge.transport(), usage.fetch());
  Submission sub{"tsvc_2_s000", "c", "void f(void) {}", "", ""};
  ASSERT_TRUE(client.score(sub));
  ASSERT_TRUE(client.submit(sub));
  ASSERT_EQ(judge.calls().size(), 2u);
  for (const auto& call : judge.calls()) {
    EXPECT_EQ(json::parse(call.body)["tokens"], 1545) << call.body;  // 1200 + 300 + 45
  }
  // One fetch per graded call, at the configured URL; task and baseline send no tokens.
  EXPECT_EQ(usage.urls, (std::vector<std::string>{s.usage_url, s.usage_url}));
  ASSERT_TRUE(client.task("tsvc_2_s000", "c"));
  EXPECT_EQ(usage.urls.size(), 2u);
  EXPECT_EQ(client.tokens_used(), 1545);

  // The MCP tools go through the same client.
  usage.body = json{{"input", 10}, {"cached", 0}, {"output", 2}}.dump();
  McpServer server(client, {"tsvc_2_s000", "c"});
  auto r = server.handle(
      request(1, "tools/call", {{"name", "score"}, {"arguments", {{"source", "int x;"}}}}));
  EXPECT_EQ((*r)["result"]["isError"], false) << r->dump();
  EXPECT_EQ(json::parse(judge.calls().back().body)["tokens"], 12);
}

// The arm's RESIDENCY reaches the judge as every graded call's "residency" (through
// HPCAB_RESIDENCY); unset, nothing is sent and the judge's default applies.
TEST(JudgeClient, ResidencyIsSentWithEveryGradedCall) {
  TempDir dir;
  FakeJudge judge;
  JudgeSettings s = settings(dir.path(), /*single=*/false);
  s.residency = "device";
  JudgeClient client(s, judge.transport());
  Submission sub{"tsvc_2_s000", "cuda", "int x;", "", ""};
  ASSERT_TRUE(client.score(sub));
  ASSERT_TRUE(client.submit(sub));
  for (const auto& call : judge.calls()) {
    EXPECT_EQ(json::parse(call.body)["residency"], "device") << call.body;
    EXPECT_EQ(json::parse(call.body)["language"], "cuda") << call.body;
  }
  FakeJudge plain;
  JudgeClient unset(settings(dir.path(), /*single=*/false), plain.transport());
  ASSERT_TRUE(unset.score(sub));
  EXPECT_TRUE(json::parse(plain.calls().back().body)["residency"].is_null());
  setenv("HPCAB_RESIDENCY", "gpu", 1);
  auto bad = JudgeSettings::from_env();
  unsetenv("HPCAB_RESIDENCY");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("HPCAB_RESIDENCY"), std::string::npos);
}

TEST(JudgeClient, UsageFailuresSendNullTokensAndDoNotFailTheCall) {
  TempDir dir;
  FakeJudge judge;
  FakeUsage usage;
  JudgeSettings s = settings(dir.path());
  s.usage_url = "http://127.0.0.1:9/hpcab/usage";
  JudgeClient client(s, judge.transport(), usage.fetch());
  Submission sub{"tsvc_2_s000", "c", "void f(void) {}", "", ""};
  auto null_tokens = [&] {
    auto r = client.score(sub);
    EXPECT_TRUE(r) << r.error().message;
    return json::parse(judge.calls().back().body)["tokens"].is_null();
  };
  usage.unreachable = true;
  EXPECT_TRUE(null_tokens());
  usage.unreachable = false;
  usage.status = 404;
  EXPECT_TRUE(null_tokens());
  usage.status = 200;
  for (const std::string& body :
       {std::string("not json"), std::string("[1,2]"), json{{"input", 1}, {"cached", 2}}.dump(),
        json{{"input", -1}, {"cached", 0}, {"output", 0}}.dump(),
        json{{"input", 1.5}, {"cached", 0}, {"output", 0}}.dump(),
        json{{"input", "7"}, {"cached", 0}, {"output", 0}}.dump(),
        std::string(R"({"input":18446744073709551615,"cached":0,"output":0})")}) {
    usage.body = body;
    EXPECT_TRUE(null_tokens()) << body;
  }
  EXPECT_EQ(usage.urls.size(), 9u);

  // No usage URL: nothing fetched, tokens null.
  FakeUsage unused;
  JudgeClient plain(settings(dir.path()), judge.transport(), unused.fetch());
  ASSERT_TRUE(plain.score(sub));
  EXPECT_TRUE(json::parse(judge.calls().back().body)["tokens"].is_null());
  EXPECT_TRUE(unused.urls.empty());

  // A call refused locally asks the proxy nothing either.
  JudgeSettings no_judge = s;
  no_judge.url.clear();
  FakeUsage asked;
  JudgeClient local(no_judge, judge.transport(), asked.fetch());
  EXPECT_FALSE(local.score(sub));
  EXPECT_TRUE(asked.urls.empty());
}

// The real fetch gives up after usage_timeout_s on an endpoint that never answers.
TEST(JudgeClient, SilentUsageEndpointTimesOutToNull) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(fd, 8), 0);  // connections complete in the backlog; nothing is answered
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  TempDir dir;
  FakeJudge judge;
  JudgeSettings s = settings(dir.path());
  s.usage_url = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/hpcab/usage";
  s.usage_timeout_s = 0.5;
  JudgeClient client(s, judge.transport());
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(client.score({"tsvc_2_s000", "c", "int x;", "", ""}));
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(took, 5);
  EXPECT_GE(took, 0.4);
  EXPECT_TRUE(json::parse(judge.calls().back().body)["tokens"].is_null());
  ::close(fd);
}

// ---- waiting out outages, idempotency keys ----

// A judge behind a scripted outage: the first `down_calls` requests of any kind fail (refused,
// or answered `down_status`), then it answers. Records every exchange with its headers.
class OutageJudge {
 public:
  struct Call {
    std::string method, url, body, key;
  };
  HeaderTransport transport() {
    return [this](const std::string& method, const std::string& url, const std::string& body,
                  const std::map<std::string, std::string>& headers,
                  const CancelToken*) -> Result<HttpResult> {
      int n;
      {
        std::lock_guard lock(mu_);
        auto k = headers.find("Idempotency-Key");
        calls_.push_back({method, url, body, k == headers.end() ? "" : k->second});
        n = static_cast<int>(calls_.size());
      }
      if (n <= down_calls) {
        if (down_status == 0) {
          return Error{"HTTP " + method + " " + url + " failed: " +
                           (sent_failure ? "read: end of stream" : "connect: Connection refused"),
                       sent_failure ? Errc::kFailed : Errc::kNotSent};
        }
        HttpResult r;
        r.status = down_status;
        r.body = json{{"error", "grading queue is full"}}.dump();
        if (retry_after > 0) r.headers["retry-after"] = std::to_string(retry_after);
        return r;
      }
      HttpResult r;
      r.status = answer_status;
      if (url.find("/health") != std::string::npos) {
        r.body = json{{"status", "ok"}}.dump();
      } else if (answer_status != 200) {
        r.body = json{{"error", "unknown kernel"}}.dump();
      } else {
        r.body =
            json{{"verdict", "ok"}, {"speedup", 1.0}, {"submission_id", 11}, {"replayed", replayed}}
                .dump();
      }
      return r;
    };
  }
  std::vector<Call> calls(const std::string& path = "") {
    std::lock_guard lock(mu_);
    std::vector<Call> out;
    for (const auto& c : calls_) {
      if (path.empty() || c.url.find(path) != std::string::npos) out.push_back(c);
    }
    return out;
  }
  int down_calls = 0;
  int down_status = 0;        // 0: transport failures
  bool sent_failure = false;  // the transport failures happen after the request left
  int retry_after = 0;
  int answer_status = 200;
  bool replayed = false;

 private:
  std::mutex mu_;
  std::vector<Call> calls_;
};

JudgeSettings waiting_settings(const fs::path& state, bool single, double wait_s) {
  JudgeSettings s = settings(state, single);
  s.outage.wait_s = wait_s;
  s.outage.backoff_initial_s = 0.01;
  s.outage.backoff_max_s = 0.05;
  s.outage.report_interval_s = 0.05;
  return s;
}

bool valid_key(const std::string& k) {
  if (k.empty() || k.size() > 128) return false;
  for (unsigned char c : k) {
    if (!std::isalnum(c) && c != '.' && c != '_' && c != ':' && c != '-') return false;
  }
  return true;
}

TEST(OutageRetries, SubmitWaitsOutAnOutageUnderOneIdempotencyKey) {
  TempDir dir;
  OutageJudge judge;
  judge.down_calls = 5;  // the submit and the first probes are refused
  JudgeClient client(waiting_settings(dir.path(), /*single=*/true, 30), judge.transport());
  std::vector<OutageEvent> events;
  client.set_outage_observer([&](const OutageEvent& e) { events.push_back(e); });
  Submission s{"tsvc_2_s000", "c", "void f(void) {}", "", ""};
  auto r = client.submit(s);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ((*r)["verdict"], "ok");
  auto submits = judge.calls("/submit");
  ASSERT_GE(submits.size(), 2u);
  for (const auto& c : submits) EXPECT_EQ(c.key, submits[0].key);
  for (const auto& c : submits) EXPECT_EQ(c.body, submits[0].body);  // the same bytes
  EXPECT_TRUE(valid_key(submits[0].key)) << submits[0].key;
  EXPECT_EQ(submits[0].key.rfind("hpcab:", 0), 0u);
  EXPECT_NE(submits[0].key.find(":run-42"), std::string::npos) << submits[0].key;
  // Between two tries of the submit, the judge was probed until it answered.
  EXPECT_GE(judge.calls("/health").size(), 1u);
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events.front().kind, OutageEvent::Kind::kWaiting);
  EXPECT_EQ(events.front().url, "http://judge.invalid:8800");
  EXPECT_EQ(events.front().what, "POST /submit");
  EXPECT_EQ(events.back().kind, OutageEvent::Kind::kRecovered);
  EXPECT_NE(outage_line("judge", events.front())
                .find("judge http://judge.invalid:8800 "
                      "unreachable since "),
            std::string::npos)
      << outage_line("judge", events.front());
  // The marker came with the grade; nothing is pending; the grade is the final submission.
  EXPECT_TRUE(fs::exists(client.submission_marker()));
  EXPECT_FALSE(fs::exists(client.pending_submission()));
  EXPECT_TRUE(fs::exists(dir.path() / "submissions.jsonl"));
  EXPECT_EQ(client.outage_note(), "");
}

TEST(OutageRetries, EverySubmissionGetsItsOwnKeyAndScoreNone) {
  TempDir dir;
  OutageJudge judge;
  JudgeClient client(waiting_settings(dir.path(), /*single=*/false, 30), judge.transport());
  Submission s{"tsvc_2_s000", "c", "void f(void) {}", "", ""};
  ASSERT_TRUE(client.submit(s));
  ASSERT_TRUE(client.submit(s));
  ASSERT_TRUE(client.score(s));
  auto submits = judge.calls("/submit");
  ASSERT_EQ(submits.size(), 2u);
  EXPECT_NE(submits[0].key, submits[1].key);
  EXPECT_TRUE(valid_key(submits[1].key));
  EXPECT_EQ(judge.calls("/score").at(0).key, "");
  // A run id with characters outside the key's alphabet, and a long one, still make valid keys.
  EXPECT_TRUE(valid_key(new_idempotency_key("arm/kernel/0#1")));
  EXPECT_TRUE(valid_key(new_idempotency_key(std::string(300, 'x'))));
  EXPECT_TRUE(valid_key(new_idempotency_key("")));
  EXPECT_NE(new_idempotency_key("r"), new_idempotency_key("r"));
}

TEST(OutageRetries, GivesUpAfterTheWaitAndRecordsIt) {
  TempDir dir;
  OutageJudge judge;
  judge.down_calls = 1000000;
  JudgeClient client(waiting_settings(dir.path(), /*single=*/false, 0.4), judge.transport());
  std::vector<OutageEvent> events;
  client.set_outage_observer([&](const OutageEvent& e) { events.push_back(e); });
  const auto t0 = std::chrono::steady_clock::now();
  auto r = client.score({"tsvc_2_s000", "c", "void f(void) {}", "", ""});
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(r);
  EXPECT_EQ(client.last_failure(), Failure::kTransport);
  EXPECT_NE(r.error().message.find("the outage wait"), std::string::npos) << r.error().message;
  EXPECT_GE(took, 0.4);
  EXPECT_LT(took, 5.0);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back().kind, OutageEvent::Kind::kGaveUp);
  std::ifstream in(dir.path() / "outages.jsonl");
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const json o = json::parse(line);
  EXPECT_EQ(o["url"], "http://judge.invalid:8800");
  EXPECT_EQ(o["kind"], "transport");
  EXPECT_EQ(o["request"], "POST /score");

  // A full queue that stays full: the same, as "unavailable", kind http.
  TempDir dir2;
  OutageJudge busy;
  busy.down_calls = 1000000;
  busy.down_status = 429;
  JudgeClient b(waiting_settings(dir2.path(), false, 0.2), busy.transport());
  auto q = b.score({"tsvc_2_s000", "c", "void f(void) {}", "", ""});
  ASSERT_FALSE(q);
  EXPECT_EQ(b.last_failure(), Failure::kTransport);
  EXPECT_NE(q.error().message.find("HTTP 429"), std::string::npos) << q.error().message;
  EXPECT_NE(slurp(dir2.path() / "outages.jsonl").find("\"kind\":\"http\""), std::string::npos);
}

TEST(OutageRetries, AnswersThatAreNotTransientAreNotRetried) {
  TempDir dir;
  OutageJudge judge;
  judge.answer_status = 404;
  JudgeClient client(waiting_settings(dir.path(), false, 30), judge.transport());
  EXPECT_FALSE(client.task("nope", "c"));
  EXPECT_EQ(client.last_failure(), Failure::kHttp);
  EXPECT_EQ(judge.calls().size(), 1u);
  // A malformed URL is a local error, not an outage to wait out.
  JudgeSettings bad = waiting_settings(dir.path(), false, 30);
  bad.url = "judge:8800";
  JudgeClient b(bad, judge.transport());
  EXPECT_FALSE(b.task("tsvc_2_s000", "c"));
  EXPECT_EQ(b.last_failure(), Failure::kLocal);
  EXPECT_EQ(judge.calls().size(), 1u);
}

TEST(OutageRetries, RetryAfterSetsThePause) {
  TempDir dir;
  OutageJudge judge;
  judge.down_calls = 1;
  judge.down_status = 503;
  judge.retry_after = 1;
  JudgeSettings st = waiting_settings(dir.path(), false, 30);
  st.outage.backoff_max_s = 2;
  JudgeClient client(st, judge.transport());
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(client.task("tsvc_2_s000", "c"));
  EXPECT_GE(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1.0);
  EXPECT_EQ(judge.calls().size(), 3u);  // the task, one probe, the task again
}

TEST(OutageRetries, CancellingEndsTheWait) {
  TempDir dir;
  OutageJudge judge;
  judge.down_calls = 1000000;
  JudgeClient client(waiting_settings(dir.path(), false, 600), judge.transport());
  CancelToken cancel;
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel.cancel();
  });
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(client.task("tsvc_2_s000", "c", "", "", &cancel));
  t.join();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  EXPECT_EQ(client.last_failure(), Failure::kTransport);
}

// The MCP tools wait out an outage as the command line does; while one waits, outage_note()
// (which the server puts into its progress notifications) names the judge that is down.
TEST(OutageRetries, McpSubmitWaitsToo) {
  TempDir dir;
  OutageJudge judge;
  judge.down_calls = 40;
  JudgeSettings st = waiting_settings(dir.path(), /*single=*/true, 30);
  st.outage.backoff_max_s = 0.01;
  JudgeClient client(st, judge.transport());
  McpServer server(client, {"tsvc_2_s000", "c"});
  std::optional<json> reply;
  std::thread t([&] {
    reply = server.handle(
        request(1, "tools/call", {{"name", "submit"}, {"arguments", {{"source", "int x;"}}}}));
  });
  std::string note;
  for (int i = 0; i < 500 && note.empty(); ++i) {
    note = client.outage_note();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  t.join();
  EXPECT_NE(note.find("judge http://judge.invalid:8800 unreachable since"), std::string::npos)
      << note;
  ASSERT_TRUE(reply);
  EXPECT_EQ((*reply)["result"]["isError"], false) << reply->dump();
  EXPECT_EQ((*reply)["result"]["structuredContent"]["verdict"], "ok");
  EXPECT_TRUE(fs::exists(client.submission_marker()));
  EXPECT_EQ(client.outage_note(), "");
}

// A submit whose request left but whose answer never came stays pending: a relaunched tool's
// submit of the same source resends it under the same key (the judge answers with the grade it
// recorded) and returns that grade; a different source is refused, and the pending one, not it,
// is what was sent.
TEST(OutageRetries, ALostAnswerIsAskedForAgainByTheNextSubmit) {
  Submission s{"tsvc_2_s000", "c", "void f(void) {}", "", ""};
  {
    TempDir dir;
    OutageJudge judge;
    judge.down_calls = 1;
    judge.sent_failure = true;
    JudgeClient first(waiting_settings(dir.path(), true, 0), judge.transport());
    EXPECT_FALSE(first.submit(s));
    EXPECT_FALSE(fs::exists(first.submission_marker()));
    ASSERT_TRUE(fs::exists(first.pending_submission()));
    judge.replayed = true;
    JudgeClient relaunched(waiting_settings(dir.path(), true, 0), judge.transport());
    auto r = relaunched.submit(s);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ((*r)["replayed"], true);
    auto submits = judge.calls("/submit");
    ASSERT_EQ(submits.size(), 2u);
    EXPECT_EQ(submits[0].key, submits[1].key);
    EXPECT_EQ(submits[0].body, submits[1].body);
    EXPECT_TRUE(fs::exists(relaunched.submission_marker()));
    EXPECT_FALSE(fs::exists(relaunched.pending_submission()));
  }
  {
    TempDir dir;
    OutageJudge judge;
    judge.down_calls = 1;
    judge.sent_failure = true;
    JudgeClient first(waiting_settings(dir.path(), true, 0), judge.transport());
    EXPECT_FALSE(first.submit(s));
    JudgeClient relaunched(waiting_settings(dir.path(), true, 0), judge.transport());
    Submission other = s;
    other.source = "void f(void) { /* faster */ }";
    auto r = relaunched.submit(other);
    ASSERT_FALSE(r);
    EXPECT_EQ(relaunched.last_failure(), Failure::kPolicy);
    EXPECT_NE(r.error().message.find("now graded"), std::string::npos) << r.error().message;
    auto submits = judge.calls("/submit");
    ASSERT_EQ(submits.size(), 2u);
    EXPECT_EQ(submits[1].body, submits[0].body);  // the pending submission, not the new source
    EXPECT_EQ(json::parse(submits[1].body)["source"], s.source);
    EXPECT_TRUE(fs::exists(relaunched.submission_marker()));
    // The recovered grade is the episode's final submission.
    EXPECT_NE(slurp(dir.path() / "submissions.jsonl").find("\"submission_id\":11"),
              std::string::npos);
  }
}

TEST(JudgeClient, LanguageFromExtension) {
  EXPECT_EQ(language_from_extension("a/b/k.c"), "c");
  EXPECT_EQ(language_from_extension("k.cpp"), "cpp");
  EXPECT_EQ(language_from_extension("k.cc"), "cpp");
  EXPECT_EQ(language_from_extension("k.f90"), "fortran");
  EXPECT_EQ(language_from_extension("k.F90"), "fortran");
  EXPECT_EQ(language_from_extension("k.py"), "python");
  EXPECT_EQ(language_from_extension("k.pyc"), std::nullopt);
  EXPECT_EQ(language_from_extension("Makefile"), std::nullopt);
}

TEST(JudgeClient, SettingsFromEnvironment) {
  setenv("JUDGE_URL", "http://127.0.0.1:9", 1);
  setenv("JUDGE_RANK", "2", 1);
  setenv("RUN_ID", "r1", 1);
  setenv("AGENT", "codex", 1);
  setenv("HPCAB_SUBMISSION_POLICY", "single", 1);
  setenv("HPCAB_USAGE_URL", "http://127.0.0.1:4100/hpcab/usage", 1);
  auto s = JudgeSettings::from_env();
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->url, "http://127.0.0.1:9");
  EXPECT_EQ(s->rank, 2);
  EXPECT_EQ(s->run_id, "r1");
  EXPECT_EQ(s->optimizer, "codex");
  EXPECT_TRUE(s->single_submission);
  EXPECT_EQ(s->usage_url, "http://127.0.0.1:4100/hpcab/usage");
  EXPECT_EQ(s->usage_timeout_s, 2);
  unsetenv("HPCAB_USAGE_URL");
  setenv("JUDGE_RANK", "-1", 1);
  EXPECT_FALSE(JudgeSettings::from_env());
  setenv("JUDGE_RANK", "0", 1);
  setenv("HPCAB_SUBMISSION_POLICY", "twice", 1);
  EXPECT_FALSE(JudgeSettings::from_env());
  unsetenv("HPCAB_SUBMISSION_POLICY");
  setenv("HPCAB_OUTAGE_WAIT_S", "45.5", 1);
  setenv("HPCAB_OUTAGE_BACKOFF_MAX_S", "3", 1);
  auto o = JudgeSettings::from_env();
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_DOUBLE_EQ(o->outage.wait_s, 45.5);
  EXPECT_DOUBLE_EQ(o->outage.backoff_max_s, 3);
  setenv("HPCAB_OUTAGE_WAIT_S", "-1", 1);
  EXPECT_FALSE(JudgeSettings::from_env());
  setenv("HPCAB_OUTAGE_WAIT_S", "0", 1);
  EXPECT_TRUE(JudgeSettings::from_env());
  setenv("HPCAB_OUTAGE_BACKOFF_MAX_S", "0", 1);
  EXPECT_FALSE(JudgeSettings::from_env());
  unsetenv("HPCAB_OUTAGE_WAIT_S");
  unsetenv("HPCAB_OUTAGE_BACKOFF_MAX_S");
  unsetenv("AGENT");
  auto d = JudgeSettings::from_env();
  ASSERT_TRUE(d);
  EXPECT_DOUBLE_EQ(d->outage.wait_s, 600);
  EXPECT_EQ(d->optimizer, "agent");
  EXPECT_FALSE(d->single_submission);
  EXPECT_EQ(d->usage_url, "");
  for (const char* v : {"JUDGE_URL", "JUDGE_RANK", "RUN_ID"}) unsetenv(v);
}

// ---- serve(): concurrency, progress, cancellation, limits, shutdown ----

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Polls `pred` every 10 ms for up to `timeout_s`.
bool eventually(const std::function<bool()>& pred, double timeout_s) {
  const auto t0 = Clock::now();
  while (!pred()) {
    if (seconds_since(t0) > timeout_s) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// A judge on 127.0.0.1 that reads each request, then answers a grade after `delay_ms`, unless
// the client closes the connection first (counted: that is how an abandoned request looks).
class SlowJudge {
 public:
  explicit SlowJudge(int delay) : delay_ms(delay) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(fd_, 16) != 0) {
      std::abort();
    }
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  ~SlowJudge() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    acceptor_.join();
    for (auto& t : connections_) t.join();
    ::close(fd_);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  std::atomic<int> delay_ms;
  std::atomic<int> connections = 0;       // accepted
  std::atomic<int> requests = 0;          // read completely
  std::atomic<int> closed_by_client = 0;  // the client hung up before the answer
  std::atomic<int> answered = 0;

 private:
  void accept_loop() {
    while (!stop_) {
      const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) {
        if (stop_ || errno == EINVAL) return;
        continue;
      }
      ++connections;
      connections_.emplace_back([this, c] {
        serve_connection(c);
        ::close(c);
      });
    }
  }

  // Waits up to 10 ms for `c` to be readable; false when stopping.
  bool readable(int c) {
    pollfd p{c, POLLIN | POLLRDHUP, 0};
    return ::poll(&p, 1, 10) > 0;
  }

  void serve_connection(int c) {
    std::string data;
    std::size_t need = std::string::npos;
    while (data.size() < need) {
      if (stop_) return;
      if (!readable(c)) continue;
      char buf[4096];
      const ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) return;
      data.append(buf, static_cast<std::size_t>(n));
      const std::size_t head_end = data.find("\r\n\r\n");
      if (head_end == std::string::npos) continue;
      std::string head = data.substr(0, head_end);
      for (char& ch : head) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      const std::size_t cl = head.find("content-length:");
      need = head_end + 4 + (cl == std::string::npos ? 0 : std::stoul(head.substr(cl + 15)));
    }
    ++requests;
    const auto deadline = Clock::now() + std::chrono::milliseconds(delay_ms.load());
    while (Clock::now() < deadline) {
      if (stop_) return;
      if (!readable(c)) continue;
      char x;
      const ssize_t n = ::recv(c, &x, 1, MSG_PEEK | MSG_DONTWAIT);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
        ++closed_by_client;
        return;
      }
    }
    const std::string body = json{{"verdict", "ok"}, {"speedup", 2.0}, {"submission_id", 1}}.dump();
    const std::string response =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        "Content-Length: " +
        std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    if (::send(c, response.data(), response.size(), MSG_NOSIGNAL) ==
        static_cast<ssize_t>(response.size())) {
      ++answered;
    }
  }

  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_ = false;
  std::thread acceptor_;
  std::list<std::thread> connections_;  // only the acceptor adds, only the destructor joins
};

// serve()'s stdin: lines the test pushes; a read blocks until one comes or close() (EOF).
class FeedBuf : public std::streambuf {
 public:
  void push(const std::string& line) {
    std::lock_guard lock(mu_);
    pending_ += line + "\n";
    cv_.notify_all();
  }
  void close() {
    std::lock_guard lock(mu_);
    closed_ = true;
    cv_.notify_all();
  }

 protected:
  int_type underflow() override {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [this] { return !pending_.empty() || closed_; });
    if (pending_.empty()) return traits_type::eof();
    current_ = std::move(pending_);
    pending_.clear();
    setg(current_.data(), current_.data(), current_.data() + current_.size());
    return traits_type::to_int_type(current_[0]);
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::string pending_;
  std::string current_;  // the reading thread's buffer
  bool closed_ = false;
};

// serve()'s stdout: complete lines, parsed, for the test to wait on.
class LineSink : public std::streambuf {
 public:
  // The next line not yet returned, within `timeout_s`; nullopt when none came.
  std::optional<json> next(double timeout_s) {
    std::unique_lock lock(mu_);
    if (!cv_.wait_for(lock, std::chrono::duration<double>(timeout_s),
                      [this] { return read_ < lines_.size(); })) {
      return std::nullopt;
    }
    return json::parse(lines_[read_++]);
  }
  // The next line that is not a progress notification.
  std::optional<json> next_reply(double timeout_s) {
    const auto t0 = Clock::now();
    while (true) {
      auto line = next(std::max(0.0, timeout_s - seconds_since(t0)));
      if (!line || !line->contains("method")) return line;
    }
  }
  std::vector<json> all() {
    std::lock_guard lock(mu_);
    std::vector<json> out;
    for (const auto& l : lines_) out.push_back(json::parse(l));
    return out;
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    std::lock_guard lock(mu_);
    if (c == '\n') {
      lines_.push_back(std::move(partial_));
      partial_.clear();
      cv_.notify_all();
    } else {
      partial_ += traits_type::to_char_type(c);
    }
    return c;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> lines_;
  std::size_t read_ = 0;
  std::string partial_;
};

// serve() on a thread, fed and read by the test.
class Session {
 public:
  explicit Session(McpServer& server)
      : thread_([this, &server] {
          server.serve(in_, out_);
          done_ = true;
        }) {}
  ~Session() {
    feed_.close();
    thread_.join();
  }
  void send(const json& message) { feed_.push(message.dump()); }
  // Closes stdin; true when serve() returned within `timeout_s`.
  bool finish(double timeout_s) {
    feed_.close();
    return eventually([this] { return done_.load(); }, timeout_s);
  }
  LineSink& out() { return sink_; }

 private:
  FeedBuf feed_;
  LineSink sink_;
  std::istream in_{&feed_};
  std::ostream out_{&sink_};
  std::atomic<bool> done_ = false;
  std::thread thread_;  // last: starts once the streams exist
};

json score_call(int id, json progress_token = nullptr) {
  json params = {{"name", "score"}, {"arguments", {{"source", "void tsvc_2_s000_fp64(void) {}"}}}};
  if (!progress_token.is_null()) params["_meta"] = {{"progressToken", progress_token}};
  return request(id, "tools/call", std::move(params));
}

json cancelled(int id) {
  return {{"jsonrpc", "2.0"},
          {"method", "notifications/cancelled"},
          {"params", {{"requestId", id}, {"reason", "the user changed their mind"}}}};
}

JudgeSettings real_judge(const fs::path& state, const SlowJudge& judge) {
  JudgeSettings s = settings(state);
  s.url = judge.url();
  return s;
}

TEST(McpServer, PingIsAnsweredWhileAScoreIsInFlight) {
  SlowJudge judge(1500);
  TempDir dir;
  JudgeClient client(real_judge(dir.path(), judge));
  McpServer server(client, {"tsvc_2_s000", "c"});
  Session session(server);
  session.send(score_call(1));
  ASSERT_TRUE(eventually([&] { return judge.requests == 1; }, 5));

  const auto t0 = Clock::now();
  session.send(request(2, "ping"));
  session.send(request(3, "tools/list"));
  auto ping = session.out().next(1);
  ASSERT_TRUE(ping);
  EXPECT_EQ((*ping)["id"], 2);
  EXPECT_EQ((*ping)["result"], json::object());
  auto list = session.out().next(1);
  ASSERT_TRUE(list);
  EXPECT_EQ((*list)["id"], 3);
  EXPECT_LT(seconds_since(t0), 1.0);
  EXPECT_EQ(judge.answered, 0);  // both were answered while the score was grading

  auto score = session.out().next(10);
  ASSERT_TRUE(score);
  EXPECT_EQ((*score)["id"], 1);
  EXPECT_EQ((*score)["result"]["isError"], false) << score->dump();
  EXPECT_EQ((*score)["result"]["structuredContent"]["verdict"], "ok");
  EXPECT_TRUE(session.finish(5));
}

TEST(McpServer, ProgressNotificationsWhileGrading) {
  SlowJudge judge(1200);
  TempDir dir;
  JudgeClient client(real_judge(dir.path(), judge));
  McpSettings ms;
  ms.progress_interval_s = 0.2;
  McpServer server(client, {"tsvc_2_s000", "c"}, ms);
  Session session(server);
  session.send(score_call(1, "tok-1"));
  session.send(score_call(2));  // no progressToken: no notifications
  std::vector<json> progress;
  int replies = 0;
  bool progress_after_reply_1 = false;
  bool replied_1 = false;
  while (replies < 2) {
    auto line = session.out().next(10);
    ASSERT_TRUE(line) << "no reply";
    if (line->contains("method")) {
      EXPECT_EQ((*line)["method"], "notifications/progress");
      progress.push_back((*line)["params"]);
      if (replied_1) progress_after_reply_1 = true;
    } else {
      ++replies;
      if ((*line)["id"] == 1) replied_1 = true;
      EXPECT_EQ((*line)["result"]["isError"], false) << line->dump();
    }
  }
  EXPECT_FALSE(progress_after_reply_1);
  ASSERT_GE(progress.size(), 3u);  // ~1.2 s at 0.2 s
  double last = 0;
  for (const auto& p : progress) {
    EXPECT_EQ(p["progressToken"], "tok-1");
    ASSERT_TRUE(p["progress"].is_number());
    EXPECT_GT(p["progress"].get<double>(), last);  // increases with every notification
    last = p["progress"].get<double>();
    EXPECT_FALSE(p.contains("total"));
    EXPECT_NE(p["message"].get<std::string>().find("score"), std::string::npos);
  }
  EXPECT_FALSE(session.out().next(0.5));  // nothing once both answered
  EXPECT_TRUE(session.finish(5));
}

TEST(McpServer, CancelledCallGetsNoReplyAndItsJudgeConnectionIsClosed) {
  SlowJudge judge(30000);
  TempDir dir;
  JudgeClient client(real_judge(dir.path(), judge));
  McpSettings ms;
  ms.progress_interval_s = 0.1;
  McpServer server(client, {"tsvc_2_s000", "c"}, ms);
  Session session(server);
  session.send(score_call(7, 77));
  ASSERT_TRUE(eventually([&] { return judge.requests == 1; }, 5));
  session.send(cancelled(7));
  // The judge sees the connection close at once, not after its 30 s.
  EXPECT_TRUE(eventually([&] { return judge.closed_by_client == 1; }, 3));
  session.send(request(8, "ping"));
  auto ping = session.out().next_reply(2);
  ASSERT_TRUE(ping);
  EXPECT_EQ((*ping)["id"], 8);

  // A cancellation of an unknown or answered request is ignored; the server keeps serving.
  session.send(cancelled(99));
  judge.delay_ms = 0;
  session.send(score_call(9));
  auto score = session.out().next_reply(5);
  ASSERT_TRUE(score);
  EXPECT_EQ((*score)["id"], 9);
  EXPECT_EQ((*score)["result"]["isError"], false) << score->dump();
  session.send(cancelled(9));
  EXPECT_TRUE(session.finish(3));  // nothing left in flight: well before the 30 s
  int progress_7 = 0;
  for (const auto& line : session.out().all()) {
    EXPECT_NE(line.value("id", json()), 7) << "a cancelled request was answered: " << line;
    if (line.contains("method")) ++progress_7;
  }
  EXPECT_LE(progress_7, 60);  // and its progress stopped
  EXPECT_EQ(judge.answered, 1);
}

TEST(McpServer, CallsBeyondTheLimitAreRefused) {
  SlowJudge judge(30000);
  TempDir dir;
  JudgeClient client(real_judge(dir.path(), judge));
  McpSettings ms;
  ms.max_calls = 2;
  McpServer server(client, {"tsvc_2_s000", "c"}, ms);
  Session session(server);
  session.send(score_call(1));
  session.send(score_call(2));
  ASSERT_TRUE(eventually([&] { return judge.requests == 2; }, 5));
  session.send(score_call(3));
  auto busy = session.out().next(2);
  ASSERT_TRUE(busy);
  EXPECT_EQ((*busy)["id"], 3);
  EXPECT_EQ((*busy)["error"]["code"], McpServer::kServerBusy);
  EXPECT_EQ((*busy)["error"]["data"]["max_calls"], 2);
  EXPECT_NE((*busy)["error"]["message"].get<std::string>().find("HPCAB_MCP_MAX_CALLS"),
            std::string::npos);
  // Cheap methods are not limited.
  session.send(request(4, "ping"));
  auto ping = session.out().next(2);
  ASSERT_TRUE(ping);
  EXPECT_EQ((*ping)["id"], 4);
  // An id already in flight is refused: cancellation could not tell the two apart.
  session.send(score_call(1));
  auto dup = session.out().next(2);
  ASSERT_TRUE(dup);
  EXPECT_EQ((*dup)["id"], 1);
  EXPECT_EQ((*dup)["error"]["code"], -32600);
  EXPECT_EQ(judge.requests, 2);  // neither refused call reached the judge

  // Once calls end, their slots are free again.
  session.send(cancelled(1));
  session.send(cancelled(2));
  ASSERT_TRUE(eventually([&] { return judge.closed_by_client == 2; }, 3));
  judge.delay_ms = 0;
  std::optional<json> again;
  ASSERT_TRUE(eventually(
      [&] {
        session.send(score_call(5));
        again = session.out().next(2);
        return again && !again->contains("error");
      },
      5));
  EXPECT_EQ((*again)["result"]["isError"], false) << again->dump();
  EXPECT_TRUE(session.finish(3));
}

TEST(McpServer, EndOfInputFinishesCallsInFlightByDefault) {
  SlowJudge judge(500);
  TempDir dir;
  JudgeClient client(real_judge(dir.path(), judge));
  McpServer server(client, {"tsvc_2_s000", "c"});
  Session session(server);
  session.send(score_call(1));
  session.send(request(2, "ping"));
  ASSERT_TRUE(session.finish(10));  // stdin closed at once; serve() waits for the score
  auto lines = session.out().all();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["id"], 2);
  EXPECT_EQ(lines[1]["id"], 1);
  EXPECT_EQ(lines[1]["result"]["structuredContent"]["verdict"], "ok");
}

TEST(McpServer, EndOfInputCancelsCallsAfterTheGrace) {
  SlowJudge judge(30000);
  TempDir dir;
  JudgeClient client(real_judge(dir.path(), judge));
  McpSettings ms;
  ms.shutdown_grace_s = 0.2;
  McpServer server(client, {"tsvc_2_s000", "c"}, ms);
  Session session(server);
  session.send(score_call(1));
  ASSERT_TRUE(eventually([&] { return judge.requests == 1; }, 5));
  const auto t0 = Clock::now();
  ASSERT_TRUE(session.finish(5));
  EXPECT_GE(seconds_since(t0), 0.15);
  EXPECT_TRUE(session.out().all().empty());  // abandoned: no reply
  EXPECT_TRUE(eventually([&] { return judge.closed_by_client == 1; }, 3));
}

TEST(McpSettings, FromEnvironment) {
  for (const char* v :
       {"HPCAB_MCP_MAX_CALLS", "HPCAB_MCP_PROGRESS_INTERVAL", "HPCAB_MCP_SHUTDOWN_GRACE"}) {
    unsetenv(v);
  }
  auto d = McpSettings::from_env();
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->max_calls, 4);
  EXPECT_EQ(d->progress_interval_s, 5);
  EXPECT_LT(d->shutdown_grace_s, 0);
  setenv("HPCAB_MCP_MAX_CALLS", "8", 1);
  setenv("HPCAB_MCP_PROGRESS_INTERVAL", "0.5", 1);
  setenv("HPCAB_MCP_SHUTDOWN_GRACE", "0", 1);
  auto s = McpSettings::from_env();
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->max_calls, 8);
  EXPECT_EQ(s->progress_interval_s, 0.5);
  EXPECT_EQ(s->shutdown_grace_s, 0);
  for (const char* bad : {"0", "1.5", "x", "-3", "2000"}) {
    setenv("HPCAB_MCP_MAX_CALLS", bad, 1);
    auto r = McpSettings::from_env();
    EXPECT_FALSE(r) << bad;
    if (!r) {
      EXPECT_NE(r.error().message.find("HPCAB_MCP_MAX_CALLS"), std::string::npos);
    }
  }
  unsetenv("HPCAB_MCP_MAX_CALLS");
  setenv("HPCAB_MCP_PROGRESS_INTERVAL", "0", 1);
  EXPECT_FALSE(McpSettings::from_env());
  setenv("HPCAB_MCP_PROGRESS_INTERVAL", "nan", 1);
  EXPECT_FALSE(McpSettings::from_env());
  unsetenv("HPCAB_MCP_PROGRESS_INTERVAL");
  setenv("HPCAB_MCP_SHUTDOWN_GRACE", "-1", 1);
  EXPECT_FALSE(McpSettings::from_env());
  unsetenv("HPCAB_MCP_SHUTDOWN_GRACE");
}

// The HTTP client's cancellation, which the MCP server's rests on.
TEST(HttpClient, CancelTokenAbandonsARequestInFlight) {
  SlowJudge judge(30000);
  CancelToken token;
  HttpOptions options;
  options.cancel = &token;
  std::thread canceller([&] {
    if (eventually([&] { return judge.requests == 1; }, 5)) token.cancel();
  });
  const auto t0 = Clock::now();
  auto r = http_request("POST", judge.url() + "/score", "{}", {}, 60, options);
  canceller.join();
  ASSERT_FALSE(r);
  EXPECT_LT(seconds_since(t0), 5);
  EXPECT_NE(r.error().message.find("cancelled"), std::string::npos) << r.error().message;
  EXPECT_TRUE(eventually([&] { return judge.closed_by_client == 1; }, 3));
  EXPECT_TRUE(token.cancelled());

  // A token cancelled beforehand: the request fails without connecting.
  auto again = http_request("GET", judge.url() + "/health", "", {}, 60, options);
  EXPECT_FALSE(again);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(judge.connections, 1);

  // Without a token, or with one never cancelled, requests are as before.
  judge.delay_ms = 0;
  CancelToken unused;
  HttpOptions calm;
  calm.cancel = &unused;
  auto ok = http_request("POST", judge.url() + "/score", "{}", {}, 10, calm);
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->status, 200);
  EXPECT_TRUE(http_request("GET", judge.url() + "/x", "", {}, 10));
}

}  // namespace
}  // namespace hpcab::harness
