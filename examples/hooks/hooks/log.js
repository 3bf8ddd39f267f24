// log.js — a postGeneration hook: appends one JSON line per turn to
// .mm/log.jsonl in the session's working directory (the folder mm runs in),
// creating the folder when needed.
//
// postGeneration runs however the turn ended — answered, failed, cancelled,
// stopped by a hook — so every question leaves a line. A question no-secrets.js
// stopped is logged as the marker "[prompt blocked by a hook: …]", never as
// the secret.
"use strict";
const fs = require("fs");
const path = require("path");

const input = JSON.parse(fs.readFileSync(0, "utf8"));
const file = path.join(input.cwd || process.cwd(), ".mm", "log.jsonl");

const entry = {
  time: new Date().toISOString(),
  model: input.model,
  prompt: input.prompt ?? "",
  answer: input.answer ?? "",
};
if (input.error) entry.error = input.error;
if (input.asked) entry.askedDepth = input.asked.depth;

fs.mkdirSync(path.dirname(file), { recursive: true });
fs.appendFileSync(file, JSON.stringify(entry) + "\n");
