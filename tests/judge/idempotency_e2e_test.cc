// /submit's Idempotency-Key against a real hpcab-judge process (real builds, runs and SQLite):
// a repeat is answered with the recorded grade, concurrent repeats are graded once, a client
// that hangs up after sending its request still gets its grade recorded (and its retry gets
// it), and the key with another source is a 409. The routes' handling in detail, over a fake
// grader: tests/judge/idempotency_test.cc.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "common/http_client.h"
#include "judge/store/store.h"
#include "tests/judge/judge_process.h"

namespace hpcab::judge {
namespace {

using json = nlohmann::json;
using test::Judge;
using test::slurp;
using namespace std::chrono_literals;

const std::string kReference =
    std::string(HPCAB_SOURCE_DIR) + "/tests/solutions/tsvc_2_s000_reference.c";

json SubmitBody(const std::string& source) {
  return {{"kernel", "tsvc_2_s000"}, {"language", "c"},    {"rank", 0},
          {"source", source},        {"run_id", "idem-1"}, {"optimizer", "test"}};
}

HttpResult Submit(Judge& j, const std::string& key, const json& body) {
  auto r = http_request("POST", j.url() + "/submit", body.dump(), {{"Idempotency-Key", key}}, 600);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : HttpResult{};
}

// `first` plus "replayed": true, the answer a repeat of its key must get.
json Replayed(const std::string& first) {
  json j = json::parse(first);
  j["replayed"] = true;
  return j;
}

int64_t Submissions(Judge& j) { return j.store()->count_submissions().value(); }

TEST(IdempotencyE2E, TheSameKeyTwiceIsOneSubmissionAndTheSameAnswer) {
  Judge j;
  const json body = SubmitBody(slurp(kReference));
  auto first = Submit(j, "idem-1:1", body);
  ASSERT_EQ(first.status, 200) << first.body;
  const json a = json::parse(first.body);
  ASSERT_EQ(a["verdict"], "ok") << first.body;
  ASSERT_TRUE(a.contains("submission_id"));
  auto second = Submit(j, "idem-1:1", body);
  ASSERT_EQ(second.status, 200) << second.body;
  EXPECT_EQ(json::parse(second.body), Replayed(first.body));
  EXPECT_EQ(Submissions(j), 1);
  // The row holds the key and exactly the body the first client got.
  auto rec = j.store()->get_submission(a["submission_id"].get<int64_t>());
  ASSERT_TRUE(rec.ok() && rec->has_value());
  EXPECT_EQ((*rec)->idempotency_key, "idem-1:1");
  EXPECT_EQ((*rec)->response_json, first.body);
  // Graded once: one submit grade counted.
  auto metrics = j.get("/metrics");
  EXPECT_NE(metrics.body.find("hpcab_grades_total{route=\"submit\",verdict=\"ok\"} 1\n"),
            std::string::npos)
      << metrics.body;
}

TEST(IdempotencyE2E, ConcurrentRepeatsAreGradedOnce) {
  Judge j;
  const json body = SubmitBody(slurp(kReference));
  auto a = std::async(std::launch::async, [&] { return Submit(j, "idem-2:1", body); });
  auto b = std::async(std::launch::async, [&] { return Submit(j, "idem-2:1", body); });
  const HttpResult ra = a.get(), rb = b.get();
  ASSERT_EQ(ra.status, 200) << ra.body;
  ASSERT_EQ(rb.status, 200) << rb.body;
  // One of them was graded, the other is its answer replayed.
  const json ja = json::parse(ra.body), jb = json::parse(rb.body);
  ASSERT_NE(ja.contains("replayed"), jb.contains("replayed")) << ra.body << "\n" << rb.body;
  const HttpResult& graded = ja.contains("replayed") ? rb : ra;
  const json& replay = ja.contains("replayed") ? ja : jb;
  EXPECT_EQ(replay, Replayed(graded.body));
  EXPECT_EQ(Submissions(j), 1);
}

// Writes `request` on a fresh connection to 127.0.0.1:`port` and closes it without reading.
void SendAndHangUp(int port, const std::string& request) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  std::size_t sent = 0;
  while (sent < request.size()) {
    ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    ASSERT_GT(n, 0);
    sent += static_cast<std::size_t>(n);
  }
  close(fd);
}

TEST(IdempotencyE2E, AClientThatHangsUpIsStillGradedAndItsRetryGetsTheGrade) {
  Judge j;
  const int port = std::stoi(j.url().substr(j.url().rfind(':') + 1));
  const std::string body = SubmitBody(slurp(kReference)).dump();
  SendAndHangUp(port,
                "POST /submit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                "Idempotency-Key: idem-3:1\r\nContent-Length: " +
                    std::to_string(body.size()) + "\r\n\r\n" + body);
  // The judge grades and records it with nobody left to answer.
  for (int i = 0; i < 1200 && Submissions(j) == 0; ++i) std::this_thread::sleep_for(100ms);
  ASSERT_EQ(Submissions(j), 1) << j.log();
  auto retry = Submit(j, "idem-3:1", json::parse(body));
  ASSERT_EQ(retry.status, 200) << retry.body;
  const json r = json::parse(retry.body);
  EXPECT_EQ(r["replayed"], true);
  EXPECT_EQ(r["verdict"], "ok") << retry.body;
  auto rec = j.store()->get_submission(r["submission_id"].get<int64_t>());
  ASSERT_TRUE(rec.ok() && rec->has_value());
  EXPECT_EQ(r, Replayed((*rec)->response_json));
  EXPECT_EQ(Submissions(j), 1);
}

TEST(IdempotencyE2E, TheSameKeyWithAnotherSourceIs409) {
  Judge j;
  const std::string source = slurp(kReference);
  auto first = Submit(j, "idem-4:1", SubmitBody(source));
  ASSERT_EQ(first.status, 200) << first.body;
  auto other = Submit(j, "idem-4:1", SubmitBody(source + "\n/* another version */\n"));
  EXPECT_EQ(other.status, 409) << other.body;
  const json e = json::parse(other.body);
  EXPECT_EQ(e["code"], "idempotency_conflict");
  EXPECT_EQ(e["differs"], json::array({"source"}));
  EXPECT_EQ(Submissions(j), 1);
}

}  // namespace
}  // namespace hpcab::judge
