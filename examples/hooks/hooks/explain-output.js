// explain-output.js — a postToolCall hook for the bash tool (matcher ^bash$).
//
// It adds one context after the command's output, for the model only: how
// the command ended, how many lines it printed and, when the output was cut
// in the middle, how much is missing and what to do about it. What the person
// sees of the tool call does not change.
"use strict";
const fs = require("fs");

const input = JSON.parse(fs.readFileSync(0, "utf8"));
let output = String(input.output ?? "");

// The bash tool ends the output with a note when the command did not exit
// with 0: "[exit status 2]", "[timed out after 2m0s; the command was killed]",
// "[cancelled; the command was killed]", "[signal: killed]".
let ended = "exited with status 0";
let failed = false;
const note = /\n?\[(exit status (\d+)|signal: ([^\]]+)|timed out after ([^;\]]+)[^\]]*|cancelled[^\]]*)\]$/.exec(output);
if (note) {
  failed = true;
  output = output.slice(0, note.index);
  if (note[2] !== undefined) ended = `exited with status ${note[2]}`;
  else if (note[3] !== undefined) ended = `was killed by a signal (${note[3]})`;
  else if (note[4] !== undefined) ended = `timed out after ${note[4]} and was killed`;
  else ended = "was cancelled";
}

// An output over the tool's cap keeps its two ends; its last line says how
// much was left out.
let cut = "";
const long = /\n\[output too long: (\d+) bytes, over the cap of \d+; the (\d+) bytes in the middle were left out\]$/.exec(output);
if (long) {
  cut = ` The output was cut: ${long[2]} of its ${long[1]} bytes are missing from the middle;` +
    " run a narrower command (grep, head, tail, wc -l) to see them.";
  output = output.slice(0, long.index).replace(/\n\[… \d+ bytes cut …\]\n/, "\n");
}

let printed = "nothing";
if (output !== "" && output !== "[no output]") {
  const n = output.replace(/\n$/, "").split("\n").length;
  printed = n === 1 ? "1 line" : `${n} lines`;
}

let context = `The command ${ended}; it printed ${printed}.`;
if (failed) context += " It failed: read the error before trying again.";
process.stdout.write(JSON.stringify({ context: context + cut }) + "\n");
