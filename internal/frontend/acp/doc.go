// Package acp is mm's editor front end: an Agent Client Protocol agent over
// stdio (mm -acp). It is also what a child agent speaks to the agent that
// asked it (see package agentproc).
//
// Each ACP session is one orchestrator session in the cwd the client gives.
// Its events become session/update notifications:
//
//   - the session's own text: agent_message_chunk;
//   - the text of an asked agent as it streams: agent_thought_chunk, so
//     that the editor shows it while it comes without mixing it into the
//     answer; the answer the asking agent reads arrives as its own;
//   - a tool call: tool_call, then tool_call_update when it ends, with its
//     output as content; a call a hook or the person refused is a failed
//     call titled "<tool>: <subject> — denied by a hook" (or "— denied");
//   - a hook run, with displayHooks: a tool call of kind other, completed
//     (or failed) at once;
//   - a hook's failure report: a line on stderr, the editor's agent log;
//     other notices: a thought.
//
// With a Store, every session is saved under its ACP id; session/load goes
// on with a saved one, replaying its history (orchestrator.Replay: the
// person's messages as user_message_chunk, the answers, each tool call
// whole in its final status; no hook run, which is no part of a history)
// before its response, and session/list lists them.
//
// A consent prompt is session/request_permission with the options
// allow_once, allow_always, reject_once and reject_always. Updates about
// the agents asked in turn, and the tool calls of this agent, carry the
// "_meta"."mm" object package agentproc reads.
package acp
