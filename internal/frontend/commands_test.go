package frontend

import (
	"testing"

	"github.com/mm-agent/mm/internal/orchestrator"
)

func TestUnknownCommand(t *testing.T) {
	// The front end's commands; /exit, described in prose only, is not
	// among them.
	words := []string{"/ask", "/clear", "/help"}
	agents := []orchestrator.Command{{Name: "ask"}, {Name: "ask-expert"}, {Name: "ask-with-context-expert"}}
	for _, tc := range []struct {
		line    string
		session []orchestrator.Command
		want    string
	}{
		{"/clear", nil, ""},
		{"/help me", nil, ""},
		{"what is /clear?", nil, ""},
		{"/etc/hosts: what is it?", nil, ""},
		{"/tmp?", nil, ""},
		{"/", nil, ""},
		{"/ask-nobody q", nil, ""},
		{"/ask x q", nil, ""},
		{"/hlep", nil, "unknown command /hlep (known: /ask, /clear, /help); to ask the model about it, start the line with another word"},
		{"/model ollama/x", agents, "unknown command /model (known: /ask, /ask-expert, /ask-with-context-expert, /clear, /help); to ask the model about it, start the line with another word"},
		{"/exit-now", nil, "unknown command /exit-now (known: /ask, /clear, /help); to ask the model about it, start the line with another word"},
		// A person's command file is the session's, /ask still mm's own.
		{"/review main.go", []orchestrator.Command{{Name: "review", File: ".mm/commands/review.md"}}, ""},
		{"/reveiw", []orchestrator.Command{{Name: "review", File: ".mm/commands/review.md"}}, "unknown command /reveiw (known: /review, /ask, /clear, /help); to ask the model about it, start the line with another word"},
	} {
		if got := UnknownCommand(tc.line, words, tc.session); got != tc.want {
			t.Errorf("UnknownCommand(%q)\n got: %q\nwant: %q", tc.line, got, tc.want)
		}
	}
}
