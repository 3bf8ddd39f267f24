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

// Keys of an mmConfigs map entry, by kind, in the reference's order.
var (
	commandAgentKeys = []string{"command", "env", "cwd", "description", "startTimeout"}
	sshAgentKeys     = []string{"ssh", "config", "mm", "sshArgs", "cwd", "description", "startTimeout"}
	a2aAgentKeys     = []string{"a2a", "tokenEnv", "description"}
)

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
	has := map[string]bool{}
	for i := 0; i < len(v.Content); i += 2 {
		has[v.Content[i].Value] = true
	}
	var a Agent
	var known []string
	switch {
	case has["command"] && has["ssh"]:
		return Agent{}, errors.New("command and ssh: give one or the other, not both")
	case has["a2a"] && (has["command"] || has["ssh"]):
		return Agent{}, errors.New("a2a with command or ssh: an entry is one kind of agent, give one of them")
	case has["a2a"]:
		a.Kind, known = AgentA2A, a2aAgentKeys
	case has["command"]:
		a.Kind, known = AgentCommand, commandAgentKeys
	case has["ssh"]:
		a.Kind, known = AgentSSH, sshAgentKeys
	default:
		return Agent{}, strictyaml.Errorf(v, "give command: (an ACP agent to start), ssh: (an mm on another host) or a2a: (an agent served over A2A)")
	}
	if err := checkKeys(v, known...); err != nil {
		return Agent{}, err
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		keyNode, val := v.Content[i], v.Content[i+1]
		key := keyNode.Value
		var err error
		switch key {
		case "command":
			a.Command, err = c.parseCommand(val)
		case "env":
			err = decodeScalar(val, &a.Env, "a map of variable names to values")
		case "cwd":
			err = decodeNonEmpty(val, &a.Cwd, "a folder")
			if err == nil && a.Kind == AgentCommand && !strings.HasPrefix(a.Cwd, "$") {
				a.Cwd = c.abs(a.Cwd)
			}
		case "description":
			err = decodeScalar(val, &a.Description, "a string")
		case "startTimeout":
			a.StartTimeout, err = decodeDuration(val)
		case "ssh":
			err = decodeNonEmpty(val, &a.Host, "a host, [user@]host")
			if err == nil && strings.HasPrefix(a.Host, "-") {
				err = fmt.Errorf("%q is not a host: it starts with - (ssh options go under sshArgs)", a.Host)
			}
		case "config":
			err = decodeNonEmpty(val, &a.Config, "the path of the agent's configuration file on that host")
		case "mm":
			err = decodeNonEmpty(val, &a.MM, "the path of mm on that host")
		case "a2a":
			a.URL, err = decodeURL(val)
		case "tokenEnv":
			err = decodeNonEmpty(val, &a.TokenEnv, "the name of the variable that holds the agent's token")
		case "sshArgs":
			err = decodeScalar(val, &a.SSHArgs, "a list of ssh's arguments, like [-p, \"2222\"]")
		}
		if err != nil {
			return Agent{}, strictyaml.At(keyNode, fmt.Errorf("%s: %w", key, err))
		}
	}
	if a.Kind == AgentSSH && a.Config == "" {
		return Agent{}, errors.New("config: required with ssh: the path of the agent's configuration file on that host")
	}
	return a, nil
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
