//go:build !linux

package tools

import "os/exec"

// dieWithParent needs Linux's parent-death signal; elsewhere Close alone
// stops the servers.
func dieWithParent(cmd *exec.Cmd) {}
