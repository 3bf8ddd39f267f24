package hooks

import "strings"

// ContextMarker introduces each context a hook added to a text a model reads.
const ContextMarker = "[context added by a hook]"

// AppendContexts appends each context to text as its own block,
// "\n\n[context added by a hook]\n<context>", in order; blank contexts are
// ignored. It is the one way contexts join a text: a tool's output
// (postToolCall), the question (preGeneration), the message the asked agent
// receives (preAsk) and the answer the asking agent reads (postAsk).
func AppendContexts(text string, contexts []string) string {
	var b strings.Builder
	b.WriteString(text)
	for _, c := range contexts {
		if strings.TrimSpace(c) == "" {
			continue
		}
		b.WriteString("\n\n" + ContextMarker + "\n")
		b.WriteString(c)
	}
	return b.String()
}
