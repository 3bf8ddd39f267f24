package mmconfigs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/reference"
)

// TestReferenceBanner: the banner ends as the reference's example shows, one
// entry per event in the reference's order, whatever the file's order.
func TestReferenceBanner(t *testing.T) {
	units, err := reference.Read("../..")
	if err != nil {
		t.Fatal(err)
	}
	blocks := reference.Blocks(units, "Start-up banner", "text")
	if len(blocks) != 1 || len(blocks[0]) != 1 {
		t.Fatalf("the banner's examples: %q, want one line", blocks)
	}
	example := blocks[0][0]
	dir := t.TempDir()
	writeConfig(t, dir, "agent.yaml", `
model: echo/x
yolo: true
hooks:
  postGeneration: [{command: e}]
  postToolCall: [{command: d}]
  preToolCall: [{command: c}]
  preGeneration: [{command: a}, {command: b}]
`)
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := Load("../agent.yaml", sub, noenv)
	if err != nil {
		t.Fatal(err)
	}
	// The example's … stands for the parts this test does not give.
	parts := strings.Split(example, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	want := regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
	if got := c.Banner("v0.4.0", sub, Running{Model: c.Model, Yolo: c.Yolo}); !want.MatchString(got) {
		t.Errorf("banner\n %s\ndoes not read as the reference's\n %s", got, example)
	}
}
