// postAsk: check the expert's answer before the asking agent reads it.
//
// - an empty answer, or one that holds a secret, is replaced, saying why;
// - every answer gets a verdict, added as context after it: how many
//   sentences (the preAsk hook asked for three at most), whether it leaked a
//   secret, and how many secrets were kept from the expert.
// A failed hand-off is left as it is: the asking agent reads the failure.
const fs = require("fs");
const { redact, markers } = require("./secrets.js");

const { ask, answer = "", error } = JSON.parse(fs.readFileSync(0, "utf8"));
if (error) process.exit(0);

const reply = {};
const kept = markers(ask.prompt || "") + markers(ask.transcript || "");
const keptNote = kept > 0 ? `; ${kept} secret${kept > 1 ? "s were" : " was"} kept from the expert` : "";

if (answer.trim() === "") {
  reply.answer = `[${ask.agent} gave an empty answer; check-answer.js put this note in its place. Rephrase the question, or ask another agent.]`;
  reply.context = `verdict (check-answer.js): no answer${keptNote}.`;
} else {
  const leak = redact(answer);
  let text = answer;
  let verdict = [];
  if (leak.count > 0) {
    text = leak.text;
    reply.answer = `${text}\n\n[check-answer.js replaced ${leak.count} secret${leak.count > 1 ? "s" : ""} in ${ask.agent}'s answer with a marker]`;
    verdict.push(`${leak.count} secret${leak.count > 1 ? "s" : ""} leaked and redacted`);
  } else {
    verdict.push("no secret in the answer");
  }
  const sentences = (text.match(/[^.!?]+[.!?]+(?=\s|$)/g) || [text]).length;
  const length = sentences <= 3
    ? `${sentences} sentence${sentences > 1 ? "s" : ""}, as asked`
    : `too long: ${sentences} sentences where at most 3 were asked for`;
  const ok = leak.count === 0 && sentences <= 3;
  reply.context = `verdict (check-answer.js): ${ok ? "ok" : "look twice"} — ${length}; ${verdict.join("; ")}${keptNote}.`;
}

process.stdout.write(JSON.stringify(reply));
