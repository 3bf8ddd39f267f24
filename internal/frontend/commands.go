package frontend

import (
	"strings"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// UnknownCommand is the refusal of line when it is a slash command that
// neither the front end nor the session knows, naming the ones they do;
// "" when line is not one. The front end's commands are words, the slash
// words its orchestrator.CommandSet offers ("/ask", "/clear", …); the
// session's are its /ask… commands, every /ask… line going to the session
// (which names the agents when one is unknown), and the person's command
// files. A word with a second slash
// or anything but letters, digits and '-' after its slash ("/etc/hosts?")
// is not a command: the line is a question.
func UnknownCommand(line string, words []string, session []orchestrator.Command) string {
	word, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	if !looksLikeCommand(word) || word == "/ask" || strings.HasPrefix(word, "/ask-") {
		return ""
	}
	var known []string
	asks := false
	for _, c := range session {
		if "/"+c.Name == word { // one of the person's command files
			return ""
		}
		known = append(known, "/"+c.Name)
		asks = asks || c.Name == "ask"
	}
	for _, c := range words {
		if c == word {
			return ""
		}
		if c != "/ask" || !asks { // a session with agents lists /ask first
			known = append(known, c)
		}
	}
	return "unknown command " + word + " (known: " + strings.Join(known, ", ") +
		"); to ask the model about it, start the line with another word"
}

// looksLikeCommand says word is a slash and a name: letters, digits, '-'.
func looksLikeCommand(word string) bool {
	if len(word) < 2 || word[0] != '/' {
		return false
	}
	for _, c := range word[1:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
