package mcp

import (
	"context"
	"fmt"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// meetingSession answers a hand-off once every agent asked has started:
// the calls must run at once. Each agent's text is its own call's.
type meetingSession struct {
	sink    orchestrator.Sink
	started sync.WaitGroup
}

func (m *meetingSession) Prompt(context.Context, string) error { return nil }
func (m *meetingSession) HoldsAskAnswer() bool                 { return false }
func (m *meetingSession) Close() error                         { return nil }

func (m *meetingSession) AskForClient(ctx context.Context, name, question string, _ bool, _ string) (string, error) {
	m.sink.Emit(orchestrator.Text{Agent: name, Text: name + " says hi"})
	m.started.Done()
	m.started.Wait()
	return name + " answered", nil
}

// TestCallsToTwoAgents: calls to two agents run at once in one session,
// and each call's progress is its own agent's text.
func TestCallsToTwoAgents(t *testing.T) {
	fake := &meetingSession{}
	fake.started.Add(2)
	srv := newServer(context.Background(), Options{Name: "mm", Agents: []orchestrator.AskableAgent{{Name: "a"}, {Name: "b"}},
		NewSession: func(ctx context.Context, o orchestrator.Options) (Session, error) {
			fake.sink = o.Sink
			return fake, nil
		}})
	defer srv.closeAll()
	ct, st := sdk.NewInMemoryTransports()
	if _, err := srv.mcp.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	progress := map[string]string{}
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			progress[fmt.Sprint(r.Params.ProgressToken)] += r.Params.Message
		}})
	cs, err := client.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var wg sync.WaitGroup
	results := make([]string, 2)
	for i, name := range []string{"a", "b"} {
		wg.Go(func() {
			p := &sdk.CallToolParams{Name: name, Arguments: map[string]string{"question": "hi?"}}
			p.SetProgressToken(name)
			res, err := cs.CallTool(context.Background(), p)
			if err != nil {
				t.Error(err)
				return
			}
			results[i] = res.Content[0].(*sdk.TextContent).Text
		})
	}
	wg.Wait()
	if results[0] != "a answered" || results[1] != "b answered" {
		t.Errorf("results %q", results)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, name := range []string{"a", "b"} {
		// The client may read a call's last notification after its
		// result; each piece here is the first, sent at once.
		if got := progress[name]; got != "" && got != name+" says hi" {
			t.Errorf("call %s's progress: %q, want only its agent's text", name, got)
		}
	}
}
