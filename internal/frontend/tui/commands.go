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
			orchestrator.CommandExit:  "or Ctrl-D, or Ctrl-C twice on an empty line",
		},
		Footer: `Keys: ←/→, Home/End, Backspace/Delete, Ctrl-U, Ctrl-K and Ctrl-W edit the line;
↑/↓ walk the lines sent before; PgUp/PgDn scroll; Ctrl-L redraws. A line
sent while a turn runs is sent once it ends. !<command> runs a shell command
for you (in the sandbox); the model reads its output with your next question.
A consent question is answered by one key: y, n, a or v; Esc is no.`,
	}
}

// queuedLine is a line sent while a turn ran; shown says the transcript
// shows it already (the lines of a question typed line by line).
type queuedLine struct {
	text  string
	shown bool
}

// sendQueued sends the first line that waits for the turn's end.
func (w *window) sendQueued() {
	if len(w.queued) == 0 || w.running {
		return
	}
	q := w.queued[0]
	w.queued = w.queued[1:]
	w.send(q.text, q.shown)
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
	w.ed.submit()
	if w.running {
		// Sent once the turn ends, as the line mode does.
		w.queued = append(w.queued, queuedLine{text: line})
		return
	}
	w.send(line, false)
}

// send carries out a line: a command of the window's or the session's, a
// shell command (!), or a question (or an /ask… line) for the session;
// shown says the transcript shows it already.
func (w *window) send(line string, shown bool) {
	w.scroll = 0
	cmds := commands()
	if cmd, isCommand := cmds.Find(line); isCommand {
		switch {
		case cmd.Name == orchestrator.CommandExit:
			w.leave(0)
		case cmd.Name == orchestrator.CommandAbort:
			w.tr.notice("(no turn is running)")
		case cmd.Name == "resume" && cmd.Arg == "":
			w.openPicker()
		default:
			w.runCommand(cmd)
		}
		return
	}
	if !shown {
		w.tr.question(line)
	}
	if command, ok := strings.CutPrefix(line, "!"); ok {
		w.startShell(command)
		return
	}
	if refusal := frontend.UnknownCommand(line, cmds.Words(), w.s.Commands()); refusal != "" {
		w.tr.add(styleFailed, "", "   ", "mm: "+refusal)
		return
	}
	w.startTurn(line)
}

// runCommand carries out one of the session's commands; its reply is
// shown at once, as the session's events are.
func (w *window) runCommand(cmd orchestrator.SlashCommand) {
	commands().Run(cmd, w.s, func(ev orchestrator.Event) {
		w.message(ev)
		if reply, ok := ev.(orchestrator.CommandReply); ok && reply.Command == "resume" {
			w.showConversation()
		}
	})
	// /model, or a session /resume went on with its model.
	w.model = w.s.Model()
}

// continueLine is Enter on a line ending in a backslash, and on the line
// after such lines: a question of several lines (a question, then an @path
// line), typed line by line as in the line mode. It reports whether it
// took the Enter.
func (w *window) continueLine() bool {
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
	if w.running {
		w.queued = append(w.queued, queuedLine{text: text, shown: true})
		return true
	}
	w.send(text, true)
	return true
}
