// The line protocol between hpcab-judge and hpcab-runner, encoded and parsed in one place for
// both sides. Commands go to the runner's stdin, replies come back on its fd 3; one line each.
//
//   prep <seed> <uniform|normal|lognormal|auto> <scale>  -> ready
//       fresh draw, outputs poisoned, workspace zeroed, inputs snapshotted (outside any clock)
//   go                                                   -> done <ns>
//       the call itself, bracketed by CLOCK_MONOTONIC; the outputs are copied out right after
//       it returns (outside the clock), so work left running after the return cannot count
//   post <0|1> <tag>                                     -> posted ok | posted <problem> ...
//       checks, in order: inputs unchanged (posted const <name> <i>), guard zones intact
//       (posted guard <name> <offset>, offset -k: k bytes before the start), outputs unchanged
//       since the copy-out (posted late <name> <i>); on GPU runs first a device synchronize
//       finding work still pending (posted running (device) pending); with 1 the copied-out outputs
//       are saved under <out-dir>/<tag>/<name>.npy
//   ping                                                 -> pong
//   quit                                                 -> (exit 0)
// On startup the runner replies "boot" first thing (the sandbox is up and the runner's own code
// runs; nothing of the submission is loaded yet), then, once its arrays are allocated and still
// before anything of the submission is loaded,
//   layout <name> <hex address> <bytes> [<name> <hex address> <bytes> ...]
// (where the copy-out of each output lives for the runner's whole life: the judge may read the
// outputs of a call from there instead of a saved file, docs/grading.md "Outputs in memory"),
// then "hello" or "error <fault> <message>" once the kernel is loaded; any command may also be
// answered with an error line, after which the runner exits. <fault> says whose machinery failed
// (see Fault), which is how the judge attributes the failure without reading message text.
//
// Security: the kernel runs in the runner's process and can write to fd 3 too, so a reply only
// means something when it is the expected one in turn; the judge checks that (judge/grade/
// session.cc), and an "io" fault is believed only when the judge can confirm it on the
// filesystem itself.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace hpcab::runner_protocol {

// Why the runner gave up.
enum class Fault {
  kSetup,    // arguments, manifest, draw, exec filter: the judge's own set-up
  kLoad,     // the library does not load, lacks the symbol or its ABI: the candidate's
  kIo,       // saving outputs failed (scratch full or read-only): the judge's filesystem
  kCommand,  // an unknown or malformed command: the judge's
};

inline const char* fault_word(Fault f) {
  switch (f) {
    case Fault::kSetup:
      return "setup";
    case Fault::kLoad:
      return "load";
    case Fault::kIo:
      return "io";
    case Fault::kCommand:
      return "command";
  }
  return "setup";
}

struct Command {
  enum class Verb { kPrep, kGo, kPost, kPing, kQuit, kUnknown };
  Verb verb = Verb::kUnknown;
  uint64_t seed = 0;          // prep
  std::string dist = "auto";  // prep
  double scale = 1;           // prep
  bool save = false;          // post
  std::string tag;            // post
  std::string word;           // the verb as sent (for an unknown one)
};

inline std::string prep_command(uint64_t seed, const std::string& dist, double scale) {
  std::ostringstream os;
  os << "prep " << seed << " " << dist << " " << scale;
  return os.str();
}
inline std::string go_command() { return "go"; }
inline std::string post_command(bool save, const std::string& tag) {
  return "post " + std::string(save ? "1" : "0") + " " + tag;
}
inline std::string ping_command() { return "ping"; }
inline std::string quit_command() { return "quit"; }

inline Command parse_command(const std::string& line) {
  std::istringstream is(line);
  Command c;
  is >> c.word;
  if (c.word == "prep") {
    c.verb = Command::Verb::kPrep;
    is >> c.seed >> c.dist >> c.scale;
    if (is.fail()) c.verb = Command::Verb::kUnknown;
  } else if (c.word == "go") {
    c.verb = Command::Verb::kGo;
  } else if (c.word == "post") {
    int save = 0;
    is >> save >> c.tag;
    c.save = save != 0;
    if (is.fail() || c.tag.empty())
      c.verb = Command::Verb::kUnknown;
    else
      c.verb = Command::Verb::kPost;
  } else if (c.word == "ping") {
    c.verb = Command::Verb::kPing;
  } else if (c.word == "quit") {
    c.verb = Command::Verb::kQuit;
  }
  return c;
}

// Where the runner keeps the copy-out of one output (the layout reply).
struct OutputSlot {
  std::string name;
  uint64_t address = 0;
  uint64_t bytes = 0;
};

// What the runner found after a call (post).
// kRunning: a GPU run's census synchronize found device work still pending (left running).
enum class PostProblem { kNone, kConst, kGuard, kLate, kRunning };

struct Reply {
  enum class Kind { kBoot, kLayout, kHello, kReady, kDone, kPosted, kPong, kError, kUnknown };
  Kind kind = Kind::kUnknown;
  int64_t ns = 0;                            // done
  PostProblem problem = PostProblem::kNone;  // posted
  std::string name;                          // posted: the array ("(workspace)" for scratch)
  std::string index;                         // posted: element index or guard offset
  Fault fault = Fault::kSetup;               // error
  std::string message;                       // error
  std::vector<OutputSlot> slots;             // layout
};

