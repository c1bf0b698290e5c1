// Safe retries of /submit (docs/api.md "Retrying a /submit: Idempotency-Key"). A request's
// Idempotency-Key names one grade:
//  - a repeat of a key whose grade was recorded is answered from the database, 200, with the
//    recorded body plus "replayed": true; nothing is built or run and no row is added;
//  - a repeat that arrives while the key's grade is queued or running waits for that grade and
//    gets its answer (plus "replayed": true on a 200);
//  - the key with another request (kernel, language, residency, precision, rank, run_id, source or
//    library, build, preset, workspace_bytes) is a 409;
//  - a grade that ended as a judge fault (harness_fault) records no submission, so the key's next
//    repeat is graded afresh.
//
// Why a key is never graded twice: it is claimed (SubmitKeys::begin) and released (the claim's
// Responder) under one mutex, the database is read under that mutex too, and the claim is
// released only once the grade is over, after the record stage committed the key in the
// submission's own transaction. So every arrival finds the key in flight or in the database, or
// finds neither only when no recorded grade exists. Across a judge restart only the database
// counts: a grade killed before its commit left nothing and is graded again.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "judge/grade/request.h"
#include "judge/http/server.h"
#include "judge/store/records.h"

namespace hpcab::judge {

// What a repeat of a key must match to be the same request.
struct SubmitIdentity {
  int rank = 0;
  std::string kernel, language, precision, run_id;
  // "host" or "device": the same GPU source graded with its arrays elsewhere is another grade.
  std::string residency = "host";
  std::string source_sha256;  // hex SHA-256 of the source text (of "" for a library)
  std::string library_path;   // "" for a source submission
  std::vector<std::string> build_tokens;
  // As the request named them (nullopt: not named), not as the grade resolved them: the same
  // request is the same grade whatever the judge's defaults are when it is repeated.
  std::optional<std::string> preset, workspace_bytes;
  // False for a row recorded before the judge kept what its request named (schema version 5):
  // preset and workspace_bytes are then unknown, and compared with nothing.
  bool named_known = true;
};

// Whether a repeat with identity `b` is the request `a` (every field equal; preset and
// workspace_bytes where both sides know them).
bool same_request(const SubmitIdentity& a, const SubmitIdentity& b);

// The identity of a request once its shared file is resolved (the source a source_file names
// is the text that would be graded), and of a recorded submission.
SubmitIdentity submit_identity(const GradeRequest& g);
// A recorded row's columns that do not parse are an error (the database's, not the client's).
Result<SubmitIdentity> submit_identity(const KeyedSubmission& s);

// `response` as a repeat of its key receives it: a 200 JSON object gains "replayed": true;
// anything else (an error answer) is passed on as it is.
HttpResponse as_replay(HttpResponse response);

class SubmitKeys {
 public:
  // Recorded keys are looked up in `store` for judge rank `rank`. Without a store only grades
  // in flight are found (tests of the routes over a fake grader).
  SubmitKeys(SubmissionStore* store, int rank) : store_(store), rank_(rank) {}
  SubmitKeys(const SubmitKeys&) = delete;
  SubmitKeys& operator=(const SubmitKeys&) = delete;

  // For a request `who` carrying `key`. Answers it through `respond` and returns nullopt when
  // it is a repeat (of a recorded grade, or of one in flight: answered when that one is), a
  // conflict (409), or the database could not be read (500: better no grade than a second
  // one). Otherwise claims the key and returns the Responder the grade must be answered
  // through, exactly once, whatever the outcome (a 429 for a full queue included): it releases
  // the key, then answers `respond` and every repeat that waited.
  std::optional<Responder> begin(const std::string& key, const SubmitIdentity& who,
                                 Responder respond);

  // Keys claimed and not yet released.
  std::size_t in_flight() const;

 private:
  struct InFlight {
    SubmitIdentity who;
    std::vector<Responder> waiting;  // repeats, answered with the claim's response
  };
  void release(const std::string& key, const Responder& first, HttpResponse response);

  SubmissionStore* store_;
  int rank_;
  mutable std::mutex mu_;
  std::map<std::string, InFlight> in_flight_;  // guarded by mu_
};

}  // namespace hpcab::judge
