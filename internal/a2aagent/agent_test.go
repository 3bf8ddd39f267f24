package a2aagent

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"

	"github.com/mm-agent/mm/internal/a2aconn"
)

// testAgent is an A2A agent on a2a-go's server: it answers "echo: <text>"
// in two artifact chunks, or, for some questions, ends its task otherwise.
type testAgent struct {
	mu       sync.Mutex
	contexts []string // the context of each message received

	cancelled chan struct{} // tasks/cancel reached the agent
}

func (e *testAgent) Execute(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	text := a2aconn.Text(rc.Message.Parts)
	e.mu.Lock()
	e.contexts = append(e.contexts, rc.Message.ContextID)
	e.mu.Unlock()
	if rc.StoredTask == nil {
		if err := q.Write(ctx, a2a.NewStatusUpdateEvent(rc, a2a.TaskStateSubmitted, nil)); err != nil {
			return err
		}
	}
	end := func(state a2a.TaskState, note string) error {
		var msg *a2a.Message
		if note != "" {
			msg = a2a.NewMessageForTask(a2a.MessageRoleAgent, rc, a2a.TextPart{Text: note})
		}
		ev := a2a.NewStatusUpdateEvent(rc, state, msg)
		ev.Final = true
		return q.Write(ctx, ev)
	}
	switch text {
	case "fail":
		return end(a2a.TaskStateFailed, "the model is away")
	case "reject":
		return end(a2a.TaskStateRejected, "not my field")
	case "input":
		return end(a2a.TaskStateInputRequired, "which file?")
	case "auth":
		return end(a2a.TaskStateAuthRequired, "")
	case "status only":
		return end(a2a.TaskStateCompleted, "answered in the status")
	case "message":
		return q.Write(ctx, a2a.NewMessageForTask(a2a.MessageRoleAgent, rc, a2a.TextPart{Text: "a message, not a task"}))
	case "wait":
		art := a2a.NewArtifactEvent(rc, a2a.TextPart{Text: "thinking"})
		if err := q.Write(ctx, art); err != nil {
			return err
		}
		<-ctx.Done()
		return nil
	}
	if err := q.Write(ctx, a2a.NewStatusUpdateEvent(rc, a2a.TaskStateWorking,
		a2a.NewMessageForTask(a2a.MessageRoleAgent, rc, a2a.TextPart{Text: "a progress note"}))); err != nil {
		return err
	}
	art := a2a.NewArtifactEvent(rc, a2a.TextPart{Text: "echo: "})
	if err := q.Write(ctx, art); err != nil {
		return err
	}
	if err := q.Write(ctx, a2a.NewArtifactUpdateEvent(rc, art.Artifact.ID, a2a.TextPart{Text: text})); err != nil {
		return err
	}
	return end(a2a.TaskStateCompleted, "")
}

func (e *testAgent) Cancel(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	close(e.cancelled)
	ev := a2a.NewStatusUpdateEvent(rc, a2a.TaskStateCanceled, nil)
	ev.Final = true
	return q.Write(ctx, ev)
}

// serveTestAgent serves e over JSON-RPC with a card that claims streaming
// or not; token, when set, is required on every request.
func serveTestAgent(t *testing.T, e *testAgent, streaming bool, token string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	card := &a2a.AgentCard{Name: "test", Version: "1.2.0", Description: "echoes", URL: srv.URL + "/rpc", ProtocolVersion: "0.3.0",
		PreferredTransport: a2a.TransportProtocolJSONRPC, Capabilities: a2a.AgentCapabilities{Streaming: streaming},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"}, Skills: []a2a.AgentSkill{}}
	rpc := a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(e))
	mux.Handle(CardPath, a2asrv.NewStaticAgentCardHandler(card))
	mux.HandleFunc("/rpc", func(w http.ResponseWriter, r *http.Request) {
		if token != "" && r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		rpc.ServeHTTP(w, r)
	})
	return srv
}

func newTestAgent() *testAgent {
	return &testAgent{cancelled: make(chan struct{})}
}

