package agentproc

import (
	"context"
	"testing"
)

// BenchmarkHandOff measures what a hand-off costs around the asked agent's
// own work: start the child, the ACP handshake, one prompt, and Close.
func BenchmarkHandOff(b *testing.B) {
	ctx := context.Background()
	opts := Options{Name: "fake", Bin: fakeBin, Config: "agent.yaml", Cwd: b.TempDir()}
	for b.Loop() {
		a, err := Start(ctx, opts)
		if err != nil {
			b.Fatal(err)
		}
		if err := a.Prompt(ctx, "echo x", &recorder{}); err != nil {
			b.Fatal(err)
		}
		a.Close()
	}
}

// BenchmarkPrompt measures one prompt to a running child.
func BenchmarkPrompt(b *testing.B) {
	ctx := context.Background()
	a, err := Start(ctx, Options{Name: "fake", Bin: fakeBin, Config: "agent.yaml", Cwd: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	for b.Loop() {
		if err := a.Prompt(ctx, "echo x", &recorder{}); err != nil {
			b.Fatal(err)
		}
	}
}
