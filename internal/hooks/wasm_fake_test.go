package hooks

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeWasm stands for package internal/hooks/wasm: it replies what it is told and
// keeps what it was given.
type fakeWasm struct {
	out   []byte
	err   error
	block bool // wait for the context, then fail with its error as the runner does

	mu    sync.Mutex
	entry *Entry
	ev    Event
	cwd   string
	input string
}

func (f *fakeWasm) RunHook(ctx context.Context, e *Entry, ev Event, cwd string, input []byte) ([]byte, error) {
	f.mu.Lock()
	f.entry, f.ev, f.cwd, f.input = e, ev, cwd, string(input)
	f.mu.Unlock()
	if f.block {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return f.out, f.err
}

func wasmHook(timeout time.Duration) Entry {
	return Entry{Wasm: "/configs/hooks/audit.wasm", Write: []string{"logs"}, Timeout: timeout, OnError: OnErrorWarn, ConfigDir: "/configs"}
}

func TestWasmHooks(t *testing.T) {
	tests := []struct {
		name              string
		runner            *fakeWasm
		timeout           time.Duration
		decision, failure string
	}{
		{"reply", &fakeWasm{out: []byte(`{"context":"seen"}`)}, 0, "context (4 chars)", ""},
		{"empty stdout", &fakeWasm{}, 0, "continue", ""},
		{"exit code", &fakeWasm{err: errors.New("exit code 2: boom")}, 0, "failed", "exit code 2: boom"},
		{"cannot be loaded", &fakeWasm{err: errors.New("audit.wasm cannot be loaded: invalid magic number")}, 0, "failed", "audit.wasm cannot be loaded: invalid magic number"},
		{"missing folder", &fakeWasm{err: errors.New("the folder logs this module may see does not exist in /w")}, 0, "failed", "the folder logs this module may see does not exist in /w"},
		{"stdout too large, said", &fakeWasm{err: ErrStdoutTooLarge}, 0, "failed", "stdout larger than 1048576 bytes"},
		{"stdout too large, unsaid", &fakeWasm{out: []byte(strings.Repeat(" ", MaxStdout+1))}, 0, "failed", "stdout larger than 1048576 bytes"},
		{"stdout at the limit", &fakeWasm{out: []byte(strings.Repeat(" ", MaxStdout))}, 0, "continue", ""},
		{"invalid JSON", &fakeWasm{out: []byte(`{"context":`)}, 0, "failed", "invalid JSON on stdout: unexpected end of JSON input"},
		{"timed out", &fakeWasm{block: true}, 50 * time.Millisecond, "failed", "timed out after 50ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng, dir := testEngine(t, configOf(PostToolCall, wasmHook(tt.timeout)))
			eng.opts.Wasm = tt.runner
			var rec recorder
			eng.PostToolCall(context.Background(), ToolCall{ID: "c", Name: "write_file", Input: []byte(`{"path":"a&b"}`)}, "ok", rec.observe)
			run := rec.runs[0]
			if run.Decision != tt.decision || run.Failure != tt.failure {
				t.Errorf("decision %q failure %q, want %q %q", run.Decision, run.Failure, tt.decision, tt.failure)
			}
			if run.Label != "audit.wasm" {
				t.Errorf("label %q", run.Label)
			}
			f := tt.runner
			wantInput := `{"event":"postToolCall","cwd":"` + dir + `","model":"echo/test","tool":{"id":"c","name":"write_file","input":{"path":"a&b"}},"output":"ok"}` + "\n"
			if f.ev != PostToolCall || f.cwd != dir || f.input != wantInput || f.entry.Wasm != "/configs/hooks/audit.wasm" {
				t.Errorf("runner got %s %q %q %+v", f.ev, f.cwd, f.input, f.entry)
			}
		})
	}
}

func TestWasmCancelled(t *testing.T) {
	eng, _ := testEngine(t, configOf(PreToolCall, wasmHook(0)))
	f := &fakeWasm{block: true}
	eng.opts.Wasm = f
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var rec recorder
	res := eng.PreToolCall(ctx, ToolCall{Name: "bash"}, rec.observe)
	if got, want := rec.lines(), []string{
		"🪝 1. preToolCall [bash] · audit.wasm → failed",
		"🪝 preToolCall hook `audit.wasm`: cancelled",
	}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines %q, want %q", got, want)
	}
	if res.Deny {
		t.Errorf("denied after a warn failure: %+v", res)
	}
}

func TestWasmWithoutRunner(t *testing.T) {
	eng, _ := testEngine(t, configOf(PreAsk, with(wasmHook(0), func(e *Entry) { e.OnError = OnErrorFail })))
	var rec recorder
	res := eng.PreAsk(context.Background(), *sampleInput(PreAsk).Ask, rec.observe)
	want := "audit.wasm cannot be loaded: this mm runs no wasm hooks"
	if rec.runs[0].Failure != want || !res.Deny || res.Reason != "hook failed: "+want {
		t.Errorf("run %+v result %+v", rec.runs[0], res)
	}
}
