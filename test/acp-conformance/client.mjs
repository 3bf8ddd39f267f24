// client.mjs drives an ACP agent with the official TypeScript client library
// (@agentclientprotocol/sdk), as an editor would, and checks what it answers.
//
//   node client.mjs <command> [args…]
//   node client.mjs mm -acp --config testdata/agent.yaml
//
// It starts the command, then: initialize; session/new in a fresh temporary
// folder; a prompt whose answer streams in several chunks; a prompt whose
// tool call asks for permission, which it grants once; a prompt it cancels
// (session/cancel) as soon as the first chunk arrives; and the end of the
// agent's input, after which the agent must exit with status 0.
//
// The expected texts are those of testdata/agent.yaml. It prints one JSON
// summary on stdout and exits 1 when a check failed, 2 on bad usage.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { EXIT_TIMEOUT_MS, commandLine, newSummary, withTimeout } from "./harness.mjs";

const HELLO = { prompt: "hello conformance", answer: "Hello from mm, streamed in pieces." };
const COMMAND = { prompt: "run a command", title: "bash: echo conformance", answer: "ran it" };
const WAIT = { prompt: "wait please", answer: "this answer is slow and is cancelled before it ends" };
const PERMISSION_KINDS = ["allow_once", "allow_always", "reject_once", "reject_always"];
// The same with "always, saved to the configuration", a second
// allow_always: mm -acp offers it when its session has a configuration
// file it may write (docs/reference/acp.md).
const PERMISSION_KINDS_SAVED = ["allow_once", "allow_always", "allow_always", "reject_once", "reject_always"];

const argv = commandLine("client.mjs");
const { summary, check } = newSummary(argv);

const cwd = mkdtempSync(join(tmpdir(), "acp-conformance-"));
const child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
let stderr = "";
child.stderr.setEncoding("utf8");
child.stderr.on("data", (s) => {
  stderr += s;
});
const exited = new Promise((resolve) => {
  child.on("exit", (code, signal) => resolve({ code, signal }));
  child.on("error", (err) => resolve({ code: null, signal: null, error: err.message }));
});

// What the agent sends during the current prompt.
let turn = null;
function newTurn(name) {
  turn = { name, chunks: [], toolCalls: [], toolUpdates: [], permissions: [], other: [], onChunk: null };
  return turn;
}
const commandsAdvertised = [];

const app = acp
  .client({ name: "mm-acp-conformance" })
  .onNotification("session/update", ({ params }) => {
    const u = params.update;
    switch (u.sessionUpdate) {
      case "available_commands_update":
        commandsAdvertised.push(u.availableCommands.map((c) => c.name));
        return;
      case "agent_message_chunk":
        if (turn && u.content.type === "text") {
          turn.chunks.push(u.content.text);
          if (turn.onChunk) turn.onChunk(u.content.text);
        }
        return;
      case "tool_call":
        turn?.toolCalls.push({ id: u.toolCallId, title: u.title, kind: u.kind, status: u.status });
        return;
      case "tool_call_update":
        turn?.toolUpdates.push({ id: u.toolCallId, status: u.status });
        return;
      default:
        turn?.other.push(u.sessionUpdate);
    }
  })
  .onRequest("session/request_permission", ({ params }) => {
    const kinds = params.options.map((o) => o.kind);
    turn?.permissions.push({ id: params.toolCall.toolCallId, title: params.toolCall.title, kinds });
    const allow = params.options.find((o) => o.kind === "allow_once");
    if (!allow) return { outcome: { outcome: "cancelled" } };
    return { outcome: { outcome: "selected", optionId: allow.optionId } };
  });

const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));

