package handoff

import (
	"fmt"
	"strings"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/textcut"
)

// MaxTranscriptOutput is the most of one tool output a transcript quotes.
const MaxTranscriptOutput = 2000

// Transcript renders a conversation for an asked agent: messages in order,
// separated by one blank line, without the system prompt:
//
//	user: <text>
//	assistant: <text>
//	assistant called <tool>: <JSON input>
//	<tool> returned: <output>
//
// An output over MaxTranscriptOutput characters is cut, saying so.
func Transcript(msgs []llm.Message) string {
	var parts []string
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			parts = append(parts, "user: "+m.Content)
		case llm.RoleAssistant:
			if m.Content != "" {
				parts = append(parts, "assistant: "+m.Content)
			}
			for _, c := range m.ToolCalls {
				parts = append(parts, fmt.Sprintf("assistant called %s: %s", c.Name, c.Arguments))
			}
		case llm.RoleTool:
			parts = append(parts, fmt.Sprintf("%s returned: %s", m.Name, cut(m.Content, MaxTranscriptOutput)))
		}
	}
	return strings.Join(parts, "\n\n")
}

// cut keeps the first max characters of s and says how many were left out.
func cut(s string, max int) string {
	head, n := textcut.Runes(s, max)
	if n == 0 {
		return s
	}
	return fmt.Sprintf("%s\n[… %d more characters cut]", head, n)
}
