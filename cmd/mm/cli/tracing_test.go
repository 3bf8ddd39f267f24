package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/mustend"
)

// otlpSpan is one span as an OTLP/HTTP receiver decodes it from JSON.
type otlpSpan struct {
	TraceID, SpanID, ParentSpanID, Name string
	PID                                 string // the resource's process.pid
	Attrs                               map[string]string
	Status                              string // "" unset, else "error: <message>"
}

// otlpReceiver is an OTLP/HTTP receiver of traces (POST /v1/traces,
// application/json), keeping what it was sent.
type otlpReceiver struct {
	*httptest.Server
	mu    sync.Mutex
	spans []otlpSpan
	bad   []string // requests it could not take
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	r := &otlpReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var body struct {
			ResourceSpans []struct {
				Resource struct {
					Attributes []otlpKeyValue
				}
				ScopeSpans []struct {
					Scope struct{ Name string }
					Spans []struct {
						TraceID, SpanID, ParentSpanID, Name string
						Attributes                          []otlpKeyValue
						Status                              struct {
							Code    int
							Message string
						}
					}
				}
			}
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if req.URL.Path != "/v1/traces" || req.Header.Get("Content-Type") != "application/json" {
			r.bad = append(r.bad, req.Method+" "+req.URL.Path+" "+req.Header.Get("Content-Type"))
			http.Error(w, "not OTLP/HTTP JSON traces", http.StatusNotFound)
			return
		}
		if err := json.NewDecoder(req.Body).Decode(&body); err != nil {
			r.bad = append(r.bad, err.Error())
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, rs := range body.ResourceSpans {
			pid := attrMap(rs.Resource.Attributes)["process.pid"]
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					sp := otlpSpan{TraceID: s.TraceID, SpanID: s.SpanID, ParentSpanID: s.ParentSpanID,
						Name: s.Name, PID: pid, Attrs: attrMap(s.Attributes)}
					if s.Status.Code == 2 {
						sp.Status = "error: " + s.Status.Message
					}
					r.spans = append(r.spans, sp)
				}
			}
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, "{}")
	}))
	t.Cleanup(r.Close)
	return r
}

// otlpKeyValue is an attribute; its value is kept as the JSON it was.
type otlpKeyValue struct {
	Key   string
	Value map[string]json.RawMessage
}

// attrMap renders attributes as key → value, a string's without quotes.
func attrMap(kvs []otlpKeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		for _, v := range kv.Value {
			var s string
			if json.Unmarshal(v, &s) == nil {
				m[kv.Key] = s
			} else {
				m[kv.Key] = string(v)
			}
		}
	}
	return m
}

func (r *otlpReceiver) got() ([]otlpSpan, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.spans), slices.Clone(r.bad)
}

// tracedEnv is mm's environment in these tests: none of the caller's MM_
// or OTEL_ variables, then extra.
func tracedEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MM_") && !strings.HasPrefix(kv, "OTEL_") && !strings.HasPrefix(kv, "TRACE") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// tree renders the spans of one process as an indented tree, children in
// name order, each span's key attributes after its name; the parents
// outside the process are named by outside.
func tree(spans []otlpSpan, root string, keys ...string) string {
	kids := map[string][]otlpSpan{}
	for _, s := range spans {
		kids[s.ParentSpanID] = append(kids[s.ParentSpanID], s)
	}
	var b strings.Builder
	var walk func(parent string, depth int)
	walk = func(parent string, depth int) {
		k := kids[parent]
		sort.SliceStable(k, func(i, j int) bool { return label(k[i], keys) < label(k[j], keys) })
		for _, s := range k {
			fmt.Fprintf(&b, "%s%s\n", strings.Repeat("  ", depth), label(s, keys))
			walk(s.SpanID, depth+1)
		}
	}
	walk(root, 0)
	return b.String()
}

func label(s otlpSpan, keys []string) string {
	l := s.Name
	for _, k := range keys {
		if v, ok := s.Attrs[k]; ok {
			l += " " + k + "=" + v
		}
	}
	return l
}

// byPID splits spans by process, the asking mm's (whose root has no parent)
// first.
func byPID(t *testing.T, spans []otlpSpan) (parent, child []otlpSpan) {
	t.Helper()
	root := ""
	for _, s := range spans {
		if s.ParentSpanID == "" {
			root = s.PID
		}
	}
	for _, s := range spans {
		if s.PID == root {
			parent = append(parent, s)
		} else {
			child = append(child, s)
		}
	}
	return parent, child
}

