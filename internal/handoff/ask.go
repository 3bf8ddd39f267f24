// Package handoff holds what an ask hand-off is made of, independently of who
// runs it: the ask object hooks read, the conversation rendered as a
// transcript, the message the asked agent receives and the texts the asking
// agent reads back.
package handoff

// Routes by which a hand-off starts (the ask object's "via"): the hooks
// reference's three, and mm's addition "mcp" (docs/reference/hooks.md).
const (
	ViaTool    = "tool"
	ViaCommand = "command"
	ViaCLI     = "cli"
	// ViaMCP is a tool call of an MCP client (mm serve --mcp): another
	// agent's model asks one of the served configuration's agents.
	ViaMCP = "mcp"
)

// Ask is the hand-off as hooks see it: the "ask" object of a preAsk or
// postAsk hook's input.
type Ask struct {
	Agent string `json:"agent"`
	// Config is the asked agent's configuration file: absolute for an mm
	// on this machine, as written for one over ssh (a path on that host),
	// "" for an agent by command.
	Config     string `json:"config"`
	AgentModel string `json:"agentModel,omitempty"`
	// AgentCommand is the program and arguments of an agent by command,
	// as the configuration writes them ($VAR not expanded); absent for an
	// mm by file or over ssh.
	AgentCommand []string `json:"agentCommand,omitempty"`
	// AgentHost is the ssh destination of an mm over ssh; absent
	// otherwise.
	AgentHost string `json:"agentHost,omitempty"`
	// AgentURL is the base URL of an agent served over A2A; absent
	// otherwise.
	AgentURL    string `json:"agentURL,omitempty"`
	Via         string `json:"via"`
	WithContext bool   `json:"withContext"`
	Depth       int    `json:"depth"`
	Prompt      string `json:"prompt"`
	Transcript  string `json:"transcript,omitempty"`
	// Sandbox is the sandbox the asked agent runs under at least (an
	// addition to the hooks reference, docs/reference/hooks.md): last, so
	// that the reference's fields keep their order.
	Sandbox *Sandbox `json:"sandbox,omitempty"`
}

// Sandbox is an asked agent's sandbox as hooks read it: the mode
// (sandbox.Mode's names, or SandboxOutside) and the network switch, "on"
// or "off" (absent for an agent outside).
type Sandbox struct {
	Mode    string `json:"mode"`
	Network string `json:"network,omitempty"`
}

// SandboxOutside is the mode of an agent mm cannot confine: one by command
// that is not an mm, or one served over A2A.
const SandboxOutside = "outside"
