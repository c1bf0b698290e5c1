#include "harness/search.h"

#include <algorithm>
#include <cctype>

#include "common/url.h"

namespace hpcab::harness {

using json = nlohmann::json;

const char* search_error_code(SearchError e) {
  switch (e) {
    case SearchError::kNone:
      return "";
    case SearchError::kDisabled:
      return "search_disabled";
    case SearchError::kBadRequest:
      return "bad_request";
    case SearchError::kLimit:
      return "search_limit";
    case SearchError::kUpstream:
      return "search_upstream_error";
  }
  return "";
}

int search_error_status(SearchError e) {
  switch (e) {
    case SearchError::kNone:
      return 200;
    case SearchError::kDisabled:
      return 404;
    case SearchError::kBadRequest:
      return 400;
    case SearchError::kLimit:
      return 429;
    case SearchError::kUpstream:
      return 502;
  }
  return 500;
}

std::string search_request_url(const std::string& endpoint, std::string_view query, int count) {
  const char sep = endpoint.find('?') == std::string::npos ? '?' : '&';
  return endpoint + sep + "q=" + percent_encode(query) +
         "&format=json&count=" + std::to_string(count);
}

namespace {

std::string string_field(const json& o, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    auto it = o.find(n);
    if (it != o.end() && it->is_string()) return it->get<std::string>();
  }
  return "";
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

Result<std::vector<SearchResult>> parse_search_results(std::string_view body) {
  const json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Error{"the search endpoint's answer is not JSON"};
  const json* list = nullptr;
  if (auto it = j.find("results"); it != j.end() && it->is_array()) {
    list = &*it;
  } else if (auto web = j.find("web"); web != j.end() && web->is_object()) {
    if (auto r = web->find("results"); r != web->end() && r->is_array()) list = &*r;
  }
  if (!list) return Error{"the search endpoint's answer has no result list ('results')"};
  std::vector<SearchResult> out;
  for (const json& r : *list) {
    if (!r.is_object()) continue;
    SearchResult s;
    s.url = string_field(r, {"url"});
    if (s.url.empty()) continue;
    s.title = string_field(r, {"title"});
    s.snippet = string_field(r, {"snippet", "content", "description"});
    out.push_back(std::move(s));
  }
  return out;
}

bool domain_allowed(std::string_view url, const std::vector<std::string>& domains) {
  auto parsed = parse_url(std::string(url));
  if (!parsed || parsed->host.empty()) return false;
  if (domains.empty()) return true;
  const std::string host = lower(parsed->host);
  for (const auto& d : domains) {
    if (host == d) return true;
    if (host.size() > d.size() && host.ends_with(d) && host[host.size() - d.size() - 1] == '.') {
      return true;
    }
  }
  return false;
}

Result<std::string> normalize_domain(std::string_view text) {
  std::string d = lower(text);
  const bool ok =
      !d.empty() && d.front() != '.' && d.back() != '.' && d.front() != '-' &&
      std::all_of(d.begin(), d.end(),
                  [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '.'; }) &&
      d.find("..") == std::string::npos;
  if (!ok) {
    return Error{"'" + std::string(text) +
                 "' is not a domain (a host name such as docs.python.org, without scheme, port "
                 "or path)"};
  }
  return d;
}

SearchFetch http_search_fetch(const SearchConfig& config) {
  HttpOptions options;
  options.ca_file = config.ca_file;
  const double timeout = config.timeout_s;
  return [options, timeout](const std::string& url) {
    return http_request("GET", url, "", {{"Accept", "application/json"}}, timeout, options);
  };
}

SearchOutcome run_search(const SearchConfig& config, const std::string& query,
                         const SearchFetch& fetch) {
  SearchOutcome out;
  auto fail = [&](SearchError e, std::string why) {
    out.error = e;
    out.message = std::move(why);
    return out;
  };
  if (config.url.empty()) return fail(SearchError::kDisabled, "this arm gives no search");
  if (query.find_first_not_of(" \t\r\n") == std::string::npos) {
    return fail(SearchError::kBadRequest, "the query is empty");
  }
  if (query.size() > config.max_query_bytes) {
    return fail(SearchError::kBadRequest,
                "the query is longer than " + std::to_string(config.max_query_bytes) + " bytes");
  }
  auto r = fetch(search_request_url(config.url, query, config.results));
  if (!r) return fail(SearchError::kUpstream, "the search endpoint: " + r.error().message);
  out.upstream_status = r->status;
  if (r->status != 200) {
    return fail(SearchError::kUpstream,
                "the search endpoint answered HTTP " + std::to_string(r->status));
  }
  if (r->body.size() > config.max_body_bytes) {
    return fail(SearchError::kUpstream, "the search endpoint's answer is larger than " +
                                            std::to_string(config.max_body_bytes) + " bytes");
  }
  auto results = parse_search_results(r->body);
  if (!results) return fail(SearchError::kUpstream, results.error().message);
  for (auto& s : *results) {
    const bool room = static_cast<int>(out.results.size()) < config.results;
    if (room && domain_allowed(s.url, config.allowed_domains)) {
      out.results.push_back(std::move(s));
    } else {
      ++out.dropped;
    }
  }
  return out;
}

json search_answer(const std::string& query, const SearchOutcome& outcome) {
  if (outcome.error != SearchError::kNone) {
    return {{"error", {{"code", search_error_code(outcome.error)}, {"message", outcome.message}}}};
  }
  json results = json::array();
  for (const auto& r : outcome.results) {
    results.push_back({{"title", r.title}, {"url", r.url}, {"snippet", r.snippet}});
  }
  return {{"query", query}, {"results", results}, {"dropped", outcome.dropped}};
}

}  // namespace hpcab::harness
