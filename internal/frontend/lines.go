package frontend

import "strings"

// Indent is the margin of an asked agent's lines in a terminal: two spaces
// per level of the ask chain ("expert/checker" is two levels).
func Indent(agent string) string {
	if agent == "" {
		return ""
	}
	return strings.Repeat("  ", strings.Count(agent, "/")+1)
}

// FirstLine is the first line of s: what a one-line display shows of a
// text that may have several (a failed tool's summary).
func FirstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
