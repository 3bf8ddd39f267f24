// The A2A JavaScript SDK as a client of mm serve --a2a (cmd/mm/cli/a2a_peers_test.go):
// node client.mjs <url> <token>. It prints one line per step: the card, two
// answers in one context, a task cancelled mid-stream, a wrong token.
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from "@a2a-js/sdk/client";

const [url, token] = process.argv.slice(2);
const withToken = (t) => (input, init = {}) => {
  const headers = new Headers(init.headers || {});
  if (t) headers.set("Authorization", `Bearer ${t}`);
  return fetch(input, { ...init, headers });
};
const factory = (t) => new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
  transports: [new JsonRpcTransportFactory({ fetchImpl: withToken(t) })],
  cardResolver: new DefaultAgentCardResolver({ fetchImpl: withToken(t) }),
}));
const message = (text, contextId) => ({
  message: { kind: "message", role: "user", messageId: crypto.randomUUID(), parts: [{ kind: "text", text }], contextId },
});

// ask streams one question and returns its text, context and final state.
async function ask(client, text, contextId, onFirst) {
  let answer = "", ctx = contextId, state = "", taskId = "";
  for await (const ev of client.sendMessageStream(message(text, contextId))) {
    ctx = ev.contextId || ctx;
    if (ev.kind === "task") taskId = ev.id;
    if (ev.kind === "status-update") { state = ev.status.state; taskId = ev.taskId; }
    if (ev.kind === "artifact-update") {
      taskId = ev.taskId;
      answer += ev.artifact.parts.filter((p) => p.kind === "text").map((p) => p.text).join("");
      if (onFirst) { const f = onFirst; onFirst = null; await f(taskId); }
    }
  }
  return { answer, ctx, state };
}

const client = await factory(token).createFromUrl(url);
const card = await client.getAgentCard();
console.log(`card: ${card.name} streaming=${card.capabilities.streaming} description=${card.description} skills=${card.skills.map((s) => s.id).join(",")}`);
const one = await ask(client, "first question");
console.log(`answer 1: ${one.answer} [${one.state}]`);
const two = await ask(client, "second question", one.ctx);
console.log(`answer 2: ${two.answer} [${two.state}] same context: ${two.ctx === one.ctx}`);
const slow = await ask(client, "slow", undefined, async (taskId) => {
  const t = await client.cancelTask({ id: taskId });
  console.log(`cancel: ${t.status.state}`);
});
console.log(`slow: ${slow.answer} [${slow.state}]`);
try {
  await ask(await factory("wrong").createFromUrl(url), "hi");
  console.log("wrong token: accepted");
} catch (e) {
  console.log(`wrong token: refused (${String(e.message).includes("401") ? "401" : e.message})`);
}
