package orchestrator

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llamatest"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/tools"
)

// TestServersCountWins is issue 42's case: a model whose chat template
// writes the tools far shorter than mm's estimate of their JSON, in a
// window of 1,024. mm's estimate of the system prompt and the tools alone
// passes the window; the server reads every question whole. The server's
// count wins: the first question is counted by the server before mm
// judges it, the next ones start from the server's counts, and none is
// refused. A question the server would not read whole is refused before
// it is sent.
func TestServersCountWins(t *testing.T) {
	srv := llamatest.Start(llamatest.Options{NCtx: 1024, ToolNames: true, Reply: echoReply})
	defer srv.Close()
	cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	cfg.System = "You are a test."
	// Tools with long descriptions, as MCP servers' often are: with the
	// built-in ones, some 1,500 tokens of JSON, which the template
	// writes as their names.
	for _, name := range []string{"search_issues", "read_issue", "list_commits"} {
		cfg.WasmTools = append(cfg.WasmTools, tools.WasmDef{Name: name, Module: "/nowhere/" + name + ".wasm",
			Description: strings.Repeat("A long description of what "+name+" does, its arguments and its output. ", 20),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"what to look for"}}}`)})
	}
	s := serverSession(t, cfg, srv, &recSink{}, nil)
	specs := s.toolSpecs()
	if est := estimateBase(s.system, specs); est <= 1024 {
		t.Fatalf("mm's estimate of the system prompt and the tools is %d tokens: want more than the window, 1,024, for the case", est)
	}
	for i, q := range []string{"hello", "what is in this folder?", strings.Repeat("a longer question. ", 20), "and then?", strings.Repeat("more words. ", 40)} {
		if err := s.Prompt(context.Background(), q); err != nil {
			t.Fatalf("question %d: %v (the server reads it whole)", i+1, err)
		}
	}
	for i, st := range srv.Stats() {
		if st.Refused || st.Tokens >= 1024 {
			t.Errorf("request %d: %+v: over the window", i+1, st)
		}
	}
	sent := len(srv.Bodies())

	err := s.Prompt(context.Background(), strings.Repeat("far too long. ", 250))
	if err == nil || !strings.Contains(err.Error(), "more than the model's context window of 1,024") {
		t.Errorf("a question of 3,500 bytes (1,167 of the server's tokens): %v, want it refused", err)
	}
	for i, st := range srv.Stats()[sent:] {
		if !st.Refused {
			t.Errorf("request %d for a question the server would not read whole: %+v, answered", sent+i+1, st)
		}
	}
}
