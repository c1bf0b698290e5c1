#include "judge/grade/record.h"

#include "judge/grade/config_run.h"

namespace hpcab::judge {

using json = nlohmann::json;

namespace {

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json sizes_object(const SymbolTable& sizes) {
  json j = json::object();
  for (const auto& [k, v] : sizes) j[k] = v;
  return j;
}

}  // namespace

std::optional<double> reported_speedup(const ReportedFigure& p) {
  if (p.base_median_ns > 0 && p.cand_median_ns > 0 && p.credit > 0) return p.credit;
  return std::nullopt;
}

json response_json(const GradeResult& g, const RecordContext& c) {
  const GradeRequest& req = *c.request;
  json configs = json::array();
  for (const auto& cc : g.configs) {
    // Hidden sizes never reach a response (SPEC §5.3).
    configs.push_back({{"config", cc.label},
                       {"sizes", cc.hidden ? json("(hidden)") : sizes_object(cc.sizes)},
                       {"candidate_median_ns", cc.cand_median_ns},
                       {"baseline_median_ns", cc.base_median_ns},
                       {"ratio", cc.ratio},
                       {"p_faster", cc.p_faster},
                       {"p_slower", cc.p_slower},
                       {"credit", cc.credit},
                       {"within_margin", cc.within_margin},
                       {"median_disagrees", cc.median_disagrees},
                       {"unreplicated", cc.unreplicated},
                       {"process_ratios", cc.process_ratios},
                       {"clock_shift_ns", cc.clock_shift_ns},
                       {"slot_wait", cc.slot.measured ? json(cc.slot.wait) : json(nullptr)},
                       {"slot_steal", cc.slot.measured ? json(cc.slot.steal) : json(nullptr)},
                       {"slot_retries", cc.slot.retries},
                       {"samples", cc.samples}});
  }
  // Every figure in `speedups` went through the credit rules (a difference no test confirmed
  // is 1); the raw ratios of medians are in `speedups_raw`.
  json speedups = json::object();
  json raw = json::object();
  json baselines = json::object();
  if (g.public_ratio) {
    raw[g.baseline] = *g.public_ratio;
    speedups[g.baseline] = g.configs.empty() ? *g.public_ratio : g.configs.front().credit;
  }
  if (g.baseline_ns) baselines[g.baseline] = *g.baseline_ns;
  for (const auto& [name, p] : c.other_baselines) {
    baselines[name] = p.base_median_ns;
    if (auto x = reported_speedup(p)) {
      speedups[name] = *x;
      raw[name] = p.ratio;
    }
  }
  json r = {{"kernel", c.kernel},
            {"language", req.language},
            {"residency", req.residency},
            {"precision", req.precision},
            {"preset", c.preset},
            {"build_ok", g.build_ok},
            {"correct", g.correct},
            {"public_correct", g.public_correct},
            {"hidden_correct", g.hidden_correct ? json(*g.hidden_correct) : json(nullptr)},
            {"hidden_passed", g.hidden_passed},
            {"hidden_total", g.hidden_total},
            {"speedup", opt(g.speedup)},
            {"speedups", speedups},
            {"speedups_raw", raw},
            {"native_ns", opt(g.native_ns)},
            {"baseline", g.baseline},
            {"baseline_ns", opt(g.baseline_ns)},
            {"baselines", baselines},
            {"oracle", c.oracle == "numpy" ? "reference.py (numpy)" : "reference.c"},
            {"max_rel_error", opt(g.max_rel_error)},
            {"detail", g.detail},
            {"timed_out", g.timed_out},
            {"harness_fault", g.harness_fault},
            {"verdict", verdict_name(g.verdict)},
            {"suspect", g.suspect},
            {"route", req.route},
            {"configs", configs},
            {"timings_s", c.timings_s}};
  if (g.harness_fault) r["fault"] = resource_name(g.fault_resource);
  if (g.reason != RejectReason::kNone) r["reason"] = reject_reason_name(g.reason);
  r["rules"] = c.rules;
  if (!c.calibration.is_null()) {
    // The public timed sizes are the agent's to know (/task shows them); hidden ones are not.
    json cal = c.calibration;
    if (c.preset != "timed") cal.erase("sizes");
    r["calibration"] = cal;
  }
  if (!c.baseline_choice.is_null()) r["baseline_choice"] = c.baseline_choice;
  if (!c.other_baselines.empty()) {
    r["speedups_protocol"] = {
        {g.baseline, "credited: paired with the candidate"},
        {"others",
         "reported, not credited: each paired with the candidate on the public configuration "
         "(same draws, alternating call by call, the timing processes of a credited "
         "configuration) and credited by the same rules"}};
  }
  if (!c.unavailable.empty()) r["baselines_unavailable"] = c.unavailable;
  json excluded = json::array();
  for (const auto& e : g.excluded) {
    // A hidden configuration's reason would name its secret sizes; a time exclusion's names
    // only the judge's limit.
    const char* hidden_reason = "";
    switch (e.cause) {
      case ExcludedConfig::Cause::kMemory:
        hidden_reason =
            "does not fit this judge's memory limit (its arrays exceed a quarter of "
            "memory_bytes): excluded from the verdict";
        break;
      case ExcludedConfig::Cause::kUngradeable:
        hidden_reason =
            "ungradeable at this precision (reduction length times epsilon reaches rtol): "
            "excluded from the verdict";
        break;
      case ExcludedConfig::Cause::kTime:
        hidden_reason = e.reason.c_str();
        break;
    }
    excluded.push_back({{"config", e.label}, {"reason", e.hidden ? hidden_reason : e.reason}});
  }
  r["excluded"] = excluded;
  if (g.p_value) r["p_value"] = *g.p_value;
  if (!g.baseline_protocol.empty()) r["baseline_protocol"] = g.baseline_protocol;
  return r;
}

std::string request_json(const GradeRequest& req) {
  const auto named = [](const std::optional<std::string>& v) {
    return v ? json(*v) : json(nullptr);
  };
  return json{{"preset", named(req.preset)}, {"workspace_bytes", named(req.workspace_bytes)}}
      .dump();
}

SubmissionRecord submission_record(const GradeResult& g, const RecordContext& c,
                                   const json& response, double finished_at) {
  const GradeRequest& req = *c.request;
  SubmissionRecord rec;
  rec.route = req.route;
  rec.rank = req.rank;
  rec.kernel = c.kernel;
  rec.language = req.language;
  rec.precision = req.precision;
  rec.preset = c.preset;
  rec.sizes_json = sizes_json(c.sizes);
  rec.source = req.source.value_or("");
  rec.library_path = req.library_path.value_or("");
  rec.build_tokens_json = json(req.build_tokens).dump();
  rec.build_log = c.build_log;
  rec.content_hash = c.content_hash;
  rec.verdict = verdict_name(g.verdict);
  rec.detail = g.recorded_detail.empty() ? g.detail : g.recorded_detail;
  rec.build_ok = g.build_ok;
  rec.correct = g.correct;
  rec.public_correct = g.public_correct;
  rec.hidden_correct = g.hidden_correct.value_or(false);
  rec.hidden_passed = g.hidden_passed;
  rec.hidden_total = g.hidden_total;
  rec.speedup = g.speedup;
  rec.baseline = g.baseline;
  rec.native_ns = g.native_ns;
  rec.baseline_ns = g.baseline_ns;
  rec.max_rel_error = g.max_rel_error;
  rec.suspect = g.suspect;
  rec.timed_out = g.timed_out;
  rec.machine = c.machine;
  rec.judge_version = HPCAB_VERSION;
  rec.run_id = req.run_id;
  rec.optimizer = req.optimizer;
  rec.tokens = req.tokens;
  rec.workspace_bytes = c.workspace_bytes;
  rec.received_at = c.received_at;
  rec.finished_at = finished_at;
  rec.response_json = response.dump();
  rec.idempotency_key = req.idempotency_key;
  rec.request_json = request_json(req);
  for (const auto& [name, p] : c.other_baselines) {
    if (auto x = reported_speedup(p)) {
      rec.reported.push_back({name, p.base_median_ns, p.cand_median_ns, *x});
    }
  }
  for (const auto& t : c.timed) {
    for (const auto& [side, ns] :
         {std::pair{std::string("candidate"), &t.cand}, std::pair{g.baseline, &t.base}}) {
      rec.samples.push_back({t.label, side, {}});
      for (double v : *ns) rec.samples.back().ns.push_back(static_cast<int64_t>(v));
    }
  }
  for (const auto& cc : g.configs) {
    ConfigResult cr;
    cr.config = cc.label;
    cr.sizes_json = sizes_json(cc.sizes);
    cr.candidate_median_ns = cc.cand_median_ns;
    cr.baseline_median_ns = cc.base_median_ns;
    cr.ratio = cc.ratio;
    cr.p_faster = cc.p_faster;
    cr.p_slower = cc.p_slower;
    cr.credit = cc.credit;
    cr.suspect = cc.suspect;
    if (cc.slot.measured) {
      cr.slot_wait = cc.slot.wait;
      cr.slot_steal = cc.slot.steal;
    }
    cr.slot_retries = cc.slot.retries;
    rec.configs.push_back(cr);
  }
  return rec;
}

json record_grade(GradeStore& store, Clock& clock, const GradeResult& g, RecordContext& c) {
  const GradeRequest& req = *c.request;
  const bool answer = req.route != "score" && !g.harness_fault;
  json r = response_json(g, c);
  const double finished = clock.now_unix();
  const int64_t t0 = clock.monotonic_ns();
  if (answer) {
    auto id = store.record_submission(submission_record(g, c, r, finished));
    if (id) {
      r["submission_id"] = *id;
    } else {
      // Nothing was recorded: the grade cannot stand as an answer.
      r["verdict"] = verdict_name(Verdict::kJudgeError);
      r["harness_fault"] = true;
      r["fault"] = resource_name(Resource::kDatabase);
      r["speedup"] = nullptr;
      r["detail"] =
          "judge fault: recording the submission failed (database): " + id.error().message;
    }
  } else {
    ScoreCallRecord s;
    s.rank = req.rank;
    s.kernel = c.kernel;
    s.language = req.language;
    s.precision = req.precision;
    s.preset = c.preset;
    s.content_hash = c.content_hash;
    s.verdict = verdict_name(g.verdict);
    s.speedup = g.speedup;
    s.run_id = req.run_id;
    s.optimizer = req.optimizer;
    s.received_at = c.received_at;
    s.finished_at = finished;
    s.response_json = r.dump();
    (void)store.record_score_call(s);
  }
  r["timings_s"]["record"] = static_cast<double>(clock.monotonic_ns() - t0) * 1e-9;
  return r;
}

}  // namespace hpcab::judge
