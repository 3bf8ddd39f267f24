package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/mm-agent/mm/orchestrator"
)

// installFull is how to get mm-full, for the messages that need it.
const installFull = orchestrator.InstallFull

// The variables of the hand-over: fullVar overrides where mm looks for
// mm-full; entryVar tells mm-full which mm handed it the run, so that the
// agents it asks start as that mm again (it is not passed on).
const (
	fullVar  = "MM_FULL"
	entryVar = "MM_ENTRY"
)

// errNoFull says mm-full is not installed where mm looks for it.
var errNoFull = errors.New("mm-full is not installed")

// findFull is mm-full's path: $MM_FULL, else the mm-full beside this mm,
// else the one on $PATH.
func findFull(s *streams) (string, error) {
	if p := s.Getenv(fullVar); p != "" {
		return p, nil
	}
	if exe, err := s.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "mm-full")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	p, err := exec.LookPath("mm-full")
	if err != nil {
		return "", errNoFull
	}
	return p, nil
}

// handOver replaces this mm with mm-full running the same command line,
// for a run that needs what this binary lacks (what, which names the
// configuration file and its field). It returns only when it could not,
// with the status to exit with, having said why on stderr. Nothing has been
// read from stdin, written or saved yet: mm-full starts the run afresh.
func handOver(s *streams, f *flags, what string) int {
	if err := execFull(s, f); err != nil {
		if errors.Is(err, errNoFull) {
			fmt.Fprintf(s.ErrOut, "mm: %s: this needs mm-full, mm with every feature, which is neither beside mm nor on $PATH: %s\n", what, installFull)
		} else {
			fmt.Fprintf(s.ErrOut, "mm: %s: this needs mm-full: %v\n", what, err)
		}
		return 1
	}
	return 0 // not reached: Exec does not return when it succeeds
}

// preferFull hands the run over to mm-full when it is installed, for a run
// that may come to need a feature (an editor's mm -acp, whose sessions may
// bring MCP servers); when it is not, it returns and mm goes on.
func preferFull(s *streams, f *flags) {
	if s.Features.all() {
		return // this is mm-full
	}
	if err := execFull(s, f); err != nil && !errors.Is(err, errNoFull) {
		fmt.Fprintf(s.ErrOut, "mm: %v (going on without wasm, MCP, JSON Schemas, A2A and tracing)\n", err)
	}
}

// execFull execs mm-full with this mm's arguments and environment, plus
// entryVar; it returns only with why it could not.
func execFull(s *streams, f *flags) error {
	if s.Exec == nil || s.Executable == nil {
		return errNoFull // mm run in-process, by a test
	}
	if e := s.Getenv(entryVar); e != "" {
		exe, _ := s.Executable()
		return fmt.Errorf("%s was handed the run by %s as mm-full, and is not: reinstall mm-full (%s)", exe, e, installFull)
	}
	path, err := findFull(s)
	if err != nil {
		return err
	}
	exe, err := s.Executable()
	if err != nil {
		return fmt.Errorf("find this mm: %w", err)
	}
	argv := append([]string{path}, f.argv...)
	if err := s.Exec(path, argv, append(s.Environ(), entryVar+"="+exe)); err != nil {
		return fmt.Errorf("start %s: %w", path, err)
	}
	return nil
}
