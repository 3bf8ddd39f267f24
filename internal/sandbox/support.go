package sandbox

import (
	"fmt"
	"strings"
)

// Support is what this system lets mm enforce.
type Support struct {
	// ABI is the kernel's Landlock ABI version; 0 when there is none.
	ABI int
	// Why says why there is none, or why it lacks network rules: a
	// clause for the line a session prints at start.
	Why string
}

// netABI is the first Landlock ABI with TCP rules (Linux 6.7).
const netABI = 4

// Files says whether the kernel bounds the commands' writes.
func (s Support) Files() bool { return s.ABI >= 1 }

// Net says whether the kernel bounds the commands' TCP.
func (s Support) Net() bool { return s.ABI >= netABI }

// Status is the sandbox as it is in force, for the banner and mm check:
// "sandbox: workspace, network off". A mode the kernel cannot enforce for
// commands is not shown as in force. A nil policy says nothing.
func (p *Policy) Status() string {
	if p == nil {
		return ""
	}
	return Spec{Mode: p.mode, Network: p.network}.Status(p.support)
}

// Status is what Policy.Status says of a policy made from s on a system
// with support.
func (s Spec) Status(support Support) string {
	mode := string(s.Mode)
	if s.Mode != Off && !support.Files() {
		mode += " for write_file and edit_file only"
	}
	network := "on"
	if !s.Network && support.Net() {
		network = "off"
	}
	return fmt.Sprintf("sandbox: %s, network %s", mode, network)
}

// Warnings are the lines a session prints at start, one for each part of
// its policy this system does not enforce.
func (p *Policy) Warnings() []string {
	if p == nil {
		return nil
	}
	var out []string
	if p.mode != Off && !p.support.Files() {
		out = append(out, fmt.Sprintf("sandbox: %s is not enforced for bash: %s; write_file and edit_file still keep to it", p.mode, p.support.Why))
	}
	if !p.network && !p.support.Net() {
		why := p.support.Why
		if p.support.Files() {
			why = fmt.Sprintf("this kernel's Landlock (ABI %d) has no network rules", p.support.ABI)
		}
		out = append(out, fmt.Sprintf("sandbox: network off is not enforced: %s", why))
	}
	return out
}

// why words a failed probe of Landlock.
func why(errText string) string {
	switch {
	case strings.Contains(errText, "not implemented"):
		return fmt.Sprintf("this kernel has no Landlock, or a container forbids it (%s)", errText)
	case strings.Contains(errText, "not supported"):
		return fmt.Sprintf("Landlock is off in this kernel: add landlock to its lsm= boot parameter (%s)", errText)
	}
	return fmt.Sprintf("Landlock cannot be used here (%s)", errText)
}
