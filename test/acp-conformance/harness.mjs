// harness.mjs: what the conformance scripts share — the command line, the
// JSON summary of checks, and bounded waits.

// Bounds for what must happen, generous for a loaded machine.
export const STEP_TIMEOUT_MS = 30_000;
export const EXIT_TIMEOUT_MS = 10_000;

// commandLine is the agent's command from the script's arguments; with
// none, it prints the usage and exits 2.
export function commandLine(script) {
  const argv = process.argv.slice(2);
  if (argv.length === 0) {
    console.error(`usage: node ${script} <command> [args…]`);
    process.exit(2);
  }
  return argv;
}

// newSummary is the JSON summary the script prints; check records one
// check in it.
export function newSummary(argv) {
  const summary = { command: argv, checks: [], failures: [] };
  const check = (name, ok, detail) => {
    summary.checks.push(name);
    if (!ok) summary.failures.push(detail === undefined ? name : `${name}: ${detail}`);
  };
  return { summary, check };
}

// withTimeout is promise, or a rejection naming what did not answer in ms.
export function withTimeout(promise, what, ms = STEP_TIMEOUT_MS) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
