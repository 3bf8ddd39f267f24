//go:build !linux

package sandbox

import (
	"os/exec"

	"github.com/mm-agent/mm/internal/proc"
)

// Do runs f: without Landlock only CheckWrite bounds the file tools.
func (p *Policy) Do(f func() error) error { return f() }

// Start starts cmd as proc.Start does: without Landlock nothing confines it
// (Warnings says so).
func (p *Policy) Start(cmd *exec.Cmd) (release func(), err error) {
	return func() {}, proc.Start(cmd)
}
