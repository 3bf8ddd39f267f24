package line

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// TestJSONTerminalSafe: stream-json escapes what a terminal would obey or a
// person misread, and decodes to the text the model sent.
func TestJSONTerminalSafe(t *testing.T) {
	const text = "\x1b[2Jred \u202eevil\x7f\u009b\u2028ok é"
	var out bytes.Buffer
	j := newJSONSink(&out, FormatStreamJSON, "print")
	j.Emit(orchestrator.Text{Agent: "expert/checker", Text: text})
	line := out.String()
	want := `{"type":"text","agent":"expert/checker","depth":2,"text":"\u001b[2Jred \u202eevil\u007f\u009b\u2028ok é"}` + "\n"
	if line != want {
		t.Errorf("line\n got %s\nwant %s", line, want)
	}
	var got struct{ Text string }
	if err := json.Unmarshal([]byte(line), &got); err != nil || got.Text != text {
		t.Errorf("decoded %q (%v), want %q", got.Text, err, text)
	}
}

// TestJSONToolCalls: a call's start and end make one record in the result;
// a call denied before it started has only its end.
func TestJSONToolCalls(t *testing.T) {
	var out bytes.Buffer
	j := newJSONSink(&out, FormatJSON, "print")
	j.Emit(orchestrator.ToolStarted{ID: "1", Name: "bash", Subject: "ls", Input: json.RawMessage(`{"command":"ls"}`)})
	j.Emit(orchestrator.ToolEnded{ID: "2", Name: "bash", Subject: "rm x", Status: orchestrator.ToolDenied, DeniedBy: "person", Output: "[refused]", Summary: "[refused]"})
	j.Emit(orchestrator.ToolEnded{ID: "1", Name: "bash", Subject: "ls", Status: orchestrator.ToolCompleted, Output: "a\n"})
	if out.Len() != 0 {
		t.Fatalf("json wrote before the end: %s", out.Bytes())
	}
	j.finish("done", nil, 0, RunInfo{})
	var res struct {
		ToolCalls []map[string]any `json:"tool_calls"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.ToolCalls {
		b, _ := json.Marshal(c)
		got = append(got, string(b))
	}
	want := []string{
		`{"agent":"","depth":0,"id":"1","input":{"command":"ls"},"name":"bash","output":"a\n","status":"completed","subject":"ls"}`,
		`{"agent":"","denied_by":"person","depth":0,"id":"2","name":"bash","output":"[refused]","status":"denied","subject":"rm x","summary":"[refused]"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tool_calls\n got %s\nwant %s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestJSONCompressed: a compression is a "compressed" event in stream-json
// and one of the result's compressions.
func TestJSONCompressed(t *testing.T) {
	var out bytes.Buffer
	j := newJSONSink(&out, FormatStreamJSON, "print")
	j.Emit(orchestrator.Compressed{Before: 14200, After: 2100, Trimmed: 2, Summarised: 8})
	j.finish("done", nil, 0, RunInfo{})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := `{"type":"compressed","before":14200,"after":2100,"trimmed":2,"summarised":8,"line":"⚙ context compressed: 14,200 → 2,100 tokens"}`
	if lines[0] != want {
		t.Errorf("event\n got %s\nwant %s", lines[0], want)
	}
	if !strings.Contains(lines[1], `"compressions":[{"before":14200,"after":2100,"trimmed":2,"summarised":8,"line":"⚙ context compressed: 14,200 → 2,100 tokens"}]`) {
		t.Errorf("result %s", lines[1])
	}
}
