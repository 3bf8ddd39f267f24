// load.mjs checks session/load and session/list of an ACP agent with the
// official TypeScript client library (@agentclientprotocol/sdk), as an
// editor that is closed and opened again would use them.
//
//   node load.mjs <command> [args…]
//   node load.mjs mm -acp --config testdata/load.yaml
//
// It starts the command and opens a session in a fresh temporary folder,
// where it prompts three times: an answer that streams, a tool call that
// completes, one that fails; the configuration's hooks run and are shown
// (displayHooks). It ends the agent's input, then starts the command again
// and there:
//
//   - initialize must advertise loadSession and session/list;
//   - session/list of the folder must list the session, titled with its
//     first question;
//   - session/load must replay the history before its response: the user
//     and agent message chunks, in order and whole, each tool call with its
//     final status and its output, and no hook run;
//   - a prompt after the load must find the earlier questions;
//   - session/load of an unknown id must fail with one clear error.
//
// The agent must save its sessions where the second run finds them (mm:
// $XDG_STATE_HOME, which the caller points at a temporary folder). It
// prints one JSON summary on stdout and exits 1 when a check failed, 2 on
// bad usage.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { EXIT_TIMEOUT_MS, commandLine, newSummary, withTimeout } from "./harness.mjs";

// The prompts of the first run and what the second must replay of them,
// as testdata/load-script.yaml answers.
const PROMPTS = ["hello again", "run a command", "fail a command"];
const REPLAY = [
  { kind: "user_message_chunk", text: "hello again" },
  { kind: "agent_message_chunk", text: "Hello, I am saved as I go." },
  { kind: "user_message_chunk", text: "run a command" },
  { kind: "tool_call", title: "bash: echo replayed", toolKind: "execute", status: "completed", output: "replayed\n" },
  { kind: "agent_message_chunk", text: "ran it" },
  { kind: "user_message_chunk", text: "fail a command" },
  { kind: "tool_call", title: "bash: echo failing; exit 3", toolKind: "execute", status: "failed", output: "failing\n[exit status 3]" },
  { kind: "agent_message_chunk", text: "it failed" },
];
const AFTER = { prompt: "what did I ask", answer: "You asked:\nhello again\n\nrun a command\n\nfail a command\n\nwhat did I ask" };

const argv = commandLine("load.mjs");
const { summary, check } = newSummary(argv);

const cwd = mkdtempSync(join(tmpdir(), "acp-load-"));

// runAgent starts the agent, connects, runs body with the connection and
// the updates it receives, then ends the agent's input; the agent must
// exit with status 0.
async function runAgent(name, body) {
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
  const updates = [];
  const app = acp
    .client({ name: "mm-acp-load" })
    .onNotification("session/update", ({ params }) => {
      updates.push({ ...params.update, forSession: params.sessionId });
    })
    .onRequest("session/request_permission", ({ params }) => {
      const allow = params.options.find((o) => o.kind === "allow_once");
      if (!allow) return { outcome: { outcome: "cancelled" } };
      return { outcome: { outcome: "selected", optionId: allow.optionId } };
    });
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  try {
    await app.connectWith(stream, (ctx) => body(ctx, updates));
  } catch (err) {
    summary.failures.push(`${name}: protocol: ${err?.message ?? err}`);
  }
  child.stdin.end();
  const exit = await withTimeout(exited, `${name}: exit after the end of input`, EXIT_TIMEOUT_MS).catch((err) => {
    child.kill("SIGKILL");
    return { code: null, signal: "SIGKILL", error: err.message };
  });
  check(`${name}: exit status 0 at the end of input`, exit.code === 0, JSON.stringify(exit));
  if (summary.failures.length > 0) summary[`${name}Stderr`] = stderr.slice(0, 2000);
}

async function initialize(ctx) {
  return withTimeout(
    ctx.request("initialize", {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: "mm-acp-load", version: "1" },
    }),
    "initialize",
  );
}

