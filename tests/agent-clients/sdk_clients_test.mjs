// The official OpenAI and Anthropic TypeScript SDKs against the metering proxy (in front of
// tests/harness/fake_llm in script mode): chat completions, responses and messages, streamed and
// not, with and without tools, through the SDKs' own stream accumulators (which reject events out
// of order or for unknown items). Run by tests/harness/agent_clients_test.cc:
//
//   node sdk_clients_test.mjs PROXY_URL
//
// Prints one JSON line {"calls": N, "checks": [...]} and exits 0 when every check held, 1
// otherwise (the failed checks named on stderr).
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";

const base = process.argv[2];
if (!base) {
  console.error("usage: node sdk_clients_test.mjs PROXY_URL");
  process.exit(2);
}
const openai = new OpenAI({ baseURL: base + "/v1", apiKey: "hpcab-dummy-key", maxRetries: 0 });
const anthropic = new Anthropic({ baseURL: base, apiKey: "hpcab-dummy-key", maxRetries: 0 });

const checks = [];
let failed = 0;
let calls = 0;
function check(name, ok, detail) {
  checks.push({ name, ok: !!ok });
  if (!ok) {
    failed++;
    console.error(`FAIL ${name}: ${JSON.stringify(detail)}`);
  }
}

const user = [{ role: "user", content: "optimise the kernel" }];
const chatTools = [
  {
    type: "function",
    function: { name: "score", description: "grade", parameters: { type: "object", properties: {} } },
  },
];
const responseTools = [
  { type: "function", name: "score", description: "grade", parameters: { type: "object", properties: {} } },
];
const anthropicTools = [
  { name: "score", description: "grade", input_schema: { type: "object", properties: {} } },
];

async function main() {
  // Chat completions, JSON.
  calls++;
  const c1 = await openai.chat.completions.create({ model: "m1", messages: user });
  check("chat: text", c1.choices[0].message.content === "Hello world", c1);
  check("chat: usage", c1.usage && c1.usage.prompt_tokens > 0, c1.usage);

  // Chat completions, SSE: the first chunk carries the role.
  calls++;
  const s1 = await openai.chat.completions.create({
    model: "m1",
    messages: user,
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = "";
  let first = null;
  let usage = null;
  for await (const chunk of s1) {
    if (first === null) first = chunk;
    if (chunk.choices.length > 0) text += chunk.choices[0].delta.content ?? "";
    if (chunk.usage) usage = chunk.usage;
  }
  check("chat stream: first delta.role", first?.choices[0]?.delta?.role === "assistant", first);
  check("chat stream: text", text === "Hello world", text);
  check("chat stream: usage", usage && usage.completion_tokens > 0, usage);

  // Chat completions, SSE, a tool call through the SDK's stream helper.
  calls++;
  const s2 = openai.chat.completions.stream({ model: "m1", messages: user, tools: chatTools });
  const c2 = await s2.finalChatCompletion();
  const tc = c2.choices[0].message.tool_calls?.[0];
  check("chat stream helper: tool call", tc?.function?.name === "score", c2.choices[0]);
  check(
    "chat stream helper: arguments",
    tc && JSON.parse(tc.function.arguments).source === "int k;",
    tc,
  );
  check("chat stream helper: finish", c2.choices[0].finish_reason === "tool_calls", c2.choices[0]);

  // Responses, JSON.
  calls++;
  const r1 = await openai.responses.create({ model: "m1", input: "hi" });
  check("responses: output_text", r1.output_text === "Hello world", r1);
  check("responses: usage", r1.usage && r1.usage.input_tokens > 0, r1.usage);

  // Responses, SSE through the SDK's ResponseStream (it needs output_item.added before deltas).
  calls++;
  const rs = openai.responses.stream({ model: "m1", input: "hi" });
  let seq = -1;
  let ordered = true;
  rs.on("event", (e) => {
    if (e.sequence_number !== seq + 1) ordered = false;
    seq = e.sequence_number;
  });
  const r2 = await rs.finalResponse();
  check("responses stream: output_text", r2.output_text === "Hello world", r2);
  check("responses stream: sequence numbers", ordered && seq > 0, seq);

  // Responses, SSE, a function call item.
  calls++;
  const r3 = await openai.responses.stream({ model: "m1", input: "go", tools: responseTools }).finalResponse();
  const fc = r3.output[0];
  check("responses stream: function_call", fc?.type === "function_call" && fc.name === "score", r3.output);
  check("responses stream: arguments", fc && JSON.parse(fc.arguments).source === "int k;", fc);

  // Responses, raw SSE (create with stream: true).
  calls++;
  const r4 = await openai.responses.create({ model: "m1", input: "hi", stream: true });
  const types = [];
  for await (const e of r4) types.push(e.type);
  check(
    "responses raw stream: item events",
    types.includes("response.output_item.added") && types.includes("response.output_item.done") &&
      types[types.length - 1] === "response.completed",
    types,
  );

  // Messages, JSON.
  calls++;
  const m1 = await anthropic.messages.create({ model: "claude-x", max_tokens: 64, messages: user });
  check("messages: text", m1.content[0].type === "text" && m1.content[0].text === "Hello world", m1);
  check("messages: usage", m1.usage.input_tokens > 0, m1.usage);

  // Messages, SSE through MessageStream.
  calls++;
  const m2 = await anthropic.messages.stream({ model: "claude-x", max_tokens: 64, messages: user }).finalMessage();
  check("messages stream: text", m2.content[0].text === "Hello world", m2);
  check("messages stream: usage", m2.usage.output_tokens > 1, m2.usage);

  // Messages, SSE, a tool_use block (input assembled from input_json_delta).
  calls++;
  const m3 = await anthropic.messages
    .stream({ model: "claude-x", max_tokens: 64, messages: user, tools: anthropicTools })
    .finalMessage();
  const tu = m3.content[0];
  check("messages stream: tool_use", tu?.type === "tool_use" && tu.name === "score", m3.content);
  check("messages stream: input", tu?.input?.source === "int k;", tu);
  check("messages stream: stop_reason", m3.stop_reason === "tool_use", m3.stop_reason);

  // The beta client (Claude Code's): POST /v1/messages?beta=true, JSON.
  calls++;
  const m4 = await anthropic.beta.messages.create({ model: "claude-x", max_tokens: 64, messages: user });
  check("beta messages: text", m4.content[0].text === "Hello world", m4);

  // count_tokens: answered, generates nothing (not a call the fake counts).
  const n = await anthropic.messages.countTokens({ model: "claude-x", messages: user });
  check("count_tokens", Number.isInteger(n.input_tokens) && n.input_tokens > 0, n);
}

try {
  await main();
} catch (e) {
  check("no exception", false, String(e?.stack ?? e));
}
console.log(JSON.stringify({ calls, checks }));
process.exit(failed === 0 ? 0 : 1);
