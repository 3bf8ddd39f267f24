package wasm

import (
	"context"

	"github.com/mm-agent/mm/internal/hooks"
)

var _ hooks.WasmRunner = (*Runtime)(nil)

// RunHook runs a wasm hook entry for hooks.Engine: input on stdin,
// MM_HOOK_EVENT as the whole environment, the entry's read and write
// folders mounted from cwd.
func (r *Runtime) RunHook(ctx context.Context, e *hooks.Entry, ev hooks.Event, cwd string, input []byte) ([]byte, error) {
	return r.Run(ctx, Spec{
		Module: e.Wasm,
		Env:    map[string]string{"MM_HOOK_EVENT": string(ev)},
		Stdin:  input,
		Cwd:    cwd,
		Read:   e.Read,
		Write:  e.Write,
	})
}