async function run(ctx) {
  const init = await withTimeout(
    ctx.request("initialize", {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: "mm-acp-conformance", version: "1" },
    }),
    "initialize",
  );
  summary.initialize = { protocolVersion: init.protocolVersion, agentInfo: init.agentInfo ?? null };
  check("initialize: protocol version 1", init.protocolVersion === 1, `got ${init.protocolVersion}`);
  check("initialize: agent is mm", init.agentInfo?.name === "mm", `got ${JSON.stringify(init.agentInfo)}`);
  check("initialize: loadSession", init.agentCapabilities?.loadSession === true, `got ${JSON.stringify(init.agentCapabilities)}`);
  check("initialize: session/list", init.agentCapabilities?.sessionCapabilities?.list != null, `got ${JSON.stringify(init.agentCapabilities)}`);

  const session = await withTimeout(ctx.request("session/new", { cwd, mcpServers: [] }), "session/new");
  const sessionId = session.sessionId;
  check("session/new: a session id", typeof sessionId === "string" && sessionId !== "", `got ${JSON.stringify(sessionId)}`);

  const prompt = (text) => withTimeout(ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }), `prompt "${text}"`);
  summary.prompts = [];

  // 1. An answer that streams.
  let t = newTurn("stream");
  let resp = await prompt(HELLO.prompt);
  summary.prompts.push(report(t, resp));
  check("stream: end_turn", resp.stopReason === "end_turn", `got ${resp.stopReason}`);
  check("stream: several chunks", t.chunks.length > 1, `got ${t.chunks.length}`);
  check("stream: the answer", t.chunks.join("") === HELLO.answer, `got ${JSON.stringify(t.chunks.join(""))}`);

  // 2. A tool call that asks for permission, granted once.
  t = newTurn("permission");
  resp = await prompt(COMMAND.prompt);
  summary.prompts.push(report(t, resp));
  check("permission: end_turn", resp.stopReason === "end_turn", `got ${resp.stopReason}`);
  const call = t.toolCalls[0];
  check("permission: one tool call", t.toolCalls.length === 1, `got ${JSON.stringify(t.toolCalls)}`);
  check("permission: its title", call?.title === COMMAND.title, `got ${JSON.stringify(call?.title)}`);
  check("permission: its kind", call?.kind === "execute", `got ${JSON.stringify(call?.kind)}`);
  check("permission: asked once", t.permissions.length === 1, `got ${JSON.stringify(t.permissions)}`);
  const perm = t.permissions[0];
  check("permission: about the call", perm?.id === call?.id, `asked about ${perm?.id}, the call is ${call?.id}`);
  check(
    "permission: the options",
    [PERMISSION_KINDS, PERMISSION_KINDS_SAVED].some((k) => JSON.stringify(perm?.kinds) === JSON.stringify(k)),
    `got ${JSON.stringify(perm?.kinds)}`,
  );
  const last = t.toolUpdates.filter((u) => u.id === call?.id && u.status).at(-1);
  check("permission: the call completed", last?.status === "completed", `got ${JSON.stringify(t.toolUpdates)}`);
  check("permission: the answer", t.chunks.join("") === COMMAND.answer, `got ${JSON.stringify(t.chunks.join(""))}`);

  // 3. A prompt cancelled at its first chunk.
  t = newTurn("cancel");
  let cancelSent = false;
  t.onChunk = () => {
    if (cancelSent) return;
    cancelSent = true;
    ctx.notify("session/cancel", { sessionId }).catch((err) => summary.failures.push(`session/cancel: ${err.message}`));
  };
  resp = await prompt(WAIT.prompt);
  summary.prompts.push(report(t, resp));
  const got = t.chunks.join("");
  check("cancel: a chunk came before the cancel", cancelSent);
  check("cancel: stop reason cancelled", resp.stopReason === "cancelled", `got ${resp.stopReason}`);
  check("cancel: the answer was cut", got.length < WAIT.answer.length && WAIT.answer.startsWith(got), `got ${JSON.stringify(got)}`);

  summary.commandsAdvertised = commandsAdvertised;
}

function report(t, resp) {
  return {
    name: t.name,
    stopReason: resp.stopReason,
    chunks: t.chunks,
    toolCalls: t.toolCalls,
    toolUpdates: t.toolUpdates,
    permissions: t.permissions,
    other: t.other,
  };
}

let code = 0;
try {
  await app.connectWith(stream, run);
} catch (err) {
  summary.failures.push(`protocol: ${err?.message ?? err}`);
}

// The end of its input must end the agent.
child.stdin.end();
const exit = await withTimeout(exited, "exit after the end of input", EXIT_TIMEOUT_MS).catch((err) => {
  child.kill("SIGKILL");
  return { code: null, signal: "SIGKILL", error: err.message };
});
summary.exit = exit;
check("exit: status 0 at the end of input", exit.code === 0, JSON.stringify(exit));
rmSync(cwd, { recursive: true, force: true });

summary.ok = summary.failures.length === 0;
if (!summary.ok) {
  summary.stderr = stderr.slice(0, 2000);
  code = 1;
}
process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
process.exit(code);
