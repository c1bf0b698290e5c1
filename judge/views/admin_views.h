// The routes over the database: GET /admin/submissions[/<id>] (JSON) and the read-only results
// page, GET / and /results (HTML) and /results/<id>/source (text). Access control is the
// routes' (judge/http/access.h); these only read the store. Without a store every view is a 500.
#pragma once

#include <map>
#include <string>

#include "judge/config/config.h"
#include "judge/http/http_errors.h"
#include "judge/http/server.h"
#include "judge/store/records.h"

namespace hpcab::judge {

using Query = std::map<std::string, std::string>;

// Filters kernel, run_id, optimizer, verdict (exact match), limit (1-1000, default 100), offset.
// An unknown parameter or a bad limit/offset is a 400.
ApiResult<HttpResponse> admin_submissions_view(SubmissionStore* store, const Query& query);
// One submission with its configurations and samples; 400 for an id that is not a positive
// integer, 404 for an unknown one.
ApiResult<HttpResponse> admin_submission_view(SubmissionStore* store, const std::string& id);
// The results page: the same filters but offset, limit default 1000.
ApiResult<HttpResponse> results_page_view(SubmissionStore* store, const JudgeConfig& config,
                                          const Query& query);
ApiResult<HttpResponse> results_source_view(SubmissionStore* store, const std::string& id);

}  // namespace hpcab::judge
