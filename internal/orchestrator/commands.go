package orchestrator

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// SlashCommand is one entry of the registry of slash commands: every
// interactive front end's /help lists the entries it offers, in the
// registry's order, and refuses a slash word that is none of them.
type SlashCommand struct {
	// Name is the word after the slash ("clear"); "" for a template that
	// stands for one command per agent ("/ask-<agent> <question>").
	Name string
	// Usage is how /help shows it: "/ask <agent> <question>"; "/" + Name
	// when empty.
	Usage string
	// Description is what it does, as /help says it.
	Description string
	// Aliases are other words that run it ("quit" for "exit").
	Aliases []string
	// TakesArg says the command takes the rest of its line ("/resume
	// <id>"); Find gives what followed in Arg.
	TakesArg bool
	// Arg is what followed the command's word, for one that takes it.
	Arg string
	// Local says the front end carries it out (leaving, cancelling its
	// turn, its token report): it is listed only where the front end
	// says it offers it.
	Local bool
	// Turn says Session.Prompt runs it, as a turn (a model call): the
	// front end sends the line to Prompt like a question.
	Turn bool
}

// Slash commands a front end carries out itself; offer them in
// CommandSet.Local.
const (
	CommandExit  = "exit"
	CommandUsage = "usage"
	CommandAbort = "abort"
	// CommandHistory shows the whole conversation again (the line mode,
	// which shows a resumed session's last turns only).
	CommandHistory = "history"
)

// CommandCompact is /compact, which Session.Prompt runs.
const CommandCompact = "compact"

// slashCommands is the registry, in /help's order. The /ask… entries are
// run by Prompt (they are turns); the session's own are run by
// CommandSet.Run.
func slashCommands() []SlashCommand {
	return []SlashCommand{
		{Name: "ask", Usage: "/ask <agent> <question>", Description: "ask another agent"},
		{Usage: "/ask-<agent> <question>", Description: "the same"},
		{Usage: "/ask-with-context-<agent> <question>", Description: "ask, sending this conversation along"},
		{Name: "mcp", Description: "list the MCP servers and their tools"},
		{Name: CommandUsage, Description: "the tokens of the last turn and of the session", Local: true},
		{Name: "clear", Description: "forget the conversation"},
		{Name: CommandCompact, Description: "compress the conversation now, to fit the model's window", Turn: true},
		{Name: "sessions", Description: "list this folder's saved sessions"},
		{Name: "resume", Usage: "/resume <id>", Description: "go on with a saved session", TakesArg: true},
		{Name: CommandHistory, Description: "show the whole conversation again", Local: true},
		{Name: CommandAbort, Description: "cancel the running turn", Local: true},
		{Name: "help", Description: "this list"},
		{Name: CommandExit, Description: "leave", Aliases: []string{"quit"}, Local: true},
	}
}

// CommandSet is the registry as one front end offers it: the session's
// commands, the local ones it carries out itself, and the keys it says
// do the same.
type CommandSet struct {
	// Local names the local commands the front end carries out
	// (CommandExit, …); the others are not offered.
	Local []string
	// Keys gives, per command name, the keys that do the same, shown after
	// its description: {"exit": "or Ctrl-D"} shows "leave (or Ctrl-D)".
	Keys map[string]string
	// Footer is the front end's own lines after the list (its keys).
	Footer string
}

// commands are the registry's entries this set offers.
func (c CommandSet) commands() []SlashCommand {
	var out []SlashCommand
	for _, cmd := range slashCommands() {
		if !cmd.Local || slices.Contains(c.Local, cmd.Name) {
			out = append(out, cmd)
		}
	}
	return out
}

// helpHeader opens every front end's /help.
const helpHeader = "Type a question and press Enter. Commands:"

// Help is /help's text: the header, one aligned line per command, then
// the footer.
func (c CommandSet) Help() string { return c.HelpWith(nil) }

// filesHeader opens the person's commands in /help.
const filesHeader = "Your commands (files):"

