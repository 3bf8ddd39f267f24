package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Spec is what a session asks of the sandbox.
type Spec struct {
	Mode Mode
	// Network lets the confined commands connect and listen over TCP.
	Network bool
	// Cwd is the session's working directory, absolute: the workspace.
	Cwd string
	// Write are more folders writable in workspace mode (the
	// configuration's sandbox.write), absolute.
	Write []string

	// bound, set by Tighten, are the folders the asker may write in.
	bound []string
}

// Policy is a session's sandbox, made from its Spec. A nil Policy confines
// nothing.
type Policy struct {
	mode    Mode
	network bool
	cwd     string
	// write are the folders, resolved, where the confined may write.
	write []string
	// temp is the session's own temporary folder in read-only mode, made
	// by Open and removed by Close.
	temp    string
	support Support
}

// devices are the files any command may write, in every mode: the sinks
// and sources of a shell's redirections.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// Open makes the policy of s on this system (Probe).
func Open(s Spec) (*Policy, error) {
	return open(s, Probe())
}

func open(s Spec, support Support) (*Policy, error) {
	if _, err := ParseMode(string(s.Mode)); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(s.Cwd) {
		return nil, fmt.Errorf("sandbox: the working directory %q is not absolute", s.Cwd)
	}
	p := &Policy{mode: s.Mode, network: s.Network, cwd: filepath.Clean(s.Cwd), support: support}
	switch s.Mode {
	case ReadOnly:
		dir, err := os.MkdirTemp("", "mm-read-only-")
		if err != nil {
			return nil, fmt.Errorf("sandbox: make the read-only mode's temporary folder: %w", err)
		}
		p.temp = dir
		p.write = resolveAll([]string{dir})
	case Workspace:
		roots := append([]string{p.cwd, os.TempDir(), "/dev/shm"}, s.Write...)
		if cache, err := os.UserCacheDir(); err == nil {
			roots = append(roots, cache)
		}
		p.write = resolveAll(roots)
		if s.bound != nil {
			p.write = intersect(p.write, resolveAll(s.bound))
		}
	}
	return p, nil
}

// resolveAll resolves folders; one that does not exist (yet) is kept as
// written, so that it is writable once made.
func resolveAll(dirs []string) []string {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if r, err := resolve(filepath.Clean(d)); err == nil {
			d = r
		}
		out = append(out, filepath.Clean(d))
	}
	return out
}

// Close removes the read-only mode's temporary folder.
func (p *Policy) Close() error {
	if p == nil || p.temp == "" {
		return nil
	}
	return os.RemoveAll(p.temp)
}

// Mode is the mode the policy was made with, enforced or not (Status says).
func (p *Policy) Mode() Mode {
	if p == nil {
		return Off
	}
	return p.mode
}

// Network says whether the policy lets commands use TCP.
func (p *Policy) Network() bool { return p == nil || p.network }

// Confines says whether the policy bounds anything.
func (p *Policy) Confines() bool { return p != nil && (p.mode != Off || !p.network) }

// Writable are the folders the confined may write in, resolved; nil in
// mode off.
func (p *Policy) Writable() []string {
	if p == nil {
		return nil
	}
	return append([]string(nil), p.write...)
}

// Ceiling is what an agent this session asks may run under at most.
func (p *Policy) Ceiling() Ceiling {
	if p == nil {
		return Ceiling{Mode: Off, Network: true}
	}
	c := Ceiling{Mode: p.mode, Network: p.network}
	if p.mode != Off {
		c.Write = p.Writable()
	}
	return c
}

// Environ is the environment of a confined command: in read-only mode its
// temporary files go to the session's own folder, the one place it may
// write.
func (p *Policy) Environ(env []string) []string {
	if p == nil || p.temp == "" {
		return env
	}
	out := make([]string, 0, len(env)+1)
	for _, e := range env {
		if !strings.HasPrefix(e, "TMPDIR=") {
			out = append(out, e)
		}
	}
	return append(out, "TMPDIR="+p.temp)
}

// CheckWrite says whether a file tool may write path (absolute): nil, or
// the refusal, in the words the bash tool's note gives the kernel's.
// Symbolic links are followed, the last one too.
func (p *Policy) CheckWrite(path string) error {
	if p == nil || p.mode == Off {
		return nil
	}
	real, err := resolve(path)
	if err == nil {
		for _, root := range p.write {
			if within(real, root) {
				return nil
			}
		}
	}
	return p.refusal()
}

// refusal is the one sentence of a write the mode does not allow.
func (p *Policy) refusal() error {
	if p.mode == ReadOnly {
		return errors.New("sandbox: writing is not allowed in read-only mode; only $TMPDIR is writable")
	}
	return fmt.Errorf("sandbox: writing outside %s is not allowed in workspace mode", p.cwd)
}
