package mmconfigs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/strictyaml"
)

func noenv(string) string { return "" }

func writeConfig(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"unknown key", "modle: echo/x\n", `agent.yaml:1: unknown key "modle" (did you mean "model"?)`},
		{"unknown key far from all", "colour: red\n", `agent.yaml:1: unknown key "colour" (known: model, description, system, systemFile, tools, mcpServers, mmConfigs, structuredOutput, providers, hooks, permissions, yolo, displayHooks, displayCommands, maxSteps, maxParallelTools, maxAskDepth, askTimeout, skills, projectDocs, contextWindow, compressAt, persist, sandbox)`},
		{"unknown key on its line", "model: echo/x\ntool: [bash]\n", `agent.yaml:2: unknown key "tool" (did you mean "tools"?)`},
		{"syntax error deep in a block", "model: echo/x\nhooks:\n  preToolCall:\n    - command: a\n      matcher: b\n   bad: b\n", `agent.yaml:6:4: value is not allowed in this context`},
		{"wrong type", "yolo: maybe\n", `agent.yaml:1: yolo: want true or false, not "maybe"`},
		{"list for string", "model: [a, b]\n", `agent.yaml:1: model: want a string like ollama/qwen3:8b, not a list`},
		{"not a map", "- a\n- b\n", `agent.yaml:1: must be a map of keys (model:, hooks:, …)`},
		{"bad yaml", "model: [\n", `agent.yaml:1:8: sequence end token ']' not found`},
		{"twice", "model: a/b\nmodel: c/d\n", `agent.yaml:2: key "model" is given twice (first on line 1)`},
		{"agent twice", "mmConfigs:\n  e: a.yaml\n  e: b.yaml\n", `agent.yaml:3: mmConfigs: key "e" is given twice (first on line 2)`},
		{"provider twice", "providers:\n  p: {baseURL: \"http://a\"}\n  p: {baseURL: \"http://b\"}\n", `agent.yaml:3: providers: key "p" is given twice (first on line 2)`},
		{"mcp server twice", "mcpServers:\n  fs: {command: a}\n  fs: {command: b}\n", `agent.yaml:3: mcpServers: key "fs" is given twice (first on line 2)`},
		{"mcp key twice", "mcpServers:\n  fs:\n    command: a\n    command: b\n", `agent.yaml:4: mcpServers.fs: key "command" is given twice (first on line 3)`},
		{"hook key twice", "hooks:\n  preToolCall:\n    - command: a\n      timeout: 1s\n      command: b\n", `agent.yaml:5: hooks.preToolCall[0]: key "command" is given twice (first on line 3)`},
		{"second document", "model: a/b\n---\nyolo: true\n", `agent.yaml:2: a second YAML document (after ---): a file holds one; remove the --- line and what follows, or merge them`},
		{"alias", "model: &m a/b\ndescription: *m\n", `agent.yaml:2: description: alias *m: mm's files take no YAML aliases; write the value out`},
		{"depth fraction", "maxAskDepth: 1.9\n", `agent.yaml:1: maxAskDepth: want a whole number, not "1.9"`},
		{"depth text", "maxAskDepth: \"2\"\n", `agent.yaml:1: maxAskDepth: want a whole number, not "2"`},
		{"steps fraction", "maxSteps: 2.0\n", `agent.yaml:1: maxSteps: want a whole number, not "2.0"`},
		{"steps negative", "maxSteps: -4\n", `agent.yaml:1: maxSteps: must be >= 1`},
		{"parallel zero", "maxParallelTools: 0\n", `agent.yaml:1: maxParallelTools: must be >= 1`},
		{"parallel fraction", "maxParallelTools: 2.5\n", `agent.yaml:1: maxParallelTools: want a whole number, not "2.5"`},
		{"parallel list", "maxParallelTools: [4]\n", `agent.yaml:1: maxParallelTools: want a whole number, not a list`},
		{"system both", "system: hi\nsystemFile: s.txt\n", `agent.yaml:2: system and systemFile: give one or the other, not both`},
		{"unknown tool", "tools: [bash, rm]\n", `agent.yaml:1: tools: unknown tool "rm" (want some of bash, read_file, write_file, edit_file, ask_agent, load_skill, or a map defining a wasm tool)`},
		{"agent name", "mmConfigs:\n  Expert: e.yaml\n", `agent.yaml:2: mmConfigs: Expert: an agent's name must match [a-z0-9][a-z0-9_-]* (it becomes /ask-<name>)`},
		{"agent path empty", "mmConfigs:\n  expert: \"\"\n", `agent.yaml:2: mmConfigs: expert: path must not be empty`},
		{"mcp unknown key", "mcpServers:\n  fs:\n    cmd: x\n", `agent.yaml:3: mcpServers: fs: unknown key "cmd" (known: command, args, env)`},
		{"mcp no command", "mcpServers:\n  fs:\n    args: [a]\n", `agent.yaml:2: mcpServers: fs: command must not be empty`},
		{"provider key", "providers:\n  mine:\n    url: http://x\n", `agent.yaml:3: providers: mine: unknown key "url" (known: baseURL, apiKeyEnv, idleTimeout, contextWindow)`},
		{"depth negative", "maxAskDepth: -1\n", `agent.yaml:1: maxAskDepth: must be >= 0`},
		{"timeout", "askTimeout: soon\n", `agent.yaml:1: askTimeout: want a positive duration like 90s or 10m, not "soon"`},
		{"steps", "maxSteps: 0\n", `agent.yaml:1: maxSteps: must be >= 1`},
		{"window too small", "contextWindow: 100\n", `agent.yaml:1: contextWindow: must be >= 512`},
		{"window not a number", "contextWindow: 4k\n", `agent.yaml:1: contextWindow: want a whole number, not "4k"`},
		{"provider not a map", "providers:\n  mine: x\n", `agent.yaml:2: providers: mine: want a map with baseURL, apiKeyEnv, idleTimeout and contextWindow, not "x"`},
		{"provider idle timeout", "providers:\n  mine:\n    idleTimeout: soon\n", `agent.yaml:3: providers: mine: idleTimeout: want a positive duration like 90s or 10m, not "soon"`},
		{"provider window", "providers:\n  mine:\n    baseURL: http://x/v1\n    contextWindow: 8.5\n", `agent.yaml:4: providers: mine: contextWindow: want a whole number, not "8.5"`},
		{"compressAt too high", "model: echo/x\ncompressAt: 1.5\n", `agent.yaml:2: compressAt: want a number from 0.3 to 0.95, like 0.8, not 1.5`},
		{"compressAt percent", "compressAt: 80%\n", `agent.yaml:1: compressAt: want a number from 0.3 to 0.95, like 0.8, not "80%"`},
		{"hooks event", "hooks:\n  preToolcall: []\n", `agent.yaml:2: hooks: unknown event "preToolcall" (want one of preGeneration, preToolCall, postToolCall, postGeneration, preAsk, postAsk) (did you mean "preToolCall"?)`},
		{"hooks entry", "hooks:\n  preToolCall:\n    - timeout: 1s\n", `agent.yaml:3: hooks.preToolCall[0]: command must not be empty (or wasm: a module)`},
		{"skills not a list", "skills: my-skills\n", `agent.yaml:1: skills: want a list of folders, not "my-skills"`},
		{"skills empty folder", "skills: [a, \"\"]\n", `agent.yaml:1: skills: [1]: a folder must not be empty`},
		{"projectDocs not bool", "projectDocs: no-thanks\n", `agent.yaml:1: projectDocs: want true or false, not "no-thanks"`},
		{"projectDocs typo", "projectdocs: false\n", `agent.yaml:1: unknown key "projectdocs" (did you mean "projectDocs"?)`},
		{"depth over the cap", "maxAskDepth: 1000000\n", `agent.yaml:1: maxAskDepth: 1000000 is over mm's cap of 16 (each level is one more mm process): give 16 or less`},
		{"depth just over the cap", "maxAskDepth: 17\n", `agent.yaml:1: maxAskDepth: 17 is over mm's cap of 16 (each level is one more mm process): give 16 or less`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeConfig(t, dir, "agent.yaml", tt.body)
			_, err := Load("agent.yaml", dir, noenv)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Load error\n got: %v\nwant: %s", err, tt.want)
			}
		})
	}
}

