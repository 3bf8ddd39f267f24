package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm/openai"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// modelsServer is a local server speaking GET /v1/models with ids, on
// loopback.
func modelsServer(t *testing.T, ids ...string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		var data []string
		for _, id := range ids {
			data = append(data, `{"id":"`+id+`","object":"model"}`)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"object":"list","data":[` + strings.Join(data, ",") + `]}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// closedURL is a base URL on loopback where nothing listens.
func closedURL(t *testing.T) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL + "/v1"
	srv.Close()
	return url
}

func TestInit(t *testing.T) {
	ollama := modelsServer(t, "qwen3:8b", "llama3.2:3b")
	llamacpp := modelsServer(t, "default")
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	t.Cleanup(broken.Close)
	servers := []openai.LocalServer{
		{Provider: "llmman", BaseURL: closedURL(t)},
		{Provider: "ollama", BaseURL: ollama.URL + "/v1"},
		{Provider: "lmstudio", BaseURL: broken.URL + "/v1"},
		{Provider: "llamacpp", BaseURL: llamacpp.URL + "/v1"},
	}
	tests := []struct {
		name        string
		model       string
		interactive bool
		stdin       string
		servers     []openai.LocalServer
		want        string // the model written
		wantOut     []string
		wantErr     string
	}{
		{name: "no terminal: the first found", servers: servers, want: "ollama/qwen3:8b",
			wantErr: "mm init: using ollama/qwen3:8b, the first of 3 model(s) found (its server does not say whether it supports tools; choose another with --model)\n"},
		{name: "picked on a terminal", servers: servers, interactive: true, stdin: "9\n3\n", want: "llamacpp/default",
			wantOut: []string{"Models on the local servers:\n  1. ollama/qwen3:8b\n  2. ollama/llama3.2:3b\n  3. llamacpp/default\nWhich model? [1]:   a number from 1 to 3, please\nWhich model? [1]: "}},
		{name: "Enter takes the first", servers: servers, interactive: true, stdin: "\n", want: "ollama/qwen3:8b"},
		{name: "--model asks no server", model: "echo/x", servers: []openai.LocalServer{{Provider: "ollama", BaseURL: "http://192.0.2.1:9/v1"}}, want: "echo/x"},
		{name: "offline", servers: servers[:1], want: placeholderModel,
			wantOut: []string{"start a local model server", "llama-server -m model.gguf --port 8080"},
			wantErr: "mm init: no local model server answered: llmman (" + servers[0].BaseURL + ")\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var stdout, stderr bytes.Buffer
			code := runInit(context.Background(), initOptions{
				Dir: dir, Model: tt.model, Servers: tt.servers, Client: &http.Client{},
				Stdin: strings.NewReader(tt.stdin), Stdout: &stdout, Interactive: tt.interactive,
			}, &stderr)
			if code != 0 {
				t.Fatalf("runInit = %d, stderr %q", code, stderr.String())
			}
			if tt.wantErr != "" && stderr.String() != tt.wantErr {
				t.Errorf("stderr\n got %q\nwant %q", stderr.String(), tt.wantErr)
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout %q lacks %q", stdout.String(), w)
				}
			}
			for _, name := range []string{initMainFile, initExpertFile} {
				c, err := mmconfigs.Load(name, dir, func(string) string { return "" })
				if err != nil {
					t.Fatalf("the written %s does not load: %v", name, err)
				}
				if c.Model != tt.want {
					t.Errorf("%s: model %q, want %q", name, c.Model, tt.want)
				}
				if problems := checkHooks(context.Background(), c, dir, os.Getenv); len(problems) > 0 {
					t.Errorf("%s: mm check finds %q", name, problems)
				}
			}
			main, _ := mmconfigs.Load(initMainFile, dir, func(string) string { return "" })
			if main.Agents["expert"].Config != filepath.Join(dir, initExpertFile) {
				t.Errorf("mmConfigs: %v, want expert: %s", main.Agents, initExpertFile)
			}
			// A server off its default address is written under providers:.
			if tt.model == "" && tt.want != placeholderModel {
				provider, _, _ := strings.Cut(tt.want, "/")
				if p := main.Providers[provider]; !strings.HasPrefix(p.BaseURL, "http://127.0.0.1:") {
					t.Errorf("providers: %v, want the server's address", main.Providers)
				}
			}
		})
	}
}

func TestInitRefusesToOverwrite(t *testing.T) {
	for _, name := range []string{initMainFile, initExpertFile} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, name), []byte("mine\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := runInit(context.Background(), initOptions{Dir: dir, Model: "echo/x", Stdout: &stdout}, &stderr)
			want := "mm init: " + name + " already exists in " + dir + ": mm init writes new files only; edit it, or run mm init in another folder\n"
			if code != 1 || stderr.String() != want || stdout.Len() != 0 {
				t.Errorf("runInit = %d, stderr %q, stdout %q; want 1, %q", code, stderr.String(), stdout.String(), want)
			}
			entries, _ := os.ReadDir(dir)
			if b, _ := os.ReadFile(filepath.Join(dir, name)); len(entries) != 1 || string(b) != "mine\n" {
				t.Errorf("the folder holds %d file(s), %s %q: want it untouched", len(entries), name, b)
			}
		})
	}
}

