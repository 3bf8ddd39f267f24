package a2a

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/a2aagent"
	"github.com/mm-agent/mm/internal/mustend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// fakeSession answers "echo: <question>" in two chunks; "wait" answers
// "thinking" and waits for its cancellation; "fail" fails.
type fakeSession struct {
	f    *fakes
	sink orchestrator.Sink
}

func (s *fakeSession) Prompt(ctx context.Context, text string) error {
	switch text {
	case "wait":
		s.sink.Emit(orchestrator.Text{Text: "thinking"})
		s.f.waiting <- struct{}{}
		<-ctx.Done()
		return ctx.Err()
	case "fail":
		return errors.New("cannot reach ollama at http://localhost:11434/v1: is it running?")
	case "flood":
		// Far more than a socket's buffers: a client that does not read
		// stops it.
		piece := strings.Repeat("x", 64<<10)
		for range 64 {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			s.sink.Emit(orchestrator.Text{Text: piece})
		}
		s.f.mu.Lock()
		s.f.floods++
		s.f.mu.Unlock()
		return nil
	}
	s.sink.Emit(orchestrator.Text{Text: "echo: "})
	s.sink.Emit(orchestrator.Text{Agent: "expert", Text: "an asked agent's text, not the answer"})
	s.sink.Emit(orchestrator.Text{Text: text})
	return nil
}

func (s *fakeSession) Close() error {
	s.f.mu.Lock()
	s.f.closed++
	s.f.mu.Unlock()
	return nil
}

// fakes counts the sessions started and closed.
type fakes struct {
	mu              sync.Mutex
	started, closed int
	floods          int // flood answers written to their end
	waiting         chan struct{}
	// resumed says, for each session started, whether it was given a
	// saved history to go on with.
	resumed []bool
}

func (f *fakes) counts() (int, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.started, f.closed
}

// serve runs Serve on a loopback port with fake sessions; stop ends it and
// waits for it.
func serve(t *testing.T, opts Options) (url string, f *fakes, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return serveOn(t, ln, opts)
}

// serveOn is serve on ln.
func serveOn(t *testing.T, ln net.Listener, opts Options) (url string, f *fakes, stop func()) {
	t.Helper()
	f = &fakes{waiting: make(chan struct{}, 100)}
	opts.Name, opts.Description, opts.Version = "tester", "answers tests", "devel"
	opts.NewSession = func(_ context.Context, o orchestrator.Options) (Session, error) {
		f.mu.Lock()
		f.started++
		f.resumed = append(f.resumed, o.Resume != nil)
		f.mu.Unlock()
		return &fakeSession{f: f, sink: o.Sink}, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, opts) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return "http://" + ln.Addr().String() + "/", f, stop
}

func client(t *testing.T, url, token string) *a2aagent.Agent {
	t.Helper()
	a, err := a2aagent.New(a2aagent.Options{Name: "served", URL: url, Token: token, TokenEnv: "SERVED_TOKEN"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// ask returns what was shown and the error's text.
func ask(ctx context.Context, a *a2aagent.Agent, q string) (string, string) {
	var b strings.Builder
	err := a.Prompt(ctx, q, func(s string) { b.WriteString(s) })
	if err != nil {
		return b.String(), err.Error()
	}
	return b.String(), ""
}

// waitThenCancel asks "wait" and returns the error's text once the answer
// began: the client knows the task then, and cancels it on the agent when
// ctx ends (before, it could only drop the stream).
func waitThenCancel(ctx context.Context, a *a2aagent.Agent) string {
	began := make(chan struct{})
	var once sync.Once
	cctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-began:
			select {
			case <-ctx.Done():
				cancel()
			case <-cctx.Done():
			}
		case <-cctx.Done():
		}
	}()
	err := a.Prompt(cctx, "wait", func(string) { once.Do(func() { close(began) }) })
	if err != nil {
		return err.Error()
	}
	return ""
}

func TestCardAndAnswers(t *testing.T) {
	url, f, _ := serve(t, Options{Skills: []Skill{{Name: "review", Description: "reviews a diff"}}})
	a := client(t, url, "")
	for _, tc := range []struct{ q, shown, err string }{
		{"hello", "echo: hello", ""},
		{"again", "echo: again", ""},
		{"fail", "", `agent "served": the task failed: cannot reach ollama at http://localhost:11434/v1: is it running?`},
		{"  ", "", `agent "served": the agent rejected the task: the message has no text: mm answers text parts`},
	} {
		shown, err := ask(context.Background(), a, tc.q)
		if shown != tc.shown || err != tc.err {
			t.Errorf("%q: shown %q, error %q; want %q, %q", tc.q, shown, err, tc.shown, tc.err)
		}
	}
	card := a.Card()
	if card.Name != "tester" || card.Description != "answers tests" || !card.Capabilities.Streaming || card.URL != url ||
		len(card.Skills) != 1 || card.Skills[0].ID != "review" || card.Skills[0].Description != "reviews a diff" {
		t.Errorf("card %+v", card)
	}
	// One context, one session; another client is another context.
	if started, _ := f.counts(); started != 1 {
		t.Errorf("%d sessions for one context, want 1", started)
	}
	if _, err := ask(context.Background(), client(t, url, ""), "hi"); err != "" {
		t.Fatal(err)
	}
	if started, _ := f.counts(); started != 2 {
		t.Errorf("%d sessions for two contexts, want 2", started)
	}
}

func TestToken(t *testing.T) {
	url, _, _ := serve(t, Options{Token: "s3cret"})
	if _, err := ask(context.Background(), client(t, url, "s3cret"), "hi"); err != "" {
		t.Errorf("with the token: %s", err)
	}
	want := `agent "served": message/stream: 401 Unauthorized: the agent refused the token in $SERVED_TOKEN: check it`
	if _, err := ask(context.Background(), client(t, url, "wrong"), "hi"); err != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

func TestCancel(t *testing.T) {
	url, f, _ := serve(t, Options{})
	a := client(t, url, "")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan string, 1)
	go func() { done <- waitThenCancel(ctx, a) }()
	<-f.waiting
	cancel()
	if err := <-done; err != context.Canceled.Error() {
		t.Errorf("error %q, want %q", err, context.Canceled)
	}
	// The context's session is free again once the cancelled task has
	// given it back: the next task runs.
	mustend.WaitFor(t, "the context answering after a cancel", func() bool {
		shown, err := ask(context.Background(), a, "next")
		return shown == "echo: next" && err == ""
	})
}

func TestBounds(t *testing.T) {
	url, f, _ := serve(t, Options{MaxTasks: 1, MaxSessions: 1})
	first := client(t, url, "")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan string, 1)
	go func() { done <- waitThenCancel(ctx, first) }()
	<-f.waiting
	want := `agent "served": the task failed: mm serve is running 1 tasks, its limit: try again when one has ended`
	if _, err := ask(context.Background(), client(t, url, ""), "hi"); err != want {
		t.Errorf("over MaxTasks: %q, want %q", err, want)
	}
	cancel()
	<-done
	mustend.WaitFor(t, "the cancelled task's turn given back", func() bool {
		_, err := ask(context.Background(), first, "hi")
		return err == ""
	})
	// A second context takes the only session's place: the first is closed.
	if _, err := ask(context.Background(), client(t, url, ""), "hi"); err != "" {
		t.Fatal(err)
	}
	if started, closed := f.counts(); started != 2 || closed != 1 {
		t.Errorf("started %d, closed %d sessions; want 2, 1", started, closed)
	}
}

