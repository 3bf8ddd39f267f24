package wasm

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/mm-agent/mm/internal/textcut"
)

// stderrQuoted is how much of stderr a failure quotes, in bytes.
const stderrQuoted = 300

// ExitError is the failure of a module that exited with a non-zero code.
type ExitError struct {
	Code uint32
	// Stderr is the start of what the module wrote on stderr: at most 300
	// bytes, without trailing blank space.
	Stderr string
}

// Error reads "exit code 2: <stderr>", or "exit code 2" when stderr is empty.
func (e *ExitError) Error() string {
	if e.Stderr == "" {
		return fmt.Sprintf("exit code %d", e.Code)
	}
	return fmt.Sprintf("exit code %d: %s", e.Code, e.Stderr)
}

// LoadError is the failure of a module that could not be read, compiled or
// instantiated.
type LoadError struct {
	// File is the module's file name, without its folder.
	File   string
	Reason string
}

// Error reads "guard.wasm cannot be loaded: <reason>".
func (e *LoadError) Error() string {
	return fmt.Sprintf("%s cannot be loaded: %s", e.File, e.Reason)
}

// FolderError is the failure of a run one of whose folders is missing (or is
// not a folder) in the working directory.
type FolderError struct {
	Folder, Dir string
	// Outside is set when the folder is a link that leads out of Dir.
	Outside bool
}

// Error reads "the folder logs this module may see does not exist in
// <dir>", or "… leads outside <dir>".
func (e *FolderError) Error() string {
	if e.Outside {
		return fmt.Sprintf("the folder %s this module may see leads outside %s", e.Folder, e.Dir)
	}
	return fmt.Sprintf("the folder %s this module may see does not exist in %s", e.Folder, e.Dir)
}

// CrashError is the failure of a module that stopped on a trap (an
// unreachable instruction, an access out of its memory, a stack overflow)
// rather than by exiting.
type CrashError struct {
	Trap   string
	Stderr string
}

// Error reads "crashed: wasm error: unreachable: <stderr>".
func (e *CrashError) Error() string {
	if e.Stderr == "" {
		return "crashed: " + e.Trap
	}
	return fmt.Sprintf("crashed: %s: %s", e.Trap, e.Stderr)
}

// quote is the part of stderr a failure shows: its first 300 bytes, never
// a character cut in half, without trailing blank space (as for a command
// hook).
func quote(b []byte) string {
	return strings.TrimRightFunc(string(textcut.Bytes(b, stderrQuoted)), unicode.IsSpace)
}

// trapText is the first line of a wazero call error, without the function
// it names: "wasm error: unreachable".
func trapText(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "failed: "); i >= 0 {
		s = s[i+len("failed: "):]
	}
	return strings.TrimSpace(s)
}

// StdoutError is the failure of a run that wrote more than its Spec's
// MaxStdout on stdout, when that is not a hook's limit (hooks.ErrStdoutTooLarge).
type StdoutError struct {
	Limit int
}

// Error reads "stdout larger than 30000 bytes", as hooks.ErrStdoutTooLarge does.
func (e *StdoutError) Error() string { return fmt.Sprintf("stdout larger than %d bytes", e.Limit) }

// StdoutLimit is the limit the run passed: a caller that cannot import this
// package recognises the failure by this method.
func (e *StdoutError) StdoutLimit() int { return e.Limit }

var errClosed = errors.New("wasm runtime is closed")
