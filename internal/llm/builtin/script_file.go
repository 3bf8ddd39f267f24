package builtin

import "github.com/mm-agent/mm/internal/regularfile"

// maxScriptBytes bounds a script file. A script's say texts stand in for
// whole answers, and tests and benchmarks stream answers of a few MB; the
// YAML parser holds several times a file's size while it works.
const maxScriptBytes = 16 << 20

// readScript reads the script file at path when it is a regular file of at
// most maxScriptBytes: a named pipe, a device or a huge file is refused at
// once, never waited for.
func readScript(path string) ([]byte, error) {
	return regularfile.ReadFile(path, maxScriptBytes, "a script")
}
