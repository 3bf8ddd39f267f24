// no-secrets.js — a preGeneration guard: a question that holds a secret is
// stopped before any model reads it.
//
// Reads the hook input on stdin; writes nothing when the question is clean
// (the turn goes on), or a stop with a reason and a response:
//   reason   — kept in the conversation as "[prompt blocked by a hook: <reason>]",
//              so it names the kind of secret, never the secret itself;
//   response — what the person reads instead of an answer.
"use strict";
const fs = require("fs");

// Each pattern names what it found. Add your own (a company token format, …).
const secrets = [
  [/\bAKIA[0-9A-Z]{16}\b/, "an AWS access key id"],
  [/-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/, "a private key"],
  [/\bgh[pousr]_[A-Za-z0-9]{36,}\b/, "a GitHub token"],
  [/\bsk-[A-Za-z0-9_-]{20,}/, "an API key"],
  [/\b(?:password|passwd|pwd|secret|token)\s*[=:]\s*\S+/i, "a password"],
];

const input = JSON.parse(fs.readFileSync(0, "utf8"));
const prompt = String(input.prompt ?? "");

for (const [pattern, what] of secrets) {
  if (pattern.test(prompt)) {
    process.stdout.write(JSON.stringify({
      action: "stop",
      reason: `the question holds ${what}`,
      response: `🔒 Not sent: your question holds ${what}. Remove it and ask again ` +
        `(and change it if it was a real one).`,
    }) + "\n");
    break;
  }
}
