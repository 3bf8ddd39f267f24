package mmconfigs

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/mm-agent/mm/internal/hooks"
	"github.com/mm-agent/mm/internal/permissions"
	"github.com/mm-agent/mm/internal/tools"
)

// Defaults for keys a file leaves out.
const (
	DefaultMaxAskDepth = 3
	DefaultAskTimeout  = 10 * time.Minute
	DefaultMaxSteps    = 50
	DefaultSystem      = "You are mm, a helpful assistant with tools. Answer briefly and precisely. Use the tools when they help; say what you did."
)

// DefaultMaxParallelTools bounds the tool calls of one model reply that run
// at once; the others wait their turn, in the reply's order. Eight keeps a
// laptop of 4 to 16 cores busy without swamping it: each call may start a
// shell, a hook process or a child agent, and a model that answers with 300
// calls would otherwise start 300 processes at once. It is as many as the
// hand-offs that may run at once, so that a fan-out to several agents is not
// slowed by it.
const DefaultMaxParallelTools = 8

// Config is one agent's configuration, validated, with paths made absolute.
type Config struct {
	// Path is the file as it was named (on the command line, in $MM_CONFIG or
	// in an mmConfigs entry made absolute); "" for the defaults.
	Path string
	// Abs is the file's absolute path; "" for the defaults.
	Abs string
	// Dir is the absolute folder paths in the file are relative to.
	Dir string
	// User says the file is in the person's own mm folder: their
	// agent.yaml (UserFile), found for want of ./agent.yaml or named, or
	// an agent's file beside it. Path then says it as they write it:
	// ~/.config/mm/agent.yaml.
	User bool

	Model           string
	Description     string
	System          string
	Yolo            bool
	DisplayHooks    bool
	DisplayCommands bool
	// Persist saves the session as it happens (persist:, default true);
	// --no-save turns it off for one run.
	Persist bool
	// Tools are the built-in tools offered to the model; nil means all.
	Tools []string
	// WasmTools are the tools: entries that define a tool mm runs in the
	// wasm sandbox, in the order written.
	WasmTools []tools.WasmDef
	// wasmToolAt is each wasm tool's index in the tools: list, and
	// wasmToolLine the line of its schema (of its entry without one), for
	// the message of a schema that does not compile; structuredOutputLine
	// is the structuredOutput key's.
	wasmToolAt, wasmToolLine []int
	structuredOutputLine     int
	// modelLine is the model key's line; 0 when the file gives none.
	modelLine int
	// StructuredOutput is the schema the agent's final answer is JSON
	// valid against; nil for an agent that answers in prose.
	StructuredOutput *OutputSchema
	// MCPServers are the MCP servers whose tools are offered too, by name;
	// each one's Name is its key. Command, args and env values are as
	// written: the session expands $VAR in them.
	MCPServers map[string]tools.MCPServer
	// Agents are the agents this one may ask (mmConfigs), by name.
	Agents      map[string]Agent
	MaxAskDepth int
	AskTimeout  time.Duration
	// MaxSteps bounds the model calls of one turn.
	MaxSteps  int
	Providers map[string]Provider
	Hooks     hooks.Config
	// Permissions are the rules of permissions: (allow, deny), checked
	// before the consent question; permissionEntries are its entries until
	// the whole file is read.
	Permissions       permissions.Rules
	permissionEntries []permissionEntry

	// MaxParallelTools bounds the tool calls of one reply running at once.
	MaxParallelTools int

	// Skills are the folders of skills: (absolute), searched before
	// .mm/skills of the working directory and the user's mm/skills.
	Skills []string
	// ProjectDocs (projectDocs) says the AGENTS.md files from the project's
	// root to the working directory go into the system prompt; default true.
	ProjectDocs bool

	// ContextWindow (contextWindow) is the model's window in tokens, as
	// the configuration says it; 0: not said (the server's, or the
	// provider's contextWindow, or llm.DefaultContextWindow).
	ContextWindow int
	// Sandbox (sandbox:) bounds what the tools may touch
	// (docs/explanation/sandbox.md).
	Sandbox Sandbox

	// CompressAt (compressAt) is the share of the window past which the
	// history is compressed before a model call.
	CompressAt float64
}

