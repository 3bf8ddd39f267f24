package tui

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// Select Graphic Rendition sequences of the styles.
const (
	sgrReset    = "\x1b[0m"
	sgrBold     = "\x1b[1m"
	sgrDim      = "\x1b[2m"
	sgrReverse  = "\x1b[7m"
	sgrRed      = "\x1b[31m"
	sgrGreen    = "\x1b[32m"
	sgrCyan     = "\x1b[36m"
	sgrQuestion = "\x1b[1;33m"
)

// sgr is how s is drawn; without colour (NO_COLOR) the attributes stay
// (dim, bold) and the colours go.
func (s style) sgr(colour bool) string {
	switch s {
	case styleDim:
		return sgrDim
	case styleQuestion:
		return sgrBold
	case styleFailed:
		if !colour {
			return ""
		}
		return sgrRed
	case styleAsk:
		if !colour {
			return sgrBold
		}
		return sgrQuestion
	case styleAskAdded:
		return colourOnly(colour, sgrGreen)
	case styleAskRemoved:
		return colourOnly(colour, sgrRed)
	case styleAskHunk:
		return colourOnly(colour, sgrCyan)
	}
	return ""
}

// colourOnly is sgr with colours, nothing without: a change's lines are
// read in their colours, and plain without them.
func colourOnly(colour bool, sgr string) string {
	if !colour {
		return ""
	}
	return sgr
}

// screen is what the terminal shows: its size and the rows drawn last, so
// that a redraw writes only the rows that changed.
type screen struct {
	out  io.Writer
	w, h int
	prev []string
	buf  bytes.Buffer
}

func (s *screen) resize(w, h int) {
	s.w, s.h = max(w, 1), max(h, 1)
	s.invalidate()
}

// invalidate makes the next draw write every row.
func (s *screen) invalidate() { s.prev = nil }

// viewHeight is the number of transcript rows: all but the banner, the
// status line and the input line.
func (s *screen) viewHeight() int { return max(s.h-3, 0) }

// frame is a whole screen: one string per row (with its colours) and the
// cursor's position.
type frame struct {
	rows   []string
	cx, cy int
}

// draw writes the rows of f that differ from the last frame, hiding the
// cursor meanwhile, then puts the cursor in place.
func (s *screen) draw(f frame) error {
	s.buf.Reset()
	s.buf.WriteString("\x1b[?25l")
	for y, r := range f.rows {
		if y < len(s.prev) && s.prev[y] == r {
			continue
		}
		// Erase first: with autowrap off, erasing after a full row would
		// take its last column.
		fmt.Fprintf(&s.buf, "\x1b[%d;1H\x1b[2K%s%s", y+1, pin(r), sgrReset)
	}
	fmt.Fprintf(&s.buf, "\x1b[%d;%dH\x1b[?25h", f.cy+1, f.cx+1)
	s.prev = f.rows
	_, err := s.out.Write(s.buf.Bytes())
	return err
}

// draw redraws the window; a terminal that cannot be written to ends it.
func (w *window) draw() {
	if err := w.scr.draw(w.frame()); err != nil {
		w.leave(1)
	}
}

// frame composes the screen: banner, transcript, status line, input line,
// clamping the scroll to the transcript. On a terminal too short for all
// four the banner goes first, then the status line.
func (w *window) frame() frame {
	width, height := w.scr.w, w.scr.h
	viewH := w.scr.viewHeight()
	rows := make([]string, 0, height)
	if height >= 3 {
		rows = append(rows, sgrBold+cutEllipsis(sanitizeLine(w.banner), width))
	}

	total := w.tr.total(width)
	if w.scroll > 0 && width == w.totalWidth && total > w.total {
		// Keep the rows read in place while more arrive below them.
		w.scroll += total - w.total
	}
	w.total, w.totalWidth = total, width
	w.scroll = max(min(w.scroll, total-viewH), 0)
	tr, styles := w.tr.view(width, viewH, w.scroll)
	for i, r := range tr {
		rows = append(rows, styles[i].sgr(w.colour)+r)
	}
	for len(rows) < viewH+1 && height >= 3 {
		rows = append(rows, "")
	}
	if w.pick != nil && height >= 3 {
		// The list of sessions to pick from, over the transcript's bottom.
		over := w.pick.rows(viewH, width)
		copy(rows[viewH+1-len(over):], over)
	}

	if height >= 2 {
		st := cutEllipsis(sanitizeLine(w.status()), width)
		rows = append(rows, sgrReverse+st+strings.Repeat(" ", width-stringWidth(st)))
	}
	text, col := w.ed.view(width - 2)
	prompt := "› "
	if w.running {
		prompt = sgrDim + "›" + sgrReset + " "
	}
	rows = append(rows, prompt+sanitizeLine(text))
	return frame{rows: rows, cx: min(2+col, width-1), cy: len(rows) - 1}
}

// sanitizeLine is sanitize for a text drawn on one row.
func sanitizeLine(s string) string {
	return strings.ReplaceAll(sanitize(s), "\n", " ")
}
