package tui

import (
	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// picker is the list of the folder's saved sessions a person picks one
// from to resume (/resume alone, mm --resume without an id): drawn over
// the bottom of the transcript, chosen with ↑/↓ and Enter; Esc closes it.
type picker struct {
	choices []orchestrator.SavedSession
	sel     int
}

// pickStatus is the status line's hint while the list is open.
const pickStatus = "resume which? ↑/↓ choose · Enter resumes · Esc none"

// openPicker opens the list, or says why there is none.
func (w *window) openPicker() {
	choices, err := w.s.SavedChoices()
	switch {
	case err != nil:
		w.tr.add(styleFailed, "", "   ", "mm: "+err.Error())
	case len(choices) == 0:
		w.tr.notice(frontend.NoSessions)
	default:
		w.pick = &picker{choices: choices}
		w.scroll = 0
	}
}

// pickKey handles a key while the list is open.
func (w *window) pickKey(k key) {
	p := w.pick
	switch k.kind {
	case keyUp:
		p.sel = max(p.sel-1, 0)
	case keyDown:
		p.sel = min(p.sel+1, len(p.choices)-1)
	case keyEscape, keyCtrlC:
		w.pick = nil
		w.tr.notice("(no session resumed)")
	case keyEnter:
		w.pick = nil
		w.runCommand(orchestrator.SlashCommand{Name: "resume", Arg: p.choices[p.sel].ID, TakesArg: true})
	}
}

// rows are the list's rows for a view of height rows at most, each cut to
// width: the header, then the sessions around the one chosen, which is
// marked and reversed.
func (p *picker) rows(height, width int) []string {
	if height < 2 {
		return nil
	}
	n := min(len(p.choices), height-1)
	first := min(max(p.sel-n/2, 0), len(p.choices)-n)
	rows := []string{sgrBold + cutEllipsis(frontend.PickHeader, width)}
	for i := first; i < first+n; i++ {
		mark, sgr := "  ", ""
		if i == p.sel {
			mark, sgr = "› ", sgrReverse
		}
		rows = append(rows, sgr+cutEllipsis(mark+frontend.PickLine(p.choices[i]), width))
	}
	return rows
}
