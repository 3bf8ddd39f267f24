package orchestrator

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/mmconfigs"
)

// BenchmarkSystemPrompt builds a session's system prompt with a 2 KB
// AGENTS.md and ten skills, and without them, and reports its size in
// bytes and in tokens estimated at four bytes a token (the usual ratio of
// English text; mm has no tokenizer of its own). It is the figure:
// the prompt grows by the AGENTS.md and one short line per skill.
func BenchmarkSystemPrompt(b *testing.B) {
	for _, with := range []bool{false, true} {
		name := "bare"
		if with {
			name = "agents-md-2KB+10-skills"
		}
		b.Run(name, func(b *testing.B) {
			root := b.TempDir()
			files := map[string]string{".git/HEAD": ""}
			if with {
				files["AGENTS.md"] = strings.Repeat("Run go test ./... before every commit; keep functions short.\n", 2048/61+1)[:2048]
				for i := range 10 {
					files[fmt.Sprintf(".mm/skills/skill-%d/SKILL.md", i)] = fmt.Sprintf(
						"---\nname: skill-%d\ndescription: Does task number %d of the project, when the person asks for it.\n---\nThe instructions.\n", i, i)
				}
			}
			writeTree(b, root, files)
			cfg := mmconfigs.Default(root, func(string) string { return "" })
			cfg.Model = "echo/test"
			var system string
			for b.Loop() {
				s, err := New(context.Background(), Options{Config: cfg, Cwd: filepath.Clean(root), Sink: &recSink{}})
				if err != nil {
					b.Fatal(err)
				}
				system = s.System()
				s.Close()
			}
			b.ReportMetric(float64(len(system)), "prompt-bytes")
			b.ReportMetric(float64(len(system))/4, "prompt-tokens~")
		})
	}
}
