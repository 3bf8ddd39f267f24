package hooks

import (
	"context"
	"testing"

	"github.com/mm-agent/mm/internal/handoff"
)

func TestSimulate(t *testing.T) {
	eng, dir := testEngine(t, configOf(PreToolCall, matching("^write_file$", stdinOf("in", `{"action":"deny","reason":"read only"}`))))
	eng.opts.AskedDepth = 1
	var rec recorder
	// The tool in the input is bash; the subject given picks the matcher.
	in := Input{Event: PostGeneration, Tool: &ToolCall{Name: "bash", Input: []byte(`{"command":"ls"}`)}}
	res, err := eng.Simulate(context.Background(), PreToolCall, in, "write_file", rec.observe)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := plainJSON(t, res), `{"input":{"command":"ls"},"deny":true,"reason":"read only"}`; got != want {
		t.Errorf("result %s, want %s", got, want)
	}
	if got, want := readFile(t, dir, "in"), `{"event":"preToolCall","cwd":"`+dir+`","model":"echo/test","tool":{"id":"","name":"bash","input":{"command":"ls"}},"asked":{"depth":1}}`; got != want {
		t.Errorf("read %s, want %s", got, want)
	}
	if got, want := rec.lines()[0], `🪝 1. preToolCall [write_file] · cat > "$T/in"; printf '%s' '{"action":"deny","reason":"read only"}' → deny`; got != want {
		t.Errorf("line %q, want %q", got, want)
	}

	// Without a subject, the tool's name: no match, no run.
	rec = recorder{}
	in = Input{Cwd: "/elsewhere", Model: "m/x", Asked: &Asked{Depth: 3}, Tool: &ToolCall{Name: "bash"}}
	if res, err = eng.Simulate(context.Background(), PreToolCall, in, "", rec.observe); err != nil || len(rec.runs) != 0 {
		t.Errorf("%v, %d runs", err, len(rec.runs))
	}
	if got, want := plainJSON(t, res), `{"input":null}`; got != want {
		t.Errorf("result %s, want %s", got, want)
	}
}

func TestSimulateShapes(t *testing.T) {
	eng, _ := testEngine(t, nil)
	tests := []struct {
		ev   Event
		in   Input
		want string
	}{
		{PreGeneration, Input{Prompt: "q"}, `{"prompt":"q"}`},
		{PostToolCall, Input{Tool: &ToolCall{Name: "x"}}, `{}`},
		{PostGeneration, Input{}, `{}`},
		{PreAsk, Input{Ask: &handoff.Ask{Agent: "a", Via: "cli", Prompt: "p"}}, `{"ask":{"agent":"a","config":"","via":"cli","withContext":false,"depth":0,"prompt":"p"}}`},
		{PostAsk, Input{Ask: &handoff.Ask{Agent: "a"}, Answer: "x"}, `{"answer":"x"}`},
	}
	for _, tt := range tests {
		res, err := eng.Simulate(context.Background(), tt.ev, tt.in, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := plainJSON(t, res); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.ev, got, tt.want)
		}
	}
}

func TestSimulateErrors(t *testing.T) {
	eng, _ := testEngine(t, nil)
	tests := []struct {
		ev   Event
		in   Input
		want string
	}{
		{"pretoolcall", Input{}, `unknown event "pretoolcall" (want one of preGeneration, preToolCall, postToolCall, postGeneration, preAsk, postAsk) (did you mean "preToolCall"?)`},
		{PreToolCall, Input{}, `the preToolCall input needs a "tool" object: {"tool":{"id":"","name":"<tool>","input":{…}}}`},
		{PostToolCall, Input{Prompt: "x"}, `the postToolCall input needs a "tool" object: {"tool":{"id":"","name":"<tool>","input":{…}}}`},
		{PreAsk, Input{}, `the preAsk input needs an "ask" object: {"ask":{"agent":"<name>","prompt":"…"}}`},
		{PostAsk, Input{Tool: &ToolCall{}}, `the postAsk input needs an "ask" object: {"ask":{"agent":"<name>","prompt":"…"}}`},
	}
	for _, tt := range tests {
		_, err := eng.Simulate(context.Background(), tt.ev, tt.in, "", nil)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %q", tt.ev, err, tt.want)
		}
	}
}
