// Package a2aagent asks an agent that runs as a service, over the
// Agent2Agent protocol (A2A 0.3, JSON-RPC over HTTP).
//
// An Agent reads the agent card at <url>/.well-known/agent-card.json on
// its first question, then sends each question with message/stream and
// reads the answer from the server-sent events as they arrive, or with
// message/send when the card does not claim streaming. All the questions
// of one Agent go in one A2A context, so that the agent remembers the
// earlier ones; a question cancelled while it runs is cancelled on the
// agent too (tasks/cancel).
//
// The client is written here on net/http against the SDK's types
// (github.com/a2aproject/a2a-go/a2a) rather than with the SDK's a2aclient
// package, which links gRPC and protobuf into every program that imports
// it: their initialisers would run at every start of mm (see
// docs/explanation/decisions/protocols.md).
//
// Nothing here knows about turns, hooks or the orchestrator.
package a2aagent
