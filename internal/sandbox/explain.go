package sandbox

import "strings"

// refusedWords are how commands report what Landlock refused them: EACCES
// for a file or a TCP socket, EPERM for a signal.
var refusedWords = []string{"Permission denied", "Operation not permitted", "permission denied", "operation not permitted"}

// Explain is what the model reads after the output of a confined command
// that failed and says it was refused something: the bounds that may have
// refused it, one line each, in CheckWrite's words. "" when the output
// says no refusal or the policy confines nothing.
func (p *Policy) Explain(output string) string {
	if !p.Confines() || !refused(output) {
		return ""
	}
	var lines []string
	if p.mode != Off && p.support.Files() {
		lines = append(lines, "["+p.refusal().Error()+"]")
	}
	if !p.network && p.support.Net() {
		lines = append(lines, "[sandbox: the network is off: connecting and listening over TCP are not allowed]")
	}
	return strings.Join(lines, "\n")
}

func refused(output string) bool {
	for _, w := range refusedWords {
		if strings.Contains(output, w) {
			return true
		}
	}
	return false
}
