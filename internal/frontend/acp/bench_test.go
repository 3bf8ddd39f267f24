package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/acpconn"
	"github.com/mm-agent/mm/internal/llm"
)

// BenchmarkLoadSession loads a saved session of 10,000 messages (2,000
// turns, each a question, an answer with a tool call, its result and a
// last answer): the replay of every message, then the response.
func BenchmarkLoadSession(b *testing.B) {
	st := newMemStore()
	var history []llm.Message
	for i := range 2000 {
		id := fmt.Sprintf("call_%d", i)
		history = append(history,
			llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("question %d: what is in the folder?", i)},
			llm.Message{Role: llm.RoleAssistant, Content: "Let me look.", ToolCalls: []llm.ToolCall{{ID: id, Name: "bash", Arguments: `{"command":"ls -la"}`}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, Name: "bash", Content: "a.go\nb.go\nc.go\n"},
			llm.Message{Role: llm.RoleAssistant, Content: "Three Go files: a.go, b.go and c.go."},
			llm.Message{Role: llm.RoleUser, Content: askEntry(i)},
		)
	}
	st.saved["big"] = &memSaved{st: st, id: "big", cwd: "/work", history: history, asked: map[string]string{}}

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		Serve(context.Background(), inR, outW, io.Discard, Options{NewSession: (&sessions{}).new, Store: st})
		outW.Close()
	}()
	defer inW.Close()
	// The client reads as mm does of its asked agents: one notification at
	// a time, as it arrives (the SDK's own reader queues at most 1,024 and
	// then closes the connection).
	c := &countClient{}
	w := acpconn.NewWriter(inW)
	r := acpconn.NewReader(outR, w, func(string, json.RawMessage) { c.n.Add(1) }, nil)
	conn := acp.NewClientSideConnection(c, w, r)
	conn.SetLogger(slog.New(slog.DiscardHandler))
	ctx := context.Background()
	if _, err := conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: "big", Cwd: "/work", McpServers: []acp.McpServer{}}); err != nil {
			b.Fatal(err)
		}
		if _, err := conn.CloseSession(ctx, acp.CloseSessionRequest{SessionId: "big"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(c.n.Load())/float64(b.N), "updates/op")
}

func askEntry(i int) string {
	return fmt.Sprintf("[question for expert]\nwhy %d?\n\n[expert's answer]\nbecause.", i)
}

// countClient counts the updates it receives.
type countClient struct {
	recClient
	n atomic.Int64
}
