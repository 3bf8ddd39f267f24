// Command mm is an agent CLI for local models whose centre is the ask
// hand-off: one agent asks another named agent a question, through hook
// chains the user controls.
//
// It plugs into the command line (cmd/mm/cli) the parts whose libraries
// only some configurations use: wasm hooks and tools (wazero), MCP servers'
// tools (the MCP SDK), the OTLP export of traces (the OpenTelemetry SDK),
// JSON Schemas (jsonschema-go) and A2A both ways (the A2A SDK). Each is
// imported by one package only and started only when a configuration
// needs it (docs/explanation/architecture.md).
package main

import (
	"github.com/mm-agent/mm/cmd/mm/cli"
	"github.com/mm-agent/mm/internal/hooks/wasm"
	"github.com/mm-agent/mm/internal/mmconfigs/schemacheck"
	"github.com/mm-agent/mm/internal/tools/mcptools"
	"github.com/mm-agent/mm/internal/tracing/otlp"
)

func main() {
	cli.Main(cli.Features{
		Wasm:    func() cli.WasmRuntime { return wasm.New(wasm.Options{}) },
		MCP:     mcptools.Start,
		Tracing: otlp.New,
		Schemas: schemacheck.Compile,
		// A2A both ways: a2a.go.
		A2A:      connectA2A,
		ServeA2A: serveA2A,
	})
}