// TestReport: what every front end shows of a config error. A syntax error
// is its line, then the source line made visible, a caret under the column
// and a hint (issue 26); any other error, a validation message of the hooks
// reference among them, stays one line, byte for byte.
func TestReport(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"a tab in the indentation", "model: echo/x\nhooks:\n\tpreToolCall:\n    - command: a\n",
			"[config error: agent.yaml:3:1: found a tab character that cannot start any token]\n" +
				"  3 | →preToolCall:\n" +
				"    | ^\n" +
				"  hint: indent with spaces: YAML does not allow a tab in the indentation (→ is a tab)"},
		{"a colon in a command", "model: echo/x\nhooks:\n  preToolCall:\n    - command: echo a: b\n",
			"[config error: agent.yaml:4:16: mapping value is not allowed in this context]\n" +
				"  4 |     - command: echo a: b\n" +
				"    |                ^\n" +
				"  hint: a \": \" in a plain value starts a key; quote the value:\n" +
				"  4 |     - command: \"echo a: b\""},
		{"an unclosed quote", "model: \"echo/x\nyolo: true\n",
			"[config error: agent.yaml:1:8: could not find end character of double-quoted text]\n" +
				"  1 | model: \"echo/x\n" +
				"    |        ^\n" +
				"  hint: the quote (\") opened at 1:8 is never closed: end the value with \""},
		{"a validation message", "hooks:\n  preToolCall:\n    - command: a\n      timeout: -1s\n",
			"[config error: agent.yaml:4: hooks.preToolCall[0]: timeout must be >= 0]"},
		{"an unknown key", "modle: echo/x\n", `[config error: agent.yaml:1: unknown key "modle" (did you mean "model"?)]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeConfig(t, dir, "agent.yaml", tt.body)
			_, err := Load("agent.yaml", dir, noenv)
			ce, ok := err.(*Error)
			if !ok {
				t.Fatalf("Load error %v is not an *Error", err)
			}
			if got := ce.Report(); got != tt.want {
				t.Errorf("Report\n got: %s\nwant: %s", got, tt.want)
			}
		})
	}
}

// TestNewErrorInAFileOfItsOwn: a syntax error in a file the configuration
// led mm to read (a script model's) is reported in that file, with its
// excerpt.
func TestNewErrorInAFileOfItsOwn(t *testing.T) {
	_, err := strictyaml.Parse([]byte("rules:\n\t- say: hi\n"))
	ce := NewError("agent.yaml", fmt.Errorf("model: %w", &strictyaml.FileError{Path: "/abs/s.yaml", Err: err}), func(string) string { return "s.yaml" })
	want := "[config error: s.yaml:2:1: found a tab character that cannot start any token]\n" +
		"  2 | →- say: hi\n" +
		"    | ^\n" +
		"  hint: indent with spaces: YAML does not allow a tab in the indentation (→ is a tab)"
	if got := ce.Report(); got != want {
		t.Errorf("Report\n got: %s\nwant: %s", got, want)
	}
}

func TestLoadMissingFiles(t *testing.T) {
	dir := t.TempDir()
	_, err := Load("nope.yaml", dir, noenv)
	if want := "nope.yaml: cannot read: no such file"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	writeConfig(t, dir, "agent.yaml", "systemFile: prompts/sys.txt\n")
	_, err = Load("agent.yaml", dir, noenv)
	want := "agent.yaml:1: systemFile: cannot read " + filepath.Join(dir, "prompts/sys.txt") + ": no such file or directory"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestLoadValues(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, "sys.txt", "be brief")
	writeConfig(t, dir, "agent.yaml", `
model: ollama/qwen3:8b
description: the main agent
systemFile: sys.txt
yolo: true
displayHooks: true
displayCommands: true
tools: [bash, read_file]
mcpServers:
  fs:
    command: npx
    args: [-y, server]
    env: {A: b}
mmConfigs:
  expert: agent.expert.yaml
  zed: /abs/z.yaml
maxAskDepth: 2
askTimeout: 90s
maxSteps: 7
maxParallelTools: 3
skills: [team-skills, /abs/skills]
projectDocs: false
persist: false
providers:
  mine: {baseURL: "http://h:1/v1", apiKeyEnv: MINE_KEY}
hooks:
  preGeneration:
    - command: "true"
`)
	c, err := Load("agent.yaml", dir, noenv)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"model", c.Model, "ollama/qwen3:8b"},
		{"description", c.Description, "the main agent"},
		{"system", c.System, "be brief"},
		{"yolo", c.Yolo, true},
		{"displayHooks", c.DisplayHooks, true},
		{"displayCommands", c.DisplayCommands, true},
		{"tools", strings.Join(c.Tools, ","), "bash,read_file"},
		{"mcp", c.MCPServers["fs"].Command + " " + strings.Join(c.MCPServers["fs"].Args, " ") + " " + c.MCPServers["fs"].Env["A"], "npx -y server b"},
		{"mcp name", c.MCPServers["fs"].Name, "fs"}, // one type: tools.MCPServer, named by its key
		{"agents", strings.Join(c.AgentNames(), ","), "expert,zed"},
		{"expert path", c.Agents["expert"].Config, filepath.Join(dir, "agent.expert.yaml")},
		{"abs path", c.Agents["zed"].Config, "/abs/z.yaml"},
		{"maxAskDepth", c.MaxAskDepth, 2},
		{"askTimeout", c.AskTimeout, 90 * time.Second},
		{"maxSteps", c.MaxSteps, 7},
		{"maxParallelTools", c.MaxParallelTools, 3},
		{"skills", strings.Join(c.Skills, ","), filepath.Join(dir, "team-skills") + ",/abs/skills"},
		{"projectDocs", c.ProjectDocs, false},
		{"persist", c.Persist, false},
		{"provider", c.Providers["mine"], Provider{BaseURL: "http://h:1/v1", APIKeyEnv: "MINE_KEY"}},
		{"hooks", c.Hooks.Summary(), "preGeneration×1"},
		{"bash enabled", c.ToolEnabled("bash"), true},
		{"write_file disabled", c.ToolEnabled("write_file"), false},
	}
	for _, ck := range checks {
		if ck.got != ck.want {
			t.Errorf("%s = %v, want %v", ck.name, ck.got, ck.want)
		}
	}
}

func TestDefaults(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, "agent.yaml", "")
	c, err := Load("agent.yaml", dir, func(k string) string {
		if k == "MM_MODEL" {
			return "echo/test"
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.Model != "echo/test" || c.MaxAskDepth != 3 || c.AskTimeout != 10*time.Minute || c.MaxSteps != 50 || c.MaxParallelTools != 8 || c.System != DefaultSystem || c.Yolo || !c.ProjectDocs || c.Skills != nil || !c.Persist {
		t.Errorf("defaults wrong: %+v", c)
	}
	if c.ToolEnabled("ask_agent") {
		t.Error("ask_agent offered without mmConfigs")
	}
}

func TestFind(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	env := func(k string) string { return map[string]string{"HOME": home}[k] }
	tests := []struct{ flag, env, want string }{
		{"a.yaml", "b.yaml", "a.yaml"},
		{"", "b.yaml", "b.yaml"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := Find(tt.flag, tt.env, dir, env); got != tt.want {
			t.Errorf("Find(%q, %q) = %q, want %q", tt.flag, tt.env, got, tt.want)
		}
	}
	// The person's own file, for want of ./agent.yaml.
	user := filepath.Join(home, ".config", "mm", "agent.yaml")
	if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
		t.Fatal(err)
	}
	writeConfig(t, filepath.Dir(user), "agent.yaml", "")
	if got := Find("", "", dir, env); got != user {
		t.Errorf("Find with the person's own file = %q, want %q", got, user)
	}
	// A project's file wins.
	writeConfig(t, dir, "agent.yaml", "")
	if got := Find("", "", dir, env); got != "agent.yaml" {
		t.Errorf("Find with ./agent.yaml = %q", got)
	}
}

// TestUserFile: the person's own file is shown as they write it, in the
// banner and in its errors, and its paths are relative to its folder.
func TestUserFile(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	env := func(k string) string { return map[string]string{"HOME": home}[k] }
	dir := filepath.Join(home, ".config", "mm")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeConfig(t, dir, "agent.yaml", "model: echo/x\nskills: [mine]\n")
	c, err := Load(UserFile(env), cwd, env)
	if err != nil {
		t.Fatal(err)
	}
	if !c.User || c.Path != "~/.config/mm/agent.yaml" || c.Dir != dir || c.Skills[0] != filepath.Join(dir, "mine") {
		t.Errorf("user file read as %+v", c)
	}
	want := "mm v1 | config: ~/.config/mm/agent.yaml | model: echo/x | yolo: off"
	if got := c.Banner("v1", cwd, Running{Model: c.Model}); got != want {
		t.Errorf("Banner\n got: %s\nwant: %s", got, want)
	}
	writeConfig(t, dir, "agent.yaml", "modle: echo/x\n")
	_, err = Load(UserFile(env), cwd, env)
	if want := `~/.config/mm/agent.yaml:1: unknown key "modle" (did you mean "model"?)`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error = %v, want it to start with %s", err, want)
	}
}

func TestBanner(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, "agent.yaml", `
model: echo/x
yolo: true
mmConfigs: {expert: e.yaml, coder: c.yaml}
hooks:
  postAsk: [{command: a}]
  preGeneration: [{command: b}, {command: c}]
`)
	c, err := Load("agent.yaml", dir, noenv)
	if err != nil {
		t.Fatal(err)
	}
	want := "mm v1.2.3 | config: agent.yaml | model: echo/x | agents: coder, expert | yolo: on | hooks: preGeneration×2 postAsk×1"
	if got := c.Banner("v1.2.3", dir, Running{Model: c.Model, Yolo: c.Yolo}); got != want {
		t.Errorf("Banner\n got: %s\nwant: %s", got, want)
	}
	// The model and yolo parts are the session's, whatever the file says.
	want = "mm v1.2.3 | config: agent.yaml | model: echo/flag | agents: coder, expert | yolo: off | hooks: preGeneration×2 postAsk×1"
	if got := c.Banner("v1.2.3", dir, Running{Model: "echo/flag"}); got != want {
		t.Errorf("Banner of a session's own values\n got: %s\nwant: %s", got, want)
	}
	if got := Default(dir, noenv).Banner("v1", dir, Running{}); got != "mm v1 | yolo: off" {
		t.Errorf("default banner %q", got)
	}
}

func TestWalk(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, "agent.yaml", "mmConfigs: {b: b.yaml, missing: m.yaml}\n")
	writeConfig(t, dir, "b.yaml", "mmConfigs: {a: agent.yaml}\n")
	var seen []string
	ok := Walk("agent.yaml", dir, noenv, nil, func(p string, c *Config, err error) {
		if err != nil {
			seen = append(seen, "error "+err.Error())
			return
		}
		seen = append(seen, p)
	})
	want := []string{"agent.yaml", "b.yaml", "error m.yaml: cannot read: no such file"}
	if ok || strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Errorf("Walk ok=%v seen=%q", ok, seen)
	}
}

func TestValidAgentName(t *testing.T) {
	for name, want := range map[string]bool{
		"expert": true, "a": true, "0": true, "a-b_c9": true, "a-": true,
		"": false, "-a": false, "_a": false, "Expert": false, "a b": false, "é": false, "a/b": false,
	} {
		if got := validAgentName(name); got != want {
			t.Errorf("validAgentName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestLoadWindow: contextWindow (the agent's and a provider's) and
// compressAt are read; compressAt defaults to 0.8.
func TestLoadWindow(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		body           string
		window, mine   int
		wantCompressAt float64
	}{
		{"model: echo/x\n", 0, 0, 0.8},
		{"model: echo/x\ncontextWindow: 8192\ncompressAt: 0.7\nproviders:\n  mine:\n    baseURL: http://x/v1\n    contextWindow: 32768\n", 8192, 32768, 0.7},
		{"model: echo/x\ncompressAt: 1\n", 0, 0, 0},
	} {
		writeConfig(t, dir, "agent.yaml", tc.body)
		c, err := Load("agent.yaml", dir, noenv)
		if tc.wantCompressAt == 0 {
			if err == nil {
				t.Errorf("%q: no error", tc.body)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.body, err)
		}
		if c.ContextWindow != tc.window || c.Providers["mine"].ContextWindow != tc.mine || c.CompressAt != tc.wantCompressAt {
			t.Errorf("%q: window %d, provider's %d, compressAt %v", tc.body, c.ContextWindow, c.Providers["mine"].ContextWindow, c.CompressAt)
		}
	}
}
