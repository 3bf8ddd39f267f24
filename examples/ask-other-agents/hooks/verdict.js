// postAsk, for every asked agent: what the asking agent should know about
// the answer before it uses it.
//
// - A failed hand-off is replaced by a note: which agent, why (first line),
//   and what to do, so that the asking model does not retry blindly.
// - An empty answer is replaced by a note.
// - A secret in the answer (the agent read it somewhere: a file, a tool) is
//   redacted before the asking agent keeps it.
// - Every answer gets a verdict after it: where the agent ran, how long it
//   took, whether anything was redacted.
const fs = require("fs");
const path = require("path");
const { redact } = require("./patterns.js");

const input = JSON.parse(fs.readFileSync(0, "utf8"));
const { ask, answer = "", error, durationMs = 0 } = input;
const seconds = `${(durationMs / 1000).toFixed(1)} s`;
// Where the agent runs, from the fields of the ask object that say it.
const where = ask.agentHost ? `mm on ${ask.agentHost}`
  : ask.agentCommand ? `command ${path.basename(ask.agentCommand[0])}`
  : "mm";

const reply = {};
if (error) {
  if (/cancel/i.test(error)) process.exit(0); // the person stopped it: nothing to add
  reply.answer =
    `[${ask.agent} (${where}) failed after ${seconds}: ${error.split("\n")[0]}. ` +
    "Do not ask it again in this turn: answer from what you know, or ask another agent.]";
} else if (answer.trim() === "") {
  reply.answer = `[${ask.agent} (${where}) gave an empty answer after ${seconds}. Rephrase the question, or ask another agent.]`;
} else {
  const leak = redact(answer);
  if (leak.count > 0) {
    reply.answer = `${leak.text}\n\n[verdict.js replaced ${leak.count} value${leak.count > 1 ? "s" : ""} in ${ask.agent}'s answer with a marker]`;
  }
  reply.context =
    `verdict (verdict.js): ${ask.agent} (${where}) answered in ${seconds}; ` +
    (leak.count > 0
      ? `${leak.count} secret${leak.count > 1 ? "s" : ""} in the answer redacted: check where it read ${leak.count > 1 ? "them" : "it"}.`
      : "no secret in the answer.");
}
process.stdout.write(JSON.stringify(reply));
