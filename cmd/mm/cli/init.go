package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"
	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/llm/openai"
)

// probeTimeout bounds each local server's answer to GET /models. A server
// on this machine answers in milliseconds; one that takes longer is
// starting or busy loading a model, and mm init must not hang on it. The
// servers are asked at once, so this is also about all mm init waits.
const probeTimeout = 1500 * time.Millisecond

// maxModelsListed bounds the models offered per server, so that the
// choice fits on a screen.
const maxModelsListed = 40

// placeholderModel is written when no server answered: a model of the
// server most people start with, which works once it is pulled.
const placeholderModel = "ollama/qwen3:8b"

// initServersEnv names the servers mm init asks instead of the built-in
// ones at their default ports: "ollama=http://127.0.0.1:5000/v1,…".
const initServersEnv = "MM_INIT_SERVERS"

// The files mm init writes in the working directory.
const (
	initMainFile   = "agent.yaml"
	initExpertFile = "agent.expert.yaml"
)

// initOptions are mm init's inputs, injected so that it can be tested
// in-process.
type initOptions struct {
	Dir string
	// Model is --model: written as given, no server asked.
	Model   string
	Servers []openai.LocalServer
	Client  *http.Client
	Stdin   io.Reader
	Stdout  io.Writer
	// Interactive is set when stdin and stdout are a terminal: the person
	// picks the model; else the first one found is taken.
	Interactive bool
	// Shown is Dir as the lines name it, with a slash ("~/.config/mm/"),
	// for mm init --global; "" names the files alone.
	Shown string
}

func initCmd(f *flags, s *streams) *cobra.Command {
	var global bool
	cmd := &cobra.Command{
		Use:   "init",
		Short: "write a starter agent.yaml (and agent.expert.yaml) here, for a model of a local server",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := s.Getwd()
			shown := ""
			if global {
				dir, shown, err = globalInitDir(s.Getenv)
			}
			if err != nil {
				return err
			}
			servers, err := initServers(os.Getenv(initServersEnv))
			if err != nil {
				return err
			}
			return exitCode(runInit(cmd.Context(), initOptions{
				Dir: dir, Shown: shown, Model: f.model, Servers: servers,
				Client: &http.Client{Transport: &http.Transport{}},
				Stdin:  os.Stdin, Stdout: os.Stdout,
				Interactive: term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd())),
			}, os.Stderr))
		},
	}
	cmd.Flags().BoolVar(&global, "global", false, "write them in your own mm folder ($XDG_CONFIG_HOME/mm, else ~/.config/mm), used where a folder has no agent.yaml")
	return cmd
}

// initServers is the servers to ask: $MM_INIT_SERVERS when set, else the
// built-in local servers.
func initServers(env string) ([]openai.LocalServer, error) {
	if strings.TrimSpace(env) == "" {
		return openai.LocalServers(), nil
	}
	var servers []openai.LocalServer
	for _, item := range strings.Split(env, ",") {
		name, url, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || !validProviderName(name) || !strings.HasPrefix(url, "http") {
			return nil, fmt.Errorf("%s: %q: want <provider>=<base URL>, e.g. ollama=http://localhost:11434/v1", initServersEnv, item)
		}
		servers = append(servers, openai.LocalServer{Provider: name, BaseURL: strings.TrimRight(url, "/")})
	}
	return servers, nil
}

// validProviderName reports whether name is [a-z0-9_-]+, a provider name
// that can be written as a key and read back as the start of a model
// reference.
func validProviderName(name string) bool {
	for _, r := range name {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' && r != '-' {
			return false
		}
	}
	return name != ""
}

