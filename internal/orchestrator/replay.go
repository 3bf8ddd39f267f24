package orchestrator

import (
	"cmp"
	"strings"

	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/tools"
)

// UserText is a message of the person as a resumed session shows it: the
// question as typed, its @path and $name lines not expanded (as a hook
// left it, when one rewrote it), or an /ask… command. Only Replay makes
// it: live, a front end shows the prompt it sent itself.
type UserText struct {
	Text string
}

func (UserText) event() {}

// Replay is what a saved history shows again, in its order: each user
// message as UserText (its Typed when it has one, not the files and skills
// it brought in), each answer as Text, and each tool call whole, as one
// ToolEnded carrying its input, its output as the model read it and how
// it ended. An /ask… exchange is the command "/ask <agent> <question as
// typed>", then the answer as read. The note a compression puts before
// its summary, and any other message (a system one), is an info Notice.
//
// Hook runs are not part of a history, so none is replayed; nor is what an
// asked agent streamed while it answered: ask_agent's call shows the
// answer it returned. cwd is the session's working directory, which a
// call's relative path is read from.
func Replay(history []llm.Message, cwd string) []Event {
	var evs []Event
	// calls are the tool calls of the latest answer still without a result.
	var calls []llm.ToolCall
	flush := func() {
		for _, c := range calls {
			evs = append(evs, replayedCall(c, llm.Message{IsError: true}, cwd))
		}
		calls = nil
	}
	for _, m := range history {
		if m.Role != llm.RoleTool {
			flush()
		}
		switch m.Role {
		case llm.RoleUser:
			if m.Content == compressedNote {
				// mm's, not the person's: the summary, the model's answer
				// to it, follows.
				evs = append(evs, Notice{Kind: NoticeInfo, Text: m.Content})
				continue
			}
			if agent, q, answer, ok := handoff.SplitHistoryEntry(m.Content); ok {
				// An /ask… exchange: the command, then its answer.
				evs = append(evs, UserText{Text: "/ask " + agent + " " + cmp.Or(m.Typed, q)})
				if answer != "" {
					evs = append(evs, Text{Text: answer})
				}
				continue
			}
			evs = append(evs, UserText{Text: cmp.Or(m.Typed, m.Content)})
		case llm.RoleAssistant:
			if m.Content != "" {
				evs = append(evs, Text{Text: m.Content})
			}
			calls = append(calls, m.ToolCalls...)
		case llm.RoleTool:
			c := llm.ToolCall{ID: m.ToolCallID, Name: m.Name}
			for i, pending := range calls {
				if pending.ID == m.ToolCallID {
					c = pending
					if c.Name == "" {
						c.Name = m.Name
					}
					calls = append(calls[:i:i], calls[i+1:]...)
					break
				}
			}
			evs = append(evs, replayedCall(c, m, cwd))
		default:
			if m.Content != "" {
				evs = append(evs, Notice{Kind: NoticeInfo, Text: m.Content})
			}
		}
	}
	flush()
	return evs
}

// Conversation is the session's history as Replay shows it: what a
// resumed session shows again.
func (s *Session) Conversation() []Event { return Replay(s.History(), s.cwd) }

// replayedCall is a saved call and its result as one ToolEnded. A call
// that did not run says so in the output the orchestrator wrote for it.
func replayedCall(c llm.ToolCall, result llm.Message, cwd string) ToolEnded {
	input, err := validJSON(c.Arguments)
	if err != nil {
		input = nil
	}
	target := replayedTarget(c.Name, input, cwd)
	ev := ToolEnded{ID: c.ID, Name: c.Name, Subject: target.Subject, Path: target.Path, Input: input,
		Status: ToolCompleted, Output: result.Content}
	if result.IsError {
		ev.Status = ToolFailed
		if by := deniedBy(result.Content); by != "" {
			ev.Status, ev.DeniedBy, ev.Summary = ToolDenied, by, result.Content
		}
	}
	return ev
}

// replayedTarget is what a saved call acted on, read as its tool reads
// its input: a built-in tool's, ask_agent's, else the subject the hooks
// reference names. Paths are the session's working directory's, cwd.
func replayedTarget(name string, input []byte, cwd string) tools.Target {
	var t tools.Tool
	switch name {
	case askToolName:
		return askTarget(input)
	case tools.LoadSkillName:
		t = tools.LoadSkill{}
	default:
		t, _ = tools.Builtin(name)
	}
	if t == nil {
		return tools.Target{Subject: tools.SubjectLine(input)}
	}
	return tools.TargetOf(t, tools.Env{Cwd: cwd}, input)
}

// deniedBy reads who refused a call from the output the orchestrator
// wrote in its place: "hook", "person" or "".
func deniedBy(output string) string {
	switch {
	case strings.HasPrefix(output, deniedByHookPrefix), strings.HasPrefix(output, strings.TrimSuffix(handoff.DeniedText(""), "]")):
		return "hook"
	case strings.HasPrefix(output, refusedPrefix):
		return "person"
	}
	return ""
}

// The starts of the outputs of calls that did not run.
const (
	deniedByHookPrefix = "[denied by a hook: "
	refusedPrefix      = "[refused: "
)
