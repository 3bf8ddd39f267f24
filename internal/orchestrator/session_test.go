package orchestrator

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/llm/models"
	"github.com/mm-agent/mm/internal/llm/openai"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/tools"
)

// fakeModel answers with the replies given, one per call, and records the
// requests it got.
type fakeModel struct {
	mu       sync.Mutex
	replies  []llm.Reply
	requests []llm.Request
}

func (m *fakeModel) Stream(ctx context.Context, req llm.Request, onText func(string)) (llm.Reply, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests = append(m.requests, req)
	if len(m.replies) == 0 {
		return llm.Reply{Content: "done"}, nil
	}
	r := m.replies[0]
	if len(m.replies) > 1 {
		m.replies = m.replies[1:]
	}
	if onText != nil && r.Content != "" {
		onText(r.Content)
	}
	return r, nil
}

// lastToolOutputs are the tool messages of the latest request.
func (m *fakeModel) lastToolOutputs() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	req := m.requests[len(m.requests)-1]
	for _, msg := range req.Messages {
		if msg.Role == llm.RoleTool {
			out = append(out, msg.Content)
		}
	}
	return out
}

// recSink records events and answers consent from a list.
type recSink struct {
	mu      sync.Mutex
	events  []Event
	answers []ConsentAnswer
	asked   []string
	reqs    []ConsentRequest
}

func (r *recSink) Emit(ev Event) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
}

func (r *recSink) Consent(ctx context.Context, req ConsentRequest) ConsentAnswer {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, req.Tool+": "+req.Subject)
	r.reqs = append(r.reqs, req)
	if len(r.answers) == 0 {
		return ConsentUnavailable
	}
	a := r.answers[0]
	r.answers = r.answers[1:]
	return a
}

func (r *recSink) ended() TurnEnded {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.events) - 1; i >= 0; i-- {
		if e, ok := r.events[i].(TurnEnded); ok {
			return e
		}
	}
	return TurnEnded{}
}

// gateTool blocks until n calls are running at once, proving they run
// concurrently.
type gateTool struct {
	name    string
	n       int
	mu      sync.Mutex
	running int
	all     chan struct{}
}

func (g *gateTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: g.name, Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (g *gateTool) Run(ctx context.Context, env tools.Env, input json.RawMessage) tools.Result {
	g.mu.Lock()
	g.running++
	if g.running == g.n {
		close(g.all)
	}
	g.mu.Unlock()
	select {
	case <-g.all:
		return tools.Result{Output: "together " + string(input)}
	case <-time.After(10 * time.Second):
		return tools.Result{Output: "alone", IsError: true}
	}
}

func newTestSession(t *testing.T, cfg *mmconfigs.Config, m llm.Model, sink *recSink) *Session {
	t.Helper()
	if cfg == nil {
		cfg = mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	}
	cfg.Model = "echo/test"
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.model = m
	return s
}

func call(id, name, args string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: name, Arguments: args}
}

func TestToolCallsOfOneReplyRunConcurrently(t *testing.T) {
	sink := &recSink{}
	m := &fakeModel{replies: []llm.Reply{
		{ToolCalls: []llm.ToolCall{call("1", "gate", `{"a":1}`), call("2", "gate", `{"b":2}`)}},
		{Content: "both ran"},
	}}
	s := newTestSession(t, nil, m, sink)
	s.yolo = true
	g := &gateTool{name: "gate", n: 2, all: make(chan struct{})}
	s.tools["gate"] = g
	s.order = append(s.order, "gate")
	if err := s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	want := []string{`together {"a":1}`, `together {"b":2}`}
	if got := m.lastToolOutputs(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("tool outputs %q, want %q (in call order)", got, want)
	}
	if e := sink.ended(); e.Answer != "both ran" || len(e.Commands) != 2 {
		t.Errorf("turn ended %+v", e)
	}
}

