package frontend

import (
	"strings"
	"unicode/utf8"

	"github.com/mm-agent/mm/internal/visible"
)

// Visible makes text from a model, a tool, an MCP server or an asked agent
// safe to show on a terminal: every control character but newline and tab
// — C0, DEL, C1 — and the Unicode bidi controls, which reorder what a
// person reads, are written out as escapes ("\x1b", "\u202e") instead of
// being interpreted, and so is a byte that is not UTF-8. A carriage return
// before a newline goes quietly; anywhere else it could rewrite a line,
// and shows as "\r". Text that needs none of this is returned as it is.
// The escapes are internal/visible's.
//
// Every front end that draws on a terminal shows such text through it.
func Visible(s string) string {
	if !needsEscape(s) {
		return s
	}
	return string(appendVisible(nil, s))
}

// VisibleLine is Visible for text shown on one line, or in one cell of a
// table — a name, a folder, an id: a line break and a tab are written out
// too ("\n", "\t"), so that the text cannot forge a line of its own.
func VisibleLine(s string) string {
	return Visible(lineBreaks.Replace(s))
}

var lineBreaks = strings.NewReplacer("\n", `\n`, "\t", `\t`)

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f {
			return needsEscapeSlow(s[i:])
		}
	}
	return false
}

// needsEscapeSlow looks at s rune by rune: most bytes over 0x7f are of
// ordinary letters.
func needsEscapeSlow(s string) bool {
	for i, r := range s {
		if visible.Escape(r, s[i:]) != "" {
			return true
		}
	}
	return false
}

// appendVisible appends s, made visible, to dst.
func appendVisible(dst []byte, s string) []byte {
	for i, r := range s {
		if e := visible.Escape(r, s[i:]); e != "" {
			if r == '\r' && strings.HasPrefix(s[i:], "\r\n") {
				continue // a line ending, not an overwrite
			}
			dst = append(dst, e...)
			continue
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}
