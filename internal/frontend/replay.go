package frontend

import (
	"fmt"
	"strings"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// Shown is what a terminal front end shows of a conversation replayed
// (orchestrator.Replay): each question, each answer, one line per tool
// call (its title; a failed or refused one with why), and an /ask…
// exchange's answer under its agent. With last > 0 only the last turns
// are shown, after a line that says how many are not; a compression's
// summary, which stands for the oldest turns, is shown either way.
func Shown(evs []orchestrator.Event, last int) []orchestrator.Event {
	var preamble []orchestrator.Event
	var turns [][]orchestrator.Event
	asked := "" // the agent an /ask… line of this turn asked
	add := func(ev orchestrator.Event) {
		if len(turns) == 0 {
			preamble = append(preamble, ev)
			return
		}
		turns[len(turns)-1] = append(turns[len(turns)-1], ev)
	}
	for _, ev := range evs {
		switch e := ev.(type) {
		case orchestrator.UserText:
			asked = ""
			if rest, ok := strings.CutPrefix(e.Text, "/ask "); ok {
				asked, _, _ = strings.Cut(rest, " ")
			}
			turns = append(turns, []orchestrator.Event{e})
		case orchestrator.Text:
			if e.Agent == "" {
				e.Agent = asked
			}
			add(e)
		case orchestrator.ToolEnded:
			switch e.Status {
			case orchestrator.ToolCompleted:
				add(orchestrator.ToolStarted{Agent: e.Agent, ID: e.ID, Name: e.Name, Subject: e.Subject, Input: e.Input})
			case orchestrator.ToolFailed:
				if e.Summary == "" {
					e.Summary = FirstLine(e.Output)
				}
				add(e)
			default:
				add(e)
			}
		default:
			add(ev)
		}
	}
	out := preamble
	if last > 0 && len(turns) > last {
		hidden := len(turns) - last
		out = append(out, orchestrator.Notice{Kind: orchestrator.NoticeInfo,
			Text: fmt.Sprintf("… %s: /history shows them", earlier(hidden))})
		turns = turns[hidden:]
	}
	for _, t := range turns {
		out = append(out, t...)
	}
	return out
}

func earlier(n int) string {
	if n == 1 {
		return "1 earlier turn"
	}
	return fmt.Sprintf("%d earlier turns", n)
}
