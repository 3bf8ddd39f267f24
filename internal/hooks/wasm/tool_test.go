package wasm

import (
	"errors"
	"testing"
)

// TestRunTool: a wasm tool's run reads its input on stdin, sees MM_TOOL
// alone, and stops at the limit it gives, with a *StdoutError.
func TestRunTool(t *testing.T) {
	mod, cwd := guest(t), t.TempDir()
	out, err := sharedRT.RunTool(t.Context(), "probe_env", mod, cwd, nil, nil, []byte("env\n"), 30000)
	if want := `{"args":["guest.wasm"],"env":["MM_TOOL=probe_env"]}` + "\n"; err != nil || string(out) != want {
		t.Errorf("env: %q, %v; want %q", out, err, want)
	}
	_, err = sharedRT.RunTool(t.Context(), "t", mod, cwd, nil, nil, []byte("flood\n"), 30000)
	var over *StdoutError
	if !errors.As(err, &over) || over.StdoutLimit() != 30000 || err.Error() != "stdout larger than 30000 bytes" {
		t.Errorf("flood: %v, want a *StdoutError at 30000 bytes", err)
	}
}
