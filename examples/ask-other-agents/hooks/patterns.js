// What must not leave the machine, shared by redact.js and verdict.js.
// Plain Node.js, no packages.

// Each pattern names what it finds; the most specific come first. A value
// already replaced by a marker ("[redacted …]") never matches again.
const patterns = [
  { kind: "private key", re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g },
  { kind: "api key", re: /\b(?:sk|sk-ant|sk-proj)-[A-Za-z0-9_-]{16,}/g },
  { kind: "Google API key", re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: "GitHub token", re: /\bgh[pousr]_[A-Za-z0-9]{20,}/g },
  { kind: "AWS access key", re: /\bAKIA[0-9A-Z]{16}\b/g },
  { kind: "Slack token", re: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { kind: "JSON web token", re: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: "token", re: /(?<=\bBearer\s+)[A-Za-z0-9._~+/=-]{16,}/g },
  { kind: "password", re: /(?<=\b(?:password|passwd|pwd|secret|api[_-]?key|token)\s*[=:]\s*["']?)[^\s"'\[,;]{6,}/gi },
  // Not secrets, but nobody outside the team needs them.
  { kind: "internal host", re: /\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:internal|corp|lan)\b/gi },
  { kind: "e-mail address", re: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g },
];

// redact replaces everything above in text with a marker naming its kind,
// and returns the new text and how many it replaced.
function redact(text) {
  let count = 0;
  for (const { kind, re } of patterns) {
    text = text.replace(re, () => {
      count++;
      return `[redacted ${kind}]`;
    });
  }
  return { text, count };
}

// A line that says it must stay in the team: the hand-off is refused
// rather than sent with that line cut out.
const confidential = /^.*\b(?:CONFIDENTIAL|INTERNAL ONLY|DO NOT SHARE)\b.*$/m;

module.exports = { redact, confidential };