func TestInitServers(t *testing.T) {
	got, err := initServers("ollama=http://127.0.0.1:5000/v1/, mine=http://[::1]:9/v1")
	want := []openai.LocalServer{{Provider: "ollama", BaseURL: "http://127.0.0.1:5000/v1"}, {Provider: "mine", BaseURL: "http://[::1]:9/v1"}}
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("initServers = %v, %v; want %v", got, err, want)
	}
	if got, _ := initServers(""); len(got) != 4 || got[1] != (openai.LocalServer{Provider: "ollama", BaseURL: "http://localhost:11434/v1"}) {
		t.Errorf("initServers(\"\") = %v, want the four built-in servers", got)
	}
	for _, bad := range []string{"ollama", "Ollama=http://x", "a b=http://x", "ollama=localhost:1"} {
		if _, err := initServers(bad); err == nil || !strings.HasPrefix(err.Error(), "MM_INIT_SERVERS: ") {
			t.Errorf("initServers(%q) = %v, want an error naming MM_INIT_SERVERS", bad, err)
		}
	}
}

// TestInitTerminal: on a terminal mm init lists the models of the servers
// that answered and writes the one picked.
func TestInitTerminal(t *testing.T) {
	ollama := modelsServer(t, "qwen3:8b", "gemma3:4b")
	t.Setenv(initServersEnv, "llmman="+closedURL(t)+",ollama="+ollama.URL+"/v1")
	dir := t.TempDir()
	term := startTerminal(t, dir, "init")
	term.waitFor("  2. ollama/gemma3:4b")
	term.waitFor("Which model? [1]: ")
	term.send("2\r")
	term.waitFor("wrote agent.yaml (model: ollama/gemma3:4b) and agent.expert.yaml")
	term.waitExit()
	c, err := mmconfigs.Load(initMainFile, dir, func(string) string { return "" })
	if err != nil || c.Model != "ollama/gemma3:4b" || c.Providers["ollama"].BaseURL != ollama.URL+"/v1" {
		t.Fatalf("agent.yaml: %v, %+v", err, c)
	}
}

// TestInitShowsModelIdsVisibly: a server's model ids are shown made
// visible on one line — in the list, the "using" and "wrote" lines, and
// the banner of the configuration written — so that a line break cannot
// forge a list entry nor an escape reach the terminal (issue 37). The file
// keeps the id as the server named it.
func TestInitShowsModelIdsVisibly(t *testing.T) {
	// JSON escapes: the server's ids hold a real newline and ESC.
	srv := modelsServer(t, `two\nlines`, `red\u001b[31m`)
	servers := []openai.LocalServer{{Provider: "ollama", BaseURL: srv.URL + "/v1"}}
	tests := []struct {
		name        string
		interactive bool
		stdin       string
		model       string // the id written
		stdout      string
		stderr      string
		banner      string
	}{
		{"no terminal", false, "", "ollama/two\nlines",
			"wrote agent.yaml (model: ollama/two\\nlines) and agent.expert.yaml\nnext: mm check, then mm, mm -p \"question\" or mm --ask expert \"question\"\n",
			"mm init: using ollama/two\\nlines, the first of 2 model(s) found (its server does not say whether it supports tools; choose another with --model)\n",
			" | config: agent.yaml | model: ollama/two\\nlines | agents: expert | sandbox: workspace, network on | yolo: off | hooks: preToolCall×1\n"},
		{"picked on a terminal", true, "2\n", "ollama/red\x1b[31m",
			"Models on the local servers:\n  1. ollama/two\\nlines\n  2. ollama/red\\x1b[31m\nWhich model? [1]: " +
				"wrote agent.yaml (model: ollama/red\\x1b[31m) and agent.expert.yaml\nnext: mm check, then mm, mm -p \"question\" or mm --ask expert \"question\"\n",
			"",
			" | config: agent.yaml | model: ollama/red\\x1b[31m | agents: expert | sandbox: workspace, network on | yolo: off | hooks: preToolCall×1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var stdout, stderr bytes.Buffer
			code := runInit(context.Background(), initOptions{
				Dir: dir, Servers: servers, Client: &http.Client{},
				Stdin: strings.NewReader(tt.stdin), Stdout: &stdout, Interactive: tt.interactive,
			}, &stderr)
			if code != 0 || stdout.String() != tt.stdout || stderr.String() != tt.stderr {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant stdout %q\nstderr %q", code, stdout.String(), stderr.String(), tt.stdout, tt.stderr)
			}
			c, err := mmconfigs.Load(initMainFile, dir, func(string) string { return "" })
			if err != nil || c.Model != tt.model {
				t.Fatalf("the written %s: model %q, error %v; want model %q", initMainFile, c.Model, err, tt.model)
			}
			// The banner of the file written, in the line mode and mm check.
			for _, args := range [][]string{{"--no-save"}, {"check"}} {
				s, out, errOut := testStreams(dir, "/exit\n", map[string]string{"PATH": os.Getenv("PATH")})
				runWith(context.Background(), nil, s, args)
				if got, _, _ := strings.Cut(out.String(), "\n"); got+"\n" != versionLine()+tt.banner {
					t.Errorf("mm %q: banner %q, want %q (stderr %q)", args, got, versionLine()+tt.banner, errOut)
				}
			}
		})
	}
}
