package line

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// pickPrompt asks for the number of the session to resume.
const pickPrompt = "Resume which? (its number; Enter for none) › "

// pick lists the folder's saved sessions, numbered, and resumes the one
// whose number the person types (/resume alone, mm --resume without an
// id); Enter alone resumes none.
func (l *lineLoop) pick() {
	choices, err := l.s.SavedChoices()
	if err != nil {
		l.refuse("mm: " + err.Error())
		return
	}
	if len(choices) == 0 {
		fmt.Fprintln(l.opts.Stdout, frontend.NoSessions)
		return
	}
	fmt.Fprintln(l.opts.Stdout, frontend.PickHeader)
	for i, c := range choices {
		fmt.Fprintf(l.opts.Stdout, "%3d. %s\n", i+1, frontend.PickLine(c))
	}
	for {
		answer, err := l.in.ReadLine(pickPrompt)
		answer = strings.TrimSpace(answer)
		if err != nil || answer == "" {
			fmt.Fprintln(l.opts.Stdout, "(no session resumed)")
			return
		}
		n, err := strconv.Atoi(answer)
		if err != nil || n < 1 || n > len(choices) {
			fmt.Fprintf(l.opts.Stdout, "(%q is not a number of the list: give one from 1 to %d)\n", answer, len(choices))
			continue
		}
		l.cmds.Run(orchestrator.SlashCommand{Name: "resume", Arg: choices[n-1].ID, TakesArg: true}, l.s, l.reply)
		return
	}
}