inline std::string boot_reply() { return "boot"; }
inline std::string layout_reply(const std::vector<OutputSlot>& slots) {
  std::ostringstream os;
  os << "layout";
  for (const auto& s : slots)
    os << " " << s.name << " " << std::hex << s.address << std::dec << " " << s.bytes;
  return os.str();
}
inline std::string hello_reply() { return "hello"; }
inline std::string ready_reply() { return "ready"; }
inline std::string pong_reply() { return "pong"; }
inline std::string done_reply(int64_t ns) { return "done " + std::to_string(ns); }
inline std::string posted_ok_reply() { return "posted ok"; }
inline std::string posted_reply(PostProblem p, const std::string& name, const std::string& index) {
  const char* word = p == PostProblem::kConst     ? "const"
                     : p == PostProblem::kGuard   ? "guard"
                     : p == PostProblem::kRunning ? "running"
                                                  : "late";
  return std::string("posted ") + word + " " + name + " " + index;
}
// One line: newlines in the message are flattened.
inline std::string error_reply(Fault f, std::string message) {
  for (auto& ch : message) {
    if (ch == '\n' || ch == '\r') ch = ' ';
  }
  return std::string("error ") + fault_word(f) + " " + message;
}

// A reply line as the judge reads it. Anything that is not exactly one of the forms above is
// kUnknown (a kernel writing to fd 3 gets there unless it forges a well-formed line, which the
// judge answers by checking the reply is the one expected in turn).
inline Reply parse_reply(const std::string& line) {
  Reply r;
  std::istringstream is(line);
  std::string word;
  is >> word;
  if (line == "boot") {
    r.kind = Reply::Kind::kBoot;
  } else if (word == "layout") {
    // Names are manifest identifiers; addresses hex, sizes decimal, nothing else on the line.
    std::string name, address, bytes;
    while (is >> name) {
      if (!(is >> address >> bytes)) return r;
      if (address.empty() || address.size() > 16 || bytes.empty() || bytes.size() > 19) return r;
      OutputSlot slot{name, 0, 0};
      for (char ch : address) {
        const int v = ch >= '0' && ch <= '9'   ? ch - '0'
                      : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                                               : -1;
        if (v < 0) return r;
        slot.address = slot.address * 16 + static_cast<uint64_t>(v);
      }
      for (char ch : bytes) {
        if (ch < '0' || ch > '9') return r;
        slot.bytes = slot.bytes * 10 + static_cast<uint64_t>(ch - '0');
      }
      r.slots.push_back(std::move(slot));
    }
    r.kind = Reply::Kind::kLayout;
  } else if (line == "hello") {
    r.kind = Reply::Kind::kHello;
  } else if (line == "ready") {
    r.kind = Reply::Kind::kReady;
  } else if (line == "pong") {
    r.kind = Reply::Kind::kPong;
  } else if (word == "done") {
    std::string num;
    is >> num;
    std::string rest;
    if (num.empty() || num.size() > 19 || (is >> rest)) return r;
    for (char ch : num) {
      if (ch < '0' || ch > '9') return r;
    }
    r.ns = std::stoll(num);
    r.kind = Reply::Kind::kDone;
  } else if (word == "posted") {
    std::string problem;
    is >> problem;
    if (problem == "ok" && line == "posted ok") {
      r.kind = Reply::Kind::kPosted;
      return r;
    }
    is >> r.name >> r.index;
    if (r.name.empty()) return r;
    if (problem == "const")
      r.problem = PostProblem::kConst;
    else if (problem == "guard")
      r.problem = PostProblem::kGuard;
    else if (problem == "late")
      r.problem = PostProblem::kLate;
    else if (problem == "running")
      r.problem = PostProblem::kRunning;
    else
      return r;
    r.kind = Reply::Kind::kPosted;
  } else if (word == "error") {
    std::string f;
    is >> f;
    if (f == "setup")
      r.fault = Fault::kSetup;
    else if (f == "load")
      r.fault = Fault::kLoad;
    else if (f == "io")
      r.fault = Fault::kIo;
    else if (f == "command")
      r.fault = Fault::kCommand;
    else
      return r;
    std::getline(is, r.message);
    if (!r.message.empty() && r.message[0] == ' ') r.message.erase(0, 1);
    r.kind = Reply::Kind::kError;
  }
  return r;
}

// The line judge/runner/alloc_guard.cc writes to stderr when an allocation fails (RLIMIT_AS):
// the judge then reports `memory` rather than `crash`. It carries no authority: a kernel that
// prints it only turns its own failure into another failing verdict.
inline constexpr const char* kAllocationFailedMarker = "HPCAB-RUNNER: allocation failed";

inline bool allocation_failed(const std::string& runner_log) {
  return runner_log.find(kAllocationFailedMarker) != std::string::npos;
}

}  // namespace hpcab::runner_protocol
