package llm

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

func TestEcho(t *testing.T) {
	tests := []struct {
		name string
		msgs []Message
		want string
	}{
		{"one message", []Message{{Role: RoleUser, Content: "hello"}}, "hello"},
		{"latest user message", []Message{
			{Role: RoleSystem, Content: "be kind"},
			{Role: RoleUser, Content: "first"},
			{Role: RoleAssistant, Content: "first"},
			{Role: RoleUser, Content: "[conversation so far]\nuser: a\n[end of conversation]\n\nsecond\n"},
		}, "[conversation so far]\nuser: a\n[end of conversation]\n\nsecond\n"},
		{"after a tool result", []Message{
			{Role: RoleUser, Content: "q"},
			{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "1", Name: "bash"}}},
			{Role: RoleTool, ToolCallID: "1", Content: "out"},
		}, "q"},
		{"no user message", []Message{{Role: RoleSystem, Content: "s"}}, ""},
		{"nothing", nil, ""},
	}
	m, err := New("echo/test", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var streamed string
			got, err := m.Stream(t.Context(), Request{Messages: tt.msgs}, func(s string) { streamed += s })
			if err != nil {
				t.Fatal(err)
			}
			if want := (Reply{Content: tt.want, FinishReason: "stop"}); !reflect.DeepEqual(got, want) {
				t.Errorf("got %#v, want %#v", got, want)
			}
			if streamed != tt.want {
				t.Errorf("streamed %q, want %q", streamed, tt.want)
			}
		})
	}
	if _, err := m.Stream(t.Context(), Request{Messages: tests[0].msgs}, nil); err != nil {
		t.Errorf("nil onText: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := m.Stream(ctx, Request{Messages: tests[0].msgs}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
}
