package strictyaml

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"
)

// hint is what an excerpt says of a syntax error's likely cause, and the
// line it shows with it: the error's line as the fix would have it, or the
// line where the cause is.
type hint struct {
	text string // "" for none
	line int    // 0: no line
	src  string
	col  int // 0: no caret
}

// hintFor is the hint for the syntax error msg (the parser's words) at
// line:col of data, when its cause is a common one: a control character,
// a tab in the indentation, a quote that is not closed where it was meant
// to be, a ": " in a plain value. The zero hint otherwise.
func hintFor(data []byte, lines []string, line, col int, msg string) hint {
	src := ""
	if line <= len(lines) {
		src = lines[line-1]
	}
	switch {
	case msg == controlMessage && col > 0 && col <= len([]rune(src)):
		shown, _ := showLine(string([]rune(src)[col-1]), 0)
		return hint{text: "remove the control character " + shown + ": YAML allows none but tab and line breaks"}
	case strings.Contains(src[:len(src)-len(strings.TrimLeft(src, " \t"))], "\t"):
		return hint{text: "indent with spaces: YAML does not allow a tab in the indentation (" + tabShown + " is a tab)"}
	}
	if h, ok := quoteHint(data, lines, line, col); ok {
		return h
	}
	if h, ok := colonHint(data, src, line, col, msg); ok {
		return h
	}
	return hint{}
}

// quoteHint finds a quote that does not close where it was meant to: one
// never closed, opened before the error, or one that opens on an earlier
// line and closes on the error's, having taken in the lines between — the
// parser trips just after it. Either is said with where it opened, that
// line shown when it is not the error's.
func quoteHint(data []byte, lines []string, line, col int) (h hint, ok bool) {
	defer func() {
		// goccy's scanner reads untrusted input: a panic in it loses the
		// hint, not mm.
		if recover() != nil {
			h, ok = hint{}, false
		}
	}()
	for _, tk := range lexer.Tokenize(string(data)) {
		p := tk.Position
		if p == nil || p.Line < 1 || p.Line > len(lines) || p.Line > line || p.Line == line && p.Column > col {
			continue
		}
		var text string
		switch {
		case tk.Type == token.InvalidType && strings.HasPrefix(tk.Error, "could not find end character of"):
			q := quoteMark(tk.Error)
			text = fmt.Sprintf("the quote (%s) opened at %d:%d is never closed: end the value with %s", q, p.Line, p.Column, q)
		case tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType:
			body := strings.TrimRight(tk.Origin, " \t\r\n")
			if p.Line+strings.Count(body, "\n") != line || p.Line == line {
				continue
			}
			q := `"`
			if tk.Type == token.SingleQuoteType {
				q = "'"
			}
			closed := len([]rune(body[strings.LastIndex(body, "\n")+1:]))
			text = fmt.Sprintf("the quote (%s) opened at %d:%d is closed only at %d:%d: end the value with %s on line %d", q, p.Line, p.Column, line, closed, q, p.Line)
		default:
			continue
		}
		h = hint{text: text}
		if p.Line != line {
			h.line, h.src, h.col = p.Line, lines[p.Line-1], p.Column
		}
		return h, true
	}
	return hint{}, false
}

// quoteMark is the quote a goccy "could not find end character of
// double-quoted text" error is about.
func quoteMark(msg string) string {
	if strings.Contains(msg, "single-quoted") {
		return "'"
	}
	return `"`
}

// colonHint is for "mapping value is not allowed" at a plain value that
// holds ": " — `command: echo a: b`, which YAML reads as a key "echo a"
// inside a value: the line as it reads with the value quoted, when that
// gets the parser past the line.
func colonHint(data []byte, src string, line, col int, msg string) (hint, bool) {
	runes := []rune(src)
	if !strings.HasPrefix(msg, "mapping value is not allowed") || col < 2 || col > len(runes) {
		return hint{}, false
	}
	before, value := string(runes[:col-1]), string(runes[col-1:])
	comment := ""
	if i := strings.Index(value, " #"); i >= 0 {
		value, comment = value[:i], value[i:]
	}
	trimmed := strings.TrimRight(value, " \t")
	comment = value[len(trimmed):] + comment
	if !strings.HasSuffix(strings.TrimRight(before, " "), ":") || trimmed == "" ||
		strings.ContainsAny(trimmed[:1], "\"'[]{}|>&*!%@`#") || !strings.Contains(trimmed+" ", ": ") {
		return hint{}, false
	}
	fixed := before + quoted(trimmed) + comment
	if at, _, _, found := locate(withLine(data, line, fixed)); found && at == line {
		return hint{}, false
	}
	const text = `a ": " in a plain value starts a key; quote the value`
	if utf8.RuneCountInString(fixed) > maxExcerptRunes {
		return hint{text: text}, true // cut, the line would not show the quotes
	}
	return hint{text: text + ":", line: line, src: fixed}, true
}

// quoted is the plain value v as a quoted one: in double quotes, or single
// ones when v holds a double quote or a backslash, or escaped when it holds
// both kinds of quote.
func quoted(v string) string {
	switch {
	case !strings.ContainsAny(v, "\"\\"):
		return `"` + v + `"`
	case !strings.Contains(v, "'"):
		return "'" + v + "'"
	}
	return strconv.Quote(v)
}

// withLine is data with its line n replaced by src, its lines as
// sourceLines has them (each line break a "\n"); data itself when it has
// no line n.
func withLine(data []byte, n int, src string) []byte {
	lines := sourceLines(data)
	if n < 1 || n > len(lines) {
		return data
	}
	lines[n-1] = src
	text := strings.Join(lines, "\n")
	if bytes.HasSuffix(data, []byte("\n")) || bytes.HasSuffix(data, []byte("\r")) {
		text += "\n"
	}
	return []byte(text)
}