// countTool counts the calls running at once. Each call runs until the test
// lets one end, so the most that ran at once is exact, not a race.
type countTool struct {
	release chan struct{}

	mu      sync.Mutex
	running int
	most    int
}

func (c *countTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "count", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (c *countTool) Run(ctx context.Context, env tools.Env, input json.RawMessage) tools.Result {
	c.mu.Lock()
	c.running++
	c.most = max(c.most, c.running)
	c.mu.Unlock()
	<-c.release
	c.mu.Lock()
	c.running--
	c.mu.Unlock()
	return tools.Result{Output: "done " + string(input)}
}

func (c *countTool) now() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running
}

// TestToolCallsAreBounded: of a reply's ten calls, maxParallelTools run at
// once, and their outputs come back in the reply's order.
func TestToolCallsAreBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const calls, limit = 10, 3
		var reply llm.Reply
		var want []string
		for i := range calls {
			args := fmt.Sprintf(`{"n":%d}`, i)
			reply.ToolCalls = append(reply.ToolCalls, call(fmt.Sprint(i), "count", args))
			want = append(want, "done "+args)
		}
		m := &fakeModel{replies: []llm.Reply{reply, {Content: "all ran"}}}
		cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
		cfg.MaxParallelTools = limit
		s := newTestSession(t, cfg, m, &recSink{})
		s.yolo = true
		tool := &countTool{release: make(chan struct{})}
		s.tools["count"] = tool
		s.order = append(s.order, "count")

		done := make(chan error)
		go func() { done <- s.Prompt(t.Context(), "go") }()
		for ended := 0; ended < calls; ended++ {
			synctest.Wait() // every call that can start has started
			if want := min(limit, calls-ended); tool.now() != want && !t.Failed() {
				t.Errorf("after %d calls ended, %d run at once, want %d", ended, tool.now(), want)
			}
			tool.release <- struct{}{}
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if tool.most != limit {
			t.Errorf("at most %d calls ran at once, want %d", tool.most, limit)
		}
		if got := m.lastToolOutputs(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("tool outputs %q, want %q (in call order)", got, want)
		}
	})
}

func TestBadToolCalls(t *testing.T) {
	sink := &recSink{}
	m := &fakeModel{replies: []llm.Reply{
		{ToolCalls: []llm.ToolCall{call("1", "nosuch", `{}`), call("2", "bash", `{"command": `), call("3", "bash", `[1]`)}},
		{Content: "ok"},
	}}
	s := newTestSession(t, nil, m, sink)
	s.yolo = true
	if err := s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`unknown tool "nosuch": the tools are bash, read_file, write_file, edit_file`,
		`bash: invalid JSON arguments (unexpected end of JSON input): send the arguments as one JSON object`,
		`bash: invalid JSON arguments (want a JSON object, got [1]): send the arguments as one JSON object`,
	}
	got := m.lastToolOutputs()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("outputs\n got %q\nwant %q", got, want)
	}
}

func TestMaxSteps(t *testing.T) {
	sink := &recSink{}
	m := &fakeModel{replies: []llm.Reply{{ToolCalls: []llm.ToolCall{call("1", "read_file", `{"path":"nothing"}`)}}}}
	cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	cfg.MaxSteps = 3
	s := newTestSession(t, cfg, m, sink)
	s.yolo = true
	err := s.Prompt(context.Background(), "loop forever")
	want := "stopped after 3 model calls in one turn (maxSteps 3): ask again to go on, or raise maxSteps in the configuration"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
	if len(m.requests) != 3 {
		t.Errorf("%d model calls, want 3", len(m.requests))
	}
	// The history stays well-formed: every call has its result.
	calls, results := 0, 0
	for _, msg := range s.History() {
		calls += len(msg.ToolCalls)
		if msg.Role == llm.RoleTool {
			results++
		}
	}
	if calls != results {
		t.Errorf("%d calls but %d results in the history", calls, results)
	}
}