func oneTrace(t *testing.T, spans []otlpSpan) string {
	t.Helper()
	if len(spans) == 0 {
		t.Fatal("no span reached the receiver")
	}
	id := spans[0].TraceID
	for _, s := range spans {
		if s.TraceID != id {
			t.Errorf("span %s is in trace %s, the others in %s", s.Name, s.TraceID, id)
		}
	}
	return id
}

func spanNamed(spans []otlpSpan, name string, attr, value string) []otlpSpan {
	var out []otlpSpan
	for _, s := range spans {
		if s.Name == name && (attr == "" || s.Attrs[attr] == value) {
			out = append(out, s)
		}
	}
	return out
}

var traceparentRE = regexp.MustCompile(`^00-([0-9a-f]{32})-([0-9a-f]{16})-01$`)

// TestTraceAcrossHandOffs is one trace through the real binaries: an mm -p
// whose model runs bash and asks an mm by file twice, with a preAsk hook.
// The asking mm's spans (turn, model calls, tool calls, hook runs,
// hand-offs) and the asked mm's (its turns, its model calls) reach the
// OTLP/HTTP receiver in one trace; each of the asked mm's turns is the
// child of its own hand-off — the second by the prompt's _meta, since the
// asked mm was started for the first; the hook and the bash tool read
// TRACEPARENT naming their span.
func TestTraceAcrossHandOffs(t *testing.T) {
	recv := newOTLPReceiver(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent.yaml": `model: script/main.yaml
yolo: true
mmConfigs:
  expert: expert.yaml
hooks:
  preAsk:
    - command: printenv TRACEPARENT >> hook-env.txt
`,
		"expert.yaml": "model: echo/expert\n",
		"main.yaml": `rules:
  - afterTool: ask_agent
    say: "main read: {{output}}"
  - when: '^ask (.+)$'
    calls:
      - name: bash
        args: {command: "printenv TRACEPARENT > bash-env.txt"}
      - name: ask_agent
        args: {agent: expert, question: "first {{1}}"}
      - name: ask_agent
        args: {agent: expert, question: "second {{1}}"}
  - say: "main: {{question}}"
`,
	})
	cmd := exec.Command(mmBin, "-p", "ask twice")
	cmd.Dir = dir
	cmd.Env = tracedEnv("OTEL_EXPORTER_OTLP_ENDPOINT=" + recv.URL)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mm -p: %v\n%s", err, out)
	}
	// The asked mm sends its spans as it exits, which the asking mm waits
	// for only a moment: give its request the time to arrive.
	var spans []otlpSpan
	var bad []string
	mustend.Eventually(mustend.WaitBound, func() bool {
		spans, bad = recv.got()
		return len(spanNamed(spans, "mm.turn", "", "")) == 3
	})
	if len(bad) > 0 {
		t.Errorf("the receiver refused: %q", bad)
	}
	traceID := oneTrace(t, spans)
	parent, child := byPID(t, spans)

	wantParent := `mm.turn mm.depth=0
  mm.model_call gen_ai.request.model=script/main.yaml
  mm.model_call gen_ai.request.model=script/main.yaml
  mm.tool_call mm.tool=ask_agent mm.tool_status=completed
    mm.hand_off mm.ask.agent=expert mm.ask.via=tool mm.ask.depth=0
      mm.hook_run mm.hook.event=preAsk mm.hook.decision=continue
  mm.tool_call mm.tool=ask_agent mm.tool_status=completed
    mm.hand_off mm.ask.agent=expert mm.ask.via=tool mm.ask.depth=0
      mm.hook_run mm.hook.event=preAsk mm.hook.decision=continue
  mm.tool_call mm.tool=bash mm.tool_status=completed
`
	keys := []string{"mm.depth", "gen_ai.request.model", "mm.tool", "mm.tool_status", "mm.ask.agent", "mm.ask.via", "mm.ask.depth", "mm.hook.event", "mm.hook.decision"}
	if got := tree(parent, "", keys...); got != wantParent {
		t.Errorf("the asking mm's spans:\n%s\nwant\n%s", got, wantParent)
	}
	handOffs := spanNamed(parent, "mm.hand_off", "", "")
	if len(handOffs) != 2 {
		t.Fatalf("%d hand-off spans, want 2", len(handOffs))
	}
	ho := map[string]bool{}
	for _, h := range handOffs {
		ho[h.SpanID] = true
		if got := h.Attrs["mm.ask.config"]; got != filepath.Join(dir, "expert.yaml") {
			t.Errorf("hand-off mm.ask.config = %q, want %q", got, filepath.Join(dir, "expert.yaml"))
		}
		if got := h.Attrs["mm.ask.agent_model"]; got != "echo/expert" {
			t.Errorf("hand-off mm.ask.agent_model = %q, want echo/expert", got)
		}
	}
	childTurns := spanNamed(child, "mm.turn", "", "")
	if len(childTurns) != 2 {
		t.Fatalf("the asked mm sent %d turns, want 2:\n%s", len(childTurns), tree(child, "", keys...))
	}
	for _, ct := range childTurns {
		if !ho[ct.ParentSpanID] {
			t.Errorf("an asked mm's turn has parent %s, not a hand-off span of the asking mm", ct.ParentSpanID)
		}
		delete(ho, ct.ParentSpanID)
		if got, want := tree(child, ct.ParentSpanID, keys...), "mm.turn mm.depth=1\n  mm.model_call gen_ai.request.model=echo/expert\n"; got != want {
			t.Errorf("an asked mm's turn:\n%s\nwant\n%s", got, want)
		}
	}

	// The hook's TRACEPARENT is its run's span; bash's is its tool call's.
	hookEnv, _ := os.ReadFile(filepath.Join(dir, "hook-env.txt"))
	hookRuns := map[string]bool{}
	for _, h := range spanNamed(parent, "mm.hook_run", "", "") {
		hookRuns[h.SpanID] = true
	}
	lines := strings.Fields(string(hookEnv))
	if len(lines) != 2 {
		t.Fatalf("hook-env.txt holds %q, want two TRACEPARENT lines", hookEnv)
	}
	for _, l := range lines {
		m := traceparentRE.FindStringSubmatch(l)
		if m == nil || m[1] != traceID || !hookRuns[m[2]] {
			t.Errorf("a preAsk hook read TRACEPARENT=%s, want 00-%s-<its hook run's span>-01", l, traceID)
		}
	}
	bashEnv, _ := os.ReadFile(filepath.Join(dir, "bash-env.txt"))
	bash := spanNamed(parent, "mm.tool_call", "mm.tool", "bash")
	if len(bash) != 1 || strings.TrimSpace(string(bashEnv)) != "00-"+traceID+"-"+bash[0].SpanID+"-01" {
		t.Errorf("bash read TRACEPARENT=%q, want its tool call's span", bashEnv)
	}
}

// TestTraceA2A is an A2A hand-off in one trace: mm --ask to an mm serve
// --a2a, both traced. The served turn is the child of the asking mm's
// hand-off (the traceparent header), with its model call under it.
func TestTraceA2A(t *testing.T) {
	recv := newOTLPReceiver(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"served.yaml": "model: echo/served\n"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	env := tracedEnv("OTEL_EXPORTER_OTLP_ENDPOINT=" + recv.URL)
	serve := exec.CommandContext(ctx, mmBin, "serve", "--a2a", "127.0.0.1:0", "--no-token", "--config", "served.yaml")
	serve.Dir = dir
	serve.Env = env
	stderr, _ := serve.StderrPipe()
	first, _ := startLined(t, serve, stderr)
	url := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+/) `).FindStringSubmatch(first)
	if url == nil {
		t.Fatalf("mm serve said %q", first)
	}
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: echo/main\nmmConfigs:\n  reviewer: {a2a: \"" + url[1] + "\"}\n"})
	ask := exec.CommandContext(ctx, mmBin, "--ask", "reviewer", "is it safe?")
	ask.Dir = dir
	ask.Env = env
	if out, err := ask.CombinedOutput(); err != nil {
		t.Fatalf("mm --ask: %v\n%s", err, out)
	}
	// SIGTERM at once, before the batch's second is up: mm serve sends
	// its spans as it exits.
	if err := serve.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = serve.Wait()

	spans, bad := recv.got()
	if len(bad) > 0 {
		t.Errorf("the receiver refused: %q", bad)
	}
	oneTrace(t, spans)
	parent, served := byPID(t, spans)
	keys := []string{"mm.ask.agent", "mm.ask.via", "mm.ask.agent_url", "mm.depth", "gen_ai.request.model"}
	want := "mm.hand_off mm.ask.agent=reviewer mm.ask.via=cli mm.ask.agent_url=" + url[1] + "\n"
	if got := tree(parent, "", keys...); got != want {
		t.Errorf("the asking mm's spans:\n%s\nwant\n%s", got, want)
	}
	if len(parent) != 1 {
		t.Fatalf("the asking mm sent %d spans, want its hand-off", len(parent))
	}
	want = "mm.turn mm.depth=0\n  mm.model_call gen_ai.request.model=echo/served\n"
	if got := tree(served, parent[0].SpanID, keys...); got != want {
		t.Errorf("mm serve's spans under the hand-off:\n%s\nwant\n%s", got, want)
	}
}

