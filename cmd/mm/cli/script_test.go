package cli

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mm-agent/mm/internal/mustend"
)

// mmBin is the real mm binary the scripts run, built once in TestMain so
// that child agents (started as $MM_BIN -acp) are the same binary.
var mmBin string

// fakeAgentBin is agentproc's fake ACP agent, built once in TestMain.
var fakeAgentBin string

// coverBuild is set when mmBin is built with -cover, because GOCOVERDIR is
// set: every run of it then writes its coverage there (see
// docs/explanation/testing.md).
var coverBuild bool

// goEnv keeps the go command's caches for scripts that build wasm modules
// (their HOME is their work folder).
var goEnv []string

func TestMain(m *testing.M) {
	if os.Getenv(noLandlockEnv) != "" {
		execWithoutLandlock() // the scripts' nolandlock: never returns
	}
	dir, err := os.MkdirTemp("", "mm-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	mmBin = filepath.Join(dir, "mm")
	// The tests that run mm with this process's environment save their
	// sessions here, not in the home folder (the scripts' HOME is their
	// work folder).
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	// Nor do they read the person's own agent.yaml, AGENTS.md, skills and
	// commands: an empty mm folder of their own.
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	// Without VCS stamping, the version is "devel" whatever the commit,
	// and the scripts can show it.
	args := []string{"build", "-buildvcs=false"}
	if os.Getenv("GOCOVERDIR") != "" {
		coverBuild = true
		args = append(args, "-cover", "-coverpkg=github.com/mm-agent/mm/...")
	}
	build := exec.Command("go", append(args, "-o", mmBin, "..")...)
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build", mmBin+":", err)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	// The fake ACP agent of agentproc's tests: an agent other than mm for
	// the scripts' agents by command ($FAKEAGENT).
	fakeAgentBin = filepath.Join(dir, "fakeagent")
	build = exec.Command("go", "build", "-o", fakeAgentBin, "../../../internal/agentproc/testdata/fakeagent")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build the fake agent:", err)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err == nil {
		f := strings.Fields(string(out))
		if len(f) == 3 {
			goEnv = []string{"GOCACHE=" + f[0], "GOMODCACHE=" + f[1], "GOPATH=" + f[2]}
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestScripts runs testdata/script/*.txtar: one behaviour of the real
// binary per file. MM_UPDATE_SCRIPTS=1 rewrites the files a cmp compares
// with, to review with git diff.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		Setup:         setupScript,
		UpdateScripts: os.Getenv("MM_UPDATE_SCRIPTS") != "",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"nochildren":   cmdNoChildren,
			"outputschema": cmdOutputSchema,
			"waitfile":     cmdWaitFile,
			"freeport":     cmdFreePort,
			"waitport":     cmdWaitPort,
			"lastsession":  cmdLastSession,
			"httpreq":      cmdHTTPReq,
			"docexample":   cmdDocExample,
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "node":
				_, err := exec.LookPath("node")
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// setupScript gives a script the built mm first in $PATH, its work folder
// as $HOME, none of mm's variables of the test's own environment, and
// $EXAMPLES, $FAKEAGENT and $MMDIR (mm's folder).
func setupScript(env *testscript.Env) error {
	env.Setenv("PATH", filepath.Dir(mmBin)+string(os.PathListSeparator)+env.Getenv("PATH"))
	if err := writeNoLandlock(filepath.Dir(mmBin)); err != nil {
		return err
	}
	env.Setenv("MMDIR", filepath.Dir(mmBin))
	env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
	env.Setenv("HOME", env.WorkDir)
	env.Setenv("MM_MODEL", "")
	env.Setenv("MM_CONFIG", "")
	env.Setenv("MM_ASKED_DEPTH", "")
	env.Setenv("MM_ASK_CHAIN", "")
	env.Setenv("MM_ASK_MAX_DEPTH", "")
	env.Setenv("MM_BIN", "")
	env.Setenv("EXAMPLES", filepath.Join(repoRoot(), "examples"))
	env.Setenv("FAKEAGENT", fakeAgentBin)
	if coverBuild {
		env.Setenv("GOCOVERDIR", os.Getenv("GOCOVERDIR"))
	}
	for _, kv := range goEnv {
		k, v, _ := strings.Cut(kv, "=")
		env.Setenv(k, v)
	}
	return nil
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// cmdNoChildren asserts that no process whose command line contains the
// given text (default: the mm binary) still runs in the script's work
// folder (so that scripts running in parallel do not see each other's).
func cmdNoChildren(ts *testscript.TestScript, neg bool, args []string) {
	needle := mmBin
	if len(args) > 0 {
		needle = strings.Join(args, " ")
	}
	work := ts.Getenv("WORK")
	gone := func() bool { return len(processesMatching(needle, work)) == 0 }
	if !mustend.Eventually(5*time.Second, gone) && !neg {
		ts.Fatalf("processes left behind: %s", strings.Join(processesMatching(needle, work), "; "))
	}
}

func processesMatching(needle, work string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		cmd := strings.ReplaceAll(string(b), "\x00", " ")
		cwd, _ := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if cwd != work && !strings.HasPrefix(cwd, work+"/") && !strings.Contains(cmd, work) {
			continue
		}
		if strings.Contains(cmd, needle) && syscall.Kill(pid, 0) == nil {
			if st, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); strings.Contains(string(st), ") Z ") {
				out = append(out, fmt.Sprintf("%d (zombie) %s", pid, cmd))
				continue
			}
			out = append(out, fmt.Sprintf("%d %s", pid, cmd))
		}
	}
	return out
}

// cmdFreePort sets the variable named to a loopback TCP port free now, for
// a server the script starts (mm serve --a2a).
func cmdFreePort(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: freeport VAR")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := ln.Addr().(*net.TCPAddr).Port
	ts.Check(ln.Close())
	ts.Setenv(args[0], strconv.Itoa(port))
}

// cmdWaitPort waits for a server to listen on a loopback port.
func cmdWaitPort(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: waitport port")
	}
	up := func() bool {
		c, err := net.Dial("tcp", "127.0.0.1:"+args[0])
		if err == nil {
			c.Close()
		}
		return err == nil
	}
	if !mustend.Eventually(mustend.WaitBound, up) {
		ts.Fatalf("nothing listens on port %s after %v", args[0], mustend.WaitBound)
	}
}

// cmdWaitFile waits for a file to exist.
func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: waitfile path")
	}
	p := ts.MkAbs(args[0])
	if !mustend.Eventually(mustend.WaitBound, func() bool { _, err := os.Stat(p); return err == nil }) {
		ts.Fatalf("%s did not appear in %v", args[0], mustend.WaitBound)
	}
}

// cmdLastSession sets the variable it names to the id of the session saved
// last ($HOME/.local/state/mm/sessions: ids sort by time), so that a
// script can resume it.
func cmdLastSession(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: lastsession VAR")
	}
	// The session files only: the asked agents' are in a folder of theirs.
	files, err := filepath.Glob(filepath.Join(ts.Getenv("HOME"), ".local", "state", "mm", "sessions", "*.jsonl"))
	ts.Check(err)
	if len(files) == 0 {
		ts.Fatalf("no saved session")
	}
	ts.Setenv(args[0], strings.TrimSuffix(filepath.Base(files[len(files)-1]), ".jsonl"))
}

// cmdHTTPReq sends one HTTP request and writes its status line and body
// to a file, for the script to read: httpreq METHOD URL OUTFILE [Name:
// value]… [body=TEXT]. A header Host: sets the request's Host.
func cmdHTTPReq(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 3 || neg {
		ts.Fatalf("usage: httpreq METHOD URL OUTFILE [Name: value]... [body=TEXT]")
	}
	var body io.Reader
	var headers [][2]string
	for _, a := range args[3:] {
		if b, ok := strings.CutPrefix(a, "body="); ok {
			body = strings.NewReader(b)
			continue
		}
		k, v, ok := strings.Cut(a, ":")
		if !ok {
			ts.Fatalf("httpreq: %q is neither a header nor body=", a)
		}
		headers = append(headers, [2]string{k, strings.TrimSpace(v)})
	}
	req, err := http.NewRequest(args[0], args[1], body)
	ts.Check(err)
	for _, h := range headers {
		if strings.EqualFold(h[0], "Host") {
			req.Host = h[1]
			continue
		}
		req.Header.Set(h[0], h[1])
	}
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Do(req)
	ts.Check(err)
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), append([]byte(resp.Status+"\n"), b...), 0o644))
}
