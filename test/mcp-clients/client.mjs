// A client of mm serve --mcp, on the official MCP TypeScript SDK, for mm's
// tests: it lists the tools or calls one, and prints what it read, one line
// per fact, so that a test compares them as text.
//
//   node client.mjs [--http URL] [--token T] [--elicit ANSWER|decline] [--progress]
//                   [--cancel-after-progress] [--cancel-when FILE] [--conversation TEXT]
//                   [-- mm serve --mcp --config agent.yaml]  (stdio: the command to start)
//                   :: list | call TOOL QUESTION
//
// Over stdio the server is the command after --; over HTTP it is --http.
// --cancel-when cancels the call (notifications/cancelled) once FILE
// exists: the asked agent started. --elicit answers consent questions (an elicitation) with ANSWER, or
// declines them; without it the client says it cannot answer them.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { existsSync } from "node:fs";

const args = process.argv.slice(2);
const opt = { http: "", token: "", elicit: "", progress: false, cancel: false, conversation: undefined, command: [] };
while (args.length > 0) {
  const a = args.shift();
  if (a === "--http") opt.http = args.shift();
  else if (a === "--token") opt.token = args.shift();
  else if (a === "--elicit") opt.elicit = args.shift();
  else if (a === "--progress") opt.progress = true;
  else if (a === "--cancel-after-progress") { opt.cancel = true; opt.progress = true; }
  else if (a === "--cancel-when") opt.cancelWhen = args.shift();
  else if (a === "--conversation") opt.conversation = args.shift();
  else if (a === "::") break;
  else if (a === "--") { while (args.length > 0 && args[0] !== "::") opt.command.push(args.shift()); args.shift(); }
  else { args.unshift(a); break; }
}
const [verb, tool, question] = args;

const capabilities = opt.elicit ? { elicitation: { form: {} } } : {};
const client = new Client({ name: "mm-test-client", version: "1.0.0" }, { capabilities });
if (opt.elicit) {
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    console.log("elicit: " + JSON.stringify(req.params.message));
    if (opt.elicit === "decline") return { action: "decline" };
    return { action: "accept", content: { answer: opt.elicit } };
  });
}

let transport;
if (opt.http) {
  const headers = opt.token ? { Authorization: "Bearer " + opt.token } : {};
  transport = new StreamableHTTPClientTransport(new URL(opt.http), { requestInit: { headers } });
} else {
  transport = new StdioClientTransport({ command: opt.command[0], args: opt.command.slice(1), stderr: "inherit" });
}

try {
  await client.connect(transport);
} catch (e) {
  console.log("connect failed: " + e.message);
  process.exit(1);
}

if (verb === "list") {
  const { tools } = await client.listTools();
  for (const t of tools) {
    console.log(`tool ${t.name}: ${t.description}`);
    console.log(`  input: ${JSON.stringify(t.inputSchema)}`);
  }
} else if (verb === "call") {
  const controller = new AbortController();
  const pieces = [];
  let last = 0;
  const options = { signal: controller.signal };
  if (opt.progress) {
    options.onprogress = (p) => {
      if (p.progress <= last) console.log(`progress went back: ${p.progress} after ${last}`);
      last = p.progress;
      pieces.push(p.message ?? "");
      if (opt.cancel && pieces.length === 1) controller.abort("the test cancels it");
    };
  }
  if (opt.cancelWhen) {
    const watch = setInterval(() => {
      if (existsSync(opt.cancelWhen)) {
        clearInterval(watch);
        controller.abort("the test cancels it");
      }
    }, 20);
  }
  const params = { name: tool, arguments: { question } };
  if (opt.conversation !== undefined) params.arguments.conversation = opt.conversation;
  try {
    const res = await client.callTool(params, undefined, options);
    const text = res.content.map((c) => c.text).join("");
    if (opt.progress) {
      // The SDK hands a notification on a tick later than the answer that
      // follows it, and drops it once the answer came: the last ones may
      // be missing, so the text read is the start of what was sent.
      const streamed = pieces.join("");
      console.log(`progress: ${pieces.length > 0 ? "some" : "none"}`);
      if (streamed === "") console.log("progress text: none");
      else if (text.startsWith(streamed)) console.log("progress text: the answer's start");
      else console.log(`progress text: ${JSON.stringify(streamed)}`);
    }
    console.log(`${res.isError ? "error" : "result"}: ${text}`);
  } catch (e) {
    console.log(`call failed: ${e.message}`);
  }
}
await client.close();
