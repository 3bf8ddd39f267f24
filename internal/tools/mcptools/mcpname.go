package mcptools

import (
	"fmt"
	"strings"
)

// maxToolName is the longest tool name OpenAI-compatible servers accept.
const maxToolName = 64

// toolName is the name an MCP tool is offered under: <server>__<tool>, each
// part with every character outside [A-Za-z0-9_-] made "_", cut to 64
// characters.
func toolName(server, tool string) string {
	name := sanitize(server) + "__" + sanitize(tool)
	return name[:min(len(name), maxToolName)]
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}

// uniqueName returns name, or when it is taken, name with the first free
// suffix _2, _3, … (cut to fit in 64 characters).
func uniqueName(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	for i := 2; ; i++ {
		suffix := fmt.Sprintf("_%d", i)
		n := name[:min(len(name), maxToolName-len(suffix))] + suffix
		if !taken[n] {
			return n
		}
	}
}
