// preAsk: keep secrets out of what the expert receives, and tell it how to
// answer.
//
// Reads the hand-off (the "ask" object) on stdin; writes back the question
// and the conversation with every secret replaced by a marker such as
// "[redacted api key]", and a context the expert reads after the question.
const fs = require("fs");
const { redact } = require("./secrets.js");

const { ask } = JSON.parse(fs.readFileSync(0, "utf8"));
const reply = {};

const prompt = redact(ask.prompt || "");
if (prompt.count > 0) reply.prompt = prompt.text;

let found = prompt.count;
if (ask.transcript) {
  const transcript = redact(ask.transcript);
  if (transcript.count > 0) reply.transcript = transcript.text;
  found += transcript.count;
}

let context = "Answer in at most three sentences.";
if (found > 0) {
  context +=
    ` ${found} secret${found > 1 ? "s were" : " was"} replaced by a marker such as` +
    " [redacted api key] before this reached you: do not ask for the value, do not guess it.";
}
reply.context = context;

process.stdout.write(JSON.stringify(reply));
