// Package tools holds the tools a model may call: the built-in ones (bash,
// read_file, write_file, edit_file), and what names the tools of MCP
// servers — MCPServer, MCPTools, MCPStarter — without their client, which
// is in internal/tools/mcptools so that one package of mm imports the MCP SDK
// (internal/archtest).
//
// A tool knows nothing of the loop that calls it: it gets its input and an
// Env, and returns a Result. Bad input is a Result the model can read and
// correct, never a Go error or a panic.
package tools

import (
	"context"
	"encoding/json"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/sandbox"
)

// Env is what a tool may know of the session that calls it.
type Env struct {
	// Cwd is the session's working directory, absolute.
	Cwd string
	// Environ is the environment of any process the tool starts
	// (mm's own plus MM_BIN and MM_CONFIG).
	Environ []string
	// Sandbox bounds where bash's commands and the file tools write, and
	// whether the commands use TCP; nil bounds nothing.
	Sandbox *sandbox.Policy
}

// Result is a tool's output as the model reads it.
type Result struct {
	Output string
	// IsError says the tool failed; Output says why, for the model.
	IsError bool
}

// Tool is one tool a model may call.
type Tool interface {
	Spec() llm.ToolSpec
	Run(ctx context.Context, env Env, input json.RawMessage) Result
}
