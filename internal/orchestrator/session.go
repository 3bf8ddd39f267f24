package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/mm-agent/mm/internal/commandfiles"
	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/hooks"
	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/llm/openai"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/permissions"
	"github.com/mm-agent/mm/internal/sandbox"
	"github.com/mm-agent/mm/internal/skills"
	"github.com/mm-agent/mm/internal/tools"
)

// Options configure a Session.
type Options struct {
	Config *mmconfigs.Config
	// Cwd is the session's working directory, absolute.
	Cwd string
	// Environ is the base environment (os.Environ()); the session adds
	// MM_BIN and MM_CONFIG for every process it starts.
	Environ []string
	// Model overrides the configuration's model (--model).
	Model string
	// Yolo turns consent off (--yolo); it cannot turn it on.
	Yolo bool
	// Sandbox and Network are --sandbox and --network, over the file's
	// sandbox: key; "" when the command line says nothing.
	Sandbox, Network string
	Sink             Sink
	// NoModel is set when the session only hands off (mm --ask): a missing
	// model is then no error.
	NoModel bool
	// Wasm runs wasm hooks; nil when the configuration has none.
	Wasm hooks.WasmRunner
	// WasmTools runs the configuration's wasm tools (the same runtime as
	// Wasm, so that a module compiles once); nil when it has none.
	WasmTools tools.ModuleRunner
	// MCPServers are added to the configuration's (an editor's servers).
	MCPServers []MCPServer
	// Bin is the mm the processes the session starts know as $MM_BIN, and
	// its asked agents by file run: "" for this one (os.Executable).
	Bin string
	// StartMCP starts the MCP servers (tools/mcptools.Start, which the
	// command line gives; a test gives a fake). Nil: each server listed is
	// a warning that this session has no MCP client.
	StartMCP tools.MCPStarter
	// ConnectA2A prepares the agents asked over A2A (a2aagent.New, which
	// the command line gives; a test gives a fake). Nil: asking such an
	// agent is an error that this session has no A2A client.
	ConnectA2A A2AConnector
	// Recorder saves the history as it happens; nil: it is not saved.
	Recorder Recorder
	// Resume is a saved session to go on with: its history and the
	// sessions of the agents it had asked. Nil: a new conversation.
	Resume *Resumed
	// Store lists and resumes saved sessions (/sessions, /resume); nil:
	// those commands say sessions are not saved.
	Store SessionStore
	// MaxTurns bounds the model calls of one turn over the
	// configuration's maxSteps (--max-turns); 0: maxSteps.
	MaxTurns int
	// Verbose, when set, is given every line of what the model sends to
	// its server and receives, the API key left out (--verbose).
	Verbose func(line string)
}

// Running is what a session of o runs with: --model (o.Model) over the
// file's model:, which $MM_MODEL stands for when the file has none; consent
// off with --yolo (o.Yolo) or yolo: true. The one place they are merged:
// the session runs it, and the banner and mm check show it.
func (o Options) Running() mmconfigs.Running {
	run := mmconfigs.Running{Model: o.Config.Model, Yolo: o.Config.Yolo || o.Yolo}
	if o.Model != "" {
		run.Model = o.Model
	}
	if spec, err := o.sandboxSpec(); err == nil {
		run.Sandbox = spec.Status(sandbox.Probe())
	}
	return run
}

// sandboxSpec is the sandbox a session of o runs under: --sandbox and
// --network over the file's sandbox:, tightened by the ceiling of the
// agent that asked this one (MM_SANDBOX_CEILING).
func (o Options) sandboxSpec() (sandbox.Spec, error) {
	spec, err := o.Config.SandboxSpec(o.Sandbox, o.Network)
	if err != nil {
		return spec, err
	}
	spec.Cwd = o.Cwd
	if v := envMap(o.Environ)[ceilingEnv]; v != "" {
		c, err := sandbox.ParseCeiling(v)
		if err != nil {
			return spec, fmt.Errorf("%s=%q: %v (an asking mm sets it for the agents it starts): unset it", ceilingEnv, v, err)
		}
		spec = spec.Tighten(&c)
	}
	return spec, nil
}

