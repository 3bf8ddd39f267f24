package main

import (
	"github.com/mm-agent/mm/hooks"
	"github.com/mm-agent/mm/hooks/wasm"
	"github.com/mm-agent/mm/mmconfigs"
)

// wasmRunner gives the sessions of a configuration with wasm hooks one
// runtime for the process; nil when it has none, so that nothing of wazero
// is set up for a configuration that does not need it. The modules start
// loading in the background at once, so that their first run overlaps the
// model's first answer.
func wasmRunner(cfg *mmconfigs.Config) hooks.WasmRunner {
	var modules []string
	for _, ev := range hooks.Events {
		for _, e := range cfg.Hooks.Entries(ev) {
			if e.Wasm != "" {
				modules = append(modules, e.Wasm)
			}
		}
	}
	if len(modules) == 0 {
		return nil
	}
	r := wasm.New(wasm.Options{})
	r.Preload(modules...)
	return r
}
