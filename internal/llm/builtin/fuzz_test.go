package builtin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
)

// addFiles adds each file of the glob as a seed, followed by more (the
// other arguments of the fuzz target).
func addFiles(f *testing.F, glob string, more ...any) {
	files, _ := filepath.Glob(glob)
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(append([]any{b}, more...)...)
		}
	}
}

// FuzzScript: whatever a script file holds, it loads or its error is one
// line at a line of the file, never a panic; a script that loads answers
// a question (its delays left out) with a reply whose calls' arguments
// are JSON, or an error.
func FuzzScript(f *testing.F) {
	addFiles(f, "testdata/script/*.yaml", "list the files")
	addFiles(f, "testdata/script/bad/*.yaml", "hi")
	addFiles(f, "../../../examples/*/script.yaml", "what is an inode?")
	f.Fuzz(func(t *testing.T, data []byte, question string) {
		rules, err := parseScript(data)
		if err != nil {
			if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q: not one line", msg)
			}
			return
		}
		for i := range rules {
			rules[i].delay = 0
		}
		s := &scriptModel{path: "f.yaml", rules: rules, spent: make([]bool, len(rules))}
		req := llm.Request{Messages: []llm.Message{{Role: llm.RoleSystem, Content: "sys"}, {Role: llm.RoleUser, Content: question}}}
		r, err := s.Stream(context.Background(), req, nil)
		if err != nil {
			return
		}
		for _, c := range r.ToolCalls {
			if !json.Valid([]byte(c.Arguments)) && !rawArgs(rules, c.Name) {
				t.Fatalf("call %s: arguments %q are not JSON", c.Name, c.Arguments)
			}
		}
	})
}

// rawArgs says a rule calls name with rawArgs, which may be any text.
func rawArgs(rules []scriptRule, name string) bool {
	for _, r := range rules {
		for _, c := range r.calls {
			if c.name == name && c.hasRaw {
				return true
			}
		}
	}
	return false
}
