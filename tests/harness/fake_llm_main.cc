// hpcab-fake-llm: the test-only fake inference server (tests/harness/fake_llm.h) as a process,
// standing in for vLLM / SGLang where a test needs a real server on a port: the Slurm smoke
// test starts it on an inference node through the arm's INFERENCE_COMMAND. It answers
// /v1/models, /v1/chat/completions, /v1/completions and /v1/messages (JSON and SSE, with usage).
//
//   hpcab-fake-llm [--host 127.0.0.1] [--port 0] [--delay-ms 0]
//
// Prints "listening on http://HOST:PORT" on stdout once it accepts connections, runs until
// SIGTERM or SIGINT, then prints the usage it reported on stderr and exits 0.
#include <signal.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <exception>
#include <iostream>

#include "tests/harness/fake_llm.h"

int main(int argc, char** argv) {
  CLI::App app{"hpcab-fake-llm: a fake OpenAI/Anthropic inference server for tests"};
  std::string host = "127.0.0.1";
  int port = 0, delay_ms = 0;
  app.add_option("--host", host, "IPv4 address to listen on (0.0.0.0: every interface)");
  app.add_option("--port", port, "port (0 picks a free one)")->check(CLI::Range(0, 65535));
  app.add_option("--delay-ms", delay_ms, "wait before answering each request (a slow model)")
      ->check(CLI::NonNegativeNumber);
  CLI11_PARSE(app, argc, argv);

  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);  // before the server's threads exist
  signal(SIGPIPE, SIG_IGN);

  hpcab::test::FakeLlm llm;
  llm.set_delay_ms(delay_ms);
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
