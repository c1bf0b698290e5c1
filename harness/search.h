// The agents' web-search tool (docs/harness.md "Search"), off by default: an arm that lists
// `search` in TOOLS names a search endpoint (SEARCH_URL), the domains whose results an agent may
// see (SEARCH_DOMAINS) and how many (SEARCH_RESULTS). Agents reach it only through their worker's
// metering proxy (POST /hpcab/search), which asks the endpoint, keeps the allowed results and
// records every query with what it returned in the episode database: the record is made where the
// agent cannot skip it, and the endpoint's URL (possibly holding a key) never reaches the agent.
//
// The endpoint is asked `GET <SEARCH_URL>?q=<query>&format=json&count=<n>` (SEARCH_URL may carry
// its own query, e.g. an API key; `format=json` is what SearxNG needs, other engines ignore it)
// and must answer JSON with a result list: `results` (SearxNG, most self-hosted engines) or
// `web.results` (Brave's API), each result an object with `url`, `title` and a `snippet`,
// `content` or `description`.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "common/http_client.h"
#include "common/result.h"

namespace hpcab::harness {

struct SearchConfig {
  std::string url;  // SEARCH_URL: http(s) endpoint; '' = the proxy serves no search
  // SEARCH_DOMAINS: results whose host is one of these or a subdomain of one are kept; empty =
  // every domain.
  std::vector<std::string> allowed_domains;
  int results = 5;                        // SEARCH_RESULTS: results returned per query, at most
  int max_queries = 50;                   // SEARCH_MAX_QUERIES: per episode; more are refused (429)
  double timeout_s = 20;                  // SEARCH_TIMEOUT_S: one endpoint request
  std::size_t max_query_bytes = 1000;     // longer queries are refused (400)
  std::size_t max_body_bytes = 8u << 20;  // endpoint answers above this are an upstream error
  std::string ca_file;  // https endpoints: extra trusted CAs (PEM); '' = the system store
};

struct SearchResult {
  std::string title;
  std::string url;
  std::string snippet;
};

// Why a search answered no results (codes; nothing branches on message text).
enum class SearchError {
  kNone,
  kDisabled,    // 404 search_disabled: the arm gives no search
  kBadRequest,  // 400 bad_request: no query, not JSON, a query too long
  kLimit,       // 429 search_limit: the episode's SEARCH_MAX_QUERIES are spent
  kUpstream,    // 502 search_upstream_error: the endpoint did not answer a result list
};
const char* search_error_code(SearchError e);
int search_error_status(SearchError e);

// What one query came to: the answer the agent gets and the record the database keeps.
struct SearchOutcome {
  SearchError error = SearchError::kNone;
  std::string message;                // error: why
  std::vector<SearchResult> results;  // kept, in the endpoint's order
  int dropped = 0;                    // results outside SEARCH_DOMAINS or beyond SEARCH_RESULTS
  int upstream_status = 0;            // the endpoint's HTTP status; 0 when not asked
};

// The endpoint's request URL for `query`.
std::string search_request_url(const std::string& endpoint, std::string_view query, int count);

// The result list of an endpoint's JSON answer (see the file comment); results without a
// string url are skipped. Errors: not JSON, no result list.
Result<std::vector<SearchResult>> parse_search_results(std::string_view body);

// Whether `url`'s host is one of `domains` or below one (case-insensitive; "docs.python.org"
// matches "python.org", "evilpython.org" does not). Empty `domains`: true. A URL that is not
// http(s) with a host: false.
bool domain_allowed(std::string_view url, const std::vector<std::string>& domains);

// A SEARCH_DOMAINS entry: a lower-case host name of letters, digits, '-' and '.', without a
// scheme, a port or a path. Errors name the entry.
Result<std::string> normalize_domain(std::string_view text);

// One GET of the endpoint (a fake in tests); errors are transport failures.
using SearchFetch = std::function<Result<HttpResult>(const std::string& url)>;
// The real one: http_request with config.timeout_s and config.ca_file.
SearchFetch http_search_fetch(const SearchConfig& config);

// Asks the endpoint for `query` and keeps the allowed results. The query must be non-empty and
// at most max_query_bytes (kBadRequest); kDisabled when config.url is empty. Limits per episode
// are the caller's (the proxy counts).
SearchOutcome run_search(const SearchConfig& config, const std::string& query,
                         const SearchFetch& fetch);

// The agent's answer: {"query", "results": [{title, url, snippet}], "dropped"} or, for an
// error, {"error": {"code", "message"}}.
nlohmann::json search_answer(const std::string& query, const SearchOutcome& outcome);

}  // namespace hpcab::harness
