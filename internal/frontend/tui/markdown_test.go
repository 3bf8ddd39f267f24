package tui

import (
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// TestTranscriptMarkdown: with colours the window renders an answer as
// markdown as it streams, its styles kept across the rows a line wraps
// to, and a model's escapes shown, not obeyed; without them (NO_COLOR)
// it shows the answer as written.
func TestTranscriptMarkdown(t *testing.T) {
	events := []orchestrator.Event{
		orchestrator.Text{Text: "# Ti"},
		orchestrator.Text{Text: "tle\nsome **bold words \x1b[2J here** end\n"},
		orchestrator.Text{Text: "```go\nfunc f()\n```\n"},
		orchestrator.TurnEnded{},
	}
	tests := []struct {
		markdown bool
		want     []string
	}{
		{true, []string{
			"🤖 \x1b[1;4;35mTitle",
			"   some \x1b[1mbold",
			`   ` + "\x1b[1m" + `words \x1b[2J`,
			"   \x1b[1mhere\x1b[0m end",
			"   \x1b[2m```go",
			"   \x1b[35mfunc\x1b[0m f()",
			"   \x1b[2m```",
			"⚙ 0 command(s)",
		}},
		{false, []string{
			"🤖 # Title",
			"   some **bold",
			`   words \x1b[2J`,
			"   here** end",
			"   ```go",
			"   func f()",
			"   ```",
			"⚙ 0 command(s)",
		}},
	}
	for _, tt := range tests {
		tr := transcript{markdown: tt.markdown}
		for _, ev := range events {
			tr.event(ev)
		}
		rows, _ := tr.view(16, 100, 0)
		if strings.Join(rows, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("markdown %v:\n got %q\nwant %q", tt.markdown, rows, tt.want)
		}
	}
}