// TestTraceOffByDefault: without the OTEL_ variables, or with them turning
// tracing off, mm exports nothing and connects to nothing — not even the
// default endpoint, localhost:4318 — though a TRACEPARENT asks it to
// continue a trace; and the hook it runs reads the TRACEPARENT it was
// given, untouched.
func TestTraceOffByDefault(t *testing.T) {
	recv := newOTLPReceiver(t)
	var conns sync.WaitGroup
	accepted := 0
	var mu sync.Mutex
	ln, err := net.Listen("tcp", "127.0.0.1:4318")
	if err == nil {
		defer ln.Close()
		conns.Go(func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				mu.Lock()
				accepted++
				mu.Unlock()
				c.Close()
			}
		})
	} else {
		t.Logf("127.0.0.1:4318 is taken (%v): the default endpoint is not watched", err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent.yaml": "model: echo/main\nhooks:\n  preGeneration:\n    - command: printenv TRACEPARENT >> hook-env.txt\n",
	})
	given := "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	for _, vars := range [][]string{
		{},
		{"OTEL_TRACES_EXPORTER=none", "OTEL_EXPORTER_OTLP_ENDPOINT=" + recv.URL},
		{"OTEL_SDK_DISABLED=true", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=" + recv.URL + "/v1/traces"},
	} {
		cmd := exec.Command(mmBin, "-p", "hello")
		cmd.Dir = dir
		cmd.Env = tracedEnv(append(vars, "TRACEPARENT="+given)...)
		out, err := cmd.CombinedOutput()
		if err != nil || string(out) != "hello\n" {
			t.Errorf("mm -p with %q: %v\n%s", vars, err, out)
		}
	}
	if ln != nil {
		ln.Close()
		conns.Wait()
	}
	if spans, bad := recv.got(); len(spans) > 0 || len(bad) > 0 {
		t.Errorf("with tracing off, the receiver got %d spans and %q", len(spans), bad)
	}
	if accepted != 0 {
		t.Errorf("with tracing off, mm connected %d times to the default endpoint", accepted)
	}
	hookEnv, _ := os.ReadFile(filepath.Join(dir, "hook-env.txt"))
	if want := strings.Repeat(given+"\n", 3); string(hookEnv) != want {
		t.Errorf("the hook read TRACEPARENT\n%s\nwant it as given\n%s", hookEnv, want)
	}
}

