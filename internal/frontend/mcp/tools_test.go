package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// TestDecodeInput: a call's arguments are the question and, optionally,
// the conversation; anything else is a tool error the client's model can
// act on.
func TestDecodeInput(t *testing.T) {
	tests := []struct {
		raw, question, conversation, err string
	}{
		{raw: `{"question":"What is an inode?"}`, question: "What is an inode?"},
		{raw: `{"question":"Why?","conversation":"person: hi"}`, question: "Why?", conversation: "person: hi"},
		{raw: ``, err: `invalid input: give "question"`},
		{raw: `{"question":"  "}`, err: `invalid input: "question" is empty: give the question, complete on its own`},
		{raw: `{"question":"q","agent":"x"}`, err: `invalid input: json: unknown field "agent": give "question" and, optionally, "conversation", both strings`},
		{raw: `{"question":3}`, err: `invalid input: json: cannot unmarshal number into Go struct field input.question of type string: give "question" and, optionally, "conversation", both strings`},
	}
	for _, tc := range tests {
		in, err := decodeInput(json.RawMessage(tc.raw))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("%s: error %q, want %q", tc.raw, got, tc.err)
			continue
		}
		if err == nil && (in.Question != tc.question || (in.Conversation != nil && *in.Conversation != tc.conversation)) {
			t.Errorf("%s: %+v", tc.raw, in)
		}
	}
}

// TestToolsOf: the served agent's tool, then one per agent of mmConfigs,
// each described by its description; an agent with the served agent's
// name is the served agent's tool.
func TestToolsOf(t *testing.T) {
	got := toolsOf(Options{Name: "mm", Description: "The main agent.", Agents: []orchestrator.AskableAgent{
		{Name: "expert", Description: "Knows inodes."}, {Name: "mm", Description: "itself"}, {Name: "quiet"},
	}})
	want := []tool{
		{name: "mm", description: "The main agent. A whole turn of the agent, with its own tools, hooks and agents.", served: true},
		{name: "expert", description: "Knows inodes. Asked by mm, under its preAsk and postAsk hooks."},
		{name: "quiet", description: "The agent quiet. Asked by mm, under its preAsk and postAsk hooks."},
	}
	if len(got) != len(want) {
		t.Fatalf("tools %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("tool %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// fakeSession answers a hand-off with text it streams to the sink.
type fakeSession struct {
	sink  orchestrator.Sink
	hold  bool
	asked chan string
}

func (f *fakeSession) Prompt(ctx context.Context, text string) error {
	f.sink.Emit(orchestrator.Text{Text: "turn: " + text})
	return nil
}

func (f *fakeSession) AskForClient(ctx context.Context, name, question string, withContext bool, transcript string) (string, error) {
	f.asked <- name + ": " + question
	for _, piece := range []string{"An inode ", "holds ", "metadata."} {
		f.sink.Emit(orchestrator.Text{Agent: name, Text: piece})
		f.sink.Emit(orchestrator.Text{Agent: name + "/checker", Text: "not the answer"})
	}
	return "An inode holds metadata.", nil
}

func (f *fakeSession) HoldsAskAnswer() bool { return f.hold }
func (f *fakeSession) Close() error         { return nil }

// TestProgress: a hand-off's own text streams as the progress of its call
// (an agent below it is not part of the answer); with postAsk hooks
// declared, the progress carries the count only.
func TestProgress(t *testing.T) {
	for _, hold := range []bool{false, true} {
		var mu sync.Mutex
		var messages []string
		var last float64
		fake := &fakeSession{hold: hold, asked: make(chan string, 1)}
		srv := newServer(context.Background(), Options{Name: "mm", Agents: []orchestrator.AskableAgent{{Name: "expert"}},
			NewSession: func(ctx context.Context, o orchestrator.Options) (Session, error) {
				fake.sink = o.Sink
				return fake, nil
			}})
		ct, st := sdk.NewInMemoryTransports()
		ss, err := srv.mcp.Connect(context.Background(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
			ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
				mu.Lock()
				defer mu.Unlock()
				messages = append(messages, r.Params.Message)
				last = r.Params.Progress
			}})
		cs, err := client.Connect(context.Background(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		params := &sdk.CallToolParams{Name: "expert", Arguments: map[string]string{"question": "What is an inode?"}}
		params.SetProgressToken("p1")
		res, err := cs.CallTool(context.Background(), params)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*sdk.TextContent).Text; got != "An inode holds metadata." || res.IsError {
			t.Errorf("hold %v: result %q", hold, got)
		}
		if got := <-fake.asked; got != "expert: What is an inode?" {
			t.Errorf("hold %v: asked %q", hold, got)
		}
		cs.Close()
		ss.Wait()
		srv.closeAll()
		mu.Lock()
		text := strings.Join(messages, "")
		mu.Unlock()
		// The client may read the last notification after the result:
		// what it read is the answer's start.
		switch {
		case hold && text != "":
			t.Errorf("postAsk hooks declared: the progress carried %q", text)
		case !hold && (text == "" || !strings.HasPrefix("An inode holds metadata.", text)):
			t.Errorf("the progress carried %q, want the answer's start", text)
		case last > float64(len("An inode holds metadata.")):
			t.Errorf("progress %v, past the answer's length", last)
		}
	}
}
