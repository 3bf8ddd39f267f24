//go:build unix

package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/mustend"
	"github.com/mm-agent/mm/internal/proc/proctest"
	"github.com/mm-agent/mm/internal/tools"
)

// buildServer builds testdata/mcpserver, a real MCP server over stdio.
func buildServer(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the test server")
	}
	bin := filepath.Join(t.TempDir(), "mcpserver")
	out, err := exec.Command(gobin, "build", "-o", bin, "./testdata/mcpserver").CombinedOutput()
	if err != nil {
		t.Fatalf("build the test server: %v\n%s", err, out)
	}
	return bin
}

func TestStdioMCP(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts real MCP servers: not in the -short lane")
	}
	bin := buildServer(t)
	env := tools.Env{Cwd: t.TempDir(), Environ: os.Environ()}
	ctx := context.Background()

	t.Run("start, call, crash", func(t *testing.T) {
		set, errs := Start(ctx, []tools.MCPServer{
			{Name: "srv", Command: bin},
			{Name: "nope", Command: "mm-no-such-command", Args: []string{"--flag"}},
			{Name: "broken", Command: bin, Args: []string{"-v"}, Env: map[string]string{"MCPSERVER_STARTFAIL": "1"}},
		}, env, time.Minute)
		defer set.Close()
		wantErrs := []string{
			fmt.Sprintf(`mcp server "broken": start %q: exited (exit status 2); stderr: missing API key`, commandLine(tools.MCPServer{Command: bin, Args: []string{"-v"}})),
			`mcp server "nope": start "mm-no-such-command --flag": exec: "mm-no-such-command": executable file not found in $PATH`,
		}
		if got := errorStrings(errs); !slices.Equal(got, wantErrs) {
			t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantErrs, "\n"))
		}

		var names []string
		for _, tool := range set.Tools() {
			names = append(names, tool.Spec().Name)
		}
		slices.Sort(names)
		if want := []string{"srv__crash", "srv__echo", "srv__fail", "srv__slow"}; !slices.Equal(names, want) {
			t.Errorf("tools %q, want %q", names, want)
		}

		call := func(ctx context.Context, name, input string) tools.Result {
			return findTool(t, set, name).Run(ctx, env, json.RawMessage(input))
		}
		check := func(what string, res tools.Result, want string, wantErr bool) {
			t.Helper()
			if res.Output != want || res.IsError != wantErr {
				t.Errorf("%s: got %q (IsError %v), want %q (IsError %v)", what, res.Output, res.IsError, want, wantErr)
			}
		}
		check("echo", call(ctx, "srv__echo", `{"text": "hello"}`), "hello", false)
		check("fail", call(ctx, "srv__fail", `{}`), "it went wrong", true)

		slowCtx, cancel := context.WithTimeout(ctx, time.Second)
		check("slow", call(slowCtx, "srv__slow", `{"seconds": 100}`), `mcp server "srv" failed: no answer from "slow" in time`, true)
		cancel()
		check("echo after slow", call(ctx, "srv__echo", `{"text": "still here"}`), "still here", false)

		crashed := `mcp server "srv" failed: exited (exit status 3); stderr: crashing on purpose`
		check("crash", call(ctx, "srv__crash", `{}`), crashed, true)
		check("echo after crash", call(ctx, "srv__echo", `{"text": "hello"}`), crashed, true)

		var statuses []string
		for _, st := range set.Servers() {
			tools := slices.Sorted(slices.Values(st.Tools))
			statuses = append(statuses, fmt.Sprintf("%s %q %v", st.Name, tools, st.Err))
		}
		wantStatuses := []string{
			`broken [] ` + wantErrs[0],
			`nope [] ` + wantErrs[1],
			`srv ["srv__crash" "srv__echo" "srv__fail" "srv__slow"] exited (exit status 3); stderr: crashing on purpose`,
		}
		if !slices.Equal(statuses, wantStatuses) {
			t.Errorf("Servers():\n%s\nwant:\n%s", strings.Join(statuses, "\n"), strings.Join(wantStatuses, "\n"))
		}
		if err := set.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})

	t.Run("a server that never answers", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		srv := tools.MCPServer{Name: "quiet", Command: bin, Env: map[string]string{"MCPSERVER_SILENT": "1", "MCPSERVER_CHILD_PID_FILE": pidFile}}
		set, errs := Start(ctx, []tools.MCPServer{srv}, env, time.Second)
		defer set.Close()
		want := fmt.Sprintf(`mcp server "quiet": start %q: no answer within 1s`, commandLine(srv))
		if got := errorStrings(errs); !slices.Equal(got, []string{want}) {
			t.Errorf("errors %q, want %q", got, want)
		}
		waitGone(t, readPID(t, pidFile))
	})

	t.Run("Close kills the process group", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		set, errs := start(ctx, []tools.MCPServer{{Name: "stubborn", Command: bin,
			Env: map[string]string{"MCPSERVER_IGNORE_EOF": "1", "MCPSERVER_CHILD_PID_FILE": pidFile}}}, env, time.Minute)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		server := set.conns[0].proc.cmd.Process.Pid
		child := readPID(t, pidFile)
		if err := set.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		waitGone(t, server)
		waitGone(t, child)
	})

	t.Run("a cancelled start", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		srv := tools.MCPServer{Name: "srv", Command: bin}
		set, errs := Start(cctx, []tools.MCPServer{srv}, env, time.Minute)
		defer set.Close()
		want := fmt.Sprintf(`mcp server "srv": start %q: context canceled`, commandLine(srv))
		if got := errorStrings(errs); !slices.Equal(got, []string{want}) {
			t.Errorf("errors %q, want %q", got, want)
		}
	})
}

func TestStartBadConfig(t *testing.T) {
	set, errs := Start(context.Background(), []tools.MCPServer{
		{Name: "a", Command: " "},
		{Name: "", Command: "x"},
		{Name: "b", Command: "mm-no-such-command"},
		{Name: "b", Command: "mm-no-such-command"},
	}, tools.Env{}, 0)
	defer set.Close()
	want := []string{
		`mcp server "": a server needs a name`,
		`mcp server "a": command is empty`,
		`mcp server "b": start "mm-no-such-command": exec: "mm-no-such-command": executable file not found in $PATH`,
		`mcp server "b": listed twice`,
	}
	if got := errorStrings(errs); !slices.Equal(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(set.Tools()) != 0 || len(set.Servers()) != 4 {
		t.Errorf("Tools() = %v, Servers() = %v", set.Tools(), set.Servers())
	}
}

func TestStartNone(t *testing.T) {
	set, errs := Start(context.Background(), nil, tools.Env{}, 0)
	if len(errs) != 0 || len(set.Tools()) != 0 || len(set.Servers()) != 0 || set.Close() != nil {
		t.Errorf("Start(nil) = %v, %v", set, errs)
	}
}

func errorStrings(errs []error) []string {
	var s []string
	for _, err := range errs {
		s = append(s, err.Error())
	}
	return s
}

// waitGone waits until process pid has ended (a zombie counts: it is its
// parent's to reap), and fails the test if it does not.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	mustend.WaitFor(t, fmt.Sprintf("process %d to end", pid), func() bool { return proctest.Gone(pid) })
}

// readPID reads the pid the test server wrote, waiting for it to be there.
func readPID(t *testing.T, file string) int {
	t.Helper()
	pid := 0
	if !mustend.Eventually(mustend.WaitBound, func() bool {
		data, err := os.ReadFile(file)
		n, perr := strconv.Atoi(string(data))
		pid = n
		return err == nil && perr == nil
	}) {
		t.Fatalf("no pid in %s", file)
	}
	return pid
}