// Session is one conversation with an agent: its history, its consent
// decisions and the asked agents it keeps running.
type Session struct {
	cfg     *mmconfigs.Config
	cwd     string
	environ []string
	bin     string
	model   llm.Model
	ref     string
	// modelChosen says the person chose the model for this run (--model,
	// /model): a resumed session's own model does not replace it
	// (model.go).
	modelChosen bool
	// loadAsked asks, once a model, whether its server has it loaded.
	loadAsked *sync.Once
	yolo      bool
	// sandbox bounds what the tools touch; nil only for a Session made
	// without New (tests).
	sandbox *sandbox.Policy
	sink    Sink
	hooks   *hooks.Engine
	// hookOptions are what the hooks were made with: a new model makes
	// them anew, naming it.
	hookOptions hooks.Options
	// trace is given what the model client sends and receives (--verbose).
	trace func(line string)
	tools map[string]tools.Tool
	order []string
	// depth is this agent's own depth: 0 when a person started it.
	depth int
	// maxTurns is --max-turns, over maxSteps (maxturns.go); 0: none.
	maxTurns int
	// maxDepth bounds the chain: the configuration's maxAskDepth, or the
	// lower limit the asking agent passed down (MM_ASK_MAX_DEPTH), so that
	// the agent a person started bounds the whole chain.
	maxDepth int
	// answerKeep and answerHard bound one asked agent's answer: what mm
	// keeps of it, and where it ends the hand-off (handoff.MaxKeptAnswer
	// and MaxStreamedAnswer; smaller in tests).
	answerKeep, answerHard int

	chain string

	// history is the conversation, saved as it happens (history.go).
	history *history
	store   SessionStore
	// allowRules are the rules that spare a call its consent question:
	// the configuration's (permissions.allow), then those the person's
	// "always" answers added (rules.go); never is the person's "never",
	// by tool.
	mu         sync.Mutex
	allowRules []permissions.Rule
	never      map[string]bool
	// places say where the rules' paths start; saveMu makes the saved
	// "always" answers write the configuration one at a time.
	places permissions.Places
	saveMu sync.Mutex
	// shellRuns are what the person ran with "!" since the last
	// question, which the next one begins with (shell.go); mu guards it.
	shellRuns []string

	mcp      tools.MCPTools // nil until servers are started
	warnings []string

	// system is the system prompt (prompt.go); skills the skills found,
	// commands the person's command files (commandList: as Commands).
	system      string
	skills      *skills.Set
	commands    *commandfiles.Set
	commandList []Command
	home        string

	// window is what the session knows of its model's context window.
	window *window

	// connectA2A prepares the agents asked over A2A; nil: none can be.
	connectA2A A2AConnector

	asks *askers
	// askOffered says ask_agent is offered (mmConfigs lists agents); it
	// is no tools.Tool, but a hand-off (asktool.go).
	askOffered  bool
	askSpecOnce sync.Once
	askSpec     llm.ToolSpec
}

// ConfigError is a configuration that cannot run; front ends print it as
// "[config error: <path>: <message>]" (Report: a syntax error's excerpt
// under it).
type ConfigError = mmconfigs.Error

