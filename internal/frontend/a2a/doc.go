// Package a2a serves an mm agent over the Agent2Agent protocol (A2A 0.3,
// JSON-RPC over HTTP, with server-sent events for message/stream): mm
// serve --a2a.
//
// It is a front end like the others: each A2A context is one
// orchestrator.Session, kept in memory (at most MaxSessions, the least
// recently used idle one closed first), and what the session emits is
// rendered as A2A events: the agent's own answer as the chunks of one
// artifact, the task's end as its final status. Nobody can be asked for
// consent, so tool calls run only with yolo or a hook's allow, as with -p.
// The protocol itself is a2a-go's server (a2asrv), behind the door every
// mm serve over HTTP has (internal/httpdoor: the Host, the Origin, JSON,
// the bearer token, the body limit, a write deadline, an idle timeout and
// a cap on open connections); this package adds the bounds of its own: on
// running tasks and on kept tasks, and a shutdown that cancels what runs
// and closes every session. A client's text is a question: it runs no command.
package a2a
