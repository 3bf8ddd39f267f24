package tui

import (
	"strings"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// commands are the slash commands the window offers, and its keys.
func commands() orchestrator.CommandSet {
	return orchestrator.CommandSet{
		Local: []string{orchestrator.CommandAbort, orchestrator.CommandExit},
		Keys: map[string]string{
			orchestrator.CommandAbort: "or Esc, or Ctrl-C",
			orchestrator.CommandExit:  "or Ctrl-D, or Ctrl-C on an empty line",
		},
		Footer: `Keys: ←/→, Home/End, Backspace/Delete, Ctrl-U, Ctrl-K and Ctrl-W edit the line;
↑/↓ walk the lines sent before; PgUp/PgDn scroll; Ctrl-L redraws.
A consent question is answered by one key: y, n, a or v; Esc is no.`,
	}
}

// showConversation puts the session's whole conversation in the
// transcript, when it has one: a resumed session shows itself.
func (w *window) showConversation() {
	c, ok := w.s.(interface{ Conversation() []orchestrator.Event })
	if !ok {
		return
	}
	for _, ev := range frontend.Shown(c.Conversation(), 0) {
		w.tr.event(ev)
	}
	w.tr.close()
}

// enter handles Enter: the window's own commands, the session's, or a
// question (or an /ask… line) for the session.
func (w *window) enter() {
	if w.continueLine() {
		return
	}
	line := strings.TrimSpace(w.ed.String())
	if line == "" {
		return
	}
	cmds := commands()
	cmd, isCommand := cmds.Find(line)
	switch {
	case isCommand && cmd.Name == orchestrator.CommandExit:
		w.ed.submit()
		w.leave(0)
		return
	case isCommand && cmd.Name == orchestrator.CommandAbort:
		w.ed.submit()
		if !w.running {
			w.tr.notice("(no turn is running)")
		}
		w.cancelTurn()
		return
	}
	if w.running {
		// The line stays in the editor for when the turn is over.
		w.hint = "a turn is running: Enter once it ends, or Esc to cancel it"
		return
	}
	w.ed.submit()
	w.scroll = 0
	if isCommand {
		// The reply is shown at once, as the session's events are.
		cmds.Run(cmd, w.s, func(ev orchestrator.Event) {
			w.message(ev)
			if reply, ok := ev.(orchestrator.CommandReply); ok && reply.Command == "resume" {
				w.showConversation()
			}
		})
		return
	}
	if refusal := frontend.UnknownCommand(line, cmds.Words(), w.s.Commands()); refusal != "" {
		w.tr.question(line)
		w.tr.add(styleFailed, "", "   ", "mm: "+refusal)
		return
	}
	w.tr.question(line)
	w.startTurn(line)
}

// continueLine is Enter on a line ending in a backslash, and on the line
// after such lines: a question of several lines (a question, then an @path
// line), typed line by line as in the line mode. It reports whether it
// took the Enter.
func (w *window) continueLine() bool {
	if w.running {
		return false
	}
	raw := strings.TrimRight(w.ed.String(), " \t")
	part, more := strings.CutSuffix(raw, "\\")
	part = strings.TrimRight(part, " \t")
	if !more && len(w.continued) == 0 {
		return false
	}
	w.ed.submit()
	w.scroll = 0
	if len(w.continued) == 0 {
		w.tr.question(part)
	} else {
		w.tr.add(styleQuestion, "  ", "  ", part)
	}
	w.continued = append(w.continued, part)
	if more {
		return true
	}
	text := strings.Join(w.continued, "\n")
	w.continued = nil
	w.startTurn(text)
	return true
}
