package cli

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// followUpMark is in the one command of a reference page's follow-up
// example (a question, then another in its session) that goes on with the
// session: it tells that block from the page's others.
const followUpMark = `mm -p --resume "$id"`

// cmdDocExample writes a page's follow-up example, a ```bash block of the
// repository's file holding followUpMark, to a file for the script to run:
// what the page shows is what the test runs.
//
//	docexample docs/reference/sessions.md example.sh
func cmdDocExample(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: docexample page.md out")
	}
	b, err := os.ReadFile(filepath.Join(repoRoot(), args[0]))
	ts.Check(err)
	var found []string
	for _, block := range fencedBlocks(string(b), "bash") {
		if strings.Contains(block, followUpMark) {
			found = append(found, block)
		}
	}
	if len(found) != 1 {
		ts.Fatalf("%s: %d bash blocks with %s, want 1", args[0], len(found), followUpMark)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(found[0]), 0o644))
}

// fencedBlocks are the bodies of the ```lang blocks of a markdown text.
func fencedBlocks(text, lang string) []string {
	var blocks []string
	var cur *strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		switch trimmed := strings.TrimSpace(l); {
		case cur == nil && trimmed == "```"+lang:
			cur = &strings.Builder{}
		case cur != nil && trimmed == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(l)
		}
	}
	return blocks
}
