package tui

import "strings"

// editor is the input line: the text being typed, the cursor, and the
// lines sent before (this session's, newest last).
type editor struct {
	buf []rune
	pos int

	history []string
	// at is the history entry shown; len(history) is the line being typed,
	// kept in draft while the person walks the history.
	at    int
	draft string
}

func (e *editor) String() string { return string(e.buf) }

func (e *editor) empty() bool { return len(e.buf) == 0 }

// edit applies an editing key and reports whether k was one.
func (e *editor) edit(k key) bool {
	switch k.kind {
	case keyRune:
		e.buf = append(e.buf[:e.pos], append([]rune{k.r}, e.buf[e.pos:]...)...)
		e.pos++
	case keyLeft:
		e.pos = max(e.pos-1, 0)
	case keyRight:
		e.pos = min(e.pos+1, len(e.buf))
	case keyHome:
		e.pos = 0
	case keyEnd:
		e.pos = len(e.buf)
	case keyBackspace:
		if e.pos > 0 {
			e.buf = append(e.buf[:e.pos-1], e.buf[e.pos:]...)
			e.pos--
		}
	case keyDelete:
		if e.pos < len(e.buf) {
			e.buf = append(e.buf[:e.pos], e.buf[e.pos+1:]...)
		}
	case keyCtrlU:
		e.buf = append([]rune(nil), e.buf[e.pos:]...)
		e.pos = 0
	case keyCtrlK:
		e.buf = e.buf[:e.pos]
	case keyCtrlW:
		i := e.pos
		for i > 0 && e.buf[i-1] == ' ' {
			i--
		}
		for i > 0 && e.buf[i-1] != ' ' {
			i--
		}
		e.buf = append(e.buf[:i], e.buf[e.pos:]...)
		e.pos = i
	case keyUp:
		if e.at == 0 {
			return true
		}
		if e.at == len(e.history) {
			e.draft = e.String()
		}
		e.at--
		e.set(e.history[e.at])
	case keyDown:
		if e.at == len(e.history) {
			return true
		}
		e.at++
		if e.at == len(e.history) {
			e.set(e.draft)
		} else {
			e.set(e.history[e.at])
		}
	default:
		return false
	}
	return true
}

// set replaces the text, the cursor at its end.
func (e *editor) set(s string) {
	e.buf = []rune(s)
	e.pos = len(e.buf)
}

// submit returns the line and empties the editor; a line that is not blank
// and not the last one again joins the history.
func (e *editor) submit() string {
	s := e.String()
	if strings.TrimSpace(s) != "" && (len(e.history) == 0 || e.history[len(e.history)-1] != s) {
		e.history = append(e.history, s)
	}
	e.at, e.draft = len(e.history), ""
	e.set("")
	return s
}

// clear empties the line (Ctrl-C on a line being typed).
func (e *editor) clear() {
	e.at, e.draft = len(e.history), ""
	e.set("")
}

// view is what the input line shows in width columns: the part of the text
// around the cursor, and the cursor's column in it. The text scrolls
// sideways so that the cursor stays in sight, with a column left for it at
// the end.
func (e *editor) view(width int) (string, int) {
	if width < 2 {
		return "", 0
	}
	avail := width - 1
	start, col := 0, 0
	for _, r := range e.buf[:e.pos] {
		col += runeWidth(r)
	}
	for col > avail {
		col -= runeWidth(e.buf[start])
		start++
	}
	return cut(string(e.buf[start:]), width), col
}
