// Package sessions keeps mm's sessions on disk as they happen, so that a
// person can pick one up later: one append-only JSON Lines file per
// session, a header line and then one line per change of the history (a
// message joining it, the whole history after a compression, an asked
// agent's session id). Writer records a running session (it is an
// orchestrator.Recorder); Open reads one back to resume it; List
// summarises a folder's sessions.
//
// A file is only ever appended to. mm never rewrites, truncates or repairs
// the content of a session file: a line it cannot read is reported with
// the file and the line, and the file is left as it is.
package sessions