func TestBodyOverTheLimit(t *testing.T) {
	url, _, _ := serve(t, Options{})
	big := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"%s"}]}}}`,
		strings.Repeat("x", MaxBody))
	resp, err := http.Post(url, "application/json", strings.NewReader(big))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(b, []byte(`"code":-32700`)) || !bytes.Contains(b, []byte("request body too large")) {
		t.Errorf("status %s, body %s: want a JSON-RPC parse error naming the limit", resp.Status, b)
	}
	if _, err := ask(context.Background(), client(t, url, ""), "still up?"); err != "" {
		t.Errorf("after a body over the limit: %s", err)
	}
}

func TestShutdownCancelsRunningTasks(t *testing.T) {
	url, f, stop := serve(t, Options{})
	a := client(t, url, "")
	if _, err := ask(context.Background(), a, "a first question"); err != "" {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() { _, err := ask(context.Background(), a, "wait"); done <- err }()
	<-f.waiting
	stop()
	want := `agent "served": the agent cancelled the task: mm serve is stopping`
	if err := <-done; err != want {
		t.Errorf("a task under way at shutdown: %q, want %q", err, want)
	}
	if started, closed := f.counts(); started != 1 || closed != 1 {
		t.Errorf("started %d, closed %d sessions; want every one closed", started, closed)
	}
}

// TestSlowClient: a client that asks and stops reading is cut off at the
// write timeout; its task goes on to its end, and others are answered
// meanwhile.
func TestSlowClient(t *testing.T) {
	url, f, _ := serveOn(t, listenSmallBuffers(t), Options{WriteTimeout: 200 * time.Millisecond})
	startFlood(t, url)
	// It reads nothing; another client is answered all the same.
	if shown, err := ask(context.Background(), client(t, url, ""), "meanwhile"); shown != "echo: meanwhile" || err != "" {
		t.Errorf("beside a slow client: %q, %q", shown, err)
	}
	mustend.WaitFor(t, "the slow client's task to end", func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.floods == 1
	})
}

// TestFlood: far more requests at once than tasks may run; each is
// answered or refused with a clean A2A outcome, and the server stays up.
func TestFlood(t *testing.T) {
	url, _, _ := serve(t, Options{MaxTasks: 4, MaxSessions: 8})
	var wg sync.WaitGroup
	errs := make(chan string, 200)
	for range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, _ := a2aagent.New(a2aagent.Options{Name: "served", URL: url})
			defer a.Close()
			if _, err := ask(context.Background(), a, "hi"); err != "" {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		switch err {
		case `agent "served": the task failed: mm serve is running 4 tasks, its limit: try again when one has ended`,
			`agent "served": the task failed: mm serve holds 8 conversations, all answering: try again when one has ended`:
		default:
			t.Errorf("a request of the flood: %s", err)
		}
	}
	if shown, err := ask(context.Background(), client(t, url, ""), "after"); shown != "echo: after" || err != "" {
		t.Errorf("after the flood: %q, %q", shown, err)
	}
}
