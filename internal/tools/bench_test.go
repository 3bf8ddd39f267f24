//go:build unix

package tools

import (
	"context"
	"encoding/json"
	"github.com/mm-agent/mm/internal/sandbox"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func BenchmarkBashTrue(b *testing.B) {
	env := Env{Cwd: b.TempDir(), Environ: os.Environ()}
	input := json.RawMessage(`{"command": "true"}`)
	for b.Loop() {
		bashTool{}.Run(context.Background(), env, input)
	}
}

func BenchmarkReadFile2000Lines(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(strings.Repeat("some line of text\n", 2500)), 0o644); err != nil {
		b.Fatal(err)
	}
	env := Env{Cwd: dir}
	input := json.RawMessage(`{"path": "f.txt"}`)
	for b.Loop() {
		readFileTool{}.Run(context.Background(), env, input)
	}
}

func BenchmarkEditFile(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 100000)+"needle"), 0o644); err != nil {
		b.Fatal(err)
	}
	env := Env{Cwd: dir}
	in := [2]json.RawMessage{
		json.RawMessage(`{"path": "f.txt", "old_string": "needle", "new_string": "pin"}`),
		json.RawMessage(`{"path": "f.txt", "old_string": "pin", "new_string": "needle"}`),
	}
	i := 0
	for b.Loop() {
		editFileTool{}.Run(context.Background(), env, in[i%2])
		i++
	}
}

// BenchmarkBashSandbox is a bash call confined by each sandbox against one
// that is not: what the confined thread and the Landlock ruleset add to a
// call (docs/explanation/performance.md, "The sandbox").
func BenchmarkBashSandbox(b *testing.B) {
	for _, bc := range []struct {
		name string
		spec sandbox.Spec
	}{
		{"off", sandbox.Spec{Mode: sandbox.Off, Network: true}},
		{"workspace", sandbox.Spec{Mode: sandbox.Workspace, Network: true}},
		{"workspace-network-off", sandbox.Spec{Mode: sandbox.Workspace, Network: false}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			bc.spec.Cwd = b.TempDir()
			box, err := sandbox.Open(bc.spec)
			if err != nil {
				b.Fatal(err)
			}
			defer box.Close()
			env := Env{Cwd: bc.spec.Cwd, Environ: os.Environ(), Sandbox: box}
			input := json.RawMessage(`{"command": "true"}`)
			for b.Loop() {
				if res := (bashTool{}).Run(context.Background(), env, input); res.IsError {
					b.Fatal(res.Output)
				}
			}
		})
	}
}
