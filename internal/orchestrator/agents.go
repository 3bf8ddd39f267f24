package orchestrator

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"

	"github.com/mm-agent/mm/internal/agentproc"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// agentOptions is how to start the asked agent name of the configuration:
// an mm by its file, any ACP agent by its command, or an mm over ssh.
func (s *Session) agentOptions(name string, a mmconfigs.Agent) agentproc.Options {
	opts := agentproc.Options{Name: name, Cwd: s.cwd, StartTimeout: a.StartTimeout}
	switch a.Kind {
	case mmconfigs.AgentFile:
		opts.Bin, opts.Config = s.bin, a.Config
		opts.Environ = s.childEnv(name, a.Config)
	case mmconfigs.AgentCommand:
		expand := s.expander()
		opts.Command = agentCommand(a, expand)
		if a.Cwd != "" {
			opts.Dir = expand(a.Cwd)
		}
		opts.IsMM = sameProgram(opts.Command[0], s.bin)
		// No MM_CONFIG: this session's file is not the agent's (an mm
		// started so reads its --config, or the agent.yaml of its folder).
		env := withoutEnv(s.childEnv(name, ""), "MM_CONFIG")
		for _, k := range slices.Sorted(maps.Keys(a.Env)) {
			env = withEnv(env, k, expand(a.Env[k]))
		}
		opts.Environ = env
	case mmconfigs.AgentSSH:
		opts.Host = a.Host
		opts.Command = agentproc.SSHCommand(s.remote(name, a))
		// ssh itself runs here, with the user's environment (its agent
		// socket, its HOME and configuration).
		opts.Environ = s.environ
	}
	return opts
}

// remote is what an mm over ssh must be told on its command line.
func (s *Session) remote(name string, a mmconfigs.Agent) agentproc.Remote {
	return agentproc.Remote{Host: a.Host, SSHArgs: a.SSHArgs, MM: a.MM, Config: a.Config, Cwd: a.Cwd,
		Depth: s.depth + 1, MaxDepth: s.maxDepth, Chain: s.childChain(name), NoSave: !s.history.saved(),
		Ceiling: s.ceiling(true)}
}

// sameProgram reports whether program (a path, or a name looked up in
// $PATH) is the file bin.
func sameProgram(program, bin string) bool {
	if bin == "" {
		return false
	}
	p, err := exec.LookPath(program)
	if err != nil {
		return false
	}
	a, errA := os.Stat(p)
	b, errB := os.Stat(bin)
	return errA == nil && errB == nil && os.SameFile(a, b)
}

// agentCommand is an agent's command with $VAR expanded.
func agentCommand(a mmconfigs.Agent, expand func(string) string) []string {
	words := make([]string, len(a.Command))
	for i, w := range a.Command {
		words[i] = expand(w)
	}
	return words
}

// expander replaces $VAR and ${VAR} from the session's environment, and
// $MM_CONFIG_DIR with the configuration's folder, as in mcpServers.
func (s *Session) expander() func(string) string {
	vars := envMap(s.environ)
	vars["MM_CONFIG_DIR"] = s.cfg.Dir
	return func(v string) string { return os.Expand(v, func(k string) string { return vars[k] }) }
}

// childChain is the chain an asked agent name is part of: "expert", or
// "main-asked/expert" below an asked agent.
func (s *Session) childChain(name string) string {
	if s.chain != "" {
		return s.chain + "/" + name
	}
	return name
}

// AgentStatus says whether one asked agent by command or over ssh answers
// initialize (mm check).
type AgentStatus struct {
	Name string
	// Kind is "command", "ssh" or "a2a".
	Kind string
	// Info is who answered: the agent's name and version, as it says.
	Info string
	Err  error
}

// ProbeAgents starts each agent of cfg that has no file here — by
// command, over ssh — asks it initialize, and stops it; an agent served
// over A2A is asked for its card, through connect (nil: each such agent
// is an error that this session has no A2A client). The agents by file
// are checked as files (mmconfigs.Walk).
func ProbeAgents(ctx context.Context, connect A2AConnector, cfg *mmconfigs.Config, cwd string, environ []string) []AgentStatus {
	s := &Session{cfg: cfg, cwd: cwd, history: newHistory(nil, nil, nil, nil)}
	s.joinChain(environ, "")
	var out []AgentStatus
	for _, name := range cfg.AgentNames() {
		a := cfg.Agents[name]
		if a.Kind == mmconfigs.AgentFile {
			continue
		}
		if a.Kind == mmconfigs.AgentA2A {
			info, err := probeA2A(ctx, connect, name, a, environ)
			out = append(out, AgentStatus{Name: name, Kind: a.Kind.String(), Info: info, Err: err})
			continue
		}
		info, err := agentproc.Probe(ctx, s.agentOptions(name, a))
		out = append(out, AgentStatus{Name: name, Kind: a.Kind.String(), Info: info, Err: err})
	}
	return out
}

// probeA2A reads the agent card of an agent served over A2A: "<name>
// <version>" as the card says.
func probeA2A(ctx context.Context, connect A2AConnector, name string, a mmconfigs.Agent, environ []string) (string, error) {
	if connect == nil {
		return "", errNoA2A(name)
	}
	vars := envMap(environ)
	token, err := a2aToken(name, a, vars)
	if err != nil {
		return "", err // the hand-off would fail the same way
	}
	url := os.Expand(a.URL, func(k string) string { return vars[k] })
	p, err := connect(A2AOptions{Name: name, URL: url, Token: token, TokenEnv: a.TokenEnv})
	if err != nil {
		return "", err
	}
	defer p.Close()
	return p.Describe(ctx)
}

// a2aToken is the bearer token of the agent a served over A2A, from its
// tokenEnv in vars: "" for an agent without one; an error when the
// variable is empty, which the agent would refuse.
func a2aToken(name string, a mmconfigs.Agent, vars map[string]string) (string, error) {
	if a.TokenEnv == "" {
		return "", nil
	}
	if token := vars[a.TokenEnv]; token != "" {
		return token, nil
	}
	return "", fmt.Errorf("agent %q: $%s is empty: set it to the agent's token (tokenEnv: in its mmConfigs entry)", name, a.TokenEnv)
}

// withoutEnv returns environ without key.
func withoutEnv(environ []string, key string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if len(kv) <= len(key) || kv[:len(key)+1] != key+"=" {
			out = append(out, kv)
		}
	}
	return out
}

// describeAgent is what the ask object says of an agent without a file
// here: its command as written ($VAR left as it is, so that a key the
// environment supplies does not reach every hook's input), its host, and
// its URL expanded (a hook that allows some hosts only needs the real one;
// a token goes in tokenEnv, not in the URL).
func describeAgent(a mmconfigs.Agent, expand func(string) string) (command []string, host, url string) {
	switch a.Kind {
	case mmconfigs.AgentCommand:
		return append([]string(nil), a.Command...), "", ""
	case mmconfigs.AgentSSH:
		return nil, a.Host, ""
	case mmconfigs.AgentA2A:
		return nil, "", expand(a.URL)
	}
	return nil, "", ""
}
