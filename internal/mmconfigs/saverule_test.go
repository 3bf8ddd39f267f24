package mmconfigs

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var updateAllow = flag.Bool("update-allow", false, "rewrite the after sections of testdata/allow/*.txtar")

// TestAppendAllowRules: a saved "always" answer adds its rules to
// permissions.allow as new lines, the rest of the file as it was written
// — comments, blank lines, indentation, quotes — byte for byte
// (testdata/allow: each file's "before", the "rules" added one a line,
// and the "after" the file must become).
func TestAppendAllowRules(t *testing.T) {
	files, _ := filepath.Glob("testdata/allow/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata/allow/*.txtar")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string][]byte{}
			for _, f := range ar.Files {
				sections[f.Name] = f.Data
			}
			dir := t.TempDir()
			p := filepath.Join(dir, "agent.yaml")
			if err := os.WriteFile(p, sections["before"], 0o600); err != nil {
				t.Fatal(err)
			}
			rules := strings.Split(strings.TrimSuffix(string(sections["rules"]), "\n"), "\n")
			if err := AppendAllowRules(p, rules); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(p)
			if *updateAllow {
				for i := range ar.Files {
					if ar.Files[i].Name == "after" {
						ar.Files[i].Data = got
					}
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if string(got) != string(sections["after"]) {
				t.Errorf("the file became\n%s\nwant\n%s", got, sections["after"])
			}
			if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want 0600 as it was", st.Mode().Perm())
			}
			// What was saved loads, with the rules in allow.
			c, err := Load(p, dir, noenv)
			if err != nil {
				t.Fatal(err)
			}
			n := len(c.Permissions.Allow)
			if n < len(rules) {
				t.Fatalf("allow has %d rules, want at least %d", n, len(rules))
			}
			for i, r := range c.Permissions.Allow[n-len(rules):] {
				if r.String() != rules[i] {
					t.Errorf("allow[%d] = %q, want %q", n-len(rules)+i, r.String(), rules[i])
				}
			}
		})
	}
}

// TestAppendAllowEdges: a file without a line break at its end, and files
// a rule cannot be added to.
func TestAppendAllowEdges(t *testing.T) {
	for _, tt := range []struct{ name, before, want, err string }{
		{name: "no line break at the end", before: "model: echo/x",
			want: "model: echo/x\npermissions:\n  allow:\n    - bash: go test *\n"},
		{name: "an allow list without a line break at the end", before: "permissions:\n  allow:\n    - read_file",
			want: "permissions:\n  allow:\n    - read_file\n    - bash: go test *\n"},
		{name: "a list, not a map", before: "- a\n", err: "its top is no map of keys (model:, hooks:, …)"},
		{name: "not YAML", before: "model: [\n", err: "cannot read it as YAML: yaml: line 1: did not find expected node content"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := appendAllow([]byte(tt.before), []string{"bash: go test *"})
			switch {
			case tt.err != "" && (err == nil || err.Error() != tt.err):
				t.Errorf("error %v, want %s", err, tt.err)
			case tt.err == "" && err != nil:
				t.Error(err)
			case string(got) != tt.want:
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
