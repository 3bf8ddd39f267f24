package handoff

import (
	"fmt"
	"strings"

	"github.com/mm-agent/mm/internal/textcut"
)

// ContextHeader introduces each context a hook adds.
const ContextHeader = "[context added by a hook]"

// AppendContexts appends each non-blank context to text, each introduced by
// the line ContextHeader after a blank line. It is the one way contexts join
// a text a model reads: a tool's output (postToolCall), the question
// (preGeneration), the message the asked agent receives (preAsk) and the
// answer the asking agent reads (postAsk).
func AppendContexts(text string, contexts []string) string {
	var b strings.Builder
	b.WriteString(text)
	for _, c := range contexts {
		if strings.TrimSpace(c) == "" {
			continue
		}
		b.WriteString("\n\n" + ContextHeader + "\n" + c)
	}
	return b.String()
}

// Message is exactly what the asked agent receives: the conversation block
// when a non-empty transcript is sent, the question, then one block per
// context.
func Message(question, transcript string, contexts []string) string {
	msg := question
	if transcript != "" {
		msg = "[conversation so far]\n" + transcript + "\n[end of conversation]\n\n" + question
	}
	return AppendContexts(msg, contexts)
}

// HistoryEntry is the user-role message /ask… keeps in the asking agent's
// history: the question as sent and the answer as read.
func HistoryEntry(agent, question, answer string) string {
	return fmt.Sprintf("[question for %s]\n%s\n\n[%s's answer]\n%s", agent, question, agent, answer)
}

// SplitHistoryEntry reads back what HistoryEntry wrote: ok is false for
// any other message.
func SplitHistoryEntry(entry string) (agent, question, answer string, ok bool) {
	head, rest, found := strings.Cut(entry, "\n")
	agent, isEntry := strings.CutPrefix(head, "[question for ")
	agent, closed := strings.CutSuffix(agent, "]")
	if !found || !isEntry || !closed || agent == "" {
		return "", "", "", false
	}
	question, answer, found = strings.Cut(rest, "\n\n["+agent+"'s answer]\n")
	if !found {
		return "", "", "", false
	}
	return agent, question, answer, true
}

// MaxToolOutput is the most of an answer ask_agent's output gives the model.
const MaxToolOutput = 20000

// ToolOutput is the answer as ask_agent gives it to the model: cut at
// MaxToolOutput characters with a closing note saying how much was cut.
// The postAsk contexts follow it uncut.
func ToolOutput(read string) string {
	head, n := textcut.Runes(read, MaxToolOutput)
	if n == 0 {
		return read
	}
	return fmt.Sprintf("%s\n\n[answer cut: %d of %d characters shown]", head, MaxToolOutput, MaxToolOutput+n)
}

// DeniedText is what the model reads when a preAsk hook denies ask_agent.
func DeniedText(reason string) string { return "[ask denied by a hook: " + reason + "]" }

// FailedText is ask_agent's output when the hand-off failed.
func FailedText(err string) string { return "[ask failed: " + err + "]" }

// Summary is ask_agent's call summary.
func Summary(agent string, chars int, replaced bool) string {
	if replaced {
		return fmt.Sprintf("%s answered; a hook replaced the answer (%d characters)", agent, chars)
	}
	return fmt.Sprintf("%s answered (%d characters)", agent, chars)
}

// ReplacedNotice tells the person a postAsk hook replaced what the asking
// agent reads.
func ReplacedNotice(agent string) string {
	return "🪝 postAsk: " + agent + "'s answer was replaced by a hook — the asking agent reads the new one"
}