// ask sends one question and returns what was shown and the error's text.
func ask(t *testing.T, a *Agent, question string) (string, string) {
	t.Helper()
	var shown strings.Builder
	err := a.Prompt(context.Background(), question, func(s string) { shown.WriteString(s) })
	if err != nil {
		return shown.String(), err.Error()
	}
	return shown.String(), ""
}

func TestPromptOutcomes(t *testing.T) {
	for _, streaming := range []bool{true, false} {
		srv := serveTestAgent(t, newTestAgent(), streaming, "")
		a, err := New(Options{Name: "reviewer", URL: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ question, shown, err string }{
			{"hello", "echo: hello", ""},
			{"status only", "answered in the status", ""},
			{"message", "a message, not a task", ""},
			{"fail", "", `agent "reviewer": the task failed: the model is away`},
			{"reject", "", `agent "reviewer": the agent rejected the task: not my field`},
			{"input", "", `agent "reviewer": the agent asks for more input (input-required), which a hand-off cannot give: which file?`},
			{"auth", "", `agent "reviewer": the agent asks for authentication (auth-required), which a hand-off cannot give`},
		} {
			t.Run(fmt.Sprintf("streaming=%v/%s", streaming, tc.question), func(t *testing.T) {
				shown, err := ask(t, a, tc.question)
				if shown != tc.shown || err != tc.err {
					t.Errorf("shown %q, error %q; want %q, %q", shown, err, tc.shown, tc.err)
				}
			})
		}
	}
}

// TestDescribe: who the agent is, as its card says, for mm check.
func TestDescribe(t *testing.T) {
	srv := serveTestAgent(t, newTestAgent(), true, "")
	a, _ := New(Options{Name: "reviewer", URL: srv.URL})
	if got, err := a.Describe(context.Background()); got != "test 1.2.0" || err != nil {
		t.Errorf("Describe = %q, %v; want \"test 1.2.0\"", got, err)
	}
	gone, _ := New(Options{Name: "reviewer", URL: "http://127.0.0.1:1"})
	if _, err := gone.Describe(context.Background()); err == nil || !strings.HasPrefix(err.Error(), `agent "reviewer": cannot reach http://127.0.0.1:1: `) {
		t.Errorf("Describe of no agent = %v, want that it cannot be reached", err)
	}
}

func TestOneContextPerAgent(t *testing.T) {
	e := newTestAgent()
	srv := serveTestAgent(t, e, true, "")
	a, _ := New(Options{Name: "reviewer", URL: srv.URL})
	for _, q := range []string{"one", "two", "three"} {
		if _, err := ask(t, a, q); err != "" {
			t.Fatal(err)
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	got := e.contexts
	if len(got) != 3 || got[0] != "" || got[1] == "" || got[1] != a.ContextID() || got[2] != got[1] {
		t.Errorf("contexts sent %q, the agent's %q: want none first, then the agent's every time", got, a.ContextID())
	}
}

func TestCancelReachesTheAgent(t *testing.T) {
	e := newTestAgent()
	srv := serveTestAgent(t, e, true, "")
	a, _ := New(Options{Name: "reviewer", URL: srv.URL})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	shown := make(chan string, 1)
	go func() { done <- a.Prompt(ctx, "wait", func(s string) { shown <- s }) }()
	if s := <-shown; s != "thinking" {
		t.Errorf("shown %q, want thinking", s)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Prompt = %v, want context.Canceled", err)
	}
	<-e.cancelled // tasks/cancel reached the agent, else this blocks
}

func TestToken(t *testing.T) {
	srv := serveTestAgent(t, newTestAgent(), true, "s3cret")
	for _, tc := range []struct{ token, env, want string }{
		{"s3cret", "REVIEWER_TOKEN", ""},
		{"wrong", "REVIEWER_TOKEN", `agent "reviewer": message/stream: 401 Unauthorized: the agent refused the token in $REVIEWER_TOKEN: check it`},
		{"", "REVIEWER_TOKEN", `agent "reviewer": message/stream: 401 Unauthorized: the agent needs a token; $REVIEWER_TOKEN is empty: set it to the agent's token`},
		{"", "", `agent "reviewer": message/stream: 401 Unauthorized: the agent needs a token; give it one with tokenEnv: in its mmConfigs entry`},
	} {
		a, _ := New(Options{Name: "reviewer", URL: srv.URL, Token: tc.token, TokenEnv: tc.env})
		if _, err := ask(t, a, "hi"); err != tc.want {
			t.Errorf("token %q: error %q, want %q", tc.token, err, tc.want)
		}
	}
}

// rawAgent serves a card and an endpoint written by hand, for what a2a-go
// would never send.
func rawAgent(t *testing.T, card string, rpc http.HandlerFunc) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	mux.HandleFunc(CardPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, strings.ReplaceAll(card, "$URL", srv.URL))
	})
	if rpc != nil {
		mux.HandleFunc("/", rpc)
	}
	return srv
}