// HelpWith is Help with the person's command files of session (those with
// a File) listed after mm's own, under their own header, each with its
// file.
func (c CommandSet) HelpWith(session []Command) string {
	cmds := c.commands()
	var files []Command
	for _, f := range session {
		if f.File != "" {
			files = append(files, f)
		}
	}
	width := 0
	for _, cmd := range cmds {
		width = max(width, len(cmd.usage()))
	}
	for _, f := range files {
		width = max(width, len(f.usage()))
	}
	var b strings.Builder
	b.WriteString(helpHeader)
	for _, cmd := range cmds {
		desc := cmd.Description
		if k := c.Keys[cmd.Name]; k != "" {
			desc += " (" + k + ")"
		}
		fmt.Fprintf(&b, "\n  %-*s %s", width, cmd.usage(), desc)
	}
	if len(files) > 0 {
		b.WriteString("\n" + filesHeader)
		for _, f := range files {
			fmt.Fprintf(&b, "\n  %-*s %s", width, f.usage(), strings.TrimSpace(f.Description+" ("+f.File+")"))
		}
	}
	if c.Footer != "" {
		b.WriteString("\n" + c.Footer)
	}
	return b.String()
}

// usage is how /help shows a person's command: "/review <files>".
func (c Command) usage() string {
	if c.Hint != "" {
		return "/" + c.Name + " " + c.Hint
	}
	return "/" + c.Name
}

func (cmd SlashCommand) usage() string {
	if cmd.Usage != "" {
		return cmd.Usage
	}
	return "/" + cmd.Name
}

// Words are the slash words this set offers, in /help's order: "/ask",
// "/mcp", …, without the per-agent templates (the session's Commands
// name those).
func (c CommandSet) Words() []string {
	var out []string
	for _, cmd := range c.commands() {
		if cmd.Name != "" {
			out = append(out, "/"+cmd.Name)
		}
	}
	return out
}

// Find returns the command line is, when it is exactly one of this set's
// commands other than /ask… and /compact (which Prompt runs): "/clear",
// "/exit"; or, for one that takes an argument, the command and what
// follows it: "/resume 3f2a".
func (c CommandSet) Find(line string) (SlashCommand, bool) {
	line = strings.TrimSpace(line)
	for _, cmd := range c.commands() {
		if cmd.Name == "" || cmd.Name == "ask" || cmd.Turn {
			continue
		}
		if line == "/"+cmd.Name {
			return cmd, true
		}
		if arg, ok := strings.CutPrefix(line, "/"+cmd.Name+" "); ok && cmd.TakesArg {
			cmd.Arg = strings.TrimSpace(arg)
			return cmd, true
		}
		if slices.ContainsFunc(cmd.Aliases, func(a string) bool { return line == "/"+a }) {
			return cmd, true
		}
	}
	return SlashCommand{}, false
}

// CommandSession is what the session's slash commands act on; *Session
// is one.
type CommandSession interface {
	// Commands are the session's own commands: the /ask… commands of its
	// agents, the person's command files (/help lists them).
	Commands() []Command
	Clear()
	MCPServers() []MCPStatus
	// SavedSessions lists the saved sessions (/sessions).
	SavedSessions() (string, error)
	// ResumeSaved makes the saved session id this one (/resume) and says
	// what was resumed.
	ResumeSaved(id string) (string, error)
}

// Run carries out one of the session's commands (cmd from Find, not
// Local) on s and emits what it says as a CommandReply. It returns false,
// doing nothing, for a local command: the front end carries that out.
func (c CommandSet) Run(cmd SlashCommand, s CommandSession, emit func(Event)) bool {
	var text string
	switch cmd.Name {
	case "help":
		text = c.HelpWith(s.Commands())
	case "clear":
		s.Clear()
		text = "(conversation cleared)"
	case "mcp":
		text = MCPList(s.MCPServers())
	case "sessions", "resume":
		var err error
		if cmd.Name == "sessions" {
			text, err = s.SavedSessions()
		} else if cmd.Arg == "" {
			err = errors.New("/resume <id>: give the session's id (/sessions lists them)")
		} else {
			text, err = s.ResumeSaved(cmd.Arg)
		}
		if err != nil {
			emit(Notice{Kind: NoticeWarning, Text: "mm: " + err.Error()})
			return true
		}
	default:
		return false
	}
	emit(CommandReply{Command: cmd.Name, Text: text})
	return true
}

// MCPList describes MCP servers and their tools, one server a line, its
// tools indented under it.
func MCPList(servers []MCPStatus) string {
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

// CommandReply is what a slash command the session carried out says to
// the person: "(conversation cleared)", the MCP list, the help. It comes
// outside any turn.
type CommandReply struct {
	// Command is the command's name: "clear".
	Command string
	Text    string
}

func (CommandReply) event() {}
