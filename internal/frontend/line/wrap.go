package line

import (
	"io"
	"os"

	"github.com/rivo/uniseg"
	"golang.org/x/term"

	"github.com/mm-agent/mm/internal/frontend"
)

// wrapper breaks streamed text into rows of the terminal's width at
// spaces, as the window does (internal/frontend/tui/width.go), instead of leaving
// the terminal to cut words in two. A word is held back until it ends (a
// space, a line's end, flush), then goes on the row if it fits and on the
// next row if not; only a word wider than the terminal is cut, between
// grapheme clusters. The spaces a row was broken at are dropped. Escape
// sequences in the text (the markdown's colours) take no room and are
// never cut.
//
// A cluster counts as the wider of what Unicode says and what its code
// points take one by one: a terminal that draws a family or a thumbs-up
// with a skin tone as its parts then still has room for it, and one that
// joins them ends the row a little early.
type wrapper struct {
	// width is the terminal's columns now; 0 or less: do not wrap.
	width func() int

	col     int    // columns written on the row
	space   string // the spaces after the last word, not yet written
	spaceW  int
	word    []byte // the word being read, with its escapes
	wordW   int
	pending []byte // what write returns
}

// write takes a piece of text and returns what of it can be shown now.
func (w *wrapper) write(s string) string {
	width := w.width()
	if width <= 0 {
		held := w.flush()
		return held + s
	}
	for s != "" {
		if s[0] == 0x1b {
			n := frontend.EscapeLen(s)
			w.word = append(w.word, s[:n]...)
			s = s[n:]
			continue
		}
		cluster, rest, cw, _ := uniseg.FirstGraphemeClusterInString(s, -1)
		s = rest
		switch cluster {
		case "\n", "\r\n", "\r":
			w.endWord(width)
			w.space, w.spaceW = "", 0
			w.pending = append(w.pending, cluster...)
			w.col = 0
		case " ", "\t":
			w.endWord(width)
			w.space += cluster
			w.spaceW = spacesWidth(w.space, w.col)
		default:
			w.addCluster(cluster, max(cw, partsWidth(cluster)), width)
		}
	}
	out := string(w.pending)
	w.pending = w.pending[:0]
	return out
}

// addCluster adds a cluster of cw columns to the word, moving the word to
// the next row when the row cannot hold it, and cutting it when no row can.
func (w *wrapper) addCluster(cluster string, cw, width int) {
	if w.col+w.spaceW+w.wordW+cw <= width {
		w.word = append(w.word, cluster...)
		w.wordW += cw
		return
	}
	if w.col > 0 {
		// The word goes on the next row, without the spaces before it.
		w.pending = append(w.pending, '\n')
		w.col = 0
		w.space, w.spaceW = "", 0
		if w.wordW+cw <= width {
			w.word = append(w.word, cluster...)
			w.wordW += cw
			return
		}
	}
	// A word wider than a row: what fits fills it.
	if w.wordW > 0 || w.spaceW > 0 {
		w.pending = append(w.pending, w.space...)
		w.pending = append(w.pending, w.word...)
		w.pending = append(w.pending, '\n')
	}
	w.space, w.spaceW = "", 0
	w.word = append(w.word[:0], cluster...)
	w.wordW = cw
}

// endWord writes the word read so far, after its spaces, on this row or,
// when the row has shrunk under it, on the next.
func (w *wrapper) endWord(width int) {
	if len(w.word) == 0 {
		return
	}
	if w.col > 0 && w.col+w.spaceW+w.wordW > width {
		w.pending = append(w.pending, '\n')
		w.col = 0
		w.space, w.spaceW = "", 0
	}
	w.pending = append(w.pending, w.space...)
	w.pending = append(w.pending, w.word...)
	w.col += w.spaceW + w.wordW
	w.space, w.spaceW = "", 0
	w.word, w.wordW = w.word[:0], 0
}

// flush returns the word held back: the text ends (for now).
func (w *wrapper) flush() string {
	width := w.width()
	if width <= 0 {
		width = w.col + w.spaceW + w.wordW
	}
	w.endWord(width)
	out := string(w.pending)
	w.pending = w.pending[:0]
	return out
}

// reset starts a row: the caller wrote a line end itself.
func (w *wrapper) reset() {
	w.col, w.space, w.spaceW, w.word, w.wordW = 0, "", 0, w.word[:0], 0
}

// spacesWidth is the columns spaces and tabs take from column col on: a
// tab goes to the next multiple of eight.
func spacesWidth(s string, col int) int {
	end := col
	for _, r := range s {
		if r == '\t' {
			end += 8 - end%8
		} else {
			end++
		}
	}
	return end - col
}

// partsWidth is the columns the code points of cluster take one by one,
// an emoji skin tone alone two (a terminal that does not join it draws it
// as a swatch).
func partsWidth(cluster string) int {
	n := 0
	for _, r := range cluster {
		if r >= 0x1f3fb && r <= 0x1f3ff {
			n += 2
			continue
		}
		n += uniseg.StringWidth(string(r))
	}
	return n
}

// terminalWidth is the columns of the terminal w writes to (under its
// visibleWriter); 0 when w is not a terminal.
func terminalWidth(w io.Writer) int {
	f, ok := underVisible(w).(*os.File)
	if !ok {
		return 0
	}
	cols, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return cols
}

// cutWidth cuts s to at most w columns, between grapheme clusters, ending
// it with "…" when something was left out.
func cutWidth(s string, w int) string {
	if uniseg.StringWidth(s) <= w {
		return s
	}
	col, end := 0, 0
	for rest := s; rest != ""; {
		cluster, next, cw, _ := uniseg.FirstGraphemeClusterInString(rest, -1)
		cw = max(cw, partsWidth(cluster))
		if col+cw > w-1 {
			break
		}
		col += cw
		end += len(cluster)
		rest = next
	}
	return s[:end] + "…"
}
