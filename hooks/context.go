package hooks

import "github.com/mm-agent/mm/handoff"

// AppendContexts appends each context to text as its own block,
// "\n\n[context added by a hook]\n<context>", in order; blank contexts are
// ignored. It is the one way contexts join a text a model reads: a tool's
// output (postToolCall), the question (preGeneration), the message the asked
// agent receives (preAsk) and the answer the asking agent reads (postAsk).
// The hand-off's own texts live in package handoff, hence the delegation.
func AppendContexts(text string, contexts []string) string {
	return handoff.AppendContexts(text, contexts)
}