// New prepares a session. It starts no agent, hook or tool: asked agents
// start on their first hand-off. A configuration with command hooks has
// mm's watchdog started in the background (hooks.Engine.Prepare), so that
// the first hook does not wait for it.
func New(ctx context.Context, opts Options) (*Session, error) {
	cfg := opts.Config
	env := envMap(opts.Environ)
	s := &Session{
		cfg:    cfg,
		system: systemPrompt(cfg),
		cwd:    opts.Cwd,
		sink:   opts.Sink,
		never:  map[string]bool{},
		tools:  map[string]tools.Tool{},

		store:      opts.Store,
		connectA2A: opts.ConnectA2A,
		maxTurns:   opts.MaxTurns,
	}
	if err := s.joinChain(opts.Environ, opts.Bin); err != nil {
		return nil, err
	}
	if cfg.Abs != "" {
		s.environ = withEnv(s.environ, "MM_CONFIG", cfg.Abs)
	}
	run := opts.Running()
	s.ref, s.yolo, s.modelChosen = run.Model, run.Yolo, opts.Model != ""
	if err := s.openSandbox(opts); err != nil {
		return nil, err
	}
	s.allowRules = slices.Clone(cfg.Permissions.Allow)
	s.places = permissions.Places{Cwd: s.cwd, Home: env["HOME"]}
	switch {
	case s.ref == "" && !opts.NoModel:
		return nil, noModelError(cfg)
	case s.ref != "":
		s.trace = opts.Verbose
		s.resumedModel(opts.Resume, env)
		m, err := s.newModel(s.ref, env)
		if err != nil {
			if opts.NoModel {
				break
			}
			return nil, s.modelError(s.ref, err)
		}
		s.model = m
	}
	s.loadAsked = new(sync.Once)
	s.window = newWindow(cfg, s.ref)
	s.history = newHistory(s.sink, s.window, opts.Resume, opts.Recorder)
	s.history.usesModel(s.ref)
	s.hookOptions = hooks.Options{
		Cwd:        s.cwd,
		Model:      s.ref,
		Environ:    s.environ,
		AskedDepth: s.depth,
		Wasm:       opts.Wasm,
	}
	s.hooks = hooks.NewEngine(&cfg.Hooks, s.hookOptions)
	s.hooks.Prepare()
	for _, t := range tools.Builtins() {
		name := t.Spec().Name
		if cfg.ToolEnabled(name) {
			s.tools[name] = t
			s.order = append(s.order, name)
		}
	}
	s.asks = newAskers()
	if cfg.ToolEnabled(askToolName) {
		s.askOffered = true
		s.order = append(s.order, askToolName)
	}
	for _, def := range cfg.WasmTools {
		// mmconfigs refused a name a built-in has, and a name given twice.
		s.tools[def.Name] = tools.NewWasmTool(def, opts.WasmTools)
		s.order = append(s.order, def.Name)
	}
	if !opts.NoModel {
		s.prepareContext(env)
		s.startMCP(ctx, opts.StartMCP, opts.MCPServers)
	}
	return s, nil
}

// joinChain reads from environ where this agent is in a chain of asks
// (MM_ASKED_DEPTH, MM_ASK_MAX_DEPTH, MM_ASK_CHAIN) and the mm binary, and
// sets the environment of the processes it starts. A depth that no asking
// mm sets (not a number, or past mmconfigs.MaxAskDepthCap) is refused with
// a line naming it: read as 0, it would reset the count maxAskDepth bounds.
func (s *Session) joinChain(environ []string, bin string) error {
	env := envMap(environ)
	depth, err := chainDepth(env, "MM_ASKED_DEPTH")
	if err != nil {
		return err
	}
	s.depth = depth
	s.maxDepth = s.cfg.MaxAskDepth
	s.answerKeep, s.answerHard = handoff.MaxKeptAnswer, handoff.MaxStreamedAnswer
	m, err := chainDepth(env, "MM_ASK_MAX_DEPTH")
	if err != nil {
		return err
	}
	if env["MM_ASK_MAX_DEPTH"] != "" && m < s.maxDepth {
		s.maxDepth = m
	}
	s.chain = env["MM_ASK_CHAIN"]
	s.bin = env["MM_BIN"]
	if exe, err := os.Executable(); err == nil {
		s.bin = exe
	}
	if bin != "" {
		s.bin = bin
	}
	s.environ = withEnv(environ, "MM_BIN", s.bin)
	return nil
}