// TestTraceBadVariables: a variable mm cannot follow is one line on
// stderr, and the turn goes on, untraced.
func TestTraceBadVariables(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: echo/main\n"})
	for _, tc := range []struct{ env, want string }{
		{"OTEL_TRACES_EXPORTER=zipkin", "mm: OTEL_TRACES_EXPORTER=zipkin is not one mm has: set it to otlp or none (spans are not exported)\n"},
		{"OTEL_EXPORTER_OTLP_ENDPOINT=localhost:4318", "mm: OTEL_EXPORTER_OTLP_ENDPOINT=localhost:4318 is not an http:// or https:// URL: set it to e.g. http://localhost:4318 (spans are not exported)\n"},
		{"OTEL_EXPORTER_OTLP_PROTOCOL=grpc", "mm: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not one mm has: mm sends OTLP over HTTP (http/json); point the endpoint at an OTLP/HTTP receiver (port 4318) (spans are not exported)\n"},
	} {
		cmd := exec.Command(mmBin, "-p", "hello")
		cmd.Dir = dir
		cmd.Env = tracedEnv(tc.env)
		if tc.env == "OTEL_EXPORTER_OTLP_PROTOCOL=grpc" {
			cmd.Env = append(cmd.Env, "OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:9")
		}
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("%s: mm -p: %v", tc.env, err)
		}
		if stdout.String() != "hello\n" || stderr.String() != tc.want {
			t.Errorf("%s: stdout %q, stderr\n%q\nwant\n%q", tc.env, stdout.String(), stderr.String(), tc.want)
		}
	}
}

// TestTraceDeadCollector: a receiver that never answers holds mm's exit
// for tracing.FlushBound at most, with one line saying the spans were not
// sent.
func TestTraceDeadCollector(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of waiting: the full lane runs it")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c) // read nothing, answer nothing
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	}()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: echo/main\n"})
	cmd := exec.Command(mmBin, "-p", "hello")
	cmd.Dir = dir
	cmd.Env = tracedEnv("OTEL_EXPORTER_OTLP_ENDPOINT=http://" + ln.Addr().String())
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	go func() { done <- cmd.Run() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("mm -p: %v", err)
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("mm -p did not exit with a receiver that never answers")
	}
	want := "mm: tracing: spans not exported within 1s: is the OTLP receiver up?\n"
	if stdout.String() != "hello\n" || stderr.String() != want {
		t.Errorf("stdout %q, stderr %q, want %q", stdout.String(), stderr.String(), want)
	}
}

