package mmconfigs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: whatever agent.yaml holds, loading it gives a configuration
// or a config error, never a panic; the error is one line naming the file
// (its excerpt, for a syntax error, under it), and a configuration keeps
// mm's bounds.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("../../examples/*/*.yaml")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{"", "model: echo/x\n", "maxAskDepth: 99\n", "contextWindow: 1e18\n", "hooks:\n  preToolCall:\n    - command: a\n      matcher: '('\n",
		"mmConfigs:\n  e: a.yaml\n  e: b.yaml\n", "providers:\n  p:\n    baseURL: http://x\n    contextWindow: -1\n", "tools: [bash, nope]\n", "model: [[[\n"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Default(dir, func(string) string { return "" })
		c.Path, c.Abs = "agent.yaml", filepath.Join(dir, "agent.yaml")
		err := c.parse(data)
		if err != nil {
			e := NewError("agent.yaml", err, func(p string) string { return p })
			if msg := e.Error(); e.Msg == "" || strings.ContainsAny(msg, "\n\r") || !strings.HasPrefix(msg, "agent.yaml") {
				t.Fatalf("config error %q: not one line naming the file", msg)
			}
			if !strings.HasPrefix(e.Report(), "[config error: "+e.Error()+"]") {
				t.Fatalf("report %q", e.Report())
			}
			return
		}
		if c.MaxAskDepth < 0 || c.MaxAskDepth > MaxAskDepthCap {
			t.Fatalf("maxAskDepth %d accepted", c.MaxAskDepth)
		}
		if c.ContextWindow != 0 && c.ContextWindow < MinContextWindow {
			t.Fatalf("contextWindow %d accepted", c.ContextWindow)
		}
	})
}