// chainDepth reads the depth the variable name of env gives, 0 when it is
// unset or empty.
func chainDepth(env map[string]string, name string) (int, error) {
	d, err := mmconfigs.ChainDepth(env[name], 0)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: %v (an asking mm sets it for the agents it starts): unset it", name, env[name], err)
	}
	return d, nil
}

// place is where the session stands in a chain of hand-offs, for its
// model's server to give each agent of the chain a slot: the names of
// MM_ASK_CHAIN, one a level of its depth (a depth given without them, as
// by --asked-depth alone, has unnamed levels), and whether it may ask.
func (s *Session) place() openai.Place {
	var asked []string
	if s.chain != "" {
		asked = strings.Split(s.chain, "/")
	}
	if len(asked) != s.depth {
		asked = make([]string, s.depth)
	}
	return openai.Place{Asked: asked, Asks: len(s.cfg.Agents) > 0 && s.depth < s.maxDepth}
}

// Close stops the asked agents and the MCP servers the session started.
func (s *Session) Close() error {
	return errors.Join(s.asks.closeAll(), s.closeMCP(), s.sandbox.Close())
}

// Model is the session's model reference.
func (s *Session) Model() string { return s.ref }

// Running is what the session runs with (Options.Running): what its banner
// shows.
func (s *Session) Running() mmconfigs.Running {
	return mmconfigs.Running{Model: s.ref, Yolo: s.yolo, Sandbox: s.sandbox.Status()}
}

// Tools are the names of the tools the model is offered, in their order.
func (s *Session) Tools() []string { return append([]string(nil), s.order...) }

// windowSize is the model's window: the server asked at the first
// request (window.sizeOf).
func (s *Session) windowSize(ctx context.Context) int {
	reader, _ := s.model.(llm.WindowReader)
	return s.window.sizeOf(ctx, reader)
}

// toolSpecs are the tools the model is offered, as it reads them.
func (s *Session) toolSpecs() []llm.ToolSpec {
	if s.model != nil && !llm.TakesTools(s.model) {
		// The server refused the model's tools (a model without tool
		// support): none is sent, and none is counted in the window.
		return nil
	}
	specs := make([]llm.ToolSpec, 0, len(s.order))
	for _, name := range s.order {
		if name == askToolName {
			specs = append(specs, s.askToolSpec())
			continue
		}
		specs = append(specs, s.tools[name].Spec())
	}
	return specs
}

// toolList names the tools on offer, for an error the model can act on.
func (s *Session) toolList() string { return strings.Join(s.order, ", ") }

// Agents are the names of the agents it can ask (mmConfigs), sorted.
func (s *Session) Agents() []string { return s.cfg.AgentNames() }

func providers(in map[string]mmconfigs.Provider) map[string]openai.Provider {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]openai.Provider, len(in))
	for k, p := range in {
		out[k] = openai.Provider{BaseURL: p.BaseURL, APIKeyEnv: p.APIKeyEnv, IdleTimeout: p.IdleTimeout}
	}
	return out
}

func envMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// withEnv returns environ with key set to value, replacing an earlier value.
func withEnv(environ []string, key, value string) []string {
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		if !strings.HasPrefix(kv, key+"=") {
			out = append(out, kv)
		}
	}
	return append(out, key+"="+value)
}

// errCancelled is the error of a turn or hand-off cut short: its text is
// "cancelled" (what hooks and the person read), and it unwraps to
// context.Canceled, so errors.Is(err, context.Canceled) holds for it.
var errCancelled error = cancelledError{}

// cancelledError is errCancelled's type.
type cancelledError struct{}

// Error is "cancelled", the text hooks and front ends show.
func (cancelledError) Error() string { return "cancelled" }

// Unwrap is context.Canceled, for errors.Is.
func (cancelledError) Unwrap() error { return context.Canceled }

func describe(ctx context.Context, err error) error {
	if errors.Is(err, context.Canceled) || ctx.Err() == context.Canceled {
		return errCancelled
	}
	return err
}
