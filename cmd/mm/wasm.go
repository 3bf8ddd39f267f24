package main

import (
	"github.com/mm-agent/mm/hooks"
	"github.com/mm-agent/mm/hooks/wasm"
	"github.com/mm-agent/mm/mmconfigs"
)

// wasmRunner gives the sessions of a configuration with wasm hooks one
// runtime for the process; nil when it has none, so that nothing of wazero
// is set up for a configuration that does not need it.
func wasmRunner(cfg *mmconfigs.Config) hooks.WasmRunner {
	for _, ev := range hooks.Events {
		for _, e := range cfg.Hooks.Entries(ev) {
			if e.Wasm != "" {
				return wasm.New(wasm.Options{})
			}
		}
	}
	return nil
}
