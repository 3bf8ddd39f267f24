// preAsk, for the agents that run on someone else's computers (Gemini CLI,
// Claude Code, Codex: see the matcher in agent.yaml).
//
// - A question or conversation with a line marked CONFIDENTIAL, INTERNAL
//   ONLY or DO NOT SHARE is not sent at all: the hand-off is denied.
// - Otherwise every secret, internal host name and e-mail address in the
//   question and in the conversation sent along is replaced by a marker
//   such as "[redacted api key]", and the asked agent is told so.
//
// Reads the hand-off (the "ask" object) on stdin, writes the reply on
// stdout. Run it with onError: fail, so that nothing is sent when it cannot
// run.
const fs = require("fs");
const { redact, confidential } = require("./patterns.js");

const { ask } = JSON.parse(fs.readFileSync(0, "utf8"));

for (const [what, text] of [["question", ask.prompt], ["conversation", ask.transcript]]) {
  const line = text && text.match(confidential);
  if (line) {
    const reason = `the ${what} has a line marked confidential ("${line[0].trim().slice(0, 60)}"): ` +
      `${ask.agent} runs outside the team; ask a local agent, or take the line out`;
    process.stdout.write(JSON.stringify({ action: "deny", reason }));
    process.exit(0);
  }
}

const reply = {};
const prompt = redact(ask.prompt || "");
if (prompt.count > 0) reply.prompt = prompt.text;
let found = prompt.count;
if (ask.transcript) {
  const transcript = redact(ask.transcript);
  if (transcript.count > 0) reply.transcript = transcript.text;
  found += transcript.count;
}
if (found > 0) {
  reply.context =
    `${found} value${found > 1 ? "s were" : " was"} replaced by a marker such as [redacted api key] ` +
    "before this reached you: do not ask for them, do not guess them, and keep the markers as they are in what you write.";
}
process.stdout.write(JSON.stringify(reply));
