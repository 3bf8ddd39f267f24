package tui

import (
	"strings"

	"github.com/mm-agent/mm/frontend"
	"github.com/mm-agent/mm/orchestrator"
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

// enter handles Enter: the window's own commands, the session's, or a
// question (or an /ask… line) for the session.
func (w *window) enter() {
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
		cmds.Run(cmd, w.s, func(ev orchestrator.Event) { w.message(ev) })
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
