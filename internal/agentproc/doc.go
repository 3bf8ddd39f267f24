// Package agentproc runs an asked agent as a child process and talks to it.
//
// The child is "mm -acp --config <file>" in its own process group; the
// parent is an Agent Client Protocol client of it: initialize, session/new
// (or session/load of the child's earlier session, whose replayed history
// is not shown), then one session/prompt per hand-off. What the child does
// during a prompt — answer text, tool calls, permission requests — reaches
// the caller through the prompt's Handler.
//
// An mm child adds a small object under "_meta"."mm" to some of its
// updates, so that the parent can tell its own answer from the text and
// tool calls of the agents it asks in turn:
//
//	{"agent": "checker", "tool": "bash", "subject": "ls -la", "denied": "hook", "hook": true, "notice": "info"}
//
// agent is the chain of agents below the child ("" for its own); tool and
// subject name a tool call; denied is "hook" or "person" on a refused call;
// hook marks a hook run shown as a tool call; notice marks a notice sent as
// a thought. Every field may be absent, and any other ACP agent works
// without them.
//
// An Agent owns the whole life of one asked agent: its child is started
// on the first prompt, started again on the prompt after it died or was
// stopped, going on with its session where it can, and stopped by Close
// (Agent.Prompt lists the rules). A process is one run of the child: its
// launch, its handshake, its prompts and its end.
//
// Nothing here knows about turns, hooks or the orchestrator: what a new
// child is started with, where its session id is kept and who sees what it
// does are the Handler's, the one interface through which an Agent reaches
// whoever asks it.
package agentproc