func TestConsent(t *testing.T) {
	tests := []struct {
		name    string
		answers []ConsentAnswer
		// outputs of three bash calls made one per turn
		want  []string
		asked int
	}{
		{"nobody to ask", nil, []string{
			"[refused: nobody can approve bash here: run with --yolo, set yolo: true, or let a preToolCall hook allow it]",
			"[refused: nobody can approve bash here: run with --yolo, set yolo: true, or let a preToolCall hook allow it]",
			"[refused: nobody can approve bash here: run with --yolo, set yolo: true, or let a preToolCall hook allow it]",
		}, 3},
		{"once then no", []ConsentAnswer{AllowOnce, RejectOnce, AllowOnce}, []string{"hi\n", "[refused: the person did not allow this call]", "hi\n"}, 3},
		{"always", []ConsentAnswer{AllowAlways}, []string{"hi\n", "hi\n", "hi\n"}, 1},
		{"never", []ConsentAnswer{RejectAlways}, []string{
			"[refused: the person said never for bash in this session]",
			"[refused: the person said never for bash in this session]",
			"[refused: the person said never for bash in this session]",
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sink := &recSink{answers: tt.answers}
			m := &fakeModel{}
			s := newTestSession(t, nil, m, sink)
			for i := range 3 {
				m.replies = []llm.Reply{{ToolCalls: []llm.ToolCall{call("c", "bash", `{"command":"echo hi"}`)}}, {Content: "ok"}}
				if err := s.Prompt(context.Background(), "go"); err != nil {
					t.Fatal(err)
				}
				if got := m.lastToolOutputs(); got[len(got)-1] != tt.want[i] {
					t.Errorf("call %d: output %q, want %q", i, got[len(got)-1], tt.want[i])
				}
			}
			if len(sink.asked) != tt.asked {
				t.Errorf("asked %d times (%q), want %d", len(sink.asked), sink.asked, tt.asked)
			}
			if sink.asked[0] != "bash: echo hi" {
				t.Errorf("consent request %q", sink.asked[0])
			}
		})
	}
}

func TestParseAskCommand(t *testing.T) {
	cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	cfg.Agents = map[string]mmconfigs.Agent{"expert": fileAgent("/e.yaml"), "with-context-x": fileAgent("/w.yaml")}
	s := newTestSession(t, cfg, &fakeModel{}, &recSink{})
	tests := []struct {
		line string
		ok   bool
		want askCommandLine
		err  string
	}{
		{"hello", false, askCommandLine{}, ""},
		{"/help", false, askCommandLine{}, ""},
		{"/ask expert What is an inode?", true, askCommandLine{agent: "expert", question: "What is an inode?"}, ""},
		{"/ask-expert  spaced  out ", true, askCommandLine{agent: "expert", question: "spaced  out"}, ""},
		{"/ask-with-context-expert and now?", true, askCommandLine{agent: "expert", question: "and now?", withContext: true}, ""},
		{"/ask-with-context-x plain", true, askCommandLine{agent: "with-context-x", question: "plain"}, ""},
		{"/ask expert", true, askCommandLine{}, "usage: /ask <agent> <question>"},
		{"/ask", true, askCommandLine{}, "usage: /ask <agent> <question>"},
		{"/ask-expert", true, askCommandLine{}, "usage: /ask-expert <question>"},
	}
	for _, tt := range tests {
		got, ok, err := s.parseAskCommand(tt.line)
		if ok != tt.ok || (err == nil) != (tt.err == "") || (err != nil && err.Error() != tt.err) {
			t.Errorf("%q: ok=%v err=%v, want ok=%v err=%q", tt.line, ok, err, tt.ok, tt.err)
			continue
		}
		if err == nil && got != tt.want {
			t.Errorf("%q: %+v, want %+v", tt.line, got, tt.want)
		}
	}
}

