package question

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestExpandInline: an @path inside a sentence brings in the file or
// folder it names when one exists, after the question, which stays as
// typed; an @ that names nothing, or is not a word's start, is text.
func TestExpandInline(t *testing.T) {
	dir := tree(t, map[string]string{
		"notes.md":    "buy milk\n",
		"my notes.md": "spaced",
		"src/main.go": "package main\n",
		"src/sub/":    "",
		"v1.2":        "a file named with a dot",
		"home/h.txt":  "from home",
	})
	opts := Options{Cwd: dir, Home: filepath.Join(dir, "home")}
	const notes = "[file: notes.md]\n```\nbuy milk\n```"
	const main = "[file: src/main.go]\n```\npackage main\n```"
	tests := []struct {
		name, in, want string
	}{
		{"in a sentence", "explain @src/main.go please", "explain @src/main.go please\n\n" + main},
		{"at a sentence's end", "what is in @notes.md?", "what is in @notes.md?\n\n" + notes},
		{"in brackets", "compare (@notes.md, @src/main.go).", "compare (@notes.md, @src/main.go).\n\n" + notes + "\n\n" + main},
		{"a dot that belongs to the name", "read @v1.2.", "read @v1.2.\n\n[file: v1.2]\n```\na file named with a dot\n```"},
		{"quoted", `see @"my notes.md" now`, "see @\"my notes.md\" now\n\n[file: my notes.md]\n```\nspaced\n```"},
		{"home", "and @~/h.txt too", "and @~/h.txt too\n\n[file: ~/h.txt]\n```\nfrom home\n```"},
		{"a folder", "what is in @src/ here", "what is in @src/ here\n\n[folder: src/, 2 entries]\n```\nmain.go\nsub/\n```"},
		{"named twice, brought once", "@notes.md and @notes.md", "@notes.md and @notes.md\n\n" + notes},
		{"an @path line and a mention", "@notes.md\nsummarise @notes.md", notes + "\nsummarise @notes.md"},
		{"an e-mail is text", "mail me@example.com or notes.md@x", "mail me@example.com or notes.md@x"},
		{"a name that is no file", "ask @bob about @missing.txt", "ask @bob about @missing.txt"},
		{"in backticks", "the `@notes.md` line", "the `@notes.md` line"},
		{"in a fence", "```\nsee @notes.md\n```", "```\nsee @notes.md\n```"},
		{"an @ alone", "meet @ noon", "meet @ noon"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, changed, err := Expand(tt.in, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Expand\n got: %q\nwant: %q", got, tt.want)
			}
			if changed != (got != tt.in) {
				t.Errorf("changed = %v", changed)
			}
		})
	}
}

// TestExpandInlineErrors: a mention of a file that exists but cannot be
// brought in fails the question, naming the word; a named pipe is not
// read (it is text).
func TestExpandInlineErrors(t *testing.T) {
	dir := tree(t, map[string]string{"logo.png": "\x89PNG\x00"})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := Options{Cwd: dir}
	_, _, err := Expand("what is @logo.png?", opts)
	const want = "@logo.png: a binary file (a NUL byte at offset 4): mm brings in text files only (a tool may read it)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	if got, _, err := Expand("read @pipe now", opts); err != nil || got != "read @pipe now" {
		t.Errorf("a named pipe: %q, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "pipe")); err != nil {
		t.Fatal(err)
	}
}
