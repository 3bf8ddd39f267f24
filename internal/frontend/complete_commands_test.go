package frontend

import (
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/orchestrator"
)

func TestCompleteCommand(t *testing.T) {
	words := SlashWords([]string{"/help", "/clear", "/compact", "/exit"},
		[]orchestrator.Command{{Name: "ask-expert"}, {Name: "review", File: ".mm/commands/review.md"}, {Name: "release-notes", File: "~/.config/mm/commands/release-notes.md"}})
	if got := strings.Join(words, " "); got != "/ask-expert /clear /compact /exit /help /release-notes /review" {
		t.Errorf("SlashWords = %s", got)
	}
	for _, tc := range []struct {
		before, rests, matched string
	}{
		{"/re", "lease-notes|view", "/re"},
		{"/rev", "iew", "/rev"},
		{"/c", "lear|ompact", "/c"},
		{"/", "ask-expert|clear|compact|exit|help|release-notes|review", "/"},
		{"/review", "", "/review"},
		{"/review a", "", ""},
		{"re", "", ""},
		{"@/re", "", ""},
	} {
		rests, matched := CompleteCommand(tc.before, words)
		if got := strings.Join(rests, "|"); got != tc.rests || matched != tc.matched {
			t.Errorf("CompleteCommand(%q) = %q, %q; want %q, %q", tc.before, got, matched, tc.rests, tc.matched)
		}
	}
}
