// Package visible holds how a character that must not reach a terminal as
// itself is written out instead: the one set of escapes behind
// frontend.Visible, and behind the source lines a YAML syntax error shows
// (internal/strictyaml), which must look the same.
package visible

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape is how r, which starts rest, is shown when it is not shown as
// itself; "" when it is. Newline and tab are shown as themselves (a caller
// that keeps text on one line writes them out); a carriage return is "\r";
// every other control character — C0, DEL, C1 — is "\x1b" or "\u0085";
// a Unicode bidi control, which reorders what a person reads, "\u202e";
// a byte that is not UTF-8, "\xff".
func Escape(r rune, rest string) string {
	switch {
	case r == '\n' || r == '\t':
		return ""
	case r == '\r':
		return `\r`
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r)
	case r == utf8.RuneError && len(rest) > 0 && !strings.HasPrefix(rest, "\uFFFD"):
		return fmt.Sprintf(`\x%02x`, rest[0]) // a byte that is not UTF-8
	case r >= 0x80 && r < 0xa0, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return ""
}
