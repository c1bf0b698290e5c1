#include "harness/usage.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace hpcab::harness {
namespace {

using nlohmann::json;

// A non-negative integer field, or `fallback` when absent or not a number.
std::int64_t Count(const json& obj, const char* key, std::int64_t fallback = 0) {
  if (!obj.is_object()) return fallback;
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_number()) return fallback;
  const double v = it->get<double>();
  return v > 0 ? static_cast<std::int64_t>(v) : 0;
}

bool Has(const json& obj, const char* key) {
  return obj.is_object() && obj.contains(key) && obj.at(key).is_number();
}

constexpr std::size_t kMaxText = 64u << 20;

// Keys whose values are identifiers, markers or images rather than text the model reads or
// writes.
bool SkippedKey(std::string_view k) {
  static constexpr std::string_view kSkip[] = {"role",
                                               "type",
                                               "id",
                                               "tool_call_id",
                                               "tool_use_id",
                                               "call_id",
                                               "cache_control",
                                               "signature",
                                               "status",
                                               "finish_reason",
                                               "stop_reason",
                                               "stop_sequence",
                                               "object",
                                               "model",
                                               "logprobs",
                                               "annotations",
                                               "source",
                                               "image_url",
                                               "index",
                                               "encrypted_content",
                                               "created",
                                               "usage",
                                               "sequence_number",
                                               "item_id",
                                               "output_index"};
  for (std::string_view s : kSkip) {
    if (k == s) return true;
  }
  return false;
}

// Appends every string of `j` to `out`, skipping SkippedKey's values; an object under `input` or
// `arguments` is appended as compact JSON. `sep`: a newline goes between strings (whole
// documents); without, stream deltas are joined as they come.
void CollectText(const json& j, std::string& out, bool sep, int depth = 0) {
  if (depth > 64 || out.size() >= kMaxText) return;
  auto append = [&](const std::string& s) {
    if (sep && !out.empty()) out += '\n';
    out += s;
  };
  if (j.is_string()) {
    append(j.get_ref<const std::string&>());
  } else if (j.is_array()) {
    for (const auto& v : j) CollectText(v, out, sep, depth + 1);
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (SkippedKey(it.key())) continue;
      if ((it.key() == "input" || it.key() == "arguments") && it->is_object()) {
        append(it->dump());
      } else {
        CollectText(*it, out, sep, depth + 1);
      }
    }
  }
}

}  // namespace

std::string request_text(const json& body) {
  std::string out;
  if (!body.is_object()) return out;
  for (const char* key : {"system", "instructions", "messages", "input", "prompt"}) {
    if (auto it = body.find(key); it != body.end()) CollectText(*it, out, true);
  }
  if (auto it = body.find("tools"); it != body.end() && !it->is_null()) {
    if (!out.empty()) out += '\n';
    out += it->dump();
  }
  return out;
}

std::string response_text(std::string_view body) {
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  std::string out;
  if (!j.is_object()) return out;
  for (const char* key : {"choices", "content", "output"}) {
    if (auto it = j.find(key); it != j.end()) CollectText(*it, out, true);
  }
  return out;
}

namespace {}  // namespace

TokenUsage& TokenUsage::operator+=(const TokenUsage& o) {
  input += o.input;
  cached += o.cached;
  output += o.output;
  seen = seen || o.seen;
  return *this;
}

double TokenWeights::cost(const TokenUsage& u) const {
  return static_cast<double>(u.input) * input + static_cast<double>(u.cached) * cached +
         static_cast<double>(u.output) * output;
}

void MemoryUsageSink::record(const RequestRecord& r) {
  std::lock_guard lock(mu_);
  records_.push_back(r);
}

std::vector<RequestRecord> MemoryUsageSink::records() const {
  std::lock_guard lock(mu_);
  return records_;
}

void MemoryUsageSink::record_search(const SearchRecord& r) {
  std::lock_guard lock(mu_);
  searches_.push_back(r);
}

std::vector<SearchRecord> MemoryUsageSink::searches() const {
  std::lock_guard lock(mu_);
  return searches_;
}

EpisodeTotals MemoryUsageSink::totals(const std::string& episode) const {
  std::lock_guard lock(mu_);
  EpisodeTotals t;
  for (const RequestRecord& r : records_) {
    if (r.episode != episode) continue;
    ++t.requests;
    t.usage += r.usage;
    t.weighted += r.weighted;
  }
  return t;
}

namespace {

// OpenAI's two forms: an input count that includes the cached part, which `details_key`'s
// object names.
TokenUsage input_including_cached(const json& usage, const char* input_key, const char* details_key,
                                  const char* output_key) {
  TokenUsage u;
  u.seen = true;
  const std::int64_t input = Count(usage, input_key);
  std::int64_t cached = 0;
  if (auto it = usage.find(details_key); it != usage.end()) cached = Count(*it, "cached_tokens");
  cached = std::min(cached, input);
  u.cached = cached;
  u.input = input - cached;
  u.output = Count(usage, output_key);
  return u;
}

}  // namespace

