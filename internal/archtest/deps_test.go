package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// module is the import path of mm's module; the policy names mm's packages
// relative to it.
const module = "github.com/mm-agent/mm"

// policyFile is where the policy is written, named in the failures so that
// whoever meets one knows where to look.
const policyFile = "internal/archtest/deps_test.go"

// allow is one package's entry in the policy: the packages of mm that its
// non-test files may import.
type allow struct {
	pkg     string   // relative to the module
	imports []string // relative to the module
}

// policy is mm's architecture as a statement of policy: for every package of
// mm, the packages of mm its non-test files may import, from the packages
// that import none of mm's up to cmd/mm, the way the imports flow
// (docs/explanation/architecture.md). Tests may import more: they drive a package from outside.
//
// Do not add an edge to make a build pass. An edge the design does not draw
// goes in only with its reason as a comment, and only if no rule of
// neverRules forbids it; otherwise move the code. A new package goes in with
// the packages it may import and why.
func policy() []allow {
	return []allow{
		// Mechanisms mm's parts share (neverRules: they know none of them);
		// textcut is the one cut of text at a character boundary, jsonkind
		// the one naming of a JSON value's kind.
		{pkg: "internal/archtest"}, // this test's package
		// A syntax error shows its source line with frontend.Visible's escapes.
		{pkg: "internal/strictyaml", imports: []string{"internal/suggest", "internal/visible"}},
		// The one set of escapes for what must not reach a terminal raw.
		{pkg: "internal/visible"},
		{pkg: "internal/regularfile"},
		{pkg: "internal/proc"},
		// The kernel's bounds of what the tools touch (Landlock): a
		// command starts confined as every child of mm starts (internal/proc).
		{pkg: "internal/sandbox", imports: []string{"internal/proc"}},
		{pkg: "internal/textcut"},
		{pkg: "internal/jsonkind"},
		// The one "did you mean": a key, an agent, a provider, an event,
		// a skill or a session a person misspelt.
		{pkg: "internal/suggest"},
		// The hooks reference read into its units, for the tests that hold
		// it (internal/reference/testdata/rows.tsv); it knows none of mm's parts.
		{pkg: "internal/reference"},
		// OpenTelemetry: the spans, the trace context handed to children,
		// the OTLP/HTTP export (issue 13). It knows none of mm's parts; the
		// packages below that import it do so where their work crosses a
		// process: a hook run, a prompt's _meta, an A2A request's header,
		// the turn, model and tool calls and hand-offs, what a front end's
		// peer sends, and cmd/mm's start and exit.
		{pkg: "internal/tracing"},
		// The OTLP export of the spans, over the OpenTelemetry SDK, plugged
		// in by cmd/mm.
		{pkg: "internal/tracing/otlp", imports: []string{"internal/tracing"}},
		// The message limit's error gives its size as regularfile.FormatSize writes it.
		{pkg: "internal/acpconn", imports: []string{"internal/regularfile"}},
		// What both ends of mm's A2A connections read of a message (its
		// text), over the A2A SDK; the command line never reaches it.
		{pkg: "internal/a2aconn"},
		// The door of mm serve's HTTP servers (A2A and MCP): the Host, the
		// Origin, JSON, the token, the body and connection bounds (issue 40).
		{pkg: "internal/httpdoor"},
		// Where a person keeps their own mm files ($XDG_CONFIG_HOME/mm) and
		// how a path in it is shown (~/.config/mm/…) (issue 41).
		{pkg: "internal/userconfig"},

		// Test helpers, imported by _test.go files only (neverRules).
		{pkg: "internal/mustend"},
		{pkg: "internal/nodetest"},
		{pkg: "internal/fakegemini"},
		// The Anthropic Messages API on loopback, for Claude Code (issue 40).
		{pkg: "internal/fakeanthropic"},
		{pkg: "internal/llamatest"},
		// A real Ollama, started for a test (test/ollama builds it).
		{pkg: "internal/ollamatest"},
		{pkg: "internal/proc/proctest", imports: []string{"internal/proc"}},
		// A kernel without Landlock, made by a seccomp filter.
		{pkg: "internal/sandbox/sandboxtest"},

		// The example hooks are written against the hook protocol alone, as
		// a user's hook is: they import nothing of mm.
		{pkg: "examples/hooks-wasm/audit"},
		{pkg: "examples/hooks-wasm/bash_guard"},
		// The example wasm tool reads its arguments and writes its output
		// as a user's tool would: it imports nothing of mm either.
		{pkg: "examples/wasm-tools/wordcount"},

		{pkg: "frontend/markdown"},

		// A SKILL.md's front matter is read strictly, the file as a regular
		// file; its description is cut for the model's list.
		// The person's own skills are in their mm folder (internal/userconfig).
		{pkg: "skills", imports: []string{"internal/regularfile", "internal/strictyaml", "internal/textcut", "internal/userconfig"}},
		// AGENTS.md files are read as regular files, cut at a character;
		// the person's own is in their mm folder (internal/userconfig).
		{pkg: "projectdocs", imports: []string{"internal/regularfile", "internal/textcut", "internal/userconfig"}},
		// A person's command files (issue 41): their front matter read
		// strictly, as a SKILL.md's; the files as regular files; a first
		// line cut for /help; theirs in their mm folder.
		{pkg: "commandfiles", imports: []string{"internal/regularfile", "internal/strictyaml", "internal/textcut", "internal/userconfig"}},
		// A question's @path and $name lines: files read as regular files,
		// skills from the skills package.
		{pkg: "question", imports: []string{"internal/regularfile", "internal/suggest", "internal/textcut", "skills"}},

		// The types every model shares: a conversation, a request, a
		// reply, the Model interface. Everything that names a message
		// imports it; it imports none of mm.
		{pkg: "llm"},
		// The models built into mm, echo and script: the scripted model's
		// file is read as a regular file, strictly; its answers are cut at
		// a character.
		{pkg: "llm/builtin", imports: []string{"internal/regularfile", "internal/strictyaml", "internal/textcut", "llm"}},
		// The models on a server, over HTTP: a model missing from a
		// server's list is named with the nearest first (internal/suggest),
		// each name a server gave written out as the front ends write it
		// (internal/visible), a server's error message cut at a character.
		{pkg: "llm/openai", imports: []string{"internal/suggest", "internal/textcut", "internal/visible", "llm"}},
		// The model a reference names: the one package that knows both
		// kinds.
		{pkg: "llm/models", imports: []string{"llm", "llm/builtin", "llm/openai"}},

		// Not drawn by the design: the ask carries the conversation sent
		// along as llm messages (Transcript renders them). A model client
		// still knows no ask: llm imports no handoff.
		{pkg: "handoff", imports: []string{"internal/suggest", "internal/textcut", "llm"}},

		// The design's hooks → handoff (the ask object). Not drawn: command
		// hooks start through internal/proc, like every child of mm; an
		// entry's unknown key is reported as strictyaml reports it.
		{pkg: "hooks", imports: []string{"handoff", "internal/jsonkind", "internal/proc", "internal/strictyaml", "internal/suggest", "internal/textcut", "internal/tracing"}},

		// Not drawn: the wasm runner implements hooks.WasmRunner. hooks never
		// imports it, so that one package links wazero; the command line
		// makes it. A module's file is opened as a regular file.
		{pkg: "hooks/wasm", imports: []string{"hooks", "internal/regularfile", "internal/textcut"}},

		// The rules a person writes once (permissions: allow and deny, issue
		// 38): their grammar and what a call matches, a bash command read by
		// a shell parser (mvdan.cc/sh). It knows no tool, turn or file: the
		// configuration reads the rules, the orchestrator asks them.
		{pkg: "permissions"},

		// The design's mmconfigs → hooks: entries are validated where they
		// are defined; so are permissions' rules (permissions), an unknown
		// tool named with the nearest (internal/suggest). Not drawn: tools, for the MCP servers read are held
		// as tools.MCPServer, the one type of an MCP server's command line
		// (issue 15) — a value the configuration fills, no tool that runs.
		// The sandbox: key is read into the sandbox's own modes.
		{pkg: "mmconfigs", imports: []string{"hooks", "internal/regularfile", "internal/sandbox", "internal/strictyaml", "internal/suggest", "internal/userconfig", "permissions", "tools"}},
		// The JSON Schema compiler (jsonschema-go), apart from mmconfigs so
		// that one package imports it: it compiles the schemas
		// mmconfigs read into mmconfigs.Validator values.
		{pkg: "mmconfigs/schemacheck", imports: []string{"mmconfigs"}},

		// Not drawn: a tool describes itself to the model as an llm.ToolSpec
		// (a type, not a client); bash starts through internal/proc; files
		// are read and edited as regular files; load_skill reads the skills
		// the session found (skills).
		// bash's commands start, and the file tools write, confined by
		// the session's sandbox (internal/sandbox).
		{pkg: "tools", imports: []string{"internal/jsonkind", "internal/proc", "internal/regularfile", "internal/sandbox", "internal/textcut", "llm", "skills"}},
		// The tools of MCP servers, apart from tools so that one package
		// imports the MCP client: they are
		// tools.Tool, started as a tools.MCPStarter; the servers start
		// through internal/proc; a tool's schema is checked as jsonkind
		// names kinds, an error's command line cut by textcut.
		{pkg: "tools/mcptools", imports: []string{"internal/jsonkind", "internal/proc", "internal/textcut", "llm", "tools"}},

		// The saved sessions: their lines are llm messages (a type, not a
		// client); a listing cuts the first question as textcut does. It
		// knows no turn loop: its Writer satisfies orchestrator.Recorder
		// without importing it.
		// Its files are opened as every file mm is named (a named pipe in
		// the folder is refused, not waited on).
		{pkg: "sessions", imports: []string{"internal/regularfile", "internal/suggest", "internal/textcut", "llm"}},

		// The child mm process: its ACP connection, its process, its limits.
		{pkg: "agentproc", imports: []string{"internal/acpconn", "internal/proc", "internal/regularfile", "internal/textcut", "internal/tracing"}},

		// An agent asked over A2A: an HTTP client of it (issue 13); the
		// quotes of a reply it did not expect are cut at a character; a
		// message's text is read as mm serve --a2a reads it (a2aconn).
		{pkg: "a2aagent", imports: []string{"internal/a2aconn", "internal/textcut", "internal/tracing"}},

		// The design's orchestrator → (hooks, llm, tools, handoff, agentproc):
		// the model made by llm/models; of llm/openai, the configuration's
		// providers, the agent's place in a chain, and mm check's questions
		// to the server (CheckServes, HandOffAdvice).
		// Not a2aagent, agentproc's sibling for an agent asked over A2A: the
		// orchestrator holds one as an A2AAgent, given the client as an
		// A2AConnector, so that mm links no A2A SDK (issue 16).
		// Not drawn: mmconfigs, for a session is built from a loaded
		// configuration (its model, hooks, MCP servers, the agents it may ask);
		// the system prompt's AGENTS.md files and skills, the question's
		// @path and $name lines and the person's command files
		// (projectdocs, skills, question, commandfiles); the
		// permission rules, asked before the consent question (permissions).
		// The session's sandbox is made, and handed down to the agents it
		// asks, here (internal/sandbox).
		{pkg: "orchestrator", imports: []string{"agentproc", "handoff", "hooks", "internal/sandbox", "internal/textcut", "internal/tracing", "llm", "llm/models", "llm/openai", "mmconfigs", "permissions", "projectdocs", "question", "skills", "tools", "commandfiles"}},

		// What the terminal front ends share, over the design's frontend →
		// orchestrator. Not drawn: mmconfigs, for ReportError recognises a
		// *mmconfigs.Error to print it as "[config error: …]" —
		// configuration is data, read by a front end, and mmconfigs imports
		// no front end. It cuts an ask_agent consent question's question as
		// every cut of text for a person is made (internal/textcut), and
		// says a file's size in a consent question as mm says every size
		// (internal/regularfile). An unknown slash command's refusal names
		// the nearest known one, as an unknown agent's does (internal/suggest).
		{pkg: "frontend", imports: []string{"internal/regularfile", "internal/suggest", "internal/textcut", "internal/visible", "mmconfigs", "orchestrator"}},
		// The line mode, -p and mm --ask: the shared pieces (frontend), and
		// the answer as markdown on a terminal with colours.
		{pkg: "frontend/line", imports: []string{"frontend", "frontend/markdown", "orchestrator"}},
		// The editor front end reads its peer's messages as acpconn does.
		{pkg: "frontend/acp", imports: []string{"internal/acpconn", "internal/tracing", "orchestrator"}},
		// mm serve --a2a: a front end over orchestrator.Session, as -acp is;
		// the command line serves it. Its log shows a
		// client's text (a context id) through the one function that makes
		// control characters visible (frontend); a question's text is read
		// as the A2A client reads an answer's (internal/a2aconn).
		{pkg: "frontend/a2a", imports: []string{"frontend", "internal/a2aconn", "internal/httpdoor", "internal/tracing", "orchestrator"}},
		{pkg: "frontend/tui", imports: []string{"frontend", "frontend/markdown", "orchestrator"}},
		// mm serve --mcp: a front end over orchestrator.Session, as
		// frontend/a2a is, over the MCP SDK's server (issue 40); behind the
		// door of every mm serve over HTTP (internal/httpdoor); a consent
		// question and a log line made visible as every front end makes
		// them (frontend).
		// Not drawn: handoff, for the served agent reads a call's
		// conversation as an asked mm reads the one a hand-off sends
		// (handoff.Message).
		{pkg: "frontend/mcp", imports: []string{"frontend", "handoff", "internal/httpdoor", "orchestrator"}},

		// The architecture's cmd/mm → frontend, in cmd/mm/cli: the command
		// line. Not drawn, what it wires: the session's
		// options (orchestrator); loading the configuration and mm check
		// (mmconfigs, and orchestrator's MCP probe); mm hooks test and mm
		// check's hook checks (hooks); the interfaces a feature is given by
		// (hooks, tools, orchestrator: the wasm runner, the MCP starter, the
		// A2A connector); mm init's look for local servers (llm/openai); the supervision
		// of every child from mm's first instruction to its last
		// (internal/proc); the check of the hidden --sandbox-ceiling
		// (internal/sandbox); the limit of an --ask message read from stdin,
		// and its error (internal/acpconn, internal/regularfile); mm
		// check's look at the skills (skills), inside the project's root
		// (projectdocs.Root); what mm -p reads of stdin beside a question,
		// and how it follows the question (question). The parts whose libraries only some
		// configurations use, each made when a configuration needs it: the
		// wasm runtime (hooks/wasm), the MCP client (tools/mcptools), the
		// OTLP export (internal/tracing/otlp), the JSON Schema compiler
		// (mmconfigs/schemacheck), A2A both ways (a2aagent, frontend/a2a),
		// the MCP server (frontend/mcp). mm init --global writes in the
		// person's own mm folder (internal/userconfig).
		{pkg: "cmd/mm/cli", imports: []string{
			"a2aagent", "frontend", "frontend/a2a", "frontend/acp", "frontend/line", "frontend/mcp", "frontend/tui",
			"hooks", "hooks/wasm", "internal/acpconn", "internal/proc", "internal/sandbox",
			"internal/regularfile", "internal/tracing", "internal/tracing/otlp", "llm/openai", "mmconfigs",
			"mmconfigs/schemacheck", "orchestrator", "projectdocs", "question", "sessions", "skills", "tools", "tools/mcptools",
			"internal/userconfig",
		}},
		// mm: the command line.
		{pkg: "cmd/mm", imports: []string{"cmd/mm/cli"}},
	}
}

