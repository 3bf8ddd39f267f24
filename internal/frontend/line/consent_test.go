package line

import (
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/frontend"
)

// TestConsentHeadColours: a change's lines are coloured on a terminal
// (added green, removed red, a hunk cyan) and plain without colours; other
// lines are never painted.
func TestConsentHeadColours(t *testing.T) {
	head := []frontend.ConsentLine{{Text: "Allow edit_file: f.txt, to make this change:"}, {Text: "@@ -1 +1 @@", Diff: '@'},
		{Text: "-b", Diff: '-'}, {Text: "+c", Diff: '+'}, {Text: " a"}}
	for _, tt := range []struct {
		colour bool
		want   string
	}{
		{true, "Allow edit_file: f.txt, to make this change:\n\x1b[36m@@ -1 +1 @@\x1b[0m\n\x1b[31m-b\x1b[0m\n\x1b[32m+c\x1b[0m\n a\n"},
		{false, "Allow edit_file: f.txt, to make this change:\n@@ -1 +1 @@\n-b\n+c\n a\n"},
	} {
		var b strings.Builder
		writeConsentHead(&b, head, tt.colour)
		if b.String() != tt.want {
			t.Errorf("colour %v: %q, want %q", tt.colour, b.String(), tt.want)
		}
	}
}