// runInit writes the two files and returns the exit status.
func runInit(ctx context.Context, o initOptions, stderr io.Writer) int {
	for _, name := range []string{initMainFile, initExpertFile} {
		if _, err := os.Lstat(filepath.Join(o.Dir, name)); err == nil {
			fmt.Fprintf(stderr, "mm init: %s already exists in %s: mm init writes new files only; edit it, or run mm init in another folder\n", name, o.Dir)
			return 1
		}
	}
	model, server, note := o.Model, openai.LocalServer{}, ""
	if model == "" {
		var ok bool
		model, server, ok = pickModel(ctx, o, stderr)
		if !ok {
			model, note = placeholderModel, "A placeholder: no local model server answered when mm init ran.\n# Start one, and put one of its models here."
		}
	}
	if err := writeInitFiles(o.Dir, model, note, server); err != nil {
		fmt.Fprintf(stderr, "mm init: %v\n", err)
		return 1
	}
	fmt.Fprintf(o.Stdout, "wrote %s%s (model: %s) and %s%s\n", o.Shown, initMainFile, frontend.VisibleLine(model), o.Shown, initExpertFile)
	if note != "" {
		fmt.Fprint(o.Stdout, startServerHint)
	}
	fmt.Fprintln(o.Stdout, "next: mm check, then mm, mm -p \"question\" or mm --ask expert \"question\"")
	return 0
}

// startServerHint says how to start each local server.
const startServerHint = `start a local model server, then put one of its models in model: (<provider>/<model>):
  llmman serve                              # llmman/<model>
  ollama serve; ollama pull qwen3:8b        # ollama/qwen3:8b
  llama-server -m model.gguf --port 8080    # llamacpp/default
  lms server start                          # LM Studio: lmstudio/<model>
meanwhile, try mm without a server: mm --model echo/any (it answers with your question)
`

// serverModels is what one server answered.
type serverModels struct {
	server openai.LocalServer
	models []string
	err    error
}

// pickModel asks the servers for their models, and which of them support
// tools, and picks one: the person's choice on a terminal (the first with
// tools offered), else the first with tools, said on stderr with why. ok
// is false when none answered.
func pickModel(ctx context.Context, o initOptions, stderr io.Writer) (model string, server openai.LocalServer, ok bool) {
	var found []foundModel
	var names []string
	var silent []string
	for _, a := range probeServers(ctx, o.Client, o.Servers) {
		if a.err != nil {
			silent = append(silent, fmt.Sprintf("%s (%s)", a.server.Provider, a.server.BaseURL))
			continue
		}
		for _, m := range a.models {
			found = append(found, foundModel{ref: a.server.Provider + "/" + m, server: a.server})
			names = append(names, m)
		}
	}
	if len(found) == 0 {
		fmt.Fprintf(stderr, "mm init: no local model server answered: %s\n", strings.Join(silent, ", "))
		return "", openai.LocalServer{}, false
	}
	askTools(ctx, o.Client, found, names)
	i := defaultModel(found)
	if o.Interactive {
		i = choose(o.Stdin, o.Stdout, found, i)
	} else {
		fmt.Fprintln(stderr, whyPicked(found, i))
	}
	return found[i].ref, found[i].server, true
}

// probeServers asks every server for its models at once, each bounded by
// probeTimeout; the answers are in the servers' order.
func probeServers(ctx context.Context, client *http.Client, servers []openai.LocalServer) []serverModels {
	answers := make([]serverModels, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, probeTimeout)
			defer cancel()
			models, err := openai.ListModels(ctx, client, s.BaseURL)
			answers[i] = serverModels{server: s, models: models[:min(len(models), maxModelsListed)], err: err}
		})
	}
	wg.Wait()
	return answers
}

// choose lists the models found, each with what its server says of its
// tools, and reads the person's pick, a number (Enter: def); the end of
// the input takes def too.
func choose(in io.Reader, out io.Writer, found []foundModel, def int) int {
	fmt.Fprintln(out, "Models on the local servers:")
	none := true
	for i, f := range found {
		fmt.Fprintf(out, "  %d. %s%s\n", i+1, frontend.VisibleLine(f.ref), f.tools.mark())
		none = none && f.tools == toolsNo
	}
	if none {
		fmt.Fprintln(out, "("+noToolsAdvice+")")
	}
	lines := bufio.NewScanner(in)
	for {
		fmt.Fprintf(out, "Which model? [%d]: ", def+1)
		if !lines.Scan() {
			fmt.Fprintln(out)
			return def
		}
		text := strings.TrimSpace(lines.Text())
		if text == "" {
			return def
		}
		if n, err := strconv.Atoi(text); err == nil && n >= 1 && n <= len(found) {
			return n - 1
		}
		fmt.Fprintf(out, "  a number from 1 to %d, please\n", len(found))
	}
}

