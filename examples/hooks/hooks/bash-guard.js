// bash-guard.js — a preToolCall guard for the bash tool (matcher ^bash$).
//
// It reads the command the model wants to run and answers with one of:
//   deny    commands that destroy data or run code nobody has read: the
//           command does not run, the model reads the reason;
//   input   a plain `rm <files>` (relative paths, no options) becomes a move
//           into .mm/trash/<time>/, so that what the model deletes can be
//           put back; the consent prompt shows the new command;
//   allow   read-only commands (ls, cat, echo, …) with no redirection,
//           pipe, chaining or substitution run without a consent prompt;
//   nothing anything else: the usual consent prompt decides.
"use strict";
const fs = require("fs");

const input = JSON.parse(fs.readFileSync(0, "utf8"));
const args = input.tool && input.tool.input;
const command = args && typeof args.command === "string" ? args.command : "";

function reply(r) {
  process.stdout.write(JSON.stringify(r) + "\n");
}

// What may never run, and why: the reason is what the model reads, so it
// says what to do instead.
const dangerous = [
  [/\brm\s+(?:-\S+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(?:-\S+\s+)*(?:\/|\/\*|~\/?|\$HOME\/?|"\$HOME"\/?|\.\/?|\.\.\/?|\*)(?:\s|;|&|\||$)/,
    "it would delete the whole file system, your home folder or this folder: name the files to delete instead"],
  [/\bmkfs(?:\.\w+)?\b/, "it formats a disk"],
  [/\bdd\b[^\n]*\bof=\/dev\//, "it writes over a disk"],
  [/>\s*\/dev\/(?:sd|hd|nvme|vd|disk)/, "it writes over a disk"],
  [/:\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:/, "it is a fork bomb"],
  [/\b(?:curl|wget)\b[^\n|]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b/,
    "piping a download into a shell runs code nobody has read: download the script to a file and show it first"],
  [/\bgit\s+push\b[^\n]*\s(?:--force\b|-f\b)/, "a forced push rewrites the remote's history"],
];

for (const [pattern, why] of dangerous) {
  if (pattern.test(command)) {
    reply({ action: "deny", reason: `refusing \`${command}\`: ${why}` });
    process.exit(0);
  }
}

// A plain rm of relative paths becomes a move to the trash.
const rm = /^\s*rm\s+((?:[A-Za-z0-9_@%+=:,.][A-Za-z0-9_@%+=:,./-]*\s*)+)$/.exec(command);
if (rm) {
  const files = rm[1].trim().split(/\s+/);
  if (files.every((f) => !f.split("/").includes(".."))) {
    // One folder per call, named after the time: 20250131-142501.
    const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
    const trash = ".mm/trash/" + stamp;
    reply({ input: { ...args, command: `mkdir -p ${trash} && mv -- ${files.join(" ")} ${trash}/` } });
    process.exit(0);
  }
}

// Read-only commands need no consent.
const readOnly = /^\s*(?:ls|pwd|echo|cat|head|tail|wc|grep|date|whoami|uname|stat|file|du|df|tree|git\s+(?:status|log|diff|show))(?:\s[^;&|<>$`()\\\n]*)?$/;
if (readOnly.test(command)) {
  reply({ action: "allow", reason: "a read-only command" });
}
