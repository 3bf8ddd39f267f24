package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/tools"
	"github.com/mm-agent/mm/internal/tracing"
)

// mcpConfig is a configuration with two MCP servers, fs and git.
func mcpConfig(t *testing.T) *mmconfigs.Config {
	t.Helper()
	cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	cfg.Model = "echo/x"
	cfg.MCPServers = map[string]tools.MCPServer{
		"git": {Name: "git", Command: "git-mcp", Args: []string{"$MM_CONFIG_DIR"}},
		"fs":  {Name: "fs", Command: "fs-mcp"},
	}
	return cfg
}

// noClient is the line of a server that a binary without the MCP client
// was asked to start.
func noClient(name string) string {
	return `mcp server "` + name + `": this session has no MCP client`
}

// TestMCPWithoutClient: without a starter (a build that leaves
// internal/tools/mcptools out), every server listed — the configuration's and the
// editor's — is a warning and a failed server, and the session goes on
// without their tools.
func TestMCPWithoutClient(t *testing.T) {
	cfg := mcpConfig(t)
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: &recSink{},
		MCPServers: []MCPServer{{Name: "web", Command: "web-mcp"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{noClient("fs"), noClient("git"), noClient("web")}
	if got := s.Warnings(); !slices.Equal(got, want) {
		t.Errorf("Warnings:\n%q\nwant\n%q", got, want)
	}
	var statuses []string
	for _, st := range s.MCPServers() {
		if st.Err == nil || len(st.Tools) != 0 {
			t.Errorf("server %s: tools %q, error %v; want no tools and an error", st.Name, st.Tools, st.Err)
			continue
		}
		statuses = append(statuses, st.Err.Error())
	}
	if !slices.Equal(statuses, want) {
		t.Errorf("MCPServers' errors:\n%q\nwant\n%q", statuses, want)
	}
	if got, want := s.MCPBanner(), "mcp: fs(failed), git(failed), web(failed)"; got != want {
		t.Errorf("MCPBanner = %q, want %q", got, want)
	}
	if got, want := s.order, []string{"bash", "read_file", "write_file", "edit_file"}; !slices.Equal(got, want) {
		t.Errorf("tools offered %q, want %q", got, want)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}

	var probed []string
	for _, st := range ProbeMCP(context.Background(), nil, cfg, cfg.Dir, nil) {
		probed = append(probed, st.Err.Error())
	}
	if want := want[:2]; !slices.Equal(probed, want) {
		t.Errorf("ProbeMCP without a starter:\n%q\nwant\n%q", probed, want)
	}
}

// fakeStarter is a tools.MCPStarter that starts nothing: it keeps what it
// was asked and returns set.
type fakeStarter struct {
	calls   int
	servers []tools.MCPServer
	env     tools.Env
	set     *fakeMCPSet
}

func (f *fakeStarter) start(_ context.Context, servers []tools.MCPServer, env tools.Env, _ time.Duration) (tools.MCPTools, []error) {
	f.calls++
	f.servers, f.env = servers, env
	return f.set, []error{errors.New(`mcp server "git": start "git-mcp": exited`)}
}

// fakeMCPSet is a started set whose server fs offers one tool and git failed.
type fakeMCPSet struct{ closed int }

func (f *fakeMCPSet) Tools() []tools.Tool { return []tools.Tool{fakeMCPTool{}} }
func (f *fakeMCPSet) Servers() []tools.MCPServerStatus {
	return []tools.MCPServerStatus{
		{Name: "fs", Tools: []string{"fs__read"}},
		{Name: "git", Err: errors.New("exited")},
	}
}
func (f *fakeMCPSet) Close() error { f.closed++; return nil }

type fakeMCPTool struct{}

func (fakeMCPTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "fs__read", Parameters: json.RawMessage(`{"type":"object"}`)}
}
func (fakeMCPTool) Run(context.Context, tools.Env, json.RawMessage) tools.Result {
	return tools.Result{Output: "read"}
}

// TestMCPStarter: the session starts its servers with Options.StartMCP —
// the configuration's expanded, in its cwd — offers their tools after the
// built-ins, reports them, and stops them once on Close; mm check's probe
// uses the starter it is given the same way.
func TestMCPStarter(t *testing.T) {
	cfg := mcpConfig(t)
	f := &fakeStarter{set: &fakeMCPSet{}}
	s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: &recSink{}, StartMCP: f.start})
	if err != nil {
		t.Fatal(err)
	}
	wantServers := []tools.MCPServer{{Name: "fs", Command: "fs-mcp"}, {Name: "git", Command: "git-mcp", Args: []string{cfg.Dir}}}
	if f.calls != 1 || !reflect.DeepEqual(f.servers, wantServers) || f.env.Cwd != cfg.Dir {
		t.Errorf("started %d time(s): %+v in %q, want once: %+v in %q", f.calls, f.servers, f.env.Cwd, wantServers, cfg.Dir)
	}
	if got, want := s.Warnings(), []string{`mcp server "git": start "git-mcp": exited`}; !slices.Equal(got, want) {
		t.Errorf("Warnings = %q, want %q", got, want)
	}
	if got, want := s.order, []string{"bash", "read_file", "write_file", "edit_file", "fs__read"}; !slices.Equal(got, want) {
		t.Errorf("tools offered %q, want %q", got, want)
	}
	if got, want := s.MCPBanner(), "mcp: fs(1), git(failed)"; got != want {
		t.Errorf("MCPBanner = %q, want %q", got, want)
	}
	s.Close()
	s.Close()
	if f.set.closed != 2 {
		t.Errorf("the set was closed %d time(s), want once per Close (it is idempotent)", f.set.closed)
	}

	probe := &fakeStarter{set: &fakeMCPSet{}}
	sts := ProbeMCP(context.Background(), probe.start, cfg, cfg.Dir, nil)
	if probe.calls != 1 || probe.set.closed != 1 || len(sts) != 2 || sts[0].Name != "fs" || sts[1].Err == nil {
		t.Errorf("ProbeMCP: %d start(s), %d close(s), statuses %+v; want one each, fs then git failed", probe.calls, probe.set.closed, sts)
	}
}

