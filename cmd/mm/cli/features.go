package cli

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"

	"github.com/mm-agent/mm/hooks"
	"github.com/mm-agent/mm/internal/tracing"
	"github.com/mm-agent/mm/mmconfigs"
	"github.com/mm-agent/mm/orchestrator"
	"github.com/mm-agent/mm/tools"
)

// Features are the parts of mm whose dependencies would cost every start of
// mm, used or not, their package initialisers and their size: the wasm
// runtime (wazero), the MCP client (the MCP SDK), the OTLP export (the
// OpenTelemetry SDK), the JSON Schema compiler (jsonschema-go) and A2A,
// both ways (the A2A SDK). The mm binary links none of them — its Features
// are the zero value — and hands a run that needs one over to mm-full,
// which links them all (handover.go).
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

// WasmRuntime runs wasm hooks and wasm tools: hooks/wasm's Runtime.
type WasmRuntime interface {
	hooks.WasmRunner
	tools.ModuleRunner
	// Preload starts compiling the modules in the background.
	Preload(paths ...string)
	// Check compiles the module at path, for mm check.
	Check(ctx context.Context, path string) error
	Close(ctx context.Context) error
}

// all reports whether every feature is linked: mm-full.
func (f Features) all() bool {
	return f.Wasm != nil && f.MCP != nil && f.Tracing != nil && f.Schemas != nil && f.A2A != nil && f.ServeA2A != nil
}

// lacks is what of cfg this binary cannot run, as the start of a message
// ("agent.yaml: mcpServers"); "" when it can run all of it.
func (f Features) lacks(cfg *mmconfigs.Config) string {
	what := ""
	var a2a []string
	if f.A2A == nil {
		a2a = a2aAgents(cfg)
	}
	switch {
	case f.Wasm == nil && len(wasmModules(cfg)) > 0:
		what = "wasm hooks and tools"
	case f.MCP == nil && len(cfg.MCPServers) > 0:
		what = "mcpServers"
	case f.Schemas == nil && cfg.StructuredOutput != nil:
		what = "structuredOutput"
	case f.Schemas == nil && len(cfg.WasmTools) > 0:
		what = "wasm tools"
	case len(a2a) > 0:
		what = "agents over A2A (" + strings.Join(a2a, ", ") + ")"
	default:
		return ""
	}
	if cfg.Path == "" {
		return what
	}
	return filepath.Base(cfg.Path) + ": " + what
}

// compileSchemas compiles cfg's JSON Schemas with the binary's compiler: a
// schema that does not compile is a config error (*mmconfigs.Error), as
// one mmconfigs finds. Without a compiler (mm) it does nothing: lacks then
// hands the configuration to mm-full.
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

// errLacks is the error of a session whose configuration needs what this
// binary lacks, when it could not be handed over (mm -acp's sessions).
func errLacks(what string) error {
	return fmt.Errorf("%s: this needs mm-full, mm with every feature: %s", what, installFull)
}