func TestCommands(t *testing.T) {
	cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	s := newTestSession(t, cfg, &fakeModel{}, &recSink{})
	if c := s.Commands(); c != nil {
		t.Errorf("commands without agents: %v", c)
	}
	cfg.Agents = map[string]mmconfigs.Agent{"expert": fileAgent("/e.yaml")}
	var names []string
	for _, c := range s.Commands() {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, " "); got != "ask ask-expert ask-with-context-expert" {
		t.Errorf("commands %q", got)
	}
}

func TestChildEnv(t *testing.T) {
	cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	cfg.Model = "echo/x"
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: &recSink{},
		Environ: []string{"HOME=/h", "MM_ASKED_DEPTH=1", "MM_ASK_CHAIN=expert", "MM_CONFIG=/old.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Join(s.childEnv("checker", "/c.yaml"), " ")
	for _, want := range []string{"HOME=/h", "MM_CONFIG=/c.yaml", "MM_ASKED_DEPTH=2", "MM_ASK_CHAIN=expert/checker", "MM_BIN="} {
		if !strings.Contains(env, want) {
			t.Errorf("child environment lacks %s: %s", want, env)
		}
	}
	if strings.Contains(env, "/old.yaml") || strings.Count(env, "MM_ASKED_DEPTH=") != 1 {
		t.Errorf("stale values in %s", env)
	}
	// A session that is not saved asks its agents to save nothing either.
	if !strings.Contains(env, "MM_NO_SAVE=1") {
		t.Errorf("an unsaved session's child environment lacks MM_NO_SAVE=1: %s", env)
	}
	s.history.recorder = nopRecorder{}
	s.environ = append(s.environ, "MM_NO_SAVE=1") // as an unsaved agent's child was told
	if env := strings.Join(s.childEnv("checker", "/c.yaml"), " "); strings.Contains(env, "MM_NO_SAVE") {
		t.Errorf("a saved session's child environment has MM_NO_SAVE: %s", env)
	}
}

// nopRecorder records nothing.
type nopRecorder struct{}

func (nopRecorder) Append(...llm.Message) error       { return nil }
func (nopRecorder) Replace([]llm.Message) error       { return nil }
func (nopRecorder) AskedSession(string, string) error { return nil }
func (nopRecorder) UsesModel(string)                  {}

// TestAskToolSpec: ask_agent's description lists each agent with its
// description — read from its file only for a model that reads tool
// descriptions, so that echo and script models read no agent's file.
func TestAskToolSpec(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "e.yaml"), []byte("model: echo/x\ndescription: knows inodes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	echo, err := models.New("echo/x", models.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		model llm.Model
		want  string
	}{
		{"reads specs", &fakeModel{}, "Ask another agent a question and read its answer. The agents:\n- expert: knows inodes\n- gemini: Google's agent\n- gone\n- remote: the build host\n- silent\nSet withContext to send this conversation along."},
		{"echo", echo, "Ask another agent a question and read its answer. The agents:\n- expert\n- gemini\n- gone\n- remote\n- silent\nSet withContext to send this conversation along."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := mmconfigs.Default(dir, func(string) string { return "" })
			cfg.Agents = map[string]mmconfigs.Agent{"expert": fileAgent(filepath.Join(dir, "e.yaml")), "gone": fileAgent(filepath.Join(dir, "gone.yaml")),
				// Agents without a file here: the description of their entry.
				"gemini": {Kind: mmconfigs.AgentCommand, Command: []string{"gemini"}, Description: "Google's agent"},
				"remote": {Kind: mmconfigs.AgentSSH, Host: "h", Config: "e.yaml", Description: "the build host"},
				"silent": {Kind: mmconfigs.AgentCommand, Command: []string{"x"}}}
			s := newTestSession(t, cfg, tt.model, &recSink{})
			spec := s.askToolSpec()
			if spec.Description != tt.want {
				t.Errorf("description\n got %q\nwant %q", spec.Description, tt.want)
			}
			if !strings.Contains(string(spec.Parameters), `"enum":["expert","gemini","gone","remote","silent"]`) {
				t.Errorf("schema %s", spec.Parameters)
			}
		})
	}
}

