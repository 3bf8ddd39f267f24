package mmconfigs

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/strictyaml"
)

// AgentKind says how an asked agent is reached.
type AgentKind int

// The kinds of mmConfigs entries.
const (
	// AgentFile is another mm on this machine, by its configuration file:
	// `expert: agent.expert.yaml`.
	AgentFile AgentKind = iota
	// AgentCommand is any ACP agent, started by its command:
	// `gemini: {command: [gemini, --experimental-acp]}`.
	AgentCommand
	// AgentSSH is an mm on another machine, over ssh:
	// `expert: {ssh: user@host, config: agents/expert.yaml}`.
	AgentSSH
	// AgentA2A is an agent served over the Agent2Agent protocol:
	// `reviewer: {a2a: http://host:port/, tokenEnv: REVIEWER_TOKEN}`.
	AgentA2A
)

// String is the kind as the reference names it: file, command or ssh.
func (k AgentKind) String() string {
	switch k {
	case AgentCommand:
		return "command"
	case AgentSSH:
		return "ssh"
	case AgentA2A:
		return "a2a"
	}
	return "file"
}

// Agent is one entry of mmConfigs: an agent this one may ask.
type Agent struct {
	Kind AgentKind
	// Config is the agent's configuration file: for AgentFile absolute, on
	// this machine; for AgentSSH as written, on the remote host (relative
	// to the remote login's home). "" for AgentCommand.
	Config string
	// Command is the AgentCommand's program and arguments, as written
	// ($VAR is expanded when it starts), a relative program path with a
	// slash made absolute against the configuration's folder.
	Command []string
	// Env is added to the AgentCommand's environment, values as written.
	Env map[string]string
	// Cwd is the AgentCommand's working directory (absolute), or the
	// AgentSSH's remote one (as written); "" for the session's own
	// (AgentCommand), the login's home (AgentSSH).
	Cwd string
	// Host is the AgentSSH's destination, [user@]host, as ssh reads it.
	Host string
	// MM is the AgentSSH's remote mm binary; "" for "mm" in the remote PATH.
	MM string
	// SSHArgs go to ssh before the host (-p 2222, -o …, -F file).
	SSHArgs []string
	// URL is the AgentA2A's base URL, where its agent card is found, as
	// written ($VAR is expanded when it is asked).
	URL string
	// TokenEnv names the variable holding the AgentA2A's bearer token; ""
	// for none.
	TokenEnv string
	// Description is the map's description: (for ask_agent); for
	// AgentFile it is in the agent's own file instead.
	Description string
	// StartTimeout bounds the agent's start (initialize and session/new);
	// 0 for the default.
	StartTimeout time.Duration
}

// kindSet is a set of AgentKinds, a bit each.
type kindSet uint8

// The kinds of agent by a map entry, as sets.
const (
	forCommand kindSet = 1 << AgentCommand
	forSSH     kindSet = 1 << AgentSSH
	forA2A     kindSet = 1 << AgentA2A
)

// agentEntry is what the keys of an mmConfigs map entry are read into: the
// agent, and the configuration whose folder its paths are relative to.
type agentEntry struct {
	c *Config
	a Agent
}

// agentKey is a key of an mmConfigs map entry, the kinds of agent that
// take it, and how its value is read (a keyRow's parse).
type agentKey struct {
	name  string
	kinds kindSet
	parse func(e *agentEntry, key, val *yaml.Node) error
}

// agentKeys are the keys of an mmConfigs map entry, each kind's in the
// order the reference gives them (command's, ssh's, a2a's, then the keys
// they share).
var agentKeys = []agentKey{
	{"command", forCommand, func(e *agentEntry, _, v *yaml.Node) (err error) {
		e.a.Command, err = e.c.parseCommand(v)
		return err
	}},
	{"env", forCommand, func(e *agentEntry, _, v *yaml.Node) error {
		return decodeScalar(v, &e.a.Env, "a map of variable names to values")
	}},
	{"ssh", forSSH, func(e *agentEntry, _, v *yaml.Node) error {
		if err := decodeNonEmpty(v, &e.a.Host, "a host, [user@]host"); err != nil {
			return err
		}
		if strings.HasPrefix(e.a.Host, "-") {
			return fmt.Errorf("%q is not a host: it starts with - (ssh options go under sshArgs)", e.a.Host)
		}
		return nil
	}},
	{"config", forSSH, func(e *agentEntry, _, v *yaml.Node) error {
		return decodeNonEmpty(v, &e.a.Config, "the path of the agent's configuration file on that host")
	}},
	{"mm", forSSH, func(e *agentEntry, _, v *yaml.Node) error {
		return decodeNonEmpty(v, &e.a.MM, "the path of mm on that host")
	}},
	{"sshArgs", forSSH, func(e *agentEntry, _, v *yaml.Node) error {
		return decodeScalar(v, &e.a.SSHArgs, "a list of ssh's arguments, like [-p, \"2222\"]")
	}},
	{"cwd", forCommand | forSSH, func(e *agentEntry, _, v *yaml.Node) error {
		if err := decodeNonEmpty(v, &e.a.Cwd, "a folder"); err != nil {
			return err
		}
		// A remote folder is the remote host's; $VAR is expanded at start.
		if e.a.Kind == AgentCommand && !strings.HasPrefix(e.a.Cwd, "$") {
			e.a.Cwd = e.c.abs(e.a.Cwd)
		}
		return nil
	}},
	{"a2a", forA2A, func(e *agentEntry, _, v *yaml.Node) (err error) {
		e.a.URL, err = decodeURL(v)
		return err
	}},
	{"tokenEnv", forA2A, func(e *agentEntry, _, v *yaml.Node) error {
		return decodeNonEmpty(v, &e.a.TokenEnv, "the name of the variable that holds the agent's token")
	}},
	{"description", forCommand | forSSH | forA2A, func(e *agentEntry, _, v *yaml.Node) error {
		return decodeScalar(v, &e.a.Description, "a string")
	}},
	{"startTimeout", forCommand | forSSH, func(e *agentEntry, _, v *yaml.Node) (err error) {
		e.a.StartTimeout, err = decodeDuration(v)
		return err
	}},
}

