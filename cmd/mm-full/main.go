// Command mm-full is mm with every feature linked in: wasm hooks and wasm
// tools (wazero), MCP servers' tools (the MCP SDK), the OTLP export of
// traces (the OpenTelemetry SDK), JSON Schemas (jsonschema-go:
// structuredOutput, wasm tools' inputSchema), and A2A — agents asked over
// it and mm serve (the A2A SDK). mm hands a run that needs one of them over
// to mm-full; run directly, it is mm.
package main

import (
	"github.com/mm-agent/mm/cmd/mm/cli"
	"github.com/mm-agent/mm/hooks/wasm"
	"github.com/mm-agent/mm/internal/tracing/otlp"
	"github.com/mm-agent/mm/mmconfigs/schemacheck"
	"github.com/mm-agent/mm/tools/mcptools"
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
