package reference

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/hooks"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// TestReferenceSeeAlso: every page the reference's "See also" asks of the
// project's docs is there, under its title, and so are the demos.
func TestReferenceSeeAlso(t *testing.T) {
	units, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{ // the reference's item → the page whose title holds it
		"Guard the agent with hooks (how-to)":                       "docs/how-to/guard-the-agent-with-hooks.md",
		"Hooks — explanation":                                       "docs/explanation/hooks.md",
		"Control the hand-offs to other agents with hooks (how-to)": "docs/how-to/control-agent-calls-with-hooks.md",
	}
	titles := map[string]string{
		"docs/how-to/guard-the-agent-with-hooks.md":     "# Guard the agent with hooks",
		"docs/explanation/hooks.md":                     "# Hooks, explained",
		"docs/how-to/control-agent-calls-with-hooks.md": "# Control the hand-offs to other agents with hooks",
	}
	const demos = "The demos: `examples/hooks/` (four Node.js hooks), `examples/hooks-ask/` (`preAsk` and `postAsk` around an expert agent)"
	n := 0
	for _, u := range units {
		if !strings.HasPrefix(u.Section, "See also") {
			continue
		}
		n++
		if u.Text == demos {
			continue
		}
		page, ok := pages[u.Text]
		if !ok {
			t.Errorf("See also asks for %q, which this test does not know: add the page, and it here", u.Text)
			continue
		}
		if got := firstLine(t, filepath.Join(root, page)); got != titles[page] {
			t.Errorf("%s: title %q, want %q", page, got, titles[page])
		}
	}
	if n != len(pages)+1 {
		t.Errorf("See also has %d items, this test knows %d", n, len(pages)+1)
	}

	// examples/hooks: four Node.js hooks, each declared by its agent.yaml.
	js, err := filepath.Glob(filepath.Join(root, "examples/hooks/hooks/*.js"))
	if err != nil || len(js) != 4 {
		t.Errorf("examples/hooks/hooks holds %d Node.js hooks (%v), want 4", len(js), err)
	}
	cfg := loadExample(t, "examples/hooks/agent.yaml")
	declared := ""
	for _, ev := range hooks.Events {
		for _, e := range cfg.Hooks.Entries(ev) {
			declared += e.Command + "\n"
		}
	}
	for _, f := range js {
		if !strings.Contains(declared, "hooks/"+filepath.Base(f)) {
			t.Errorf("examples/hooks/agent.yaml declares no hook running %s", filepath.Base(f))
		}
	}
	// examples/hooks-ask: preAsk and postAsk around an expert agent.
	cfg = loadExample(t, "examples/hooks-ask/agent.yaml")
	if len(cfg.Hooks.Entries(hooks.PreAsk)) == 0 || len(cfg.Hooks.Entries(hooks.PostAsk)) == 0 {
		t.Errorf("examples/hooks-ask/agent.yaml: %q, want preAsk and postAsk hooks", cfg.Hooks.Summary())
	}
	if _, ok := cfg.Agents["expert"]; !ok {
		t.Errorf("examples/hooks-ask/agent.yaml asks no agent named expert")
	}
}

func firstLine(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	return sc.Text()
}

func loadExample(t *testing.T, file string) *mmconfigs.Config {
	t.Helper()
	dir := filepath.Join(root, filepath.Dir(file))
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := mmconfigs.Load(filepath.Base(file), abs, func(string) string { return "" })
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return c
}
