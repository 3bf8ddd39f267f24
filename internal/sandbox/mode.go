package sandbox

import (
	"fmt"
	"slices"
	"strings"
)

// Mode is how far a session's tools may write.
type Mode string

// The modes, from the loosest to the strictest.
const (
	// Off confines nothing: the tools have every right of the person.
	Off Mode = "off"
	// Workspace lets them write only in the working directory, the
	// temporary folder, the person's cache folder and the folders the
	// configuration names.
	Workspace Mode = "workspace"
	// ReadOnly lets them write nowhere but the session's own temporary
	// folder.
	ReadOnly Mode = "read-only"
)

// DefaultMode is the mode of a session whose configuration and command line
// say none (docs/explanation/sandbox.md says why).
const DefaultMode = Workspace

// Modes are the modes by name, from the loosest to the strictest.
var modes = []Mode{Off, Workspace, ReadOnly}

// ModeNames lists the modes as a person writes them.
func ModeNames() []string {
	names := make([]string, len(modes))
	for i, m := range modes {
		names[i] = string(m)
	}
	return names
}

// ParseMode reads a mode as a person writes it.
func ParseMode(s string) (Mode, error) {
	m := Mode(s)
	if slices.Contains(modes, m) {
		return m, nil
	}
	return "", fmt.Errorf("%q is not a sandbox mode: use %s", s, strings.Join(ModeNames(), ", "))
}

// ParseNetwork reads the network switch: "on" or "off".
func ParseNetwork(s string) (bool, error) {
	switch s {
	case "on":
		return true, nil
	case "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a network setting: use on or off", s)
}

// rank orders the modes by strictness.
func (m Mode) rank() int { return slices.Index(modes, m) }

// Stricter is the stricter of m and o.
func (m Mode) Stricter(o Mode) Mode {
	if o.rank() > m.rank() {
		return o
	}
	return m
}

// OnOff says a switch as a person writes it.
func OnOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
