package frontend

import (
	"slices"
	"strings"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// SlashWords are the slash words a front end completes: its own (its
// orchestrator.CommandSet's Words) and its session's commands (the
// /ask… commands of the agents, the person's command files), sorted, each
// once.
func SlashWords(own []string, session []orchestrator.Command) []string {
	words := slices.Clone(own)
	for _, c := range session {
		words = append(words, "/"+c.Name)
	}
	slices.Sort(words)
	return slices.Compact(words)
}

// CompleteCommand offers the slash words that may follow the text before
// the cursor when it is the start of a line's first word and a slash
// ("/re"): each candidate's rest (what the cursor would insert) and the
// text matched, as Complete does; nil for any other text.
func CompleteCommand(before string, words []string) (rests []string, matched string) {
	if !strings.HasPrefix(before, "/") || strings.ContainsAny(before, " \t\n") {
		return nil, ""
	}
	for _, w := range words {
		if strings.HasPrefix(w, before) && w != before {
			rests = append(rests, w[len(before):])
		}
	}
	return rests, before
}