// isHook tells a hook run shown as a tool call (mm: kind other, titled 🪝).
const isHook = (u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && (u.title ?? "").startsWith("🪝");

const textOf = (content) => (content ?? [])
  .filter((c) => c.type === "content" && c.content.type === "text")
  .map((c) => c.content.text)
  .join("\n");

// merged folds the updates into entries: consecutive chunks of one kind
// joined, tool_call_update folded into its tool_call; available commands
// left out.
function merged(updates) {
  const out = [];
  const calls = new Map();
  for (const u of updates) {
    switch (u.sessionUpdate) {
      case "user_message_chunk":
      case "agent_message_chunk": {
        const text = u.content.type === "text" ? u.content.text : "";
        const last = out.at(-1);
        if (last && last.kind === u.sessionUpdate) last.text += text;
        else out.push({ kind: u.sessionUpdate, text });
        break;
      }
      case "tool_call": {
        const e = { kind: "tool_call", title: u.title, toolKind: u.kind, status: u.status, output: textOf(u.content) };
        calls.set(u.toolCallId, e);
        out.push(e);
        break;
      }
      case "tool_call_update": {
        const e = calls.get(u.toolCallId);
        if (!e) {
          out.push({ kind: "orphan tool_call_update", id: u.toolCallId });
          break;
        }
        if (u.status) e.status = u.status;
        if (u.title) e.title = u.title;
        if (u.content) e.output = textOf(u.content);
        break;
      }
      case "available_commands_update":
        break;
      default:
        out.push({ kind: u.sessionUpdate });
    }
  }
  return out;
}

let sessionId = "";

// The first run: a session, three prompts.
await runAgent("first run", async (ctx, updates) => {
  await initialize(ctx);
  const session = await withTimeout(ctx.request("session/new", { cwd, mcpServers: [] }), "session/new");
  sessionId = session.sessionId;
  for (const text of PROMPTS) {
    const resp = await withTimeout(ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }), `prompt "${text}"`);
    check(`first run: "${text}" ends with end_turn`, resp.stopReason === "end_turn", `got ${resp.stopReason}`);
  }
  const hooks = updates.filter(isHook).length;
  summary.liveHookRuns = hooks;
  check("first run: hook runs were shown live", hooks > 0, "no hook run shown: the check that none is replayed proves nothing");
  summary.live = merged(updates.filter((u) => !isHook(u)));
});

// The second run: list, load, go on.
await runAgent("second run", async (ctx, updates) => {
  const init = await initialize(ctx);
  check("initialize: loadSession", init.agentCapabilities?.loadSession === true, `got ${JSON.stringify(init.agentCapabilities)}`);
  check("initialize: session/list", init.agentCapabilities?.sessionCapabilities?.list != null, `got ${JSON.stringify(init.agentCapabilities)}`);

  const list = await withTimeout(ctx.request("session/list", { cwd }), "session/list");
  summary.list = list.sessions;
  const listed = list.sessions.find((s) => s.sessionId === sessionId);
  check("session/list: the session", listed !== undefined, `got ${JSON.stringify(list.sessions)}`);
  check("session/list: in its folder", listed?.cwd === cwd, `got ${JSON.stringify(listed)}`);
  check("session/list: titled with its first question", listed?.title === PROMPTS[0], `got ${JSON.stringify(listed)}`);
  check("session/list: dated", typeof listed?.updatedAt === "string" && !Number.isNaN(Date.parse(listed.updatedAt)), `got ${JSON.stringify(listed)}`);

  await withTimeout(ctx.request("session/load", { sessionId, cwd, mcpServers: [] }), "session/load");
  // Everything replayed arrived before the response.
  const replayed = updates.splice(0);
  summary.replayed = replayed.map((u) => u.sessionUpdate);
  check("session/load: no hook run replayed", !replayed.some(isHook), `got ${JSON.stringify(replayed.filter(isHook))}`);
  check(
    "session/load: every update about the session",
    replayed.every((u) => u.forSession === sessionId),
    `got ${JSON.stringify(replayed.map((u) => u.forSession))}`,
  );
  const got = merged(replayed);
  check("session/load: the history, in order", JSON.stringify(got) === JSON.stringify(REPLAY), `got ${JSON.stringify(got)}\nwant ${JSON.stringify(REPLAY)}`);
  // Live, the client showed the prompts it sent itself.
  const agentSide = got.filter((e) => e.kind !== "user_message_chunk");
  check("session/load: as the first run showed it", JSON.stringify(agentSide) === JSON.stringify(summary.live), `live ${JSON.stringify(summary.live)}`);

  const resp = await withTimeout(
    ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: AFTER.prompt }] }),
    `prompt "${AFTER.prompt}"`,
  );
  const answer = merged(updates.splice(0)).filter((e) => e.kind === "agent_message_chunk").map((e) => e.text).join("");
  check("after the load: end_turn", resp.stopReason === "end_turn", `got ${resp.stopReason}`);
  check("after the load: the earlier questions are known", answer === AFTER.answer, `got ${JSON.stringify(answer)}`);

  const unknown = await ctx.request("session/load", { sessionId: "nosuchsession", cwd, mcpServers: [] }).then(
    () => null,
    (err) => err,
  );
  summary.unknownLoad = unknown ? { code: unknown.code, message: unknown.message } : null;
  check("session/load of an unknown id: resource not found", unknown?.code === -32002, `got ${JSON.stringify(summary.unknownLoad)}`);
  check(
    "session/load of an unknown id: one line naming it",
    typeof unknown?.message === "string" && unknown.message.includes('"nosuchsession"') && !unknown.message.includes("\n"),
    `got ${JSON.stringify(summary.unknownLoad)}`,
  );
});

rmSync(cwd, { recursive: true, force: true });
summary.ok = summary.failures.length === 0;
process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
process.exit(summary.ok ? 0 : 1);
