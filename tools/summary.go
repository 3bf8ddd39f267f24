package tools

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// summaryMax is the longest a summary may be, in characters.
const summaryMax = 60

// Summary returns the subject of a call to the tool name, for display on one
// line: the first of the input's "command", "path", "file_path", "url" and
// "agent" that is a non-empty string, with runs of white space (line breaks
// included) made one space, and cut to 60 characters, the last one "…" when
// something was cut. It returns "" when the input has none of these. The
// same keys serve every tool, built-in or MCP, so name is not consulted.
func Summary(name string, input json.RawMessage) string {
	s := strings.Join(strings.Fields(Subject(input)), " ")
	if utf8.RuneCountInString(s) <= summaryMax {
		return s
	}
	r := []rune(s)
	return string(r[:summaryMax-1]) + "…"
}

// Subject is what a person must see whole before approving a call: the
// value Summary shows, with its line breaks and every other character as
// the model wrote them (white space at its ends aside), uncut.
func Subject(input json.RawMessage) string {
	obj, err := inputObject(input)
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
