// hpcab-fake-llm: the test-only fake inference server (tests/harness/fake_llm.h) as a process,
// standing in for vLLM / SGLang where a test needs a real server on a port: the Slurm smoke
// test starts it on an inference node through the arm's INFERENCE_COMMAND. It answers
// /v1/models, /v1/chat/completions, /v1/completions, /v1/responses, /v1/messages and
// /v1/messages/count_tokens (JSON and SSE, with usage; tests/harness/fake_llm.h).
//
//   hpcab-fake-llm [--host 127.0.0.1] [--port 0] [--delay-ms 0] [--script FILE]
//
// --script FILE: script mode (FakeLlm::set_script) from a JSON file
//   {"steps": [{"tool": "score", "arguments": {...}}, ...], "final_text": "Done."}
// so a real agent CLI pointed at this server calls those tools in order, then stops.
//
// Prints "listening on http://HOST:PORT" on stdout once it accepts connections, runs until
// SIGTERM or SIGINT, then prints the usage it reported on stderr and exits 0.
#include <signal.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <exception>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "tests/harness/fake_llm.h"

int main(int argc, char** argv) {
  CLI::App app{"hpcab-fake-llm: a fake OpenAI/Anthropic inference server for tests"};
  std::string host = "127.0.0.1";
  int port = 0, delay_ms = 0;
  app.add_option("--host", host, "IPv4 address to listen on (0.0.0.0: every interface)");
  app.add_option("--port", port, "port (0 picks a free one)")->check(CLI::Range(0, 65535));
  app.add_option("--delay-ms", delay_ms, "wait before answering each request (a slow model)")
      ->check(CLI::NonNegativeNumber);
  std::string script_file;
  app.add_option("--script", script_file,
                 "JSON file {\"steps\": [{\"tool\", \"arguments\"}...], \"final_text\"}: answer "
                 "requests that offer tools with these tool calls in order")
      ->check(CLI::ExistingFile);
  CLI11_PARSE(app, argc, argv);

  std::vector<hpcab::test::ScriptStep> steps;
  std::string final_text = "Done.";
  if (!script_file.empty()) {
    std::ifstream in(script_file);
    std::stringstream text;
    text << in.rdbuf();
    const auto j = nlohmann::json::parse(text.str(), nullptr, false);
    const bool ok = j.is_object() && j.contains("steps") && j["steps"].is_array() &&
                    (!j.contains("final_text") || j["final_text"].is_string());
    if (ok) {
      for (const auto& st : j["steps"]) {
        if (!st.is_object() || !st.contains("tool") || !st["tool"].is_string() ||
            (st.contains("arguments") && !st["arguments"].is_object())) {
          steps.clear();
          break;
        }
        steps.push_back(
            {st["tool"].get<std::string>(), st.value("arguments", nlohmann::json::object())});
      }
    }
    if (!ok || steps.size() != j["steps"].size() || steps.empty()) {
      std::cerr << "hpcab-fake-llm: " << script_file
                << ": expected {\"steps\": [{\"tool\": NAME, \"arguments\": {...}}, ...], "
                   "\"final_text\": TEXT} with at least one step\n";
      return 2;
    }
    final_text = j.value("final_text", final_text);
  }

  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);  // before the server's threads exist
  signal(SIGPIPE, SIG_IGN);

  hpcab::test::FakeLlm llm;
  llm.set_delay_ms(delay_ms);
  if (!steps.empty()) llm.set_script(steps, final_text);
  std::uint16_t bound = 0;
  try {
    bound = llm.start(static_cast<std::uint16_t>(port), host);
  } catch (const std::exception& e) {
    std::cerr << "hpcab-fake-llm: " << e.what() << "\n";
    return 2;
  }
  std::cout << "listening on http://" << host << ":" << bound << std::endl;
  int sig = 0;
  sigwait(&stop, &sig);
  llm.stop();
  const auto t = llm.totals();
  std::cerr << "hpcab-fake-llm: signal " << sig << ", stopping; answered " << t.requests
            << " requests (input " << t.input << ", cached " << t.cached << ", output " << t.output
            << " tokens)\n";
  return 0;
}
