#include "judge/views/results_page.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <sstream>

#include "common/url.h"

namespace hpcab::judge {
namespace {

// The page's only style. Its hash is the only thing the Content-Security-Policy lets run; an
// edit here changes the hash automatically (results_content_security_policy()).
constexpr std::string_view kStyle = R"css(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1b1b1b; }
h1 { font-size: 1.5em; margin: 0 0 .3em; }
h2 { font-size: 1.2em; margin: 1.5em 0 .4em; }
p.meta, p.filters, p.note { color: #555; margin: .2em 0; }
table { border-collapse: collapse; margin: .3em 0 1em; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.text { max-width: 24em; overflow-wrap: anywhere; }
.v-ok { color: #116611; font-weight: 600; }
.v-overfit, .v-incorrect, .v-crash, .v-timeout, .v-memory { color: #a01010; }
.v-rejected, .v-judge_error, .v-build_error, .v-other { color: #8a5a00; }
.suspect { color: #a01010; font-weight: 600; }
.score { color: #555; font-style: italic; }
)css";

std::string base64(const unsigned char* data, std::size_t n) {
  std::string out(4 * ((n + 2) / 3) + 1, '\0');
  const int len =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data, static_cast<int>(n));
  out.resize(static_cast<std::size_t>(len));
  return out;
}

// A CSS class for a verdict: only the known lower-case words name a class of the stylesheet.
std::string verdict_class(const std::string& verdict) {
  static const char* kKnown[] = {"ok",    "build_error", "incorrect", "overfit",    "timeout",
                                 "crash", "memory",      "rejected",  "judge_error"};
  for (const char* k : kKnown) {
    if (verdict == k) return std::string("v-") + k;
  }
  return "v-other";
}

// Best credited speedup first; unsolved rows (no speedup) after every solved one; newest first
// among equals.
bool better(const SubmissionSummary& a, const SubmissionSummary& b) {
  const bool ha = a.speedup.has_value() && !std::isnan(*a.speedup);
  const bool hb = b.speedup.has_value() && !std::isnan(*b.speedup);
  if (ha != hb) return ha;
  if (ha && *a.speedup != *b.speedup) return *a.speedup > *b.speedup;
  return a.id > b.id;
}

std::string kernel_anchor(const std::string& kernel) { return "kernel-" + kernel; }

void security_headers(HttpResponse& r, const std::string& csp) {
  r.headers.emplace_back("Content-Security-Policy", csp);
  r.headers.emplace_back("X-Content-Type-Options", "nosniff");
  r.headers.emplace_back("Referrer-Policy", "no-referrer");
  r.headers.emplace_back("X-Frame-Options", "DENY");
  r.headers.emplace_back("Cache-Control", "no-store");
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '\0':
        out += "\xEF\xBF\xBD";  // U+FFFD
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string format_utc(double unix_seconds) {
  if (!(unix_seconds > 0) || !std::isfinite(unix_seconds)) return "—";
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  if (!gmtime_r(&t, &tm)) return "—";
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%SZ", &tm);
  return buf;
}

std::string format_speedup(const std::optional<double>& speedup) {
  if (!speedup || std::isnan(*speedup)) return "—";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", *speedup);
  return buf;
}

const std::string& results_content_security_policy() {
  static const std::string csp = [] {
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(kStyle.data()), kStyle.size(), digest);
    return "default-src 'none'; style-src 'sha256-" + base64(digest, sizeof digest) +
           "'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
  }();
  return csp;
}

namespace {

using ByKernel = std::map<std::string, std::vector<const SubmissionSummary*>>;

// Candidate history: per run id, its /score calls and submissions in the order they were
// received, each with its verdict and speedup, so an episode's path to its answer reads left
// to right. A /score call is not an answer: it is marked and links nowhere.
struct RunEntry {
  double at = 0;
  int64_t id = 0;
  const SubmissionSummary* submission = nullptr;  // else a /score call
  const ScoreCallSummary* score = nullptr;
};

void page_head(std::ostringstream& os, const ResultsPageView& view) {
  const std::string rank = std::to_string(view.rank);
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<meta name=\"referrer\" content=\"no-referrer\">\n"
     << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
     << "<title>HPCAgent-Bench results (judge rank " << rank << ")</title>\n"
     << "<style>" << kStyle << "</style>\n</head>\n<body>\n"
     << "<header>\n<h1>HPCAgent-Bench results</h1>\n"
     << "<p class=\"meta\">Judge rank " << rank << " · version " << html_escape(view.judge_version)
     << " · generated " << format_utc(view.generated_at) << " · <span id=\"shown\">"
     << view.rows.size() << " of " << view.total << " recorded submission"
     << (view.total == 1 ? "" : "s") << "</span></p>\n";
  if (!view.filters.empty()) {
    os << "<p class=\"filters\" id=\"filters\">Filtered by ";
    bool first = true;
    for (const auto& [k, v] : view.filters) {
      os << (first ? "" : ", ") << html_escape(k) << " = <code>" << html_escape(v) << "</code>";
      first = false;
    }
    os << " · <a href=\"results\">all submissions</a></p>\n";
  }
  if (static_cast<int64_t>(view.rows.size()) < view.total) {
    os << "<p class=\"note\" id=\"truncated\">Showing the newest " << view.rows.size()
       << " submissions only (limit " << view.limit
       << "): narrow the list with <code>?kernel=</code>, <code>?optimizer=</code>, "
          "<code>?verdict=</code> or <code>?run_id=</code>, or raise <code>?limit=</code>.</p>\n";
  }
  os << "<p class=\"note\">Speedup is the credited task speedup (baseline time / candidate time, "
        "SPEC §5.8–5.9); — means unsolved or not credited. A suspect grade is never "
        "credited.</p>\n</header>\n<main>\n";
}

// The kernels table: submissions, ok count and the best credited speedup of each.
void kernel_summary(std::ostringstream& os, const ByKernel& by_kernel,
                    const ResultsPageView& view) {
  if (by_kernel.empty()) {
    os << "<p id=\"empty\">No recorded submissions"
       << (view.filters.empty() ? " yet" : " match these filters") << ".</p>\n";
  } else {
    os << "<h2>Kernels</h2>\n<table id=\"summary\">\n<thead><tr><th>Kernel</th>"
       << "<th class=\"num\">Submissions</th><th class=\"num\">ok</th>"
       << "<th class=\"num\">Best speedup</th><th>Best by (optimizer)</th></tr></thead>\n<tbody>\n";
    for (const auto& [kernel, rows] : by_kernel) {
      const auto ok =
          std::count_if(rows.begin(), rows.end(), [](const auto* r) { return r->verdict == "ok"; });
      const SubmissionSummary& best = *rows.front();
      const bool solved = best.speedup.has_value();
      os << "<tr><td><a href=\"#" << html_escape(kernel_anchor(kernel)) << "\">"
         << html_escape(kernel) << "</a></td><td class=\"num\">" << rows.size()
         << "</td><td class=\"num\">" << ok << "</td><td class=\"num\">"
         << format_speedup(best.speedup) << "</td><td class=\"text\">"
         << (solved ? html_escape(best.optimizer) : "—") << "</td></tr>\n";
    }
    os << "</tbody>\n</table>\n";
  }
}

// One run's row of the runs table.
void run_row(std::ostringstream& os, const std::string& run, std::vector<RunEntry>& entries,
             int subs) {
  // Received order; at the same instant a /score call comes first (it was the probe before
  // the answer), then by id.
  std::stable_sort(entries.begin(), entries.end(), [](const RunEntry& a, const RunEntry& b) {
    if (a.at != b.at) return a.at < b.at;
    if ((a.score != nullptr) != (b.score != nullptr)) return a.score != nullptr;
    return a.id < b.id;
  });
  std::vector<std::string> seen;  // a run id names one episode: normally one kernel
  std::string kernels;
  for (const RunEntry& e : entries) {
    const std::string& kernel = e.submission ? e.submission->kernel : e.score->kernel;
    if (std::find(seen.begin(), seen.end(), kernel) != seen.end()) continue;
    seen.push_back(kernel);
    kernels += (kernels.empty() ? "" : ", ") + kernel;
  }
  os << "<tr class=\"run\"><td class=\"text run\">" << html_escape(run)
     << "</td><td class=\"text\">" << html_escape(kernels) << "</td><td class=\"num\">" << subs
     << "</td><td class=\"num\">" << entries.size() - static_cast<std::size_t>(subs)
     << "</td><td class=\"history\">";
  bool first = true;
  for (const RunEntry& e : entries) {
    os << (first ? "" : " → ");
    first = false;
    if (e.score) {
      os << "<span class=\"score\">score</span> <span class=\"" << verdict_class(e.score->verdict)
         << "\">" << html_escape(e.score->verdict) << "</span> "
         << format_speedup(e.score->speedup);
      continue;
    }
    const SubmissionSummary* r = e.submission;
    const std::string id = std::to_string(r->id);
    os << "<a href=\"#submission-" << id << "\">#" << id << "</a> <span class=\""
       << verdict_class(r->verdict) << "\">" << html_escape(r->verdict) << "</span> "
       << format_speedup(r->speedup)
       << (r->suspect ? " <span class=\"suspect\">suspect</span>" : "");
  }
  os << "</td></tr>\n";
}

void runs_table(std::ostringstream& os, const ResultsPageView& view) {
  std::map<std::string, std::vector<RunEntry>> by_run;
  std::map<std::string, int> submissions_of;
  for (const auto& row : view.rows) {
    if (row.run_id.empty()) continue;
    by_run[row.run_id].push_back({row.received_at, row.id, &row, nullptr});
    ++submissions_of[row.run_id];
  }
  for (const auto& c : view.score_calls) {
    auto it = by_run.find(c.run_id);
    if (it != by_run.end()) it->second.push_back({c.received_at, c.id, nullptr, &c});
  }
  if (!by_run.empty()) {
    os << "<h2>Runs</h2>\n<p class=\"note\">Each run's /score calls (<span class=\"score\">"
          "score</span>: not answers) and submissions (#id) in the order received.</p>\n"
          "<table id=\"runs\">\n<thead><tr><th>Run</th><th>Kernel</th>"
       << "<th class=\"num\">Submissions</th><th class=\"num\">/score calls</th>"
       << "<th>History (verdict, speedup)</th></tr></thead>\n<tbody>\n";
    for (auto& [run, entries] : by_run) run_row(os, run, entries, submissions_of[run]);
    os << "</tbody>\n</table>\n";
  }
}

// One section per kernel: its submissions, best first.
void kernel_sections(std::ostringstream& os, const ByKernel& by_kernel) {
  for (const auto& [kernel, rows] : by_kernel) {
    const std::string k = html_escape(kernel);
    os << "<section class=\"kernel\" id=\"" << html_escape(kernel_anchor(kernel)) << "\">\n"
       << "<h2>" << k << "</h2>\n"
       << "<p class=\"filters\"><a href=\"results?kernel=" << html_escape(percent_encode(kernel))
       << "\">only " << k << "</a></p>\n"
       << "<table class=\"submissions\">\n<thead><tr><th class=\"num\">Submission</th>"
       << "<th>Time (UTC)</th><th>Optimizer</th><th>Run</th><th>Language</th>"
       << "<th>Precision</th><th>Preset</th><th>Verdict</th><th class=\"num\">Speedup</th>"
       << "<th>Suspect</th><th>Source</th></tr></thead>\n<tbody>\n";
    for (const SubmissionSummary* r : rows) {
      const std::string id = std::to_string(r->id);
      os << "<tr id=\"submission-" << id << "\"><td class=\"num\">" << id << "</td><td>"
         << format_utc(r->received_at) << "</td><td class=\"text optimizer\">"
         << html_escape(r->optimizer) << "</td><td class=\"text run\">" << html_escape(r->run_id)
         << "</td><td>" << html_escape(r->language) << "</td><td>" << html_escape(r->precision)
         << "</td><td>" << html_escape(r->preset) << "</td><td class=\"verdict "
         << verdict_class(r->verdict) << "\">" << html_escape(r->verdict)
         << "</td><td class=\"num speedup\">" << format_speedup(r->speedup) << "</td><td>"
         << (r->suspect ? "<span class=\"suspect\">suspect</span>" : "no")
         << "</td><td><a href=\"results/" << id << "/source\">"
         << (r->library ? "library" : "source") << "</a></td></tr>\n";
    }
    os << "</tbody>\n</table>\n</section>\n";
  }
}

}  // namespace

std::string render_results_page(const ResultsPageView& view) {
  // Kernels in name order, each with its rows best first.
  ByKernel by_kernel;
  for (const auto& row : view.rows) by_kernel[row.kernel].push_back(&row);
  for (auto& [kernel, rows] : by_kernel) {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto* a, const auto* b) { return better(*a, *b); });
  }
  std::ostringstream os;
  page_head(os, view);
  kernel_summary(os, by_kernel, view);
  runs_table(os, view);
  kernel_sections(os, by_kernel);
  os << "</main>\n</body>\n</html>\n";
  return os.str();
}

std::string render_source_text(int64_t id, const SubmissionRecord& r) {
  if (r.library_path.empty()) return r.source;
  return "Submission " + std::to_string(id) + " (kernel " + r.kernel +
         ") was a prebuilt library: the judge graded the library and stores no source for "
         "it.\nlibrary path: " +
         r.library_path + "\ncontent hash: " + r.content_hash + "\n";
}

HttpResponse results_html_response(std::string html) {
  HttpResponse r;
  r.content_type = "text/html; charset=utf-8";
  r.body = std::move(html);
  security_headers(r, results_content_security_policy());
  return r;
}

HttpResponse results_text_response(std::string text) {
  HttpResponse r;
  r.content_type = "text/plain; charset=utf-8";
  r.body = std::move(text);
  // Nothing in a source may ever be interpreted: no loads, a sandboxed (script-less) document.
  security_headers(r, "default-src 'none'; sandbox; frame-ancestors 'none'");
  return r;
}

}  // namespace hpcab::judge
