package cli

import (
	"context"
	"net"

	"github.com/mm-agent/mm/internal/hooks"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/tools"
	"github.com/mm-agent/mm/internal/tracing"
)

// Features are the parts of mm whose libraries only some configurations
// use: the wasm runtime (wazero), the MCP client (the MCP SDK), the OTLP
// export (the OpenTelemetry SDK), the JSON Schema compiler (jsonschema-go)
// and A2A, both ways (the A2A SDK). cmd/mm plugs them all in; the command
// line imports none of those libraries, each is imported by one package of
// mm (internal/archtest), and none is started until a configuration needs
// it. A test running mm in-process may leave some out: what needs one then
// fails with a line that says this build lacks it.
type Features struct {
	// Wasm makes the runtime of a configuration's wasm hooks and tools.
	Wasm func() WasmRuntime
	// MCP starts the MCP servers of a session.
	MCP tools.MCPStarter
	// Tracing starts the export of the spans the OTEL_* variables ask for.
	Tracing func(tracing.Config) *tracing.Provider
	// Schemas compiles a configuration's JSON Schemas (structuredOutput's,
	// wasm tools' inputSchema) once it loads (compileSchemas).
	Schemas mmconfigs.Compiler
	// A2A prepares the agents asked over A2A (a2aagent).
	A2A orchestrator.A2AConnector
	// ServeA2A serves a configuration over A2A until ctx ends: mm serve
	// (frontend/a2a.Serve).
	ServeA2A func(ctx context.Context, ln net.Listener, o ServeOptions) error
}

// WasmRuntime runs wasm hooks and wasm tools: internal/hooks/wasm's Runtime.
type WasmRuntime interface {
	hooks.WasmRunner
	tools.ModuleRunner
	// Preload starts compiling the modules in the background.
	Preload(paths ...string)
	// Check compiles the module at path, for mm check.
	Check(ctx context.Context, path string) error
	Close(ctx context.Context) error
}

// compileSchemas compiles cfg's JSON Schemas with the binary's compiler: a
// schema that does not compile is a config error (*mmconfigs.Error), as
// one mmconfigs finds. Without a compiler (a test's build) it does
// nothing.
func (f Features) compileSchemas(cfg *mmconfigs.Config) error {
	if f.Schemas == nil {
		return nil
	}
	return cfg.CompileSchemas(f.Schemas)
}

// wasmModules are the modules of cfg's wasm hooks and wasm tools.
func wasmModules(cfg *mmconfigs.Config) []string {
	var modules []string
	for _, ev := range hooks.Events {
		for _, e := range cfg.Hooks.Entries(ev) {
			if e.Wasm != "" {
				modules = append(modules, e.Wasm)
			}
		}
	}
	for _, t := range cfg.WasmTools {
		modules = append(modules, t.Module)
	}
	return modules
}
