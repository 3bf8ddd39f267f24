package main

import (
	"github.com/mm-agent/mm/hooks"
	"github.com/mm-agent/mm/hooks/wasm"
	"github.com/mm-agent/mm/mmconfigs"
	"github.com/mm-agent/mm/orchestrator"
)

// wasmRuntime gives the sessions of a configuration with wasm hooks or wasm
// tools one runtime for the process, which both share: a module compiles
// once. It is nil when the configuration has neither, so that nothing of
// wazero is set up for a configuration that does not need it. The modules
// start loading in the background at once, so that their first run
// overlaps the model's first answer.
func wasmRuntime(cfg *mmconfigs.Config) *wasm.Runtime {
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
	if len(modules) == 0 {
		return nil
	}
	r := wasm.New(wasm.Options{})
	r.Preload(modules...)
	return r
}

// withWasm plugs rt into a session's options, for its hooks and its tools;
// a nil rt leaves them without (not a nil pointer in an interface).
func withWasm(o *orchestrator.Options, rt *wasm.Runtime) {
	if rt != nil {
		o.Wasm, o.WasmTools = rt, rt
	}
}
