// Package ollamatest runs a real Ollama for mm's tests and benchmarks: the
// one test/ollama/build.sh builds from the pinned Go module, serving models
// that test/ollama's ggufgen writes with random weights. Such a model
// answers noise, but the server is Ollama's own: its HTTP, streaming,
// usage counts, templates, tool support, grammars, context handling,
// slots and prompt cache, and its debug log, which says how many prompt
// tokens each request found in a slot's cache.
//
// Each Start serves on its own free loopback port with its own
// OLLAMA_MODELS, and is stopped when the test ends.
package ollamatest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BinEnv names the folder that holds ollama and ggufgen, when they are not
// in test/ollama/bin. RequireEnv, set (.ci/run sets it), turns a missing
// build into a failure instead of a skip.
const (
	BinEnv     = "MM_OLLAMA_BIN"
	RequireEnv = "MM_OLLAMA_REQUIRED"
)

// Bin is the folder holding the ollama and ggufgen binaries, or "" and why
// not.
func Bin() (string, string) {
	dir := os.Getenv(BinEnv)
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			return "", err.Error()
		}
		dir = filepath.Join(root, "test", "ollama", "bin")
	}
	for _, name := range []string{"ollama", "ggufgen"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return "", fmt.Sprintf("no real Ollama: %s is missing; build it with test/ollama/build.sh (or set %s to the folder holding ollama and ggufgen)",
				filepath.Join(dir, name), BinEnv)
		}
	}
	return dir, ""
}

// need returns the binaries' folder, or skips t (fails it when RequireEnv
// is set) saying how to build them.
func need(t testing.TB) string {
	t.Helper()
	dir, why := Bin()
	if dir != "" {
		return dir
	}
	if os.Getenv(RequireEnv) != "" {
		t.Fatalf("%s (and %s is set)", why, RequireEnv)
	}
	t.Skip(why)
	return ""
}

// moduleRoot is the folder of mm's go.mod, above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(b, []byte("module github.com/mm-agent/mm\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no real Ollama: mm's go.mod is not above %s", dir)
		}
		dir = parent
	}
}

// Server is an ollama serve of a test's own.
type Server struct {
	// Host is its address as OLLAMA_HOST takes it (127.0.0.1:port), URL
	// its root (http://127.0.0.1:port).
	Host, URL string
	bin       string
	env       []string
	logPath   string
	work      string
	cmd       *exec.Cmd
	mu        sync.Mutex
	ggufs     map[Shape]string
}

// Start starts ollama serve with OLLAMA_DEBUG=1, its own models folder and
// free port, and env (OLLAMA_NUM_PARALLEL=2…) laid over that; it returns
// once the server answers. It is stopped when t ends.
func Start(t testing.TB, env ...string) *Server {
	t.Helper()
	bin := need(t)
	work := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("a free port for ollama: %v", err)
	}
	host := l.Addr().String()
	l.Close()
	s := &Server{Host: host, URL: "http://" + host, bin: bin, work: work,
		logPath: filepath.Join(work, "serve.log"), ggufs: map[Shape]string{}}
	s.env = append(os.Environ(),
		"OLLAMA_HOST="+host,
		"OLLAMA_MODELS="+filepath.Join(work, "models"),
		"OLLAMA_DEBUG=1",
		"OLLAMA_NOPRUNE=1",
		"OLLAMA_KEEP_ALIVE=10m",
		"HOME="+work,
	)
	s.env = append(s.env, env...)
	logf, err := os.Create(s.logPath)
	if err != nil {
		t.Fatal(err)
	}
	s.cmd = exec.Command(filepath.Join(bin, "ollama"), "serve")
	s.cmd.Env = s.env
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	// Its own process group, so that its runners go with it.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start ollama serve: %v", err)
	}
	exited := make(chan struct{})
	go func() { s.cmd.Wait(); logf.Close(); close(exited) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		if t.Failed() {
			t.Logf("ollama's log (%s), its last lines:\n%s", s.logPath, tail(s.Log(), 40))
		}
	})
	up := func() bool {
		resp, err := http.Get(s.URL + "/api/version")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	if !eventually(30*time.Second, func() bool {
		select {
		case <-exited:
			return true
		default:
		}
		return up()
	}) || !up() {
		t.Fatalf("ollama serve did not come up at %s; its log:\n%s", s.URL, tail(s.Log(), 40))
	}
	return s
}

// Shape is a generated model's size, as ggufgen's flags take it. The zero
// Shape is ggufgen's default: 2 blocks 64 wide, some 100k parameters.
type Shape struct {
	Embd, Layers, FF, Heads, KVHeads int
}

// Big is tens of millions of parameters (25M, as Ollama counts them):
// prefill costs milliseconds a token on a laptop's CPU, tens on a shared
// one, as a real model's does more.
var Big = Shape{Embd: 512, Layers: 8, FF: 1536, Heads: 8, KVHeads: 4}

// Model is a model to create.
type Model struct {
	Name string
	// Tools gives it a template with a tools section: Ollama then says it
	// supports tools. Without, Ollama refuses any request that has tools.
	Tools bool
	// NumCtx and NumPredict are its Modelfile's parameters; 0 leaves
	// them to Ollama's defaults.
	NumCtx, NumPredict int
	Shape              Shape
}

