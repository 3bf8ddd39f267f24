package tools

import (
	"encoding/json"
	"strings"

	"github.com/mm-agent/mm/internal/textcut"
)

// subjectLineMax is the longest a subject line may be, in characters: it
// shares one terminal line with the tool's name and status.
const subjectLineMax = 60

// SubjectLine returns the subject of a call of a tool mm does not decode
// itself (an MCP or wasm tool), as the hooks reference titles its tool
// line, on one line: subjectWhole's value with runs of white space (line breaks included) made
// one space, and cut to 60 characters, the last one "…" when something was
// cut. It returns "" when the input has no subject.
func SubjectLine(input json.RawMessage) string {
	return cutLine(strings.Join(strings.Fields(subjectWhole(input)), " "))
}

// cutLine cuts s to subjectLineMax characters, the last one "…" when
// something was cut.
func cutLine(s string) string { return textcut.Ellipsis(s, subjectLineMax) }

// subjectWhole returns the subject of a tool call whole: the first of the
// input's "command", "path", "file_path", "url" and "agent" that is a
// non-empty string, as the model wrote it (white space at its ends aside).
// It returns "" when the input has none of these. It is a title only: a
// consent question shows what the tool decodes (Call), or for a tool mm
// does not decode, its whole arguments.
func subjectWhole(input json.RawMessage) string {
	obj, err := InputObject(input)
	if err != nil {
		return ""
	}
	for _, k := range [...]string{"command", "path", "file_path", "url", "agent"} {
		var s string
		if raw, ok := obj[k]; !ok || json.Unmarshal(raw, &s) != nil {
			continue
		}
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}