// DefaultCompressAt leaves a fifth of the window for the reply and for
// the error of the estimate of text the server has not counted yet.
const DefaultCompressAt = 0.8

// Bounds of compressAt: under MinCompressAt a compressed history hardly
// fits the latest turn; over MaxCompressAt no room is left to answer.
const (
	MinCompressAt = 0.3
	MaxCompressAt = 0.95
)

// MaxAskDepthCap is the highest maxAskDepth accepted. Every level of a
// chain of hand-offs is one more mm process with its model calls, asked
// agents and MCP servers: a self-asking agent under maxAskDepth 1000000
// started over a hundred processes in five seconds. Sixteen levels are more
// than any real delegation uses (a person reads, and approves, every one).
const MaxAskDepthCap = 16

// ChainDepth reads v, a depth in a chain of hand-offs as MM_ASKED_DEPTH,
// MM_ASK_MAX_DEPTH or their flags give it: "" is 0, anything else a whole
// number from lo to MaxAskDepthCap. An asking mm never sets more than the
// cap (it refuses an ask beyond maxAskDepth), so a larger value is no mm's,
// and is refused rather than read: the depth sizes the chain's slice of
// names, and 2^63-1 made one that long. The error says only what is wanted;
// the caller names the variable or flag and the value.
func ChainDepth(v string, lo int) (int, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > MaxAskDepthCap {
		return 0, fmt.Errorf("want a whole number from %d to %d", lo, MaxAskDepthCap)
	}
	return n, nil
}

// MinContextWindow is the smallest contextWindow accepted: below it the
// system prompt and the tools' descriptions alone fill the window.
const MinContextWindow = 512

// Provider is one entry of providers: an OpenAI-compatible endpoint.
type Provider struct {
	BaseURL   string `yaml:"baseURL"`
	APIKeyEnv string `yaml:"apiKeyEnv"`
	// IdleTimeout (idleTimeout) is how long the server may send nothing
	// before a call is given up; zero: openai.DefaultIdleTimeout.
	IdleTimeout time.Duration `yaml:"-"`
	// ContextWindow (contextWindow) is the window of the provider's
	// models, in tokens; 0: not said. An agent's own contextWindow wins.
	ContextWindow int `yaml:"-"`
}

// toolNames are the tools a configuration may list under tools:, in the
// order they are offered.
var toolNames = []string{"bash", "read_file", "write_file", "edit_file", "ask_agent", "load_skill"}

// validAgentName reports whether name is [a-z0-9][a-z0-9_-]*: it becomes
// /ask-<name>. (A loop, not a regular expression compiled at every start.)
func validAgentName(name string) bool {
	for i, c := range name {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case (c == '_' || c == '-') && i > 0:
		default:
			return false
		}
	}
	return name != ""
}

// AgentNames returns the names of mmConfigs, sorted.
func (c *Config) AgentNames() []string {
	names := make([]string, 0, len(c.Agents))
	for n := range c.Agents {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// MCPServerNames returns the names of mcpServers, sorted.
func (c *Config) MCPServerNames() []string {
	names := make([]string, 0, len(c.MCPServers))
	for n := range c.MCPServers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ToolEnabled reports whether the built-in tool name is offered. ask_agent
// is offered only when there is an agent to ask.
func (c *Config) ToolEnabled(name string) bool {
	if name == "ask_agent" && len(c.Agents) == 0 {
		return false
	}
	if c.Tools == nil {
		return true
	}
	for _, t := range c.Tools {
		if t == name {
			return true
		}
	}
	return false
}

// Default is the configuration used when no file is found: defaults
// everywhere, paths relative to dir.
func Default(dir string, getenv func(string) string) *Config {
	return &Config{
		Dir:         dir,
		Model:       getenv("MM_MODEL"),
		System:      DefaultSystem,
		MaxAskDepth: DefaultMaxAskDepth,
		AskTimeout:  DefaultAskTimeout,
		MaxSteps:    DefaultMaxSteps,
		Persist:     true,

		MaxParallelTools: DefaultMaxParallelTools,
		ProjectDocs:      true,
		CompressAt:       DefaultCompressAt,
	}
}