// The templates, in Ollama's Go template language, in the im_start form
// the generated vocabulary has special tokens for.
const (
	plainTemplate = `{{- range .Messages }}<|im_start|>{{ .Role }}
{{ .Content }}<|im_end|>
{{ end }}<|im_start|>assistant
`
	toolsTemplate = `{{- if .Tools }}<|im_start|>system
# Tools
<tools>
{{- range .Tools }}
{{ .Function }}
{{- end }}
</tools>
Call a tool as <tool_call>{"name": <name>, "arguments": <args>}</tool_call><|im_end|>
{{ end }}
{{- range .Messages }}
{{- if eq .Role "assistant" }}<|im_start|>assistant
{{ .Content }}{{ range .ToolCalls }}<tool_call>{"name": "{{ .Function.Name }}", "arguments": {{ .Function.Arguments }}}</tool_call>{{ end }}<|im_end|>
{{ else if eq .Role "tool" }}<|im_start|>user
<tool_response>{{ .Content }}</tool_response><|im_end|>
{{ else }}<|im_start|>{{ .Role }}
{{ .Content }}<|im_end|>
{{ end }}
{{- end }}<|im_start|>assistant
`
)

// Create writes the model's GGUF (once per shape) and Modelfile, and runs
// ollama create.
func (s *Server) Create(t testing.TB, m Model) {
	t.Helper()
	gguf := s.gguf(t, m.Shape)
	var mf strings.Builder
	fmt.Fprintf(&mf, "FROM %s\n", gguf)
	tmpl := plainTemplate
	if m.Tools {
		tmpl = toolsTemplate
	}
	fmt.Fprintf(&mf, "TEMPLATE \"\"\"%s\"\"\"\n", tmpl)
	if m.NumCtx > 0 {
		fmt.Fprintf(&mf, "PARAMETER num_ctx %d\n", m.NumCtx)
	}
	if m.NumPredict > 0 {
		fmt.Fprintf(&mf, "PARAMETER num_predict %d\n", m.NumPredict)
	}
	path := filepath.Join(s.work, m.Name+".Modelfile")
	if err := os.WriteFile(path, []byte(mf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s.run(t, "create", m.Name, "-f", path)
}

// gguf is the generated file of a shape, written on first use.
func (s *Server) gguf(t testing.TB, sh Shape) string {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.ggufs[sh]; ok {
		return p
	}
	p := filepath.Join(s.work, fmt.Sprintf("llama-%d-%d-%d-%d-%d.gguf", sh.Embd, sh.Layers, sh.FF, sh.Heads, sh.KVHeads))
	args := []string{"-o", p}
	for _, f := range []struct {
		name string
		v    int
	}{{"embd", sh.Embd}, {"layers", sh.Layers}, {"ff", sh.FF}, {"heads", sh.Heads}, {"kvheads", sh.KVHeads}} {
		if f.v > 0 {
			args = append(args, "-"+f.name, strconv.Itoa(f.v))
		}
	}
	if out, err := exec.Command(filepath.Join(s.bin, "ggufgen"), args...).CombinedOutput(); err != nil {
		t.Fatalf("ggufgen %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	s.ggufs[sh] = p
	return p
}

// run runs the ollama client against the server.
func (s *Server) run(t testing.TB, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(s.bin, "ollama"), args...)
	cmd.Env = s.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ollama %s: %v\n%s", strings.Join(args, " "), err, tail(string(out), 10))
	}
}

// Log is the server's log so far (OLLAMA_DEBUG=1).
func (s *Server) Log() string {
	b, _ := os.ReadFile(s.logPath)
	return string(b)
}

// LogPath is the file the server logs to.
func (s *Server) LogPath() string { return s.logPath }

// CacheLoad is one `loading cache slot` line of the log: the slot a
// request went to, how many tokens its prompt held and how many of them
// the slot's cache already had (the rest were read anew: prefill).
type CacheLoad struct {
	Slot, Cached, Prompt, Used int
}

// cacheLine is the runner's debug line, as runner/llamarunner/cache.go
// and runner/ollamarunner/cache.go write it.
var cacheLine = regexp.MustCompile(`msg="loading cache slot" id=(\d+) cache=(\d+) prompt=(\d+) used=(\d+)`)

// CacheLoads lists the log's cache loads, oldest first.
func (s *Server) CacheLoads() []CacheLoad {
	var out []CacheLoad
	sc := bufio.NewScanner(strings.NewReader(s.Log()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := cacheLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
		out = append(out, CacheLoad{Slot: n(1), Cached: n(2), Prompt: n(3), Used: n(4)})
	}
	return out
}

// Truncations are the log's lines that say the server cut a request or
// its context: `truncating input messages` (the server dropped messages
// to fit num_ctx) and `context limit hit` (the runner shifted its window).
func (s *Server) Truncations() []string {
	var out []string
	for _, line := range strings.Split(s.Log(), "\n") {
		if strings.Contains(line, "truncating input messages") || strings.Contains(line, "context limit hit") {
			out = append(out, line)
		}
	}
	return out
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// WaitLog waits until the server's log holds line (30 s at most).
func (s *Server) WaitLog(t testing.TB, line string) {
	t.Helper()
	if !eventually(30*time.Second, func() bool { return strings.Contains(s.Log(), line) }) {
		t.Fatalf("ollama's log never said %q; its last lines:\n%s", line, tail(s.Log(), 20))
	}
}

// eventually polls cond every 20 ms until it holds or d has passed. (A test
// helper imports no other: internal/archtest.)
func eventually(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); ; time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}
