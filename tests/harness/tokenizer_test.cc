// The proxy's own token counts (harness/tokenizer.h, the text extraction in harness/usage.h):
// tiny hand-written tiktoken vocabularies whose merges were worked out by hand, the
// pre-tokenization, the estimate, and what text of a request and a response is counted.
#include "harness/tokenizer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/usage.h"

namespace hpcab::harness {
namespace {

using nlohmann::json;
using Pieces = std::vector<std::string_view>;

std::shared_ptr<const BpeTokenizer> Vocab(const std::string& text) {
  auto t = BpeTokenizer::parse(text, "test");
  EXPECT_TRUE(t.ok()) << t.error().message;
  return t.ok() ? *t : nullptr;
}

// a b c d ' ' as bytes 0-4; then ab, cd, bc, " a".
constexpr const char* kAbFirst =
    "YQ== 0\nYg== 1\nYw== 2\nZA== 3\nIA== 4\n"
    "YWI= 5\nY2Q= 6\nYmM= 7\nIGE= 8\n";
// The same pairs with bc ranked before ab.
constexpr const char* kBcFirst =
    "YQ== 0\nYg== 1\nYw== 2\nZA== 3\nIA== 4\n"
    "YmM= 5\nYWI= 6\nY2Q= 7\n";

TEST(Tokenizer, MergesTheLowestRankedPairFirst) {
  auto ab = Vocab(kAbFirst);
  ASSERT_TRUE(ab);
  EXPECT_EQ(ab->size(), 9u);
  // abcd: ab (5) < cd (6) < bc (7): a+b, then c+d; "abcd" is no token.
  EXPECT_EQ(ab->encode("abcd"), (std::vector<std::uint32_t>{5, 6}));
  EXPECT_EQ(ab->count("abcd"), 2);
  // " abcd" is one piece: ab (5) before " a" (8); then cd; " ab" is no token.
  EXPECT_EQ(ab->encode("abcd abcd"), (std::vector<std::uint32_t>{5, 6, 4, 5, 6}));
  EXPECT_EQ(ab->count("abcd abcd"), 5);

  auto bc = Vocab(kBcFirst);
  ASSERT_TRUE(bc);
  // bc (5) first: a, bc, d; neither "abc" nor "bcd" is a token.
  EXPECT_EQ(bc->encode("abcd"), (std::vector<std::uint32_t>{0, 5, 3}));
  EXPECT_EQ(bc->count("abcd"), 3);
}

TEST(Tokenizer, EqualRanksMergeLeftmostFirstAndMergesChain) {
  // a, aa, aaaa: "aaa" -> (aa)(a), not (a)(aa); "aaaaa" -> aa aa a -> aaaa a.
  auto t = Vocab("YQ== 0\nYWE= 1\nYWFhYQ== 2\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->encode("aaa"), (std::vector<std::uint32_t>{1, 0}));
  EXPECT_EQ(t->encode("aaaaa"), (std::vector<std::uint32_t>{2, 0}));
  EXPECT_EQ(t->encode("aaaa"), (std::vector<std::uint32_t>{2}));  // a whole piece at once
  // A long run (one piece) merges in pairs and quadruples: 4096 a -> 1024 tokens.
  EXPECT_EQ(t->count(std::string(4096, 'a')), 1024);
}

TEST(Tokenizer, BytesOutsideTheVocabularyCountOneEach) {
  auto t = Vocab(kAbFirst);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->encode("z"), (std::vector<std::uint32_t>{BpeTokenizer::kUnknown}));
  EXPECT_EQ(t->count("zab"), 2);  // z, ab
  EXPECT_EQ(t->count(""), 0);
}

TEST(Tokenizer, PretokenizeApproximatesTheCl100kSplit) {
  EXPECT_EQ(pretokenize("Hello world"), (Pieces{"Hello", " world"}));
  EXPECT_EQ(pretokenize("x  = 12345\n"), (Pieces{"x", " ", " =", " ", "123", "45", "\n"}));
  EXPECT_EQ(pretokenize("foo();\n  bar"), (Pieces{"foo", "();\n", " ", " bar"}));
  EXPECT_EQ(pretokenize("h\xc3\xa9llo w\xc3\xb6rld"),
            (Pieces{"h\xc3\xa9llo", " w\xc3\xb6rld"}));  // UTF-8 words stay whole
  EXPECT_EQ(pretokenize("a.h\n\n"), (Pieces{"a", ".h", "\n\n"}));
  EXPECT_TRUE(pretokenize("").empty());
  // Whatever the text, the pieces are the text.
  const std::string mixed = "int main(void) {\n\treturn 42;  // ok\r\n}\n\n  ";
  std::string joined;
  for (auto p : pretokenize(mixed)) joined += p;
  EXPECT_EQ(joined, mixed);
}

TEST(Tokenizer, EstimateIsBytesOverFourRoundedUp) {
  EXPECT_EQ(estimate_tokens(""), 0);
  EXPECT_EQ(estimate_tokens("abc"), 1);
  EXPECT_EQ(estimate_tokens("abcd"), 1);
  EXPECT_EQ(estimate_tokens("abcde"), 2);
  EXPECT_EQ(estimate_tokens("Hello world"), 3);
  EXPECT_EQ(estimate_tokens("\xc3\xa9\xc3\xa9\xc3\xa9"), 2);  // 6 UTF-8 bytes
  EXPECT_EQ(TokenCounter().source(), TokenSource::kEstimated);
  EXPECT_EQ(TokenCounter().count("Hello world"), 3);
  EXPECT_EQ(TokenCounter(Vocab(kAbFirst)).source(), TokenSource::kCounted);
  EXPECT_EQ(TokenCounter(Vocab(kAbFirst)).count("abcd"), 2);
  EXPECT_STREQ(token_source_name(TokenSource::kCounted), "counted");
  EXPECT_STREQ(token_source_name(TokenSource::kNone), "none");
}

TEST(Tokenizer, BadVocabulariesAreRefusedWithTheLine) {
  auto bad = [](const std::string& text) {
    auto t = BpeTokenizer::parse(text, "v.tiktoken");
    EXPECT_FALSE(t.ok()) << text;
    return t.ok() ? std::string() : t.error().message;
  };
  EXPECT_NE(bad("YQ== 0\nYg== x\n").find("v.tiktoken:2"), std::string::npos);
  EXPECT_NE(bad("YQ== 0\n!!!! 1\n").find("base64"), std::string::npos);
  EXPECT_NE(bad("YQ== 0\nYg== 0\n").find("rank 0 was given on line 1"), std::string::npos);
  EXPECT_NE(bad("YQ== 0\nYQ== 1\n").find("another rank"), std::string::npos);
  EXPECT_NE(bad("\n\n").find("no tokens"), std::string::npos);
  EXPECT_NE(bad("YQ==\n").find("<base64 token> <rank>"), std::string::npos);
  EXPECT_FALSE(BpeTokenizer::load("/nonexistent/vocab.tiktoken").ok());
  // CRLF lines and a missing final newline are fine.
  auto t = BpeTokenizer::parse("YQ== 0\r\nYg== 1", "crlf");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ((*t)->size(), 2u);
}

TEST(CountedText, RequestTextIsWhatTheModelReads) {
  const json chat = json::parse(R"({
    "model": "m", "max_tokens": 5,
    "messages": [
      {"role": "system", "content": "sys"},
      {"role": "user", "content": [{"type": "text", "text": "hi"},
                                   {"type": "image_url", "image_url": {"url": "data:x"}}]},
      {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
        "function": {"name": "score", "arguments": "{\"a\":1}"}}]},
      {"role": "tool", "tool_call_id": "c1", "content": "ok"}],
    "tools": [{"type": "function", "function": {"name": "score"}}]})");
  EXPECT_EQ(request_text(chat),
            "sys\nhi\n{\"a\":1}\nscore\nok\n"
            R"([{"function":{"name":"score"},"type":"function"}])");
  const json anthropic = json::parse(R"({
    "system": [{"type": "text", "text": "be brief", "cache_control": {"type": "ephemeral"}}],
    "messages": [{"role": "assistant", "content": [
      {"type": "tool_use", "id": "t1", "name": "score", "input": {"path": "a.c"}}]},
      {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                    "content": "fine"}]}]})");
  EXPECT_EQ(request_text(anthropic), "be brief\n{\"path\":\"a.c\"}\nscore\nfine");
  EXPECT_EQ(request_text(json::parse(R"({"instructions": "i", "input": "x"})")), "i\nx");
  EXPECT_EQ(request_text(json::parse(R"({"prompt": ["p1", "p2"]})")), "p1\np2");
}

