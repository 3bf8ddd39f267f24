package orchestrator

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/mm-agent/mm/internal/mmconfigs"
)

// a2aConfig is a configuration that may ask reviewer over A2A, its URL
// and token from the environment.
func a2aConfig(t *testing.T) *mmconfigs.Config {
	t.Helper()
	cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	cfg.Model = "echo/x"
	cfg.Agents = map[string]mmconfigs.Agent{
		"reviewer": {Kind: mmconfigs.AgentA2A, URL: "http://$REVIEW_HOST/", TokenEnv: "REVIEW_TOKEN"},
	}
	return cfg
}

// a2aEnviron is a2aConfig's environment.
var a2aEnviron = []string{"REVIEW_HOST=review.test:8000", "REVIEW_TOKEN=tok"}

// fakeA2A is an A2A client that answers "<context>: <question>" in two
// pieces and records what it was asked.
type fakeA2A struct {
	opts      []A2AOptions // of each agent prepared
	asked     []string
	contextID string
	closed    int
	failWith  error // what connect fails with, when set
}

func (f *fakeA2A) connect(o A2AOptions) (A2AAgent, error) {
	f.opts = append(f.opts, o)
	if f.failWith != nil {
		return nil, f.failWith
	}
	f.contextID = o.ContextID
	return fakeA2AAgent{f}, nil
}

type fakeA2AAgent struct{ f *fakeA2A }

func (a fakeA2AAgent) Prompt(_ context.Context, text string, onText func(string)) error {
	a.f.asked = append(a.f.asked, text)
	if a.f.contextID == "" {
		a.f.contextID = "ctx-1"
	}
	onText(a.f.contextID + ": ")
	onText(text)
	return nil
}

func (a fakeA2AAgent) ContextID() string { return a.f.contextID }

func (a fakeA2AAgent) Describe(context.Context) (string, error) { return "reviewer-agent 0.3", nil }

func (a fakeA2AAgent) Close() error { a.f.closed++; return nil }

// TestA2AConnector: a session asks an agent over A2A with
// Options.ConnectA2A — prepared once, its URL expanded, its token read
// from the environment, the resumed session's A2A context given back —
// keeps the context the agent answered in, and lets go of the agent on
// Close; mm check's probe reads the card through the connector it is given.
func TestA2AConnector(t *testing.T) {
	cfg := a2aConfig(t)
	f := &fakeA2A{}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Environ: a2aEnviron, Sink: &recSink{},
		ConnectA2A: f.connect, Resume: &Resumed{AskedSessions: map[string]string{"reviewer": "ctx-0"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"one", "two"} {
		got, err := s.Ask(context.Background(), "reviewer", q, false, "")
		if want := "ctx-0: " + q; got != want || err != nil {
			t.Errorf("Ask(%q) = %q, %v; want %q", q, got, err, want)
		}
	}
	want := []A2AOptions{{Name: "reviewer", URL: "http://review.test:8000/", Token: "tok", TokenEnv: "REVIEW_TOKEN", ContextID: "ctx-0"}}
	if !reflect.DeepEqual(f.opts, want) {
		t.Errorf("prepared %+v, want once: %+v", f.opts, want)
	}
	if got := s.history.askedSession("reviewer"); got != "ctx-0" {
		t.Errorf("the asked session of reviewer is %q, want the agent's context ctx-0", got)
	}
	s.Close()
	if f.closed != 1 {
		t.Errorf("the agent was closed %d time(s), want once", f.closed)
	}

	probe := &fakeA2A{}
	sts := ProbeAgents(context.Background(), probe.connect, cfg, cfg.Dir, a2aEnviron)
	wantSts := []AgentStatus{{Name: "reviewer", Kind: "a2a", Info: "reviewer-agent 0.3"}}
	if !reflect.DeepEqual(sts, wantSts) || probe.closed != 1 || len(probe.opts) != 1 || probe.opts[0].URL != "http://review.test:8000/" {
		t.Errorf("ProbeAgents = %+v (prepared %+v, closed %d); want %+v, closed once", sts, probe.opts, probe.closed, wantSts)
	}
}

// TestA2AConnectorFails: an agent the connector cannot prepare (a URL
// that is none) is the connector's error, for the hand-off and for mm check.
func TestA2AConnectorFails(t *testing.T) {
	cfg := a2aConfig(t)
	f := &fakeA2A{failWith: errors.New(`agent "reviewer": a2a: "http://" is not an http:// or https:// URL`)}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Environ: a2aEnviron, Sink: &recSink{}, ConnectA2A: f.connect})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Ask(context.Background(), "reviewer", "one", false, ""); !errors.Is(err, f.failWith) {
		t.Errorf("Ask = %v, want %v", err, f.failWith)
	}
	if sts := ProbeAgents(context.Background(), f.connect, cfg, cfg.Dir, a2aEnviron); len(sts) != 1 || !errors.Is(sts[0].Err, f.failWith) {
		t.Errorf("ProbeAgents = %+v, want %v", sts, f.failWith)
	}
}

// TestA2AWithoutClient: without a connector (a build that leaves a2aagent
// out), asking such an agent, or probing it, is one line that names it and
// says what the build lacks.
func TestA2AWithoutClient(t *testing.T) {
	const want = `agent "reviewer": this session has no A2A client`
	cfg := a2aConfig(t)
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Environ: a2aEnviron, Sink: &recSink{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Ask(context.Background(), "reviewer", "one", false, ""); err == nil || err.Error() != want {
		t.Errorf("Ask = %v, want %s", err, want)
	}
	sts := ProbeAgents(context.Background(), nil, cfg, cfg.Dir, a2aEnviron)
	if len(sts) != 1 || sts[0].Name != "reviewer" || sts[0].Err == nil || sts[0].Err.Error() != want {
		t.Errorf("ProbeAgents = %+v, want reviewer: %s", sts, want)
	}
}
