package orchestrator

import (
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
