package tui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// TestReferenceWindowHookNoticesInTheColourOfTheGearLine holds the reference's
// display row of the window — "one notice per run under the ⚙ line" — in
// the colour of the line mode's block (the reference: "under the ⚙ line (and
// the displayCommands list), in the same colour"): the ⚙ line, the
// displayCommands list and the hook runs under it are drawn dim, all three.
func TestReferenceWindowHookNoticesInTheColourOfTheGearLine(t *testing.T) {
	for _, colour := range []bool{true, false} {
		tw := newTestWindow(t, func(context.Context, sink, string) {})
		tw.colour = colour
		tw.tr.displayHooks, tw.tr.displayCommands = true, true
		tw.tr.event(orchestrator.TurnEnded{
			Commands: []string{"bash: ls"},
			Hooks:    []string{"🪝 1. preGeneration · ./ctx.sh → context (7 chars)", "🪝 2. postGeneration · ./log.sh → continue"},
		})
		var got []string
		for _, r := range tw.frame().rows {
			if strings.Contains(r, "⚙") || strings.Contains(r, "$ bash") || strings.Contains(r, "🪝") {
				got = append(got, strings.TrimRight(r, " "))
			}
		}
		want := []string{
			"\x1b[2m⚙ 1 command(s)",
			"\x1b[2m  $ bash: ls",
			"\x1b[2m  🪝 1. preGeneration · ./ctx.sh → context (7 chars)",
			"\x1b[2m  🪝 2. postGeneration · ./log.sh → continue",
		}
		if !slices.Equal(got, want) {
			t.Errorf("colour %v: the ⚙ block is drawn\n%q\nwant\n%q", colour, got, want)
		}
	}
}
