package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestComplete(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"src/main.go", "src/main_test.go", "src/lib/x.go", "README.md", ".hidden"} {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	skills := []string{"pdf", "pdf-forms", "review"}
	tests := []struct {
		before, rests, matched string
	}{
		{"@", "README.md|src/", ""},
		{"@s", "rc/", "s"},
		{"@src/ma", "in.go|in_test.go", "ma"},
		{"@src/", "lib/|main.go|main_test.go", ""},
		{"@.h", "idden", ".h"},
		{"@src/main.go", "", "main.go"},
		{"@nope/x", "", "x"},
		{"@src/ma and more", "", ""},
		{"what @src", "/", "src"},
		{"explain @src/ma", "in.go|in_test.go", "ma"},
		{"compare (@R", "EADME.md", "R"},
		{"mail me@s", "", ""},
		{"what @src/main.go and", "", ""},
		{"$p", "df|df-forms", "p"},
		{"$pdf", "-forms", "pdf"},
		{"$r x", "", ""},
	}
	for _, tt := range tests {
		rests, matched := Complete(tt.before, dir, skills)
		if got := strings.Join(rests, "|"); got != tt.rests || matched != tt.matched {
			t.Errorf("Complete(%q) = %q, %q; want %q, %q", tt.before, got, matched, tt.rests, tt.matched)
		}
	}
	if got := CommonPrefix([]string{"in.go", "in_test.go"}); got != "in" {
		t.Errorf("CommonPrefix = %q", got)
	}
}
