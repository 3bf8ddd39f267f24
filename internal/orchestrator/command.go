package orchestrator

import (
	"errors"
	"strings"
)

// Command is a slash command a front end may advertise.
type Command struct {
	// Name is the command without its slash: "ask-expert".
	Name        string
	Description string
	// Hint describes the input: "question".
	Hint string
	// File is the command file a person's command comes from, as shown
	// (.mm/commands/review.md); "" for mm's own.
	File string
}

// Commands lists the /ask… commands of this session's agents, then the
// person's command files.
func (s *Session) Commands() []Command {
	return append(s.askCommands(), s.fileCommands()...)
}

// askCommands lists the /ask… commands of this session's agents.
func (s *Session) askCommands() []Command {
	names := s.cfg.AgentNames()
	if len(names) == 0 {
		return nil
	}
	cmds := []Command{{Name: "ask", Description: "ask another agent: /ask <agent> <question>", Hint: "agent and question"}}
	for _, n := range names {
		cmds = append(cmds,
			Command{Name: "ask-" + n, Description: "ask " + n + " a question", Hint: "question"},
			Command{Name: "ask-with-context-" + n, Description: "ask " + n + " a question, sending this conversation along", Hint: "question"},
		)
	}
	return cmds
}

// CompactCommand is /compact as a Command, for a front end that passes
// every line to Prompt (ACP) and lists what Prompt runs: the session's
// Commands, then this.
func CompactCommand() Command {
	for _, c := range slashCommands() {
		if c.Name == CommandCompact {
			return Command{Name: c.Name, Description: c.Description}
		}
	}
	return Command{Name: CommandCompact}
}

// askCommandLine is a parsed /ask… line.
type askCommandLine struct {
	agent, question string
	withContext     bool
}

// parseAskCommand recognises /ask <name> <q>, /ask-<name> <q> and
// /ask-with-context-<name> <q>. ok is false for anything else.
func (s *Session) parseAskCommand(text string) (cmd askCommandLine, ok bool, err error) {
	line := strings.TrimSpace(text)
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	_, named := s.cfg.Agents[strings.TrimPrefix(word, "/ask-")]
	switch {
	case word == "/ask":
		cmd.agent, cmd.question, _ = strings.Cut(rest, " ")
		cmd.question = strings.TrimSpace(cmd.question)
		if cmd.agent == "" || cmd.question == "" {
			return cmd, true, errors.New("usage: /ask <agent> <question>")
		}
	case strings.HasPrefix(word, "/ask-with-context-") && !named:
		// /ask-with-context-<name>, unless an agent is named "with-context-<name>".
		cmd.agent, cmd.question, cmd.withContext = strings.TrimPrefix(word, "/ask-with-context-"), rest, true
	case strings.HasPrefix(word, "/ask-"):
		cmd.agent, cmd.question = strings.TrimPrefix(word, "/ask-"), rest
	default:
		return cmd, false, nil
	}
	if cmd.question == "" {
		return cmd, true, errors.New("usage: " + word + " <question>")
	}
	return cmd, true, nil
}
