package orchestrator

import (
	"slices"
	"strings"

	"github.com/mm-agent/mm/internal/commandfiles"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/projectdocs"
)

// CommandFiles finds the commands a person wrote as files for a session
// in cwd (.mm/commands of cwd, then theirs), with the problems a session
// shows as warnings and mm check reports: a file mm's own command shadows
// among them.
func CommandFiles(cwd string, getenv func(string) string) (*commandfiles.Set, []string) {
	show := func(p string) string { return mmconfigs.ShowPath(p, cwd, getenv) }
	return commandfiles.Find(commandfiles.Folders(cwd, projectdocs.Root(cwd), getenv), ownCommand, show)
}

// ownCommand says whether /name is one of mm's own commands, which a
// command file of that name cannot replace, and in what words: any of the
// registry, /ask and the /ask-<agent> family (Prompt reads every /ask-…
// line as a hand-off).
func ownCommand(name string) (string, bool) {
	for _, c := range slashCommands() {
		if c.Name != "" && (c.Name == name || slices.Contains(c.Aliases, name)) {
			return "/" + name + " is mm's own command", true
		}
	}
	if strings.HasPrefix(name, "ask-") {
		return "/ask-<agent> is mm's own command (a question to an agent)", true
	}
	return "", false
}

// fileCommands are the session's command files as Commands, sorted by
// name.
func (s *Session) fileCommands() []Command {
	return s.commandList
}

// findCommandFiles finds the session's command files, for a session a
// person started (an asked agent has nobody to type one), and says their
// problems as warnings.
func (s *Session) findCommandFiles(getenv func(string) string) {
	if s.depth > 0 {
		return
	}
	var problems []string
	s.commands, problems = CommandFiles(s.cwd, getenv)
	s.warnings = append(s.warnings, problems...)
	for _, c := range s.commands.List() {
		s.commandList = append(s.commandList, Command{Name: c.Name, Description: c.Description, Hint: c.ArgumentHint,
			File: mmconfigs.ShowPath(c.File, s.cwd, getenv)})
	}
}

// fileCommand is the question a line that starts with one of the
// session's command files stands for (commandfiles.Command.Prompt: what
// follows the word, other lines included, is its $ARGUMENTS); ok is false
// for any other line.
func (s *Session) fileCommand(text string) (question string, ok bool, err error) {
	line := strings.TrimSpace(text)
	word, args := line, ""
	if i := strings.IndexAny(line, " \t\n"); i >= 0 {
		word, args = line[:i], line[i+1:]
	}
	name, slash := strings.CutPrefix(word, "/")
	if !slash {
		return "", false, nil
	}
	c, found := s.commands.Get(name)
	if !found {
		return "", false, nil
	}
	question, err = c.Prompt(args)
	return question, true, err
}
