package tui

import (
	"fmt"
	"strings"

	"github.com/mm-agent/mm/frontend"
)

const help = `Type a question and press Enter. Commands:
  /ask <agent> <question>              ask another agent
  /ask-<agent> <question>              the same
  /ask-with-context-<agent> <question> ask, sending this conversation along
  /mcp                                 list the MCP servers and their tools
  /clear                               forget the conversation
  /abort                               cancel the running turn (or Esc, or Ctrl-C)
  /help                                this list
  /exit                                leave (or Ctrl-D, or Ctrl-C on an empty line)
Keys: ←/→, Home/End, Backspace/Delete, Ctrl-U, Ctrl-K and Ctrl-W edit the line;
↑/↓ walk the lines sent before; PgUp/PgDn scroll; Ctrl-L redraws.
A consent question is answered by one key: y, n, a or v; Esc is no.`

// enter handles Enter: the window's own commands, or a question (or an
// /ask… line) for the session.
func (w *window) enter() {
	line := strings.TrimSpace(w.ed.String())
	if line == "" {
		return
	}
	switch line {
	case "/exit", "/quit":
		w.ed.submit()
		w.leave(0)
		return
	case "/abort":
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
	switch line {
	case "/help":
		w.tr.notice(help)
	case "/clear":
		w.s.Clear()
		w.tr.notice("(conversation cleared)")
	case "/mcp":
		w.tr.notice(mcpList(w.s))
	default:
		if refusal := frontend.UnknownCommand(line, help, w.s.Commands()); refusal != "" {
			w.tr.question(line)
			w.tr.add(styleFailed, "", "   ", "mm: "+refusal)
			return
		}
		w.tr.question(line)
		w.startTurn(line)
	}
}

// mcpList describes the session's MCP servers and their tools.
func mcpList(s session) string {
	servers := s.MCPServers()
	if len(servers) == 0 {
		return "(no MCP servers: add them under mcpServers: in the configuration)"
	}
	var b strings.Builder
	for i, st := range servers {
		if i > 0 {
			b.WriteByte('\n')
		}
		if st.Err != nil {
			fmt.Fprintf(&b, "%s: not running: %v", st.Name, st.Err)
			continue
		}
		fmt.Fprintf(&b, "%s: %d tool(s)", st.Name, len(st.Tools))
		for _, t := range st.Tools {
			fmt.Fprintf(&b, "\n  %s", t)
		}
	}
	return b.String()
}
