package mmconfigs

import "github.com/mm-agent/mm/internal/regularfile"

// Limits of the files a configuration is read from. Either is far more than
// such a file needs, and little enough that parsing it cannot hurt: the YAML
// parser holds several times a file's size while it works.
const (
	// MaxFileBytes bounds a configuration file. Long inline hooks and system
	// prompts fit in a few hundred KiB.
	MaxFileBytes = 4 << 20
	// MaxSystemFileBytes bounds a systemFile (and --system-prompt-file):
	// 1 MiB of text is some 250,000 tokens, more than the context of any
	// local model.
	MaxSystemFileBytes = 1 << 20
)

// ReadFile reads the configuration file at path when it is a regular file
// of at most MaxFileBytes: a named pipe, a device or a huge file is refused
// at once (see package regularfile), never waited for.
func ReadFile(path string) ([]byte, error) {
	return regularfile.ReadFile(path, MaxFileBytes, "a configuration")
}
