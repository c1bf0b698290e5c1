// hpcab-tool mcp driven by the official MCP TypeScript SDK, the way Claude Code and other
// Node clients drive it: StdioClientTransport spawns the server, Client times requests out.
// A fake judge here (node:http) grades slowly, longer than the request timeout, to check:
//   1. score succeeds because its progress notifications reset the timeout
//      (onprogress + resetTimeoutOnProgress), and a ping right after answers promptly;
//   2. without resetTimeoutOnProgress the SDK times out and sends notifications/cancelled: the
//      server abandons the judge request (the judge sees its connection close) and a ping sent
//      after it answers promptly (it used to wait behind the abandoned call);
//   3. an AbortSignal cancels a call the same way.
// Usage: node mcp_client_test.mjs HPCAB_TOOL. Exit 0 pass, 1 fail.
import assert from "node:assert/strict";
import http from "node:http";
import { once } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const tool = process.argv[2];
if (!tool) {
  console.error("usage: node mcp_client_test.mjs HPCAB_TOOL");
  process.exit(2);
}

const GRADE_MS = 8000;  // the judge's time per /score: longer than the request timeout
const TIMEOUT_MS = 3000;  // the SDK request timeout (the SDK default is 60 s)
const PROMPT_MS = 1000;  // what "promptly" means for a ping

// The fake judge: every request is answered after GRADE_MS unless its client hangs up first.
const judge = { requests: 0, closedEarly: 0, answered: 0 };
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    judge.requests++;
    const timer = setTimeout(() => {
      judge.answered++;
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ verdict: "ok", speedup: 1.25, submission_id: judge.requests }));
    }, GRADE_MS);
    res.on("close", () => {
      if (!res.writableFinished) {
        clearTimeout(timer);
        judge.closedEarly++;
      }
    });
  });
});
server.listen(0, "127.0.0.1");
await once(server, "listening");
const judgeUrl = `http://127.0.0.1:${server.address().port}`;

async function until(pred, ms, what) {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function timedPing(client) {
  const t0 = Date.now();
  await client.ping({ timeout: 5000 });
  return Date.now() - t0;
}

const transport = new StdioClientTransport({
  command: tool,
  args: ["mcp"],
  env: { PATH: process.env.PATH ?? "/usr/bin:/bin", JUDGE_URL: judgeUrl, KERNEL: "tsvc_2_s000",
         RUN_ID: "mcp-sdk-test", AGENT: "sdk", HPCAB_MCP_PROGRESS_INTERVAL: "1" },
  stderr: "inherit",
});
const client = new Client({ name: "hpcab-mcp-sdk-test", version: "1.0.0" });
const source = "void tsvc_2_s000_fp64(void) {}";
let failed = false;
try {
  await client.connect(transport);
  const tools = await client.listTools();
  assert.deepEqual(tools.tools.map((t) => t.name), ["task", "baseline", "score", "submit"]);

  // 1. A grade longer than the timeout succeeds thanks to progress.
  const progress = [];
  const t0 = Date.now();
  const result = await client.callTool({ name: "score", arguments: { source } }, undefined, {
    timeout: TIMEOUT_MS,
    resetTimeoutOnProgress: true,
    onprogress: (p) => progress.push(p),
  });
  const took = Date.now() - t0;
  assert.equal(result.isError, false, JSON.stringify(result));
  assert.equal(result.structuredContent.verdict, "ok");
  assert.ok(took >= GRADE_MS - 500, `score took ${took} ms, expected about ${GRADE_MS}`);
  assert.ok(progress.length >= 5, `only ${progress.length} progress notifications`);
  for (let i = 1; i < progress.length; i++) assert.ok(progress[i].progress > progress[i - 1].progress);
  let ping = await timedPing(client);
  assert.ok(ping < PROMPT_MS, `ping took ${ping} ms after the score`);
  console.log(`ok 1 score took ${took} ms under a ${TIMEOUT_MS} ms timeout, ` +
              `${progress.length} progress notifications; ping ${ping} ms`);

  // 2. Without resetTimeoutOnProgress the request times out; the SDK cancels it.
  const before = judge.closedEarly;
  await assert.rejects(
    client.callTool({ name: "score", arguments: { source } }, undefined, { timeout: TIMEOUT_MS }),
    (e) => e.code === -32001,  // ErrorCode.RequestTimeout
  );
  ping = await timedPing(client);
  assert.ok(ping < PROMPT_MS, `ping took ${ping} ms after a timed-out score`);
  await until(() => judge.closedEarly === before + 1, 3000, "the judge connection to close");
  console.log(`ok 2 timed-out score cancelled, judge connection closed; ping ${ping} ms`);

  // 3. An AbortSignal cancels the call the same way.
  const abort = new AbortController();
  const requestsBefore = judge.requests;
  const call = client.callTool({ name: "score", arguments: { source } }, undefined, {
    timeout: 60000,
    signal: abort.signal,
  });
  await until(() => judge.requests === requestsBefore + 1, 3000, "the judge request");
  abort.abort("test");
  await assert.rejects(call);
  await until(() => judge.closedEarly === before + 2, 3000, "the judge connection to close");
  ping = await timedPing(client);
  assert.ok(ping < PROMPT_MS, `ping took ${ping} ms after an aborted score`);
  assert.equal(judge.answered, 1);
  console.log(`ok 3 aborted score cancelled, judge connection closed; ping ${ping} ms`);
} catch (e) {
  failed = true;
  console.error("FAIL:", e);
} finally {
  // Nothing is in flight, so the server exits at the end of its stdin (no SIGTERM needed).
  const t0 = Date.now();
  await client.close();
  const closeMs = Date.now() - t0;
  server.close();
  server.closeAllConnections?.();
  if (!failed && closeMs > 1500) {
    failed = true;
    console.error(`FAIL: the server took ${closeMs} ms to exit at the end of stdin`);
  }
}
process.exit(failed ? 1 : 0);
