package cli

import (
	"github.com/mm-agent/mm/internal/a2aagent"
	"github.com/mm-agent/mm/internal/hooks"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/mmconfigs/schemacheck"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// The parts of mm whose libraries only some configurations use — the wasm
// runtime (wazero, wasm.go), the MCP client (the MCP SDK, tools/mcptools),
// the OTLP export (tracing.go), the JSON Schema compiler (jsonschema-go)
// and A2A both ways (the A2A SDK) — are each imported by one package of mm
// (internal/archtest) and started only when a configuration needs them.

// compileSchemas compiles cfg's JSON Schemas (structuredOutput's, wasm
// tools' inputSchema) once it loads: a schema that does not compile is a
// config error (*mmconfigs.Error), as one mmconfigs finds.
func compileSchemas(cfg *mmconfigs.Config) error {
	return cfg.CompileSchemas(schemacheck.Compile)
}

// connectA2A prepares an agent asked over A2A (a2aagent's client).
func connectA2A(o orchestrator.A2AOptions) (orchestrator.A2AAgent, error) {
	a, err := a2aagent.New(a2aagent.Options{Name: o.Name, URL: o.URL, Token: o.Token, TokenEnv: o.TokenEnv, ContextID: o.ContextID})
	if err != nil {
		return nil, err // not a nil *Agent in the interface
	}
	return a, nil
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
