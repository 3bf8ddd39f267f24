//go:build !unix

package tools

import (
	"errors"
	"os"
	"os/exec"
)

// ownGroup does nothing where there are no Unix process groups.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills p alone where there are no Unix process groups.
func killGroup(p *os.Process) error {
	if err := p.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}
