package tui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/mm-agent/mm/internal/frontend"
)

// stringWidth is the number of terminal columns s takes, counted by
// grapheme cluster (what a terminal draws as one character): a letter with
// its combining marks is one column, an emoji with a skin-tone modifier
// (👍🏽), a ZWJ sequence (a family) or a text symbol with the emoji
// variation selector (⚙️) two, East Asian wide and fullwidth characters
// two, the symbol without the selector (⚙) one.
func stringWidth(s string) int {
	return uniseg.StringWidth(s)
}

// cut returns the longest head of s that fits in w columns, whole grapheme
// clusters only.
func cut(s string, w int) string {
	col, end, state := 0, 0, -1
	for rest := s; rest != ""; {
		var cluster string
		var cw int
		cluster, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if col+cw > w {
			return s[:end]
		}
		col += cw
		end += len(cluster)
	}
	return s
}

// cutEllipsis cuts s to w columns, ending it with "…" when something was
// left out.
func cutEllipsis(s string, w int) string {
	if stringWidth(s) <= w {
		return s
	}
	if w < 1 {
		return ""
	}
	return cut(s, w-1) + "…"
}

// wrap breaks a line without newlines into rows of at most width columns,
// at spaces when it can and inside a word when a word is longer than a row.
// Every row after the first starts with hang (a hanging indent); the spaces
// a row was broken at are dropped, and a line's leading spaces are kept.
func wrap(s string, width int, hang string) []string {
	if width < 1 {
		width = 1
	}
	hw := stringWidth(hang)
	if hw >= width {
		hang, hw = "", 0
	}
	var rows []string
	prefix, avail := "", width
	for {
		head, rest := fit(s, avail)
		rows = append(rows, prefix+head)
		s = strings.TrimLeft(rest, " ")
		if s == "" {
			return rows
		}
		prefix, avail = hang, width-hw
	}
}

// fit splits s into the longest head that fits in w columns, ending at a
// space when there is one after the leading spaces, and the rest. It cuts
// between grapheme clusters only.
func fit(s string, w int) (head, rest string) {
	col, brk, text, i, state := 0, -1, false, 0, -1
	for tail := s; tail != ""; {
		cluster, next, cw, st := uniseg.FirstGraphemeClusterInString(tail, state)
		if col+cw > w {
			switch {
			case cluster == " " && text:
				return strings.TrimRight(s[:i], " "), s[i:]
			case brk > 0:
				return strings.TrimRight(s[:brk], " "), s[brk:]
			case i == 0:
				// One character wider than the row: it goes alone.
				return cluster, next
			}
			return s[:i], s[i:]
		}
		if cluster == " " {
			if text {
				brk = i
			}
		} else {
			text = true
		}
		col += cw
		i += len(cluster)
		tail, state = next, st
	}
	return s, ""
}

// sanitize makes text from a model or a tool safe to draw: control
// characters are made visible as everywhere (frontend.Visible), and tabs
// become four spaces, so that widths can be counted. Newlines are kept for
// the caller to split on.
func sanitize(s string) string {
	return strings.ReplaceAll(frontend.Visible(s), "\t", "    ")
}

// pin makes a row drawn from column 1 put every character where
// stringWidth says it is, whatever width the terminal gives a cluster of
// several code points: after each such cluster (a family, a flag, a skin
// tone, a letter with its marks) it moves the cursor to the column the
// row counts for what follows. Terminals disagree on these clusters (tmux
// 3.3 draws a thumbs-up with a skin tone as two pictures, four columns);
// without the move every letter after one is drawn that much further on,
// and the row's last ones fall off its end. A terminal that draws the
// cluster wider has it overwritten by what follows; one that draws it
// narrower leaves a blank. Escape sequences in the row take no column.
func pin(row string) string {
	var b strings.Builder
	col, pinned := 0, false
	for rest := row; rest != ""; {
		if rest[0] == 0x1b {
			n := frontend.EscapeLen(rest)
			b.WriteString(rest[:n])
			rest = rest[n:]
			continue
		}
		cluster, next, cw, _ := uniseg.FirstGraphemeClusterInString(rest, -1)
		b.WriteString(cluster)
		col += cw
		rest = next
		if utf8.RuneCountInString(cluster) > 1 {
			fmt.Fprintf(&b, "\x1b[%dG", col+1)
			pinned = true
		}
	}
	if !pinned {
		return row
	}
	return b.String()
}
