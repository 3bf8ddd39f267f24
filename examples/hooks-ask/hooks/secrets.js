// What looks like a secret, shared by the two hooks of this example.
// Plain Node.js, no packages.

// Each pattern names what it finds; the first ones are the most specific.
// A value already replaced by a marker ("[redacted …]") never matches again.
const patterns = [
  { kind: "private key", re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g },
  { kind: "api key", re: /\bsk-[A-Za-z0-9_-]{16,}/g },
  { kind: "GitHub token", re: /\bgh[pousr]_[A-Za-z0-9]{20,}/g },
  { kind: "AWS access key", re: /\bAKIA[0-9A-Z]{16}\b/g },
  { kind: "Slack token", re: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { kind: "JSON web token", re: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: "token", re: /(?<=\bBearer\s+)[A-Za-z0-9._~+/=-]{16,}/g },
  { kind: "password", re: /(?<=\b(?:password|passwd|pwd|secret|api[_-]?key|token)\s*[=:]\s*["']?)[^\s"'\[]{6,}/gi },
];

// redact replaces every secret in text with a marker naming its kind, and
// returns the new text and how many it replaced.
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

// markers counts the redaction markers in text.
function markers(text) {
  return (text.match(/\[redacted [^\]]+\]/g) || []).length;
}

module.exports = { redact, markers };