// fileAgent is an mmConfigs entry of an mm by its file.
func fileAgent(path string) mmconfigs.Agent {
	return mmconfigs.Agent{Kind: mmconfigs.AgentFile, Config: path}
}

// TestPlace: the session's place in a chain of hand-offs, which its model
// names a slot by: MM_ASK_CHAIN's names, one a level of its depth, and
// whether it may ask (it has agents and is not at the deepest depth).
func TestPlace(t *testing.T) {
	for _, tc := range []struct {
		name    string
		environ []string
		agents  bool
		want    openai.Place
	}{
		{name: "started by a person, no agents", want: openai.Place{}},
		{name: "started by a person, with agents", agents: true, want: openai.Place{Asks: true}},
		{name: "asked", environ: []string{"MM_ASKED_DEPTH=2", "MM_ASK_CHAIN=expert/checker"},
			want: openai.Place{Asked: []string{"expert", "checker"}}},
		{name: "asked, with agents", environ: []string{"MM_ASKED_DEPTH=1", "MM_ASK_CHAIN=expert"}, agents: true,
			want: openai.Place{Asked: []string{"expert"}, Asks: true}},
		{name: "asked at the deepest depth", environ: []string{"MM_ASKED_DEPTH=1", "MM_ASK_MAX_DEPTH=1", "MM_ASK_CHAIN=expert"}, agents: true,
			want: openai.Place{Asked: []string{"expert"}}},
		{name: "a depth without names", environ: []string{"MM_ASKED_DEPTH=2"},
			want: openai.Place{Asked: []string{"", ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
			cfg.Model = "echo/x"
			if tc.agents {
				cfg.Agents = map[string]mmconfigs.Agent{"expert": fileAgent("/e.yaml")}
			}
			s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: &recSink{}, Environ: tc.environ})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.place(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("place %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestChainDepthFromOutside: a depth in the environment that no asking mm
// sets is one line naming the variable, never a panic (a depth of 2^63-1
// made a slice that long) nor a depth read as 0 (which would reset the
// count maxAskDepth bounds).
func TestChainDepthFromOutside(t *testing.T) {
	for _, tc := range []struct{ env, want string }{
		{"MM_ASKED_DEPTH=9223372036854775807", `MM_ASKED_DEPTH="9223372036854775807": want a whole number from 0 to 16 (an asking mm sets it for the agents it starts): unset it`},
		{"MM_ASKED_DEPTH=99999999999999999999", `MM_ASKED_DEPTH="99999999999999999999": want a whole number from 0 to 16 (an asking mm sets it for the agents it starts): unset it`},
		{"MM_ASKED_DEPTH=17", `MM_ASKED_DEPTH="17": want a whole number from 0 to 16 (an asking mm sets it for the agents it starts): unset it`},
		{"MM_ASKED_DEPTH=-1", `MM_ASKED_DEPTH="-1": want a whole number from 0 to 16 (an asking mm sets it for the agents it starts): unset it`},
		{"MM_ASKED_DEPTH=two", `MM_ASKED_DEPTH="two": want a whole number from 0 to 16 (an asking mm sets it for the agents it starts): unset it`},
		{"MM_ASK_MAX_DEPTH=9223372036854775807", `MM_ASK_MAX_DEPTH="9223372036854775807": want a whole number from 0 to 16 (an asking mm sets it for the agents it starts): unset it`},
		{"MM_ASKED_DEPTH=16", ""},
		{"MM_ASKED_DEPTH=", ""},
		{"MM_ASKED_DEPTH=0", ""},
	} {
		t.Run(tc.env, func(t *testing.T) {
			cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
			cfg.Model = "echo/x"
			s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: &recSink{}, Environ: []string{tc.env}})
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				s.place()
				s.Close()
			}
			if got != tc.want {
				t.Errorf("error %q, want %q", got, tc.want)
			}
		})
	}
}
