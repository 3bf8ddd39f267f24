package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// inline renders line[from:], the inline content of a line, in the style
// base: emphasis (* and _, one to three), strikethrough (~~), code spans,
// links and backslash escapes. complete says the line has ended; before
// then, rendering stops at a construct that may still close, and n is
// where it stopped (the next call goes on from there).
func inline(line string, from int, complete bool, base Style) (spans []Span, n int) {
	plain := func(to int) {
		if to > from {
			spans = append(spans, Span{Text: line[from:to], Style: base})
		}
	}
	i := from
	for i < len(line) {
		c := line[i]
		switch c {
		case '\\':
			if i+1 == len(line) {
				if !complete {
					plain(i)
					return spans, i
				}
				i++
				continue
			}
			if isPunct(line[i+1]) {
				plain(i)
				spans = append(spans, Span{Text: line[i+1 : i+2], Style: base})
				i += 2
				from = i
				continue
			}
			i++
		case '`', '*', '_', '~', '[':
			got, end, wait := construct(line, i, complete, base)
			if wait {
				plain(i)
				return spans, i
			}
			if got == nil {
				// Not a construct: the run of c is text.
				i += run(line[i:], c)
				continue
			}
			plain(i)
			spans = append(spans, got...)
			i, from = end, end
		default:
			i++
		}
	}
	plain(i)
	return spans, i
}

// construct renders the construct that starts at line[i], and returns
// where it ends; nil when there is none, wait when the line may still
// make one.
func construct(line string, i int, complete bool, base Style) (spans []Span, end int, wait bool) {
	c := line[i]
	n := run(line[i:], c)
	if i+n == len(line) && !complete {
		return nil, 0, true
	}
	if c == '[' {
		return link(line, i, complete, base)
	}
	if c == '`' {
		j, wait := closing(line, i+n, c, n, complete, func(int) bool { return true })
		if j < 0 {
			return nil, 0, wait
		}
		code := line[i+n : j]
		if len(code) > 1 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
			code = code[1 : len(code)-1]
		}
		return []Span{{Text: code, Style: styleCode}}, j + n, false
	}
	if c == '~' && n != 2 || n > 3 || !opens(line, i, n) {
		return nil, 0, false
	}
	j, wait := closing(line, i+n, c, n, complete, func(j int) bool { return closes(line, j, n) })
	if j < 0 {
		return nil, 0, wait
	}
	st := base
	switch {
	case c == '~':
		st = st.with(Strike)
	case n == 1:
		st = st.with(Italic)
	case n == 2:
		st = st.with(Bold)
	default:
		st = st.with(Bold | Italic)
	}
	inner, _ := inline(line[:j], i+n, true, st)
	return inner, j + n, false
}

// maxSpan bounds how far a closing delimiter is looked for: an emphasis,
// a code span or a link longer than this is taken as text. Without it a
// long line of openers that never close costs time quadratic in the line.
const maxSpan = 1024

// closing finds the first run of exactly n c at or after from that ok
// accepts: its index, or -1 and whether a later character may still make
// one (the line is not complete).
func closing(line string, from int, c byte, n int, complete bool, ok func(int) bool) (int, bool) {
	if len(line) > from+maxSpan {
		line, complete = line[:from+maxSpan], true
	}
	for j := from; j < len(line); {
		if line[j] != c {
			j++
			continue
		}
		m := run(line[j:], c)
		if j+m == len(line) && !complete {
			return -1, true // its length, and what follows it, are not known yet
		}
		if m == n && ok(j) {
			return j, false
		}
		j += m
	}
	return -1, !complete
}

// opens says the run of n delimiters at line[i] can open an emphasis: a
// character other than a space follows, and a _ does not stand inside a
// word.
func opens(line string, i, n int) bool {
	if i+n >= len(line) || line[i+n] == ' ' || line[i+n] == '\t' {
		return false
	}
	if line[i] == '_' && i > 0 {
		r, _ := utf8.DecodeLastRuneInString(line[:i])
		return !isWord(r)
	}
	return true
}

// closes says the run of n delimiters at line[j] can close an emphasis: a
// character other than a space precedes it, and a _ does not stand inside
// a word.
func closes(line string, j, n int) bool {
	if line[j-1] == ' ' || line[j-1] == '\t' {
		return false
	}
	if line[j] == '_' && j+n < len(line) {
		r, _ := utf8.DecodeRuneInString(line[j+n:])
		return !isWord(r)
	}
	return true
}

// link renders [text](url) at line[i]: the text underlined, then the
// address dim when it is not the text itself.
func link(line string, i int, complete bool, base Style) (spans []Span, end int, wait bool) {
	if len(line) > i+maxSpan {
		line, complete = line[:i+maxSpan], true
	}
	close := strings.IndexByte(line[i+1:], ']')
	if close < 0 {
		return nil, 0, !complete
	}
	close += i + 1
	if close+1 == len(line) {
		return nil, 0, !complete
	}
	if line[close+1] != '(' {
		return nil, 0, false
	}
	paren := strings.IndexByte(line[close+2:], ')')
	if paren < 0 {
		return nil, 0, !complete
	}
	url := line[close+2 : close+2+paren]
	text := line[i+1 : close]
	st := base
	st.Attr |= styleLink.Attr
	st.Color = styleLink.Color
	spans, _ = inline(text, 0, true, st)
	if url != "" && url != text {
		spans = append(spans, Span{Text: " (" + url + ")", Style: styleDim})
	}
	return spans, close + 3 + paren, false
}

// isPunct says c is ASCII punctuation, which a backslash escapes.
func isPunct(c byte) bool {
	return c < 0x80 && unicode.IsPunct(rune(c)) || c < 0x80 && unicode.IsSymbol(rune(c))
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
