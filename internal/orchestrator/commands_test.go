package orchestrator

import (
	"errors"
	"slices"
	"testing"
)

// fakeCommandSession records what the session's commands did to it.
type fakeCommandSession struct {
	cleared  bool
	servers  []MCPStatus
	resumed  []string
	commands []Command
}

func (f *fakeCommandSession) Commands() []Command     { return f.commands }
func (f *fakeCommandSession) Clear()                  { f.cleared = true }
func (f *fakeCommandSession) MCPServers() []MCPStatus { return f.servers }
func (f *fakeCommandSession) SavedSessions() (string, error) {
	return "1ngxbx0mj2hk  2h ago  3 turns  list the files", nil
}
func (f *fakeCommandSession) ResumeSaved(id string) (string, error) {
	if id == "zz" {
		return "", errors.New(`no saved session "zz"`)
	}
	f.resumed = append(f.resumed, id)
	return "resumed session " + id, nil
}

// TestCommandSetHelp: /help lists the registry's commands a front end
// offers, aligned, with the keys it names; a local command it does not
// carry out is left out, and it is not found either.
func TestCommandSetHelp(t *testing.T) {
	set := CommandSet{Local: []string{CommandExit}, Keys: map[string]string{CommandExit: "or Ctrl-D"}, Footer: "Ctrl-C cancels."}
	want := `Type a question and press Enter. Commands:
  /ask <agent> <question>              ask another agent
  /ask-<agent> <question>              the same
  /ask-with-context-<agent> <question> ask, sending this conversation along
  /mcp                                 list the MCP servers and their tools
  /clear                               forget the conversation
  /compact                             compress the conversation now, to fit the model's window
  /sessions                            list this folder's saved sessions
  /resume <id>                         go on with a saved session
  /help                                this list
  /exit                                leave (or Ctrl-D)
Ctrl-C cancels.`
	if got := set.Help(); got != want {
		t.Errorf("Help()\n got:\n%s\nwant:\n%s", got, want)
	}
	if got, want := set.Words(), []string{"/ask", "/mcp", "/clear", "/compact", "/sessions", "/resume", "/help", "/exit"}; !slices.Equal(got, want) {
		t.Errorf("Words() = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		line, want string
	}{
		{"/clear", "clear"},
		{"  /help ", "help"},
		{"/quit", "exit"},
		{"/exit", "exit"},
		{"/usage", ""},    // not offered here
		{"/help me", ""},  // a question
		{"/ask x q", ""},  // a turn: Prompt runs it
		{"/ask-x q", ""},  // the same
		{"/clearer", ""},  // unknown
		{"clear", ""},     // no slash
		{"/mcp list", ""}, // a question
		{"/sessions", "sessions"},
		{"/resume 0q6c", "resume"},
		{"/resume", "resume"}, // Run asks for the id
		{"/sessions all", ""}, // a question
		{"/resumed 0q6c", ""}, // unknown
	} {
		cmd, ok := set.Find(tc.line)
		if ok != (tc.want != "") || cmd.Name != tc.want {
			t.Errorf("Find(%q) = %q, %v; want %q", tc.line, cmd.Name, ok, tc.want)
		}
	}
}

// TestHelpWithCommandFiles: /help lists the person's command files after
// mm's own, under their own header, aligned with them, each with its file
// and what it takes; the /ask… commands of the agents are not listed again.
func TestHelpWithCommandFiles(t *testing.T) {
	set := CommandSet{Local: []string{CommandExit}, Footer: "Ctrl-C cancels."}
	s := &fakeCommandSession{commands: []Command{
		{Name: "ask-expert", Description: "ask expert a question", Hint: "question"},
		{Name: "fix-issue", Description: "Fix a GitHub issue.", Hint: "<number>", File: ".mm/commands/fix-issue.md"},
		{Name: "haiku", File: "~/.config/mm/commands/haiku.md"},
	}}
	var reply CommandReply
	set.Run(SlashCommand{Name: "help"}, s, func(ev Event) { reply = ev.(CommandReply) })
	want := `Type a question and press Enter. Commands:
  /ask <agent> <question>              ask another agent
  /ask-<agent> <question>              the same
  /ask-with-context-<agent> <question> ask, sending this conversation along
  /mcp                                 list the MCP servers and their tools
  /clear                               forget the conversation
  /compact                             compress the conversation now, to fit the model's window
  /sessions                            list this folder's saved sessions
  /resume <id>                         go on with a saved session
  /help                                this list
  /exit                                leave
Your commands (files):
  /fix-issue <number>                  Fix a GitHub issue. (.mm/commands/fix-issue.md)
  /haiku                               (~/.config/mm/commands/haiku.md)
Ctrl-C cancels.`
	if reply.Text != want {
		t.Errorf("/help\n got:\n%s\nwant:\n%s", reply.Text, want)
	}
}

// TestCommandSetRun: the session's commands act on it and say so in a
// CommandReply; a local one is left to the front end.
func TestCommandSetRun(t *testing.T) {
	set := CommandSet{Local: []string{CommandExit}}
	s := &fakeCommandSession{servers: []MCPStatus{
		{Name: "fs", Tools: []string{"fs__read", "fs__write"}},
		{Name: "web", Err: errors.New("exited: status 1")},
	}}
	var got []Event
	emit := func(ev Event) { got = append(got, ev) }
	for _, line := range []string{"/clear", "/mcp", "/sessions", "/resume  0q6c ", "/resume zz", "/resume", "/exit"} {
		cmd, _ := set.Find(line)
		ran := set.Run(cmd, s, emit)
		if ran != (line != "/exit") {
			t.Errorf("Run(%s) = %v", line, ran)
		}
	}
	want := []Event{
		CommandReply{Command: "clear", Text: "(conversation cleared)"},
		CommandReply{Command: "mcp", Text: "fs: 2 tool(s)\n  fs__read\n  fs__write\nweb: not running: exited: status 1"},
		CommandReply{Command: "sessions", Text: "1ngxbx0mj2hk  2h ago  3 turns  list the files"},
		CommandReply{Command: "resume", Text: "resumed session 0q6c"},
		Notice{Kind: NoticeWarning, Text: `mm: no saved session "zz"`},
		Notice{Kind: NoticeWarning, Text: "mm: /resume <id>: give the session's id (/sessions lists them)"},
	}
	if !slices.Equal(got, want) || !s.cleared || !slices.Equal(s.resumed, []string{"0q6c"}) {
		t.Errorf("events %q (cleared %v), want %q", got, s.cleared, want)
	}
	if got := MCPList(nil); got != "(no MCP servers: add them under mcpServers: in the configuration)" {
		t.Errorf("MCPList(nil) = %q", got)
	}
}
