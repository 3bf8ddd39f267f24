package hooks

import "testing"

// TestWarmJSON: the samples the warm-up encodes and decodes are still an
// input and a reply mm reads; one that failed would warm nothing.
func TestWarmJSON(t *testing.T) {
	if err := warmJSON(); err != nil {
		t.Fatal(err)
	}
}

// TestHasCommand: only a command entry makes Prepare start anything; a
// configuration of wasm hooks needs no watchdog.
func TestHasCommand(t *testing.T) {
	wasm, command := Entry{Wasm: "x.wasm"}, Entry{Command: "cat"}
	both := configOf(PreGeneration, wasm)
	both.byEvent[PostAsk.index()] = []Entry{command}
	tests := []struct {
		name string
		cfg  *Config
		want bool
	}{
		{"none", &Config{}, false},
		{"a command", configOf(PostGeneration, command), true},
		{"wasm only", configOf(PreGeneration, wasm), false},
		{"wasm, then a command", both, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.cfg.hasCommand(); got != tt.want {
				t.Errorf("hasCommand = %v, want %v", got, tt.want)
			}
		})
	}
	var none *Config
	if none.hasCommand() {
		t.Error("a nil configuration has a command")
	}
}
