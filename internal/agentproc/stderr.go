package agentproc

import "strings"

// stderrQuote is how much of a dead child's stderr an error quotes.
const stderrQuote = 300

// quote is a child's kept stderr as one line, runs of white space (line
// breaks included) folded into one space, invalid UTF-8 dropped.
func quote(stderr string) string {
	return strings.Join(strings.Fields(strings.ToValidUTF8(stderr, "")), " ")
}