// writeInitFiles writes agent.yaml and agent.expert.yaml in dir, neither
// over an existing file. note, when set, is written above the model line.
// A server away from its default address gets a providers: entry.
func writeInitFiles(dir, model, note string, server openai.LocalServer) error {
	line, err := yaml.Marshal(model)
	if err != nil {
		return fmt.Errorf("write the model %q: %w", model, err)
	}
	modelLine := "model: " + strings.TrimSuffix(string(line), "\n")
	if note != "" {
		modelLine = "# " + note + "\n" + modelLine
	}
	providers := ""
	if server.Provider != "" && !isDefaultServer(server) {
		url, _ := yaml.Marshal(server.BaseURL)
		providers = fmt.Sprintf("\n# Where the %[1]s server answered when mm init ran (not its default address).\nproviders:\n  %[1]s:\n    baseURL: %[2]s", server.Provider, strings.TrimSuffix(string(url), "\n")) + "\n"
	}
	written := []string{}
	for _, f := range []struct{ name, body string }{
		{initMainFile, fmt.Sprintf(mainTemplate, modelLine, providers)},
		{initExpertFile, fmt.Sprintf(expertTemplate, modelLine, providers)},
	} {
		path := filepath.Join(dir, f.name)
		if err := writeNew(path, f.body); err != nil {
			for _, p := range written {
				os.Remove(p)
			}
			return fmt.Errorf("write %s: %w", path, err)
		}
		written = append(written, path)
	}
	return nil
}

// isDefaultServer reports whether s is a built-in local server at its
// default address, which needs no providers: entry.
func isDefaultServer(s openai.LocalServer) bool {
	for _, d := range openai.LocalServers() {
		if d == s {
			return true
		}
	}
	return false
}

// writeNew writes body to a file that must not exist yet.
func writeNew(path, body string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(body); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// mainTemplate is agent.yaml: the model line, then a providers: block or
// nothing.
const mainTemplate = `# agent.yaml — the main agent, written by mm init. Check it with: mm check
# Every key is described in mm's docs/reference/config.md.

# The model, as <provider>/<model> (--model and $MM_MODEL override it).
%s
description: the main agent

# The tools the model may call; all of them when tools: is left out.
# tools: [bash, read_file, write_file, edit_file, ask_agent]

# The agents this one may ask, each a configuration file of its own: the
# ask_agent tool, /ask-expert in the line mode, mm --ask expert "question".
mmConfigs:
  expert: agent.expert.yaml

# Hooks run your commands at fixed points of a turn (docs/reference/hooks.md):
# a hook reads the event as JSON on stdin and may answer with JSON on stdout.
hooks:
  preToolCall:
    # Refuse bash commands that delete recursively, before any consent question.
    - matcher: ^bash$
      command: |
        if grep -q 'rm -r'; then
          printf '{"action":"deny","reason":"recursive deletes are not run by this agent"}'
        fi
      timeout: 5s
%s`

// expertTemplate is agent.expert.yaml, filled like mainTemplate.
const expertTemplate = `# agent.expert.yaml — the expert agent.yaml may ask (its mmConfigs: expert),
# written by mm init. It runs as an mm process of its own, with its own model,
# tools and hooks; try it with: mm --ask expert "question"

%s
description: answers one question at a time, briefly
system: |
  You are an expert another agent consults. Answer the question you are
  asked in at most five sentences, and say so when you do not know.

# Reading only: the expert looks things up and changes nothing.
tools: [read_file]
%s`
