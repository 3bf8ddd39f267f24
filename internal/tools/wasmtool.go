package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/mm-agent/mm/internal/jsonkind"
	"github.com/mm-agent/mm/internal/llm"
)

// DefaultWasmTimeout bounds a wasm tool's run when its entry gives no
// timeout: a minute, half of bash's default, since a module computes and
// waits on nothing but its own files.
const DefaultWasmTimeout = time.Minute

// WasmOutputCap is the most a wasm tool may write on stdout, in bytes:
// what the model reads of a command (outputCap). A module's output is its
// answer, written for the model, so a longer one is a failure to fix in
// the module rather than a text to cut.
const WasmOutputCap = outputCap

// WasmDef is a tool of a configuration's tools: list that mm runs in the
// wasm sandbox, as the configuration defines it.
type WasmDef struct {
	Name        string
	Description string
	// InputSchema is the JSON Schema of the tool's arguments, compact; the
	// model is offered it. Input is it compiled (the schema compiler
	// cmd/mm plugs in, after the configuration loads), to check a call's arguments
	// against before the module runs.
	InputSchema json.RawMessage
	Input       Validator
	// Module is the module file, absolute.
	Module string
	// Read and Write are the folders of the working directory the module
	// sees, cleaned, relative (as for a wasm hook).
	Read, Write []string
	Timeout     time.Duration
}

// Validator checks an instance against a compiled JSON Schema: the first
// reason it is not valid, or nil (mmconfigs.Validator).
type Validator interface {
	Validate(instance any) error
}

// errNotCompiled is a wasm tool's error when its input schema was never
// compiled: a build without a schema compiler (a test's).
var errNotCompiled = errors.New("the tool's inputSchema was not compiled: this build of mm has no JSON Schema compiler")

// ModuleRunner runs a wasm tool's module in the sandbox: input on stdin, at
// most maxStdout bytes of stdout returned. internal/hooks/wasm's Runtime is one; mm
// plugs it in. A failure's text says what happened ("exit code 2: …",
// "crashed: …", "x.wasm cannot be loaded: …"); a run that wrote too much
// fails with an error that has a StdoutLimit() int method; when ctx ends
// first, the error wraps ctx.Err().
type ModuleRunner interface {
	RunTool(ctx context.Context, name, module, cwd string, read, write []string, input []byte, maxStdout int) ([]byte, error)
}

// NewWasmTool returns the tool def defines, run by r; with r nil, every
// call fails, saying so.
func NewWasmTool(def WasmDef, r ModuleRunner) Tool { return &wasmTool{def: def, runner: r} }

type wasmTool struct {
	def    WasmDef
	runner ModuleRunner
}

func (t *wasmTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: t.def.Name, Description: t.def.Description, Parameters: t.def.InputSchema}
}

// Run checks the arguments against the input schema, runs the module on
// them and returns its stdout, which must be UTF-8 text of at most
// WasmOutputCap bytes.
func (t *wasmTool) Run(ctx context.Context, env Env, input json.RawMessage) Result {
	name := t.def.Name
	if t.def.Input == nil {
		return failure(name, "%v", errNotCompiled)
	}
	stdin, err := wasmInput(input, t.def.Input)
	if err != nil {
		return BadInput(name, err)
	}
	timeout := t.def.Timeout
	if timeout <= 0 {
		timeout = DefaultWasmTimeout
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if t.runner == nil {
		return failure(name, "this mm runs no wasm tools")
	}
	out, err := t.runner.RunTool(runCtx, name, t.def.Module, env.Cwd, t.def.Read, t.def.Write, stdin, WasmOutputCap)
	var over interface{ StdoutLimit() int }
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return failure(name, "cancelled")
	case errors.Is(err, context.DeadlineExceeded):
		return failure(name, "timed out after %v (timeout in the configuration)", timeout)
	case errors.As(err, &over):
		return failure(name, "output larger than the cap of %d bytes: the module must write less", over.StdoutLimit())
	default:
		return failure(name, "%v", err)
	}
	if !utf8.Valid(out) {
		return failure(name, "output is not valid UTF-8 (at byte %d): the module must write text", invalidAt(out))
	}
	return Result{Output: string(out)}
}

// wasmInput is the module's stdin: the arguments as one JSON object (one
// sent inside a JSON string unwrapped), checked against schema; without a
// schema to check against, an error (never an unchecked input).
func wasmInput(input json.RawMessage, schema Validator) ([]byte, error) {
	input = bytes.TrimSpace(input)
	if jsonkind.Of(input) != "object" {
		obj, err := InputObject(input)
		if err != nil {
			return nil, err
		}
		if input, err = json.Marshal(obj); err != nil {
			return nil, err
		}
	}
	if schema == nil {
		return nil, errNotCompiled
	}
	var v any
	if err := json.Unmarshal(input, &v); err != nil {
		return nil, fmt.Errorf("not valid JSON (%v)", err)
	}
	if err := schema.Validate(v); err != nil {
		return nil, err
	}
	return input, nil
}

// invalidAt is the offset of the first byte of b that is not UTF-8.
func invalidAt(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}
