package strictyaml

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/mm-agent/mm/internal/visible"
)

// maxExcerptRunes bounds the part of a source line an excerpt shows: a
// line of a configuration is seldom wider than a terminal, but one may
// hold a whole system prompt. A longer line is shown around the column,
// cut with "…" at either end.
const maxExcerptRunes = 100

// tabShown is how a tab of a source line is shown: visible, since a tab in
// the indentation is the commonest syntax error of a hand-written file,
// and one cell wide, so that the caret stays under its column (spaces to
// the next tab stop would hide the tab and move the caret).
const tabShown = "→"

// excerpt is what shows the syntax error msg at line:col (col 0: not
// known) of data under the message, each line indented by two spaces
// (left out here):
//
//	4 |     - command: echo a: b
//	  |                ^
//	hint: a ": " in a plain value starts a key; quote the value:
//	4 |     - command: "echo a: b"
//
// the source line made visible (showLine), a caret under the column, and
// the hint for a common cause (hintFor) with the line it points at. It is
// "" when data has no such line and no hint applies.
func excerpt(data []byte, line, col int, msg string) string {
	lines := sourceLines(data)
	h := hintFor(data, lines, line, col, msg)
	width := len(strconv.Itoa(max(line, h.line)))
	var b strings.Builder
	if line <= len(lines) {
		writeSource(&b, width, line, lines[line-1], col)
	}
	if h.text != "" {
		b.WriteString("  hint: " + h.text + "\n")
		if h.line > 0 {
			writeSource(&b, width, h.line, h.src, h.col)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// sourceLines is data's lines, without their line endings; lines[0] is
// line 1.
func sourceLines(data []byte) []string {
	// A line ends as YAML ends it, at "\r\n", "\r" or "\n": the parsers'
	// line numbers count a "\r" alone too.
	text := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(data))
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// writeSource writes line n, src, with its number right-aligned to width,
// and a caret under column col unless col is 0.
func writeSource(b *strings.Builder, width, n int, src string, col int) {
	shown, caret := showLine(src, col)
	fmt.Fprintf(b, "  %*d | %s\n", width, n, shown)
	if col > 0 {
		fmt.Fprintf(b, "  %*s | %s^\n", width, "", strings.Repeat(" ", caret))
	}
}

// showLine is src as an excerpt shows it — a tab as tabShown, a control
// character escaped as frontend.Visible escapes it (internal/visible), so
// that showing it through Visible changes nothing — cut to
// maxExcerptRunes around column col (in runes, from 1, as the parsers
// count), and the width in cells of what is shown before that column.
func showLine(src string, col int) (shown string, caret int) {
	starts := make([]int, 0, len(src)+1) // each rune's byte offset, then len(src)
	for i := range src {
		starts = append(starts, i)
	}
	n := len(starts)
	starts = append(starts, len(src))
	at := min(max(col-1, 0), n)
	from, to := 0, n
	if n > maxExcerptRunes {
		from = max(0, min(at-maxExcerptRunes/2, n-maxExcerptRunes))
		to = from + maxExcerptRunes
	}
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	caret = -1
	for i := from; i < to; i++ {
		if i == at {
			caret = uniseg.StringWidth(b.String())
		}
		r, rest := src[starts[i]:starts[i+1]], src[starts[i]:]
		c, _ := utf8.DecodeRuneInString(rest)
		switch e := visible.Escape(c, rest); {
		case c == '\t':
			b.WriteString(tabShown)
		case e != "":
			b.WriteString(e)
		default:
			b.WriteString(r)
		}
	}
	if caret < 0 { // at the end of the line, or past what is shown
		caret = uniseg.StringWidth(b.String())
	}
	if to < n {
		b.WriteString("…")
	}
	return b.String(), caret
}

// oneLine is a parser's message on one line with no character a terminal
// would act on: "found character '\t'" reads "found a tab character", any
// other tab, line break or control character is escaped.
func oneLine(msg string) string {
	msg = strings.ReplaceAll(msg, "character '\t'", "a tab character")
	var b strings.Builder
	for i, r := range msg {
		switch e := visible.Escape(r, msg[i:]); {
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case e != "":
			b.WriteString(e)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
