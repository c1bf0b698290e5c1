// The read-only results page (GET / and /results): recorded submissions grouped by
// kernel, best credited speedup first, each with a link to its source (GET /results/<id>/source).
//
// Pure functions from store rows to response bodies, so the rendering is unit-tested without a
// judge. Every stored string (kernel, run id, optimizer, verdict, source) is attacker-controlled
// and leaves here HTML-escaped; the page is static (no script at all) and is served with a
// Content-Security-Policy that forbids scripts, external resources, frames and forms, so even a
// rendering mistake could not run code in a reader's browser.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "judge/http/server.h"
#include "judge/store/records.h"

namespace hpcab::judge {

// What the page shows besides the rows.
struct ResultsPageView {
  std::vector<SubmissionSummary> rows;  // as listed by the store, any order
  // The /score calls of the listed rows' run ids (Store::list_score_calls), any order: they
  // join each run's history between its submissions, in the order received.
  std::vector<ScoreCallSummary> score_calls;
  int64_t total = 0;                           // rows matching the filters, before `limit`
  int64_t limit = 0;                           // the most rows listed
  std::map<std::string, std::string> filters;  // the query's filters, shown on the page
  int rank = 0;
  std::string judge_version;
  double generated_at = 0;  // unix seconds
};

// Text as HTML character data or a double-quoted attribute value: & < > " ' are replaced by
// character references and NUL by U+FFFD (an HTML parser would drop or replace it anyway).
std::string html_escape(std::string_view text);

// Unix seconds as "2024-05-01 12:34:56Z" (UTC); "—" for 0 (not recorded).
std::string format_utc(double unix_seconds);

// A credited speedup as shown on the page: 3 significant decimals ("1.000", "12.346"); "—"
// when null (unsolved, or not credited).
std::string format_speedup(const std::optional<double>& speedup);

// The whole page: one section per kernel (kernels in name order), rows best speedup first (rows
// without a speedup last, newest first among equals), and a summary table on top.
std::string render_results_page(const ResultsPageView& view);

// GET /results/<id>/source: the stored source text as it was submitted; for a library
// submission a note saying so with the library's path and content hash (no source is stored).
std::string render_source_text(int64_t id, const SubmissionRecord& record);

// The Content-Security-Policy of the page: nothing may load or run; only the page's own inline
// stylesheet, allowed by its SHA-256 hash.
const std::string& results_content_security_policy();

// The page and the source as responses, with the page's security headers (CSP, nosniff, no
// referrer, no framing, no caching: a page of sources must not linger in shared caches).
HttpResponse results_html_response(std::string html);
HttpResponse results_text_response(std::string text);

}  // namespace hpcab::judge