// TestMCPServersJoinTheTrace: a traced session's MCP servers are started
// with TRACEPARENT, as its hooks and tools are.
func TestMCPServersJoinTheTrace(t *testing.T) {
	cfg := mcpConfig(t)
	tp := sdktrace.NewTracerProvider()
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	const given = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	ctx := tracing.FromEnviron(tracing.WithProvider(context.Background(), tracing.NewProvider(tp.Tracer(tracing.Scope), tp.Shutdown)),
		[]string{"TRACEPARENT=" + given})
	f := &fakeStarter{set: &fakeMCPSet{}}
	s, err := New(ctx, Options{Config: cfg, Cwd: cfg.Dir, Sink: &recSink{}, StartMCP: f.start})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := envMap(f.env.Environ)["TRACEPARENT"]; got != given {
		t.Errorf("the servers were started with TRACEPARENT=%q, want %s", got, given)
	}
}

// TestNoMCPServers: a session without servers starts none, with or
// without a starter, and its MCP methods work on the set it does not have.
func TestNoMCPServers(t *testing.T) {
	f := &fakeStarter{}
	for _, start := range []tools.MCPStarter{nil, f.start} {
		cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
		cfg.Model = "echo/x"
		s, err := New(context.Background(), Options{Config: cfg, Cwd: cfg.Dir, Sink: &recSink{}, StartMCP: start})
		if err != nil {
			t.Fatal(err)
		}
		if s.MCPServers() != nil || s.MCPBanner() != "" || len(s.Warnings()) != 0 || s.Close() != nil {
			t.Errorf("no servers: MCPServers %v, banner %q, warnings %q", s.MCPServers(), s.MCPBanner(), s.Warnings())
		}
		if sts := ProbeMCP(context.Background(), start, cfg, cfg.Dir, nil); sts != nil {
			t.Errorf("ProbeMCP without servers = %+v", sts)
		}
	}
	if f.calls != 0 {
		t.Errorf("the starter was called %d time(s) for no server", f.calls)
	}
}
