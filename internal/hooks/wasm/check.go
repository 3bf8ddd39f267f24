package wasm

import "context"

// Check reads and compiles the module at path as a run would, and says why
// it cannot be run (a *LoadError), or nil: for mm check, which reports a
// broken module before a session needs it.
func (r *Runtime) Check(ctx context.Context, path string) error {
	m, _, err := r.acquire(ctx, path)
	if err != nil {
		return err
	}
	r.release(m)
	return nil
}
