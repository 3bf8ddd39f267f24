package archtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// retiredWord is a name a reversed decision left behind: a comment, a page
// or a script that still says it justifies something by what no longer
// holds.
type retiredWord struct {
	word string // matched whatever its letter case
	why  string // what holds instead, for the failure
}

// retired are the names no tracked file may hold. Each word is built from
// two halves, so that this file does not hold it.
var retired = []retiredWord{
	{
		word: "mm" + "-full",
		why:  "the second program of the two-program split, undone: mm is one program, cmd/mm (docs/explanation/decisions/program.md)",
	},
}

// retiredIn returns a line for each line of text, the file name, that
// holds one of words: "<name>:<line>: <word>: <why>".
func retiredIn(name string, text []byte, words []retiredWord) []string {
	var found []string
	for i, line := range bytes.Split(text, []byte("\n")) {
		lower := bytes.ToLower(line)
		for _, w := range words {
			if bytes.Contains(lower, []byte(strings.ToLower(w.word))) {
				found = append(found, fmt.Sprintf("%s:%d: %s: %s", name, i+1, w.word, w.why))
			}
		}
	}
	return found
}

func TestRetiredIn(t *testing.T) {
	words := []retiredWord{{word: "Old-Name", why: "gone"}}
	tests := []struct {
		name, text string
		want       []string
	}{
		{"absent", "nothing here\n", nil},
		{"any case, each line", "a\nsee OLD-name\nold-name again\n", []string{"f.go:2: Old-Name: gone", "f.go:3: Old-Name: gone"}},
		{"part of a longer word", "cmd/old-names/\n", []string{"f.go:1: Old-Name: gone"}},
		{"split over two lines", "old-\nname\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := retiredIn("f.go", []byte(tt.text), words); !slices.Equal(got, tt.want) {
				t.Errorf("retiredIn:\ngot  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// repoRoot is the repository's root, from this package's folder.
var repoRoot = filepath.Join("..", "..")

// trackedFiles returns the regular files git tracks in the repository, by
// their slash-separated names, or skips t outside a git checkout. A file
// removed from the work tree, a link and a submodule are left out.
func trackedFiles(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", repoRoot, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("git ls-files: %v: the tracked files are known only in a git checkout", err)
	}
	var names []string
	for _, name := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		fi, err := os.Lstat(filepath.Join(repoRoot, filepath.FromSlash(name)))
		if err == nil && fi.Mode().IsRegular() {
			names = append(names, name)
		}
	}
	return names
}

// TestNoRetiredNames reads every file git tracks in the repository and
// fails on each line that holds a retired name.
func TestNoRetiredNames(t *testing.T) {
	for _, name := range trackedFiles(t) {
		text, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, line := range retiredIn(name, text, retired) {
			t.Error(line)
		}
	}
}