func TestBadAgents(t *testing.T) {
	streamingCard := `{"name":"x","url":"$URL/","capabilities":{"streaming":true}}`
	sse := func(events ...string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			for _, e := range events {
				fmt.Fprintf(w, "data: %s\n\n", e)
			}
		}
	}
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	deadURL := "http://" + closed.Addr().String()
	closed.Close()
	for _, tc := range []struct {
		name string
		url  string // "" for the raw agent's
		card string
		rpc  http.HandlerFunc
		want string
	}{
		{name: "unreachable", url: deadURL,
			want: `agent "reviewer": cannot reach ` + deadURL + `: dial tcp ` + deadURL[len("http://"):] + `: connect: connection refused: is the agent running?`},
		{name: "card not JSON", card: "<html><title>Welcome to nginx</title></html>",
			want: `agent "reviewer": the agent card at $URL/.well-known/agent-card.json is not JSON (invalid character '<' looking for beginning of value): "<html><title>Welcome to nginx</title></html>": is it an A2A agent?`},
		{name: "gRPC only", card: `{"name":"x","url":"$URL/","preferredTransport":"GRPC"}`,
			want: `agent "reviewer": the agent speaks GRPC, not JSON-RPC, which is what mm speaks`},
		{name: "stream cut", card: streamingCard,
			rpc:  sse(`{"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t1","contextId":"c1","final":false,"status":{"state":"working"}}}`),
			want: `agent "reviewer": the stream ended before the task did (its last state: working)`},
		{name: "JSON-RPC error", card: streamingCard,
			rpc:  sse(`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error","data":{"error":"the model is away"}}}`),
			want: `agent "reviewer": message/stream: internal error: the model is away (A2A error -32603)`},
		{name: "not JSON-RPC", card: streamingCard,
			rpc:  sse(`hello`),
			want: `agent "reviewer": message/stream: the answer is not JSON-RPC (invalid character 'h' looking for beginning of value): "hello"`},
		{name: "endpoint refuses", card: `{"name":"x","url":"$URL/"}`,
			rpc:  func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no such route", http.StatusNotFound) },
			want: `agent "reviewer": message/send: 404 Not Found: "no such route"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url
			if url == "" {
				srv := rawAgent(t, tc.card, tc.rpc)
				url = srv.URL
				tc.want = strings.ReplaceAll(tc.want, "$URL", srv.URL)
			}
			a, _ := New(Options{Name: "reviewer", URL: url})
			if _, err := ask(t, a, "hi"); err != tc.want {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
		})
	}
}

func TestTokenStaysAtTheConfiguredOrigin(t *testing.T) {
	srv := rawAgent(t, `{"name":"x","url":"http://elsewhere.example/","capabilities":{"streaming":true}}`, nil)
	a, _ := New(Options{Name: "reviewer", URL: srv.URL, Token: "s3cret", TokenEnv: "REVIEWER_TOKEN"})
	want := `agent "reviewer": its agent card names its endpoint at http://elsewhere.example, another origin than ` + srv.URL + `: mm sends $REVIEWER_TOKEN only to the URL configured; write that endpoint in a2a:`
	if _, err := ask(t, a, "hi"); err != want {
		t.Errorf("error\n%s\nwant\n%s", err, want)
	}
}

func TestNotAURL(t *testing.T) {
	_, err := New(Options{Name: "reviewer", URL: "localhost:9999"})
	want := `agent "reviewer": a2a: "localhost:9999" is not an http:// or https:// URL`
	if err == nil || err.Error() != want {
		t.Errorf("New = %v, want %s", err, want)
	}
}