// agentKeysOf is the table of the keys an agent of kind k takes.
func agentKeysOf(k AgentKind) keyTable[*agentEntry] {
	var tab keyTable[*agentEntry]
	for _, key := range agentKeys {
		if key.kinds&(1<<k) != 0 {
			tab = append(tab, keyRow[*agentEntry]{key.name, key.parse})
		}
	}
	return tab
}

// parseAgent reads one mmConfigs entry: a path, or a map.
func (c *Config) parseAgent(v *yaml.Node) (Agent, error) {
	if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
		var p string
		if err := decodeScalar(v, &p, "the path of the agent's configuration file"); err != nil {
			return Agent{}, err
		}
		if strings.TrimSpace(p) == "" {
			return Agent{}, errors.New("path must not be empty")
		}
		return Agent{Kind: AgentFile, Config: c.abs(p)}, nil
	}
	if v.Kind != yaml.MappingNode {
		return Agent{}, strictyaml.Errorf(v, "want the path of the agent's configuration file, or a map with command:, ssh: or a2a:")
	}
	kind, err := agentKind(v)
	if err != nil {
		return Agent{}, err
	}
	// Every key is checked before any value: a key of another kind says
	// more than a bad value beside it.
	tab := agentKeysOf(kind)
	if err := tab.check(v); err != nil {
		return Agent{}, err
	}
	e := &agentEntry{c: c, a: Agent{Kind: kind}}
	if err := tab.parse(v, e); err != nil {
		return Agent{}, err
	}
	if kind == AgentSSH && e.a.Config == "" {
		return Agent{}, errors.New("config: required with ssh: the path of the agent's configuration file on that host")
	}
	return e.a, nil
}

// agentKind is the kind of agent the map entry v is, by the key that
// says it: command:, ssh: or a2a:, one of them.
func agentKind(v *yaml.Node) (AgentKind, error) {
	has := map[string]bool{}
	for i := 0; i < len(v.Content); i += 2 {
		has[v.Content[i].Value] = true
	}
	switch {
	case has["command"] && has["ssh"]:
		return 0, errors.New("command and ssh: give one or the other, not both")
	case has["a2a"] && (has["command"] || has["ssh"]):
		return 0, errors.New("a2a with command or ssh: an entry is one kind of agent, give one of them")
	case has["a2a"]:
		return AgentA2A, nil
	case has["command"]:
		return AgentCommand, nil
	case has["ssh"]:
		return AgentSSH, nil
	}
	return 0, strictyaml.Errorf(v, "give command: (an ACP agent to start), ssh: (an mm on another host) or a2a: (an agent served over A2A)")
}

// parseCommand reads command: a list of words, the first the program.
func (c *Config) parseCommand(n *yaml.Node) ([]string, error) {
	var words []string
	if n.Kind != yaml.SequenceNode {
		return nil, strictyaml.Errorf(n, "want a list of words like [gemini, --experimental-acp], not %s", nodeWhat(n))
	}
	if err := decodeScalar(n, &words, "a list of words like [gemini, --experimental-acp]"); err != nil {
		return nil, err
	}
	if len(words) == 0 {
		return nil, errors.New("must not be empty: give the program and its arguments, like [gemini, --experimental-acp]")
	}
	if strings.TrimSpace(words[0]) == "" {
		return nil, errors.New("the first word, the program, must not be empty")
	}
	if p := words[0]; strings.Contains(p, "/") && !filepath.IsAbs(p) && !strings.HasPrefix(p, "$") {
		words[0] = c.abs(p)
	}
	return words, nil
}

// decodeURL reads an A2A agent's URL: http:// or https://, with a host.
func decodeURL(n *yaml.Node) (string, error) {
	var s string
	if err := decodeNonEmpty(n, &s, "the agent's URL, like http://host:port/"); err != nil {
		return "", err
	}
	if strings.Contains(s, "$") {
		return s, nil // checked once $VAR is expanded, when it is asked
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", strictyaml.Errorf(n, "%q is not an http:// or https:// URL with a host, like http://host:port/", s)
	}
	return s, nil
}

// decodeNonEmpty decodes a string that must not be blank.
func decodeNonEmpty(n *yaml.Node, v *string, want string) error {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return strictyaml.Errorf(n, "want %s, not %s", want, nodeWhat(n))
	}
	if err := decodeScalar(n, v, want); err != nil {
		return err
	}
	if strings.TrimSpace(*v) == "" {
		return errors.New("must not be empty")
	}
	return nil
}

// nodeWhat names what a node holds, for errors.
func nodeWhat(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "a map"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Tag == "!!null":
		return "nothing"
	}
	return fmt.Sprintf("%q", n.Value)
}
