package tui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mm-agent/mm/frontend"
)

// runeWidth is the number of terminal columns r takes: 0 for combining
// marks, zero-width spaces and joiners and variation selectors, 2 for East
// Asian wide and fullwidth characters and for emoji drawn as pictures (🤖,
// 🪝, 🔧, ⛔), 1 for everything else (⚙, ⚠, ✗ and other symbols drawn as
// text). It is a heuristic over Unicode blocks, not the full East Asian
// Width table: good for the text mm shows, wrong by a column for a few rare
// symbols.
func runeWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case r == 0x200B, r == 0x200C, r == 0x200D, r == 0x2060,
		r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF:
		return 0
	case unicode.In(r, unicode.Mn, unicode.Me):
		return 0
	case wide(r):
		return 2
	}
	return 1
}

// wide reports the characters drawn two columns wide: CJK, Hangul,
// fullwidth forms, and emoji with an emoji presentation.
func wide(r rune) bool {
	switch {
	case r >= 0x1100 && r <= 0x115F,
		// Symbols of the BMP that are emoji by default.
		r == 0x231A, r == 0x231B, r == 0x2329, r == 0x232A,
		r >= 0x23E9 && r <= 0x23EC, r == 0x23F0, r == 0x23F3,
		r == 0x25FD, r == 0x25FE, r == 0x2614, r == 0x2615,
		r >= 0x2648 && r <= 0x2653, r == 0x267F, r == 0x2693, r == 0x26A1,
		r == 0x26AA, r == 0x26AB, r == 0x26BD, r == 0x26BE, r == 0x26C4, r == 0x26C5,
		r == 0x26CE, r == 0x26D4, r == 0x26EA, r == 0x26F2, r == 0x26F3, r == 0x26F5,
		r == 0x26FA, r == 0x26FD, r == 0x2705, r == 0x270A, r == 0x270B, r == 0x2728,
		r == 0x274C, r == 0x274E, r >= 0x2753 && r <= 0x2755, r == 0x2757,
		r >= 0x2795 && r <= 0x2797, r == 0x27B0, r == 0x27BF,
		r == 0x2B1B, r == 0x2B1C, r == 0x2B50, r == 0x2B55,
		// CJK, kana, Hangul syllables, fullwidth forms.
		r >= 0x2E80 && r <= 0x303E, r >= 0x3041 && r <= 0x33FF,
		r >= 0x3400 && r <= 0x4DBF, r >= 0x4E00 && r <= 0x9FFF,
		r >= 0xA000 && r <= 0xA4CF, r >= 0xA960 && r <= 0xA97F,
		r >= 0xAC00 && r <= 0xD7A3, r >= 0xF900 && r <= 0xFAFF,
		r >= 0xFE10 && r <= 0xFE19, r >= 0xFE30 && r <= 0xFE6F,
		r >= 0xFF00 && r <= 0xFF60, r >= 0xFFE0 && r <= 0xFFE6,
		// The emoji planes' blocks.
		r == 0x1F004, r == 0x1F0CF, r == 0x1F18E, r >= 0x1F191 && r <= 0x1F19A,
		r >= 0x1F200 && r <= 0x1F2FF, r >= 0x1F300 && r <= 0x1F64F,
		r >= 0x1F680 && r <= 0x1F6FF, r >= 0x1F7E0 && r <= 0x1F7EB,
		r >= 0x1F900 && r <= 0x1F9FF, r >= 0x1FA70 && r <= 0x1FAFF,
		r >= 0x20000 && r <= 0x2FFFD, r >= 0x30000 && r <= 0x3FFFD:
		return true
	}
	return false
}

// stringWidth is the number of columns s takes.
func stringWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

// cut returns the longest head of s that fits in w columns.
func cut(s string, w int) string {
	col := 0
	for i, r := range s {
		col += runeWidth(r)
		if col > w {
			return s[:i]
		}
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
// space when there is one after the leading spaces, and the rest.
func fit(s string, w int) (head, rest string) {
	col, brk, text := 0, -1, false
	for i, r := range s {
		rw := runeWidth(r)
		if col+rw > w {
			switch {
			case r == ' ' && text:
				return strings.TrimRight(s[:i], " "), s[i:]
			case brk > 0:
				return strings.TrimRight(s[:brk], " "), s[brk:]
			case i == 0:
				// One character wider than the row: it goes alone.
				_, size := utf8.DecodeRuneInString(s)
				return s[:size], s[size:]
			}
			return s[:i], s[i:]
		}
		if r == ' ' {
			if text {
				brk = i
			}
		} else {
			text = true
		}
		col += rw
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
