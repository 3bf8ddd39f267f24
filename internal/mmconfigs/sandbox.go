package mmconfigs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/sandbox"
	"github.com/mm-agent/mm/internal/strictyaml"
)

// Sandbox is the sandbox: key as the file gives it: a mode alone
// (sandbox: read-only), or a map of mode, network and write.
type Sandbox struct {
	// Mode is "" when the file says none.
	Mode sandbox.Mode
	// Network is nil when the file says nothing of it.
	Network *bool
	// Write are more folders writable in workspace mode, absolute: a
	// relative one is the file's folder's, ~/ the person's home.
	Write []string
}

// sandboxKeys are the keys of a sandbox: map, in the reference's order.
var sandboxKeys = keyTable[*Config]{
	{"mode", func(c *Config, _, v *yaml.Node) error {
		m, err := decodeMode(v)
		c.Sandbox.Mode = m
		return err
	}},
	{"network", func(c *Config, _, v *yaml.Node) error {
		on, err := decodeNetwork(v)
		c.Sandbox.Network = &on
		return err
	}},
	{"write", func(c *Config, _, v *yaml.Node) error {
		var dirs []string
		if err := decodeScalar(v, &dirs, "a list of folders"); err != nil {
			return err
		}
		for i, d := range dirs {
			if strings.TrimSpace(d) == "" {
				return fmt.Errorf("[%d]: a folder must not be empty", i)
			}
			c.Sandbox.Write = append(c.Sandbox.Write, c.homeAbs(d))
		}
		return nil
	}},
}

func (c *Config) parseSandbox(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		m, err := decodeMode(n)
		c.Sandbox.Mode = m
		return err
	case yaml.MappingNode:
		return sandboxKeys.parse(n, c)
	}
	return strictyaml.Errorf(n, "want a mode (%s) or a map with %s", strings.Join(sandbox.ModeNames(), ", "), andList(sandboxKeys.names()))
}

func decodeMode(n *yaml.Node) (sandbox.Mode, error) {
	var s string
	if err := decodeScalar(n, &s, "a mode: "+strings.Join(sandbox.ModeNames(), ", ")); err != nil {
		return "", err
	}
	return sandbox.ParseMode(s)
}

// decodeNetwork reads on or off; YAML's true and false are read too, for
// a file written with them.
func decodeNetwork(n *yaml.Node) (bool, error) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
		var on bool
		err := n.Decode(&on)
		return on, err
	}
	var s string
	if err := decodeScalar(n, &s, "on or off"); err != nil {
		return false, err
	}
	return sandbox.ParseNetwork(s)
}

// homeAbs is p absolute: ~ and ~/… the person's home, a relative path
// the file's folder's.
func (c *Config) homeAbs(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, strings.TrimPrefix(p[1:], "/"))
		}
	}
	return c.abs(p)
}

// SandboxSpec is the sandbox a session of this configuration asks for,
// the command line's --sandbox and --network over the file's keys, over
// the defaults (sandbox.DefaultMode, the network on). mode and network are
// "" when the command line says nothing.
func (c *Config) SandboxSpec(mode, network string) (sandbox.Spec, error) {
	spec := sandbox.Spec{Mode: sandbox.DefaultMode, Network: true}
	if c != nil {
		if c.Sandbox.Mode != "" {
			spec.Mode = c.Sandbox.Mode
		}
		if c.Sandbox.Network != nil {
			spec.Network = *c.Sandbox.Network
		}
		spec.Write = c.Sandbox.Write
	}
	if mode != "" {
		m, err := sandbox.ParseMode(mode)
		if err != nil {
			return spec, fmt.Errorf("--sandbox: %v", err)
		}
		spec.Mode = m
	}
	if network != "" {
		on, err := sandbox.ParseNetwork(network)
		if err != nil {
			return spec, fmt.Errorf("--network: %v", err)
		}
		spec.Network = on
	}
	return spec, nil
}
