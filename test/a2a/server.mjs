// An A2A agent on the JavaScript SDK, for mm to ask (cmd/mm/cli/a2a_peers_test.go).
// It answers "js: <text> (message N of this context)" in artifact chunks;
// "fail" fails, "input" asks for input, "slow" streams until cancelled.
// TOKEN, when set, is required as a bearer token; STREAMING=0 gives a card
// without streaming. It prints "listening <port>" once ready, and counts
// the tasks/cancel it received in "cancelled <n>" lines on stderr.
import express from "express";
import { DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { A2AExpressApp } from "@a2a-js/sdk/server/express";

const token = process.env.TOKEN || "";
const streaming = process.env.STREAMING !== "0";
const contexts = new Map();
const running = new Map();
let cancels = 0;

const status = (ctx, state, text, final) => ({
  kind: "status-update", taskId: ctx.taskId, contextId: ctx.contextId, final,
  status: {
    state, timestamp: new Date().toISOString(),
    message: text ? { kind: "message", role: "agent", messageId: crypto.randomUUID(), parts: [{ kind: "text", text }], taskId: ctx.taskId, contextId: ctx.contextId } : undefined,
  },
});
const chunk = (ctx, text, append) => ({
  kind: "artifact-update", taskId: ctx.taskId, contextId: ctx.contextId, append,
  artifact: { artifactId: "answer-" + ctx.taskId, parts: [{ kind: "text", text }] },
});

const executor = {
  async execute(ctx, bus) {
    const text = ctx.userMessage.parts.filter((p) => p.kind === "text").map((p) => p.text).join("");
    const n = (contexts.get(ctx.contextId) || 0) + 1;
    contexts.set(ctx.contextId, n);
    if (!ctx.task) {
      bus.publish({ kind: "task", id: ctx.taskId, contextId: ctx.contextId, status: { state: "submitted", timestamp: new Date().toISOString() }, history: [ctx.userMessage] });
    }
    bus.publish(status(ctx, "working", "", false));
    if (text === "fail") {
      bus.publish(status(ctx, "failed", "the JS agent failed on purpose", true));
    } else if (text === "input") {
      bus.publish(status(ctx, "input-required", "which branch?", true));
    } else if (text === "slow") {
      bus.publish(chunk(ctx, "thinking", false));
      await new Promise((resolve) => running.set(ctx.taskId, resolve));
      bus.publish(status(ctx, "canceled", "", true));
    } else {
      bus.publish(chunk(ctx, "js: ", false));
      bus.publish(chunk(ctx, `${text} (message ${n} of this context)`, true));
      bus.publish(status(ctx, "completed", "", true));
    }
    bus.finished();
  },
  async cancelTask(taskId, bus) {
    cancels++;
    process.stderr.write(`cancelled ${cancels}\n`);
    const resolve = running.get(taskId);
    if (resolve) {
      running.delete(taskId);
      resolve();
    }
  },
};

const app = express();
if (token) {
  app.use((req, res, next) => {
    if (req.path === "/.well-known/agent-card.json" || req.get("authorization") === `Bearer ${token}`) return next();
    res.status(401).send("unauthorized");
  });
}
const server = app.listen(0, "127.0.0.1", () => {
  const port = server.address().port;
  const card = {
    name: "js-agent", description: "the A2A JavaScript SDK's server", version: "0.3.14", protocolVersion: "0.3.0",
    url: `http://127.0.0.1:${port}/`, preferredTransport: "JSONRPC",
    capabilities: { streaming }, defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"], skills: [],
  };
  new A2AExpressApp(new DefaultRequestHandler(card, new InMemoryTaskStore(), executor)).setupRoutes(app);
  process.stdout.write(`listening ${port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
