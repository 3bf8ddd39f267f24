package strictyaml

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"gopkg.in/yaml.v3"
)

// FuzzParse: whatever a file holds, Parse returns a node or an error,
// never both, never a panic. An error is one line, at a line of the file
// (or none), its excerpt made of lines indented by two spaces; a node has
// no alias and no key given twice in a map.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/syntax/*.txtar")
	for _, file := range files {
		if ar, err := txtar.ParseFile(file); err == nil {
			for _, fl := range ar.Files {
				if fl.Name == "f.yaml" {
					f.Add(fl.Data)
				}
			}
		}
	}
	for _, s := range []string{"", "a: 1\n", "a: &x 1\nb: *x\n", "a: 1\na: 2\n", "a: [\n", "a: 1\n---\nb: 2\n",
		"hooks:\n  preToolCall:\n    - command: a\n\t  matcher: b\n", "k: \"\\u0007\"\n", "a: {b: [c, {d: e}]}\n", "- - - x\n", "? a\n: b\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Parse(data)
		if err == nil {
			if n != nil {
				checkAccepted(t, n)
			}
			return
		}
		if n != nil {
			t.Fatalf("a node with the error %v", err)
		}
		msg := err.Error()
		if msg == "" || strings.ContainsAny(msg, "\n\r") {
			t.Fatalf("error %q: not one line", msg)
		}
		line, col := Position(err)
		// YAML ends a line at "\r\n", "\r" or "\n".
		lines := len(strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(data)), "\n"))
		if line < 0 || line > lines+1 || col < 0 {
			t.Fatalf("error %q at %d:%d, in a file of %d lines", msg, line, col, lines)
		}
		if line == 0 && col != 0 {
			t.Fatalf("error %q: a column without a line", msg)
		}
		for _, l := range strings.Split(Excerpt(err), "\n") {
			if l != "" && !strings.HasPrefix(l, "  ") {
				t.Fatalf("excerpt line %q is not indented", l)
			}
		}
	})
}

// checkAccepted walks an accepted node: no alias, each key of a map once.
func checkAccepted(t *testing.T, n *yaml.Node) {
	if n.Kind == yaml.AliasNode {
		t.Fatalf("alias *%s accepted", n.Value)
	}
	seen := map[string]bool{}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && c.Kind == yaml.ScalarNode {
			if seen[c.Value] {
				t.Fatalf("key %q twice accepted", c.Value)
			}
			seen[c.Value] = true
		}
		checkAccepted(t, c)
	}
}
