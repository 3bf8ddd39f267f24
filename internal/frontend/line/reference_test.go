package line

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/hooks"
	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/reference"
)

// TestReferenceDisplayExample: the line mode shows the reference's example
// of Display as it is written — the answer, the ⚙ line, and under it the
// hook's run as hooks.Run writes it.
func TestReferenceDisplayExample(t *testing.T) {
	units, err := reference.Read("../../..")
	if err != nil {
		t.Fatal(err)
	}
	var example []string
	for _, b := range reference.Blocks(units, "Display", "text") {
		if strings.HasPrefix(b[0], "🤖") {
			example = b
		}
	}
	if example == nil {
		t.Fatal("the reference's Display has no example that starts with 🤖")
	}
	run := hooks.Run{Event: hooks.PreGeneration, Label: `node "$MM_CONFIG_DIR/hooks/guards.js"`, Decision: "context (178 chars)"}
	var out bytes.Buffer
	r := &renderer{out: &out, side: &out, prefix: true, alwaysGear: true, displayHooks: true}
	for _, ev := range []orchestrator.Event{
		orchestrator.Text{Text: "The capital of France is Paris."},
		orchestrator.TurnEnded{Answer: "The capital of France is Paris.", Hooks: []string{run.Line(1)}},
	} {
		r.Emit(ev)
	}
	if want := strings.Join(example, "\n") + "\n"; out.String() != want {
		t.Errorf("the line mode shows\n%s\nthe reference\n%s", out.String(), want)
	}
}