TokenUsage usage_from_json(WireFormat format, const json& usage) {
  if (!usage.is_object()) return {};
  switch (format) {
    case WireFormat::kOpenAI:
      return input_including_cached(usage, "prompt_tokens", "prompt_tokens_details",
                                    "completion_tokens");
    case WireFormat::kResponses:
      return input_including_cached(usage, "input_tokens", "input_tokens_details", "output_tokens");
    case WireFormat::kAnthropic:
      break;
  }
  TokenUsage u;
  u.seen = true;
  u.input = Count(usage, "input_tokens") + Count(usage, "cache_creation_input_tokens");
  u.cached = Count(usage, "cache_read_input_tokens");
  u.output = Count(usage, "output_tokens");
  return u;
}

TokenUsage usage_from_body(WireFormat format, std::string_view body) {
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("usage")) return {};
  return usage_from_json(format, j["usage"]);
}

void SseUsageScanner::feed(std::string_view bytes) {
  std::size_t start = 0;
  while (start < bytes.size()) {
    const std::size_t nl = bytes.find('\n', start);
    if (nl == std::string_view::npos) {
      // Partial line: keep it, unless a hostile stream never ends its line.
      if (pending_.size() < kMaxLine) pending_.append(bytes.substr(start));
      return;
    }
    if (pending_.empty()) {
      line(bytes.substr(start, nl - start));
    } else {
      pending_.append(bytes.substr(start, nl - start));
      line(pending_);
      pending_.clear();
    }
    start = nl + 1;
  }
}

TokenUsage SseUsageScanner::finish() {
  if (!pending_.empty()) {
    std::string last;
    last.swap(pending_);
    line(last);
  }
  return usage_;
}

void SseUsageScanner::line(std::string_view l) {
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  if (l.substr(0, 5) != "data:") return;  // event:, id:, comments and blank lines
  l.remove_prefix(5);
  if (!l.empty() && l.front() == ' ') l.remove_prefix(1);
  data(l);
}

void SseUsageScanner::collect_text(const json& j) {
  if (api_ == WireFormat::kOpenAI) {
    if (auto it = j.find("choices"); it != j.end()) CollectText(*it, text_, false);
  } else if (api_ == WireFormat::kResponses) {
    auto it = j.find("response");
    if (it == j.end() || !it->is_object()) return;
    auto out = it->find("output");
    if (out == it->end() || !out->is_array() || out->empty()) return;
    text_.clear();  // each whole response supersedes the last
    CollectText(*out, text_, true);
  } else {
    const std::string type = j.value("type", "");
    if (type == "content_block_delta" || type == "content_block_start") {
      for (const char* key : {"delta", "content_block"}) {
        if (auto it = j.find(key); it != j.end()) CollectText(*it, text_, false);
      }
    }
  }
}

void SseUsageScanner::data(std::string_view d) {
  if (d.empty() || d.front() != '{') return;  // "[DONE]" and the like
  json j = json::parse(d, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return;
  collect_text(j);
  if (api_ == WireFormat::kOpenAI) {
    auto it = j.find("usage");
    if (it != j.end() && it->is_object()) usage_ = usage_from_json(api_, *it);
    return;
  }
  if (api_ == WireFormat::kResponses) {
    // The terminal events (response.completed, .incomplete, .failed) carry the whole response
    // with its usage; earlier events carry none.
    auto it = j.find("response");
    if (it != j.end() && it->is_object()) {
      auto u = it->find("usage");
      if (u != it->end() && u->is_object()) usage_ = usage_from_json(api_, *u);
    }
    return;
  }
  const json* usage = nullptr;
  const std::string type = j.value("type", "");
  if (type == "message_start" && j.contains("message") && j["message"].is_object()) {
    auto it = j["message"].find("usage");
    if (it != j["message"].end()) usage = &*it;
  } else if (type == "message_delta") {
    auto it = j.find("usage");
    if (it != j.end()) usage = &*it;
  }
  if (usage == nullptr || !usage->is_object()) return;
  if (Has(*usage, "input_tokens")) a_input_ = Count(*usage, "input_tokens");
  if (Has(*usage, "cache_creation_input_tokens"))
    a_creation_ = Count(*usage, "cache_creation_input_tokens");
  if (Has(*usage, "cache_read_input_tokens")) a_read_ = Count(*usage, "cache_read_input_tokens");
  if (Has(*usage, "output_tokens")) a_output_ = Count(*usage, "output_tokens");
  usage_.seen = true;
  usage_.input = a_input_ + a_creation_;
  usage_.cached = a_read_;
  usage_.output = a_output_;
}

}  // namespace hpcab::harness
