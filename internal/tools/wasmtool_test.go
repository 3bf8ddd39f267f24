package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// fakeModules is a ModuleRunner that records the run and answers as told.
type fakeModules struct {
	out []byte
	err error
	// wait makes the run wait for its context to end.
	wait bool

	name, module, cwd string
	read, write       []string
	input             []byte
	max               int
}

func (f *fakeModules) RunTool(ctx context.Context, name, module, cwd string, read, write []string, input []byte, maxStdout int) ([]byte, error) {
	f.name, f.module, f.cwd, f.read, f.write, f.input, f.max = name, module, cwd, read, write, input, maxStdout
	if f.wait {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return f.out, f.err
}

// limitError is what internal/hooks/wasm returns for a run that wrote too much.
type limitError struct{ limit int }

func (e limitError) Error() string    { return fmt.Sprintf("stdout larger than %d bytes", e.limit) }
func (e limitError) StdoutLimit() int { return e.limit }

func textSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`), &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func TestWasmToolRun(t *testing.T) {
	schema := textSchema(t)
	tests := []struct {
		name    string
		input   string
		runner  *fakeModules
		timeout time.Duration
		want    Result
		stdin   string // what the module reads, when it runs
	}{
		{"output", `{"text":"a b"}`, &fakeModules{out: []byte("2 words\n")}, 0,
			Result{Output: "2 words\n"}, `{"text":"a b"}`},
		{"object in a string", `"{\"text\":\"a\"}"`, &fakeModules{out: []byte("1\n")}, 0,
			Result{Output: "1\n"}, `{"text":"a"}`},
		{"against the schema", `{"txt":"a"}`, &fakeModules{}, 0,
			Result{Output: `wc: invalid input: validating root: required: missing properties: ["text"]`, IsError: true}, ""},
		{"not JSON", `{"text":`, &fakeModules{}, 0,
			Result{Output: "wc: invalid input: not valid JSON (unexpected end of JSON input)", IsError: true}, ""},
		{"not UTF-8", `{"text":"a"}`, &fakeModules{out: []byte("caf\xe9\n")}, 0,
			Result{Output: "wc: output is not valid UTF-8 (at byte 3): the module must write text", IsError: true}, `{"text":"a"}`},
		{"over the cap", `{"text":"a"}`, &fakeModules{err: limitError{WasmOutputCap}}, 0,
			Result{Output: "wc: output larger than the cap of 30000 bytes: the module must write less", IsError: true}, `{"text":"a"}`},
		{"exit code", `{"text":"a"}`, &fakeModules{err: errors.New("exit code 2: panic: boom")}, 0,
			Result{Output: "wc: exit code 2: panic: boom", IsError: true}, `{"text":"a"}`},
		{"trap", `{"text":"a"}`, &fakeModules{err: errors.New("crashed: wasm error: unreachable")}, 0,
			Result{Output: "wc: crashed: wasm error: unreachable", IsError: true}, `{"text":"a"}`},
		{"missing module", `{"text":"a"}`, &fakeModules{err: errors.New("wc.wasm cannot be loaded: open /x/wc.wasm: no such file or directory")}, 0,
			Result{Output: "wc: wc.wasm cannot be loaded: open /x/wc.wasm: no such file or directory", IsError: true}, `{"text":"a"}`},
		{"timeout", `{"text":"a"}`, &fakeModules{wait: true}, 10 * time.Millisecond,
			Result{Output: "wc: timed out after 10ms (timeout in the configuration)", IsError: true}, `{"text":"a"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def := WasmDef{Name: "wc", Description: "counts", Module: "/x/wc.wasm", Read: []string{"docs"}, Write: []string{"out"},
				Input: schema, InputSchema: json.RawMessage(`{}`), Timeout: tt.timeout}
			got := NewWasmTool(def, tt.runner).Run(t.Context(), Env{Cwd: "/work"}, json.RawMessage(tt.input))
			if got != tt.want {
				t.Errorf("Run = %+v\nwant  %+v", got, tt.want)
			}
			if string(tt.runner.input) != tt.stdin {
				t.Errorf("stdin %q, want %q", tt.runner.input, tt.stdin)
			}
			if tt.stdin == "" {
				return
			}
			r := tt.runner
			if r.name != "wc" || r.module != "/x/wc.wasm" || r.cwd != "/work" || strings.Join(r.read, ",") != "docs" ||
				strings.Join(r.write, ",") != "out" || r.max != WasmOutputCap {
				t.Errorf("run of %q %q in %q, read %q, write %q, max %d", r.name, r.module, r.cwd, r.read, r.write, r.max)
			}
		})
	}
}

func TestWasmToolCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	got := NewWasmTool(WasmDef{Name: "wc", Input: anySchema{}}, &fakeModules{err: context.Canceled}).Run(ctx, Env{}, json.RawMessage(`{}`))
	if want := (Result{Output: "wc: cancelled", IsError: true}); got != want {
		t.Errorf("Run = %+v, want %+v", got, want)
	}
}

func TestWasmToolWithoutRunner(t *testing.T) {
	got := NewWasmTool(WasmDef{Name: "wc", Input: anySchema{}}, nil).Run(t.Context(), Env{}, json.RawMessage(`{}`))
	if want := (Result{Output: "wc: this mm runs no wasm tools", IsError: true}); got != want {
		t.Errorf("Run = %+v, want %+v", got, want)
	}
}

// TestWasmToolNotCompiled: a tool whose input schema no compiler compiled
// (a build without a compiler: a test's) fails every call, saying so,
// and runs nothing.
func TestWasmToolNotCompiled(t *testing.T) {
	r := &fakeModules{out: []byte("ran")}
	got := NewWasmTool(WasmDef{Name: "wc", InputSchema: json.RawMessage(`{"type":"object"}`)}, r).Run(t.Context(), Env{}, json.RawMessage(`{}`))
	want := Result{Output: "wc: the tool's inputSchema was not compiled: this build of mm has no JSON Schema compiler", IsError: true}
	if got != want {
		t.Errorf("Run = %+v, want %+v", got, want)
	}
	if r.name != "" {
		t.Errorf("the module ran (%q) on an unchecked input", r.name)
	}
}

// anySchema is the compiled schema true: every instance is valid.
type anySchema struct{}

func (anySchema) Validate(any) error { return nil }

func TestWasmToolSpec(t *testing.T) {
	spec := NewWasmTool(WasmDef{Name: "wc", Description: "counts", InputSchema: json.RawMessage(`{"type":"object"}`)}, nil).Spec()
	if spec.Name != "wc" || spec.Description != "counts" || string(spec.Parameters) != `{"type":"object"}` {
		t.Errorf("Spec = %+v", spec)
	}
}