// never is a rule of the design that no import may break, whatever the policy
// says: a second statement of it that catches a careless edit of the policy.
type never struct {
	from    []string // mm packages: "x/..." is x and the packages under it, "..." all of mm
	to      []string // mm packages that from must not depend on, written as from's
	toOther []string // other import paths (the standard library's, a module's) from must not depend on
	direct  bool     // the rule is about from's own imports; else about dependencies at any depth
	rule    string   // the rule in the design's words, shown when it is broken
}

// neverRules are the architecture's "never" (docs/explanation/architecture.md) and the rules of the
// internal packages, each as the packages it binds and those they must not
// reach.
func neverRules() []never {
	return []never{
		{
			from: []string{"hooks/..."},
			to:   []string{"orchestrator", "agentproc", "tools/...", "mmconfigs", "frontend/...", "cmd/..."},
			rule: "the hook engine knows no turn loop (CONTRIBUTING.md)",
		},
		{
			from: []string{"llm/..."},
			to:   []string{"hooks/...", "handoff", "orchestrator", "tools/...", "agentproc", "mmconfigs", "frontend/...", "cmd/..."},
			rule: "a model client knows neither hooks nor turns (CONTRIBUTING.md)",
		},
		{
			// What a conversation is, everything imports: it holds no
			// model, so that naming a message links no client.
			from: []string{"llm"},
			to:   []string{"llm/..."},
			rule: "llm holds the types every model shares: it imports no model (CONTRIBUTING.md)",
		},
		{
			// Each kind of model in its own room: what both need is in
			// llm, and llm/models chooses between them.
			from: []string{"llm/builtin"},
			to:   []string{"llm/openai", "llm/models"},
			rule: "the built-in models know no server (CONTRIBUTING.md)",
		},
		{
			from: []string{"llm/openai"},
			to:   []string{"llm/builtin", "llm/models"},
			rule: "a server's client knows no built-in model (CONTRIBUTING.md)",
		},
		{
			// Which code speaks HTTP, and to which server, is llm/openai.
			from:    []string{"llm", "llm/builtin"},
			toOther: []string{"net", "net/http"},
			rule:    "of the models, only llm/openai speaks HTTP (CONTRIBUTING.md)",
		},
		{
			from: []string{"tools/..."},
			to:   []string{"orchestrator", "hooks/...", "handoff", "agentproc", "mmconfigs", "frontend/...", "cmd/..."},
			rule: "a tool knows nothing of the loop that calls it (CONTRIBUTING.md)",
		},
		{
			from:   []string{"frontend/..."},
			to:     []string{"hooks/...", "llm/...", "tools/..."},
			direct: true,
			rule:   "front ends import neither hooks nor models nor tools (CONTRIBUTING.md)",
		},
		{
			// What the front ends share is under all of them: the
			// sub-packages build on it, and a front end that needs little
			// of it (frontend/a2a: VisibleLine) links no renderer.
			from: []string{"frontend"},
			to:   []string{"frontend/..."},
			rule: "frontend holds what the front ends share: it imports none of its sub-packages (CONTRIBUTING.md)",
		},
		{
			// The line mode and the window render the same events side by
			// side; neither is built on another front end.
			from: []string{"frontend/a2a", "frontend/acp", "frontend/line", "frontend/mcp", "frontend/tui"},
			to:   []string{"frontend/a2a", "frontend/acp", "frontend/line", "frontend/mcp", "frontend/tui"},
			rule: "a front end imports no other front end: what two of them need is in frontend (CONTRIBUTING.md)",
		},
		{
			from: []string{"mmconfigs"},
			to:   []string{"orchestrator", "agentproc", "frontend/...", "cmd/..."},
			rule: "configuration is data (CONTRIBUTING.md)",
		},
		{
			from:   []string{"mmconfigs"},
			to:     []string{"llm/..."},
			direct: true,
			rule:   "configuration is data: it names providers and models, it holds no model client (CONTRIBUTING.md)",
		},
		{
			from:    []string{"mmconfigs"},
			toOther: []string{"os/exec", "net", "net/http"},
			direct:  true,
			rule:    "configuration is data: loading it starts no process and opens no connection (CONTRIBUTING.md)",
		},
		{
			from:    []string{"handoff"},
			to:      []string{"agentproc", "internal/proc"},
			toOther: []string{"os/exec"},
			rule:    "the ask's types start no process (CONTRIBUTING.md)",
		},
		{
			from: []string{"orchestrator"},
			to:   []string{"frontend/...", "cmd/..."},
			rule: "imports flow one way: the orchestrator knows no front end (CONTRIBUTING.md)",
		},
		{
			from: []string{"a2aagent", "agentproc", "handoff", "hooks/...", "llm/...", "mmconfigs", "permissions", "tools/..."},
			to:   []string{"orchestrator", "frontend/...", "cmd/..."},
			rule: "imports flow one way: what the orchestrator calls knows neither it nor a front end (CONTRIBUTING.md)",
		},
		{
			// What names MCP servers — the configuration, the tools'
			// types, the turn loop, the front ends — holds them as
			// tools.MCPServer and tools.MCPTools, and is given the client
			// as a tools.MCPStarter, so that the MCP SDK is imported by one
			// package, and a test of the orchestrator gives a fake.
			// frontend/mcp, the MCP server (mm serve --mcp), is the one
			// front end made on it (issue 40), as frontend/a2a is made on
			// the A2A SDK: a feature cmd/mm makes when it serves.
			from:    []string{"frontend", "frontend/a2a", "frontend/acp", "frontend/line", "frontend/markdown", "frontend/tui", "mmconfigs", "orchestrator", "tools"},
			toOther: []string{"github.com/modelcontextprotocol/go-sdk/..."},
			rule:    "only tools/mcptools (the client) and frontend/mcp (the server) link the MCP SDK (issues 16, 40)",
		},
		{
			// The configuration reads and checks its JSON Schemas and holds
			// them compiled as an mmconfigs.Validator, which the command
			// line has mmconfigs/schemacheck make, so that jsonschema-go
			// is imported by one package of mm.
			from:    []string{"frontend", "frontend/a2a", "frontend/acp", "frontend/line", "frontend/markdown", "frontend/tui", "mmconfigs", "orchestrator", "tools"},
			toOther: []string{"github.com/google/jsonschema-go/..."},
			rule:    "only mmconfigs/schemacheck (and the MCP SDK's two packages) link jsonschema-go (issues 16, 40)",
		},
		{
			from:   []string{"internal/..."},
			to:     []string{"a2aagent", "agentproc", "cmd/...", "examples/...", "frontend/...", "handoff", "hooks/...", "llm/...", "mmconfigs", "orchestrator", "tools/..."},
			direct: true,
			rule:   "an internal package is a mechanism mm's parts share: it knows none of them",
		},
		{
			from: []string{"cmd/mm/cli"},
			toOther: []string{"github.com/tetratelabs/wazero/...", "github.com/modelcontextprotocol/go-sdk/...",
				"go.opentelemetry.io/otel/sdk/...",
				"github.com/google/jsonschema-go/...", "github.com/a2aproject/a2a-go/..."},
			direct: true,
			rule:   "the command line imports no wasm runtime, MCP client, OTLP export, JSON Schema compiler or A2A SDK itself: it reaches each through the one package of mm that imports it",
		},
		{
			from:   []string{"..."},
			to:     []string{"internal/fakeanthropic", "internal/fakegemini", "internal/llamatest", "internal/mustend", "internal/nodetest", "internal/ollamatest", "internal/proc/proctest"},
			direct: true,
			rule:   "a test helper is linked into no mm binary: only _test.go files import it",
		},
	}
}

// TestImports checks the imports of every package of mm, as the go command
// sees them on this system, against the policy and the rules.
func TestImports(t *testing.T) {
	g, err := listGraph(t)
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range check(g, policy(), neverRules()) {
		t.Error(msg)
	}
}

// TestContributingNamesEveryPackage keeps the contributor's page whole: every
// package of the policy has its line in CONTRIBUTING.md (the examples aside,
// which the page names together).
func TestContributingNamesEveryPackage(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range policy() {
		if strings.HasPrefix(a.pkg, "examples/") {
			continue
		}
		if !bytes.Contains(page, []byte("`"+a.pkg+"`")) {
			t.Errorf("CONTRIBUTING.md does not name package %s: give it a line in the table of packages", a.pkg)
		}
	}
}

// listGraph asks the go command for every package mm builds — mm's own and
// those they depend on — and what each one's non-test files import.
func listGraph(t *testing.T) (graph, error) {
	cmd := exec.CommandContext(t.Context(), "go", "list", "-deps", "-json=ImportPath,Imports", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing mm's packages with go list: %w: %s", err, stderr.Bytes())
	}
	g := graph{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			return g, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading go list's output: %w", err)
		}
		g[p.ImportPath] = p.Imports
	}
}
