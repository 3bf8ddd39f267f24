package wasm

import "context"

// RunTool runs a wasm tool's module for mm's tools package (tools.ModuleRunner):
// the tool's JSON arguments on stdin, MM_TOOL=<name> as the whole
// environment, its read and write folders mounted from cwd, its stdout
// bounded by maxStdout (a *StdoutError past it). It shares the Runtime's
// compiled modules with the wasm hooks: one compilation per module and
// process.
func (r *Runtime) RunTool(ctx context.Context, name, module, cwd string, read, write []string, input []byte, maxStdout int) ([]byte, error) {
	return r.Run(ctx, Spec{
		Module:    module,
		Env:       map[string]string{"MM_TOOL": name},
		Stdin:     input,
		Cwd:       cwd,
		Read:      read,
		Write:     write,
		MaxStdout: maxStdout,
	})
}
