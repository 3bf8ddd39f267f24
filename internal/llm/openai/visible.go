package openai

import (
	"strings"
	"unicode/utf8"

	"github.com/mm-agent/mm/internal/visible"
)

// visibleName is a name a server gave (a model's id) as mm shows it: on
// one line, each character that must not reach a terminal as itself —
// a control character, a bidi control, a byte that is not UTF-8 — written
// out as the front ends write it (internal/visible), a line break or a
// tab as \n or \t.
func visibleName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch e := visible.Escape(r, s[i:]); {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case e != "":
			b.WriteString(e)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
