package hooks

import "testing"

func TestRunDisplay(t *testing.T) {
	tests := []struct {
		run                 Run
		line, title, report string
	}{
		{
			Run{Event: PreGeneration, Label: `node "$MM_CONFIG_DIR/hooks/guards.js"`, Decision: "context (178 chars)", OnError: OnErrorWarn},
			`🪝 1. preGeneration · node "$MM_CONFIG_DIR/hooks/guards.js" → context (178 chars)`,
			`🪝 preGeneration · node "$MM_CONFIG_DIR/hooks/guards.js" → context (178 chars)`,
			"",
		},
		{
			Run{Event: PreToolCall, Subject: "bash", Label: "./hooks/guard.sh", Decision: "deny", OnError: OnErrorFail},
			"🪝 1. preToolCall [bash] · ./hooks/guard.sh → deny",
			"🪝 preToolCall [bash] · ./hooks/guard.sh → deny",
			"",
		},
		{
			Run{Event: PostAsk, Subject: "expert", Label: "bash_guard.wasm", Decision: "failed", Failure: "exit code 2: no", OnError: OnErrorWarn},
			"🪝 1. postAsk [expert] · bash_guard.wasm → failed",
			"🪝 postAsk [expert] · bash_guard.wasm → failed",
			"🪝 postAsk hook `bash_guard.wasm`: exit code 2: no",
		},
		{
			Run{Event: PreAsk, Subject: "expert", Label: "./a.sh", Decision: "failed", Failure: "timed out after 5s", OnError: OnErrorFail},
			"🪝 1. preAsk [expert] · ./a.sh → failed",
			"🪝 preAsk [expert] · ./a.sh → failed",
			"🪝 preAsk hook `./a.sh`: timed out after 5s",
		},
		{
			Run{Event: PostToolCall, Subject: "read_file", Label: "./log.sh", Decision: "failed", Failure: "exit status 1", OnError: OnErrorIgnore},
			"🪝 1. postToolCall [read_file] · ./log.sh → failed",
			"🪝 postToolCall [read_file] · ./log.sh → failed",
			"",
		},
		{
			// No subject on an event without a matcher, whatever is given.
			Run{Event: PostGeneration, Subject: "bash", Label: "./log.sh", Decision: "continue"},
			"🪝 1. postGeneration · ./log.sh → continue",
			"🪝 postGeneration · ./log.sh → continue",
			"",
		},
	}
	for _, tt := range tests {
		if got := tt.run.Line(1); got != tt.line {
			t.Errorf("Line\n got %q\nwant %q", got, tt.line)
		}
		if got := tt.run.Title(); got != tt.title {
			t.Errorf("Title\n got %q\nwant %q", got, tt.title)
		}
		if got := tt.run.Report(); got != tt.report {
			t.Errorf("Report\n got %q\nwant %q", got, tt.report)
		}
	}
	if got, want := (Run{Event: PreToolCall, Subject: "bash", Label: "x", Decision: "allow"}).Line(12), "🪝 12. preToolCall [bash] · x → allow"; got != want {
		t.Errorf("Line(12) = %q, want %q", got, want)
	}
}

func TestDecisionText(t *testing.T) {
	s := func(v string) *string { return &v }
	tests := []struct {
		reply Reply
		want  string
	}{
		{Reply{Action: ActionContinue}, "continue"},
		{Reply{Action: ActionStop, Prompt: s("p"), Context: "c"}, "stop"},
		{Reply{Action: ActionDeny, Input: []byte(`{}`)}, "deny"},
		{Reply{Action: ActionAllow}, "allow"},
		{Reply{Action: ActionAllow, Input: []byte(`{}`)}, "allow + input replaced"},
		{Reply{Action: ActionContinue, Prompt: s(""), Transcript: s("t"), Context: "héllo wörld"}, "prompt replaced + transcript replaced + context (11 chars)"},
		{Reply{Action: ActionContinue, Answer: s("a"), Context: "🪝"}, "answer replaced + context (1 chars)"},
	}
	for _, tt := range tests {
		if got := decision(tt.reply); got != tt.want {
			t.Errorf("decision(%+v) = %q, want %q", tt.reply, got, tt.want)
		}
	}
}
