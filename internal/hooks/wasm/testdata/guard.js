// The logic of examples/hooks-wasm/bash_guard as a Node.js command hook,
// for BenchmarkGuardNode: read the input on stdin, write the reply.
const patterns = [
  [/--no-preserve-root/, "it turns off rm's protection of /"],
  [/\bmkfs(\.\w+)?\s/, "it would format a disk"],
  [/\bdd\b[^|;&]*\bof=\/dev\/(sd|nvme|hd|vd|xvd|mmcblk|disk)/, "it would overwrite a disk"],
  [/:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/, "it is a fork bomb"],
];

function wipeTarget(words) {
  while (words.length && ["sudo", "command", "exec"].includes(words[0])) words.shift();
  if (!words.length || words[0].split("/").pop() !== "rm") return "";
  let recursive = false;
  const targets = [];
  for (const w of words.slice(1)) {
    if (w === "--recursive") recursive = true;
    else if (w.startsWith("--")) continue;
    else if (w.startsWith("-") && w.length > 1) recursive = recursive || /[rR]/.test(w);
    else targets.push(w.replace(/^["']+|["']+$/g, ""));
  }
  if (!recursive) return "";
  for (let t of targets) {
    if (t.endsWith("/*")) t = t.slice(0, -2);
    t = t.replaceAll("${HOME}", "~").replaceAll("$HOME", "~");
    if (t === "" || t === "~" || t === "~/" || /^\/+(\.\/*)*$/.test(t)) return t || "/";
  }
  return "";
}

function refuse(command) {
  for (const [re, reason] of patterns) if (re.test(command)) return reason;
  for (const simple of command.split(/&&|\|\||[;&|\n]/)) {
    const target = wipeTarget(simple.trim().split(/\s+/).filter(Boolean));
    if (target) return `rm -r on ${target} would delete everything under it`;
  }
  return "";
}

let data = "";
process.stdin.on("data", (c) => (data += c));
process.stdin.on("end", () => {
  const input = JSON.parse(data);
  let out = { action: "continue" };
  if (input.tool && input.tool.name === "bash") {
    const why = refuse((input.tool.input && input.tool.input.command) || "");
    if (why) out = { action: "deny", reason: "bash_guard: " + why };
  }
  process.stdout.write(JSON.stringify(out) + "\n");
});
