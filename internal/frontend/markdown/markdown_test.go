package markdown_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/frontend/markdown"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

// render renders pieces as one answer and returns the terminal's text with
// ESC written as \e; adjacent spans of one style are merged first, so
// that how the answer was cut does not show.
func render(pieces ...string) string {
	s := markdown.NewStream(frontend.Visible)
	var spans []markdown.Span
	for _, p := range pieces {
		spans = append(spans, s.Write(p)...)
	}
	spans = append(spans, s.Close()...)
	var merged []markdown.Span
	for _, sp := range spans {
		if n := len(merged); n > 0 && merged[n-1].Style == sp.Style && sp.Text != "\n" && merged[n-1].Text != "\n" {
			merged[n-1].Text += sp.Text
			continue
		}
		merged = append(merged, sp)
	}
	return strings.ReplaceAll(markdown.ANSI(merged), "\x1b", `\e`)
}

func inputs(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	in := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in[f] = string(b)
	}
	return in
}

// TestGolden renders each testdata/*.md whole and compares it with its
// .golden file (go test -update rewrites them).
func TestGolden(t *testing.T) {
	for f, md := range inputs(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			got := render(md)
			golden := strings.TrimSuffix(f, ".md") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s:\n got %s\nwant %s", f, got, want)
			}
		})
	}
}

// TestStreaming: an answer cut in two at any byte, or sent a byte at a
// time, renders as the whole answer does.
func TestStreaming(t *testing.T) {
	for f, md := range inputs(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			whole := render(md)
			for k := 1; k < len(md); k++ {
				if got := render(md[:k], md[k:]); got != whole {
					t.Fatalf("cut at byte %d (%q | %q):\n got %s\nwant %s", k, md[max(k-10, 0):k], md[k:min(k+10, len(md))], got, whole)
				}
			}
			bytes := make([]string, len(md))
			for i := range md {
				bytes[i] = md[i : i+1]
			}
			if got := render(bytes...); got != whole {
				t.Fatalf("a byte at a time:\n got %s\nwant %s", got, whole)
			}
		})
	}
}

// TestStreamsAtOnce: plain text is shown as it arrives, and a construct
// when it closes, not at the end of its line.
func TestStreamsAtOnce(t *testing.T) {
	tests := []struct {
		pieces []string
		shown  []string
	}{
		{[]string{"this answer ", "takes"}, []string{"this answer ", "takes"}},
		{[]string{"a **bo", "ld** b"}, []string{"a ", `\e[1mbold\e[0m b`}},
		{[]string{"# Ti", "tle"}, []string{`\e[1;4;35mTi\e[0m`, `\e[1;4;35mtle\e[0m`}},
		{[]string{"- it", "em"}, []string{`\e[36m•\e[0m it`, "em"}},
		{[]string{"```go\nfunc", " f()\n"}, []string{`\e[2m` + "```go" + `\e[0m` + "\n", `\e[35mfunc\e[0m f()` + "\n"}},
	}
	for _, tt := range tests {
		s := markdown.NewStream(frontend.Visible)
		for i, p := range tt.pieces {
			got := strings.ReplaceAll(markdown.ANSI(s.Write(p)), "\x1b", `\e`)
			if got != tt.shown[i] {
				t.Errorf("%q: piece %d shows %q, want %q", tt.pieces, i, got, tt.shown[i])
			}
		}
	}
}

// TestEscapesVisible: a model's escapes are made visible before the
// renderer adds its own, inside a construct as outside.
func TestEscapesVisible(t *testing.T) {
	got := render("**\x1b[2Jbold** and `\x1b]0;x\a`\n")
	want := `\e[1m\x1b[2Jbold\e[0m and \e[36m\x1b]0;x\x07\e[0m` + "\n"
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// FuzzStream: no input makes the renderer panic, none shows a raw control
// character, and a cut anywhere changes nothing.
func FuzzStream(f *testing.F) {
	for _, s := range []string{"# a\n", "**a *b* c**", "| a |\n|---|\n| b |\n", "```go\n`x\n```", "[a](b) `c` ~~d~~ \\*", "1. x\n> y\n---\n"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, md string, cut int) {
		if cut < 0 || cut > len(md) {
			cut = len(md) / 2
		}
		whole := render(md)
		if got := render(md[:cut], md[cut:]); got != whole {
			t.Fatalf("cut at %d:\n got %q\nwant %q", cut, got, whole)
		}
		for _, r := range whole {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
				t.Fatalf("a control character %U in %q", r, whole)
			}
		}
	})
}