TEST(CountedText, ResponseTextOfBodiesAndStreams) {
  EXPECT_EQ(response_text(R"({"choices": [{"index": 0, "finish_reason": "stop",
      "message": {"role": "assistant", "content": "Hello world"}}]})"),
            "Hello world");
  EXPECT_EQ(response_text(R"({"choices": [{"message": {"role": "assistant", "content": null,
      "tool_calls": [{"id": "c", "type": "function",
                      "function": {"name": "f", "arguments": "{}"}}]}}]})"),
            "{}\nf");  // keys in name order
  EXPECT_EQ(response_text(R"({"type": "message", "role": "assistant", "stop_reason": "end_turn",
      "content": [{"type": "text", "text": "A"},
                  {"type": "tool_use", "id": "t", "name": "g", "input": {"x": 1}}]})"),
            "A\n{\"x\":1}\ng");
  EXPECT_EQ(response_text("not json"), "");

  SseUsageScanner openai(WireFormat::kOpenAI);
  openai.feed(
      "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"}}]}"
      "\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"}}]}\n\n"
      "data: [DONE]\n\n");
  openai.finish();
  EXPECT_EQ(openai.text(), "Hello");
  EXPECT_FALSE(openai.usage().seen);

  SseUsageScanner anthropic(WireFormat::kAnthropic);
  anthropic.feed(
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
      "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\"}}\n\n"
      "data: {\"type\":\"content_block_delta\",\"index\":0,"
      "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\":1}\"}}\n\n");
  anthropic.finish();
  EXPECT_EQ(anthropic.text(), "{\"a\":1}");
}

}  // namespace
}  // namespace hpcab::harness
