package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/sandbox"
)

// apply checks the chain flags and returns s with what they say in its
// environment, as an mm started on the same machine would have it.
func (c chainFlags) apply(s *streams, cwd string, acp bool) (*streams, error) {
	set := map[string]string{}
	if c.askedDepth != "" {
		if _, err := mmconfigs.ChainDepth(c.askedDepth, 1); err != nil {
			return s, fmt.Errorf("--asked-depth %q: %v", c.askedDepth, err)
		}
		set["MM_ASKED_DEPTH"] = c.askedDepth
	}
	if c.askMaxDepth != "" {
		if _, err := mmconfigs.ChainDepth(c.askMaxDepth, 0); err != nil {
			return s, fmt.Errorf("--ask-max-depth %q: %v", c.askMaxDepth, err)
		}
		set["MM_ASK_MAX_DEPTH"] = c.askMaxDepth
	}
	if c.askChain != "" {
		set["MM_ASK_CHAIN"] = c.askChain
	}
	if c.sandboxCeiling != "" {
		if _, err := sandbox.ParseCeiling(c.sandboxCeiling); err != nil {
			return s, fmt.Errorf("--sandbox-ceiling %q: %v", c.sandboxCeiling, err)
		}
		set["MM_SANDBOX_CEILING"] = c.sandboxCeiling
	}
	if c.sessionCwd != "" && !acp {
		return s, errors.New("--session-cwd works with -acp only")
	}
	if len(set) == 0 {
		return s, nil
	}
	out := *s
	getenv, environ := s.Getenv, s.Environ
	out.Getenv = func(k string) string {
		if v, ok := set[k]; ok {
			return v
		}
		return getenv(k)
	}
	out.Environ = func() []string {
		env := make([]string, 0, len(set))
		for _, kv := range environ() {
			k, _, _ := strings.Cut(kv, "=")
			if _, ok := set[k]; !ok {
				env = append(env, kv)
			}
		}
		for _, k := range []string{"MM_ASKED_DEPTH", "MM_ASK_MAX_DEPTH", "MM_ASK_CHAIN"} {
			if v, ok := set[k]; ok {
				env = append(env, k+"="+v)
			}
		}
		return env
	}
	return &out, nil
}

// sessionDir is --session-cwd as an absolute folder that exists.
func (c chainFlags) sessionDir(cwd string) (string, error) {
	if c.sessionCwd == "" {
		return "", nil
	}
	dir := c.sessionCwd
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cwd, dir)
	}
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return "", fmt.Errorf("--session-cwd %s: %v", c.sessionCwd, unwrapPathErr(err))
	case !st.IsDir():
		return "", fmt.Errorf("--session-cwd %s: not a folder", c.sessionCwd)
	}
	return dir, nil
}

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
