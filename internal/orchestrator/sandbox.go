package orchestrator

import (
	"fmt"
	"os"

	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/sandbox"
)

// ceilingEnv hands an asked mm on this machine its asker's sandbox, the
// loosest it may run under (--sandbox-ceiling over ssh, which passes no
// environment).
const ceilingEnv = "MM_SANDBOX_CEILING"

// openSandbox makes the session's sandbox and says, among its warnings,
// what of it this system does not enforce.
func (s *Session) openSandbox(opts Options) error {
	spec, err := opts.sandboxSpec()
	if err != nil {
		return &ConfigError{Path: configPath(opts.Config), Msg: err.Error()}
	}
	p, err := sandbox.Open(spec)
	if err != nil {
		return err
	}
	s.sandbox = p
	s.warnings = append(s.warnings, p.Warnings()...)
	return nil
}

// configPath names a configuration in an error: its path as given, or
// that there is none.
func configPath(cfg *mmconfigs.Config) string {
	if cfg.Path == "" {
		return "(no configuration file)"
	}
	return cfg.Path
}

// ceiling is the sandbox an agent this session asks may run under at most,
// as the child reads it (sandbox.ParseCeiling); "" when this session's
// bounds nothing. remote leaves out the folders: they are this machine's.
func (s *Session) ceiling(remote bool) string {
	if !s.sandbox.Confines() {
		return ""
	}
	c := s.sandbox.Ceiling()
	if remote {
		c = c.Remote()
	}
	return c.Encode()
}

// askSandbox is the sandbox the asked agent a runs under at least, as the
// preAsk and postAsk hooks read it: for an mm by file, its own sandbox:
// (peek) tightened by this session's; for an mm over ssh or by command,
// this session's, which its own file may tighten; outside for any other
// agent, which mm cannot confine.
func (s *Session) askSandbox(a mmconfigs.Agent, peek mmconfigs.Peek) *handoff.Sandbox {
	if outside(a, s.expander(), s.bin) {
		return &handoff.Sandbox{Mode: handoff.SandboxOutside}
	}
	own := sandbox.Spec{Mode: sandbox.Off, Network: true}
	if a.Kind == mmconfigs.AgentFile {
		own.Mode = sandbox.DefaultMode
		if peek.Sandbox.Mode != "" {
			own.Mode = peek.Sandbox.Mode
		}
		own.Network = peek.Sandbox.Network != "off"
	}
	c := s.sandbox.Ceiling()
	got := own.Tighten(&c)
	return &handoff.Sandbox{Mode: string(got.Mode), Network: sandbox.OnOff(got.Network)}
}

// outside says whether mm cannot confine the agent a: one over A2A, or
// one by command whose program (expand fills its $VAR) is not bin, this
// mm.
func outside(a mmconfigs.Agent, expand func(string) string, bin string) bool {
	switch a.Kind {
	case mmconfigs.AgentA2A:
		return true
	case mmconfigs.AgentCommand:
		return len(a.Command) == 0 || !sameProgram(expand(a.Command[0]), bin)
	}
	return false
}

// SandboxCeiling is the ceiling a session of o hands the agents it asks,
// without the folders (mm check shows the modes): "" when it bounds
// nothing, else what MM_SANDBOX_CEILING holds.
func (o Options) SandboxCeiling() string {
	spec, err := o.sandboxSpec()
	if err != nil || (spec.Mode == sandbox.Off && spec.Network) {
		return ""
	}
	return sandbox.Ceiling{Mode: spec.Mode, Network: spec.Network}.Encode()
}

// SandboxTightened says, for mm check, how the asker's ceiling changed
// the sandbox of a session of o: "" when it did not, else a line such as
// "sandbox: off in the file; it runs workspace, network on, as its asker".
func (o Options) SandboxTightened() string {
	own, err := o.Config.SandboxSpec(o.Sandbox, o.Network)
	if err != nil {
		return ""
	}
	got, err := o.sandboxSpec()
	if err != nil || (got.Mode == own.Mode && got.Network == own.Network) {
		return ""
	}
	return fmt.Sprintf("sandbox: %s, network %s in its file; it runs %s, network %s, as the agent that asks it",
		own.Mode, sandbox.OnOff(own.Network), got.Mode, sandbox.OnOff(got.Network))
}

// OutsideSandbox says whether the agent a runs outside the sandbox of a
// session of o while that sandbox bounds something (mm check), as the
// session's consent question and ask object say it: bin is this mm.
func (o Options) OutsideSandbox(a mmconfigs.Agent, bin string) bool {
	if o.SandboxCeiling() == "" {
		return false
	}
	vars := envMap(o.Environ)
	if o.Config != nil {
		vars["MM_CONFIG_DIR"] = o.Config.Dir
	}
	return outside(a, func(v string) string { return os.Expand(v, func(k string) string { return vars[k] }) }, bin)
}