// TestTraceSignal: Ctrl-C during a turn ends it, and its spans — the turn
// and the model call, failed as cancelled — are sent on the way out.
func TestTraceSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of waiting: the full lane runs it")
	}
	recv := newOTLPReceiver(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent.yaml": "model: script/slow.yaml\n",
		"slow.yaml":  "rules:\n  - say: \"a slow answer, piece by piece\"\n    pieces: 10\n    delay: 1s\n",
	})
	cmd := exec.Command(mmBin, "-p", "hello")
	cmd.Dir = dir
	cmd.Env = tracedEnv("OTEL_EXPORTER_OTLP_ENDPOINT=" + recv.URL)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The first piece: the turn is under way, nine seconds from its end.
	if _, err := stdout.Read(make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil || cmd.ProcessState.ExitCode() != 130 {
		t.Errorf("mm -p after SIGINT: %v, want exit status 130", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("mm -p took %v to end after SIGINT: the turn was not cancelled", took)
	}
	spans, _ := recv.got()
	got := tree(spans, "", "gen_ai.request.model")
	if want := "mm.turn\n  mm.model_call gen_ai.request.model=script/slow.yaml\n"; got != want {
		t.Errorf("spans after SIGINT:\n%s\nwant\n%s", got, want)
	}
	got = ""
	for _, sp := range spans {
		got += sp.Name + " " + sp.Status + "\n"
	}
	if want := "mm.model_call error: context canceled\nmm.turn error: cancelled\n"; got != want {
		t.Errorf("spans after SIGINT:\n%s\nwant\n%s", got, want)
	}
}

// TestTraceOverSSH: an mm asked over ssh continues the asking mm's trace
// from the prompt's _meta alone — ssh passes no TRACEPARENT — and exports
// where its own machine's environment says (here sshd's SetEnv).
func TestTraceOverSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an sshd: the full lane")
	}
	recv := newOTLPReceiver(t)
	s := startSSHD(t, "OTEL_EXPORTER_OTLP_ENDPOINT="+recv.URL)
	writeFiles(t, s.dir, map[string]string{
		"agent.yaml": fmt.Sprintf("model: echo/main\nmmConfigs:\n  expert:\n    ssh: mmtest\n    sshArgs: [-F, %s]\n    config: %s\n    mm: %s\n",
			s.clientConfig, s.path("remote.yaml"), mmBin),
		"remote.yaml": "model: echo/remote\nhooks:\n  preGeneration:\n    - command: printenv TRACEPARENT > \"$MM_CONFIG_DIR/remote-env.txt\"\n",
	})
	cmd := exec.Command(mmBin, "--ask", "expert", "hello")
	cmd.Dir = s.dir
	cmd.Env = tracedEnv("OTEL_EXPORTER_OTLP_ENDPOINT=" + recv.URL)
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "hello\n" {
		t.Fatalf("mm --ask expert: %v\n%s", err, out)
	}
	var spans []otlpSpan
	mustend.Eventually(mustend.WaitBound, func() bool {
		spans, _ = recv.got()
		return len(spanNamed(spans, "mm.turn", "", "")) == 1
	})
	traceID := oneTrace(t, spans)
	local, remote := byPID(t, spans)
	keys := []string{"mm.ask.agent", "mm.ask.agent_host", "mm.depth", "gen_ai.request.model", "mm.hook.event"}
	if got, want := tree(local, "", keys...), "mm.hand_off mm.ask.agent=expert mm.ask.agent_host=mmtest\n"; got != want {
		t.Fatalf("the asking mm's spans:\n%s\nwant\n%s", got, want)
	}
	want := "mm.turn mm.depth=1\n  mm.hook_run mm.hook.event=preGeneration\n  mm.model_call gen_ai.request.model=echo/remote\n"
	if got := tree(remote, local[0].SpanID, keys...); got != want {
		t.Errorf("the remote mm's spans under the hand-off:\n%s\nwant\n%s", got, want)
	}
	// The remote hook's TRACEPARENT is its own run's, in the same trace.
	env := strings.TrimSpace(s.read(t, "remote-env.txt"))
	if m := traceparentRE.FindStringSubmatch(env); m == nil || m[1] != traceID {
		t.Errorf("the remote hook read TRACEPARENT=%q, want one in trace %s", env, traceID)
	}
}
