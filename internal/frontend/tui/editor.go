package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// editor is the input line: the text being typed, the cursor, and the
// lines sent before (this session's, newest last). The cursor moves, and
// Backspace and Delete remove, by grapheme cluster: e and a combining
// accent, or an emoji and its modifiers, are one character.
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
		e.pos = e.prev()
	case keyRight:
		e.pos = e.next()
	case keyHome:
		e.pos = 0
	case keyEnd:
		e.pos = len(e.buf)
	case keyBackspace:
		from := e.prev()
		e.buf = append(e.buf[:from], e.buf[e.pos:]...)
		e.pos = from
	case keyDelete:
		e.buf = append(e.buf[:e.pos], e.buf[e.next():]...)
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

// clusters returns the rune offsets in buf where its grapheme clusters
// start, and len(buf).
func clusters(buf []rune) []int {
	bounds := []int{0}
	at, state := 0, -1
	for rest := string(buf); rest != ""; {
		var c string
		c, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		at += utf8.RuneCountInString(c)
		bounds = append(bounds, at)
	}
	return bounds
}

// prev is the start of the cluster before the cursor (0 at the start).
func (e *editor) prev() int {
	p := 0
	for _, b := range clusters(e.buf) {
		if b >= e.pos {
			break
		}
		p = b
	}
	return p
}

// next is the end of the cluster after the cursor (len(buf) at the end).
func (e *editor) next() int {
	for _, b := range clusters(e.buf) {
		if b > e.pos {
			return b
		}
	}
	return len(e.buf)
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
	// The clusters before the cursor, with their widths; the first ones
	// scroll out while the cursor's column is past the row.
	var widths []int
	before, state := string(e.buf[:e.pos]), -1
	col := 0
	for rest := before; rest != ""; {
		var cw int
		_, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
		widths = append(widths, cw)
		col += cw
	}
	bounds := clusters(e.buf)
	start := 0
	for i := 0; col > avail && i < len(widths); i++ {
		col -= widths[i]
		start = bounds[i+1]
	}
	return cut(string(e.buf[start:]), width), col
}
