// Package orchestrator owns what mm does: the turn loop (model ↔ tools ↔
// hooks), consent, and the ask hand-off shared by every route (the ask_agent
// tool, the /ask… commands, mm --ask).
//
// It emits events to a Sink; front ends only render them, so that every
// front end behaves the same.
package orchestrator
