// Package markdown renders an answer written in Markdown for a terminal as
// it streams: headings, emphasis, inline code, links, lists, block quotes,
// rules, tables and fenced code blocks with their syntax highlighted.
//
// It renders each piece of an answer as soon as what it means is known:
// plain text at once, an emphasis or a code span when it closes, a line's
// kind (heading, list item, fence…) when its first characters arrive, a
// code line when it ends, a table when its last row does. A construct that
// never closes on its line is shown as it was written. However the answer
// is cut into pieces, the output is the same.
//
// Text from the model is made visible (by the function given to NewStream,
// frontend.Visible) before any of the renderer's own escapes are added, so
// that a model can never write an escape of its own. The package has no initialisers: nothing of it runs
// at mm's start.
package markdown

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Attr is a set of text attributes.
type Attr uint8

// Text attributes.
const (
	Bold Attr = 1 << iota
	Dim
	Italic
	Underline
	Strike
)

// Colours: SGR foreground codes of the terminal's own palette, so that
// they follow its theme.
const (
	Default = 0
	Red     = 31
	Green   = 32
	Yellow  = 33
	Blue    = 34
	Magenta = 35
	Cyan    = 36
	Grey    = 90
)

// Style is how a span is drawn: attributes and a foreground colour.
type Style struct {
	Attr  Attr
	Color uint8
}

// with is s with the attributes a added.
func (s Style) with(a Attr) Style { s.Attr |= a; return s }

// SGR is the Select Graphic Rendition sequence that sets s; "" for the
// plain style.
func (s Style) SGR() string {
	if s == (Style{}) {
		return ""
	}
	var codes []string
	for i, a := range []Attr{Bold, Dim, Italic, Underline, Strike} {
		if s.Attr&a != 0 {
			codes = append(codes, strconv.Itoa([]int{1, 2, 3, 4, 9}[i]))
		}
	}
	if s.Color != Default {
		codes = append(codes, strconv.Itoa(int(s.Color)))
	}
	return "\x1b[" + strings.Join(codes, ";") + "m"
}

// Span is a run of text in one style. Its text is visible (no control
// characters but newline and tab); a newline is always a span of its own.
type Span struct {
	Text  string
	Style Style
}

// ANSI writes spans for a terminal: each styled span between its SGR
// sequence and a reset.
func ANSI(spans []Span) string {
	var b strings.Builder
	for _, sp := range spans {
		if sgr := sp.Style.SGR(); sgr != "" {
			b.WriteString(sgr + sp.Text + "\x1b[0m")
			continue
		}
		b.WriteString(sp.Text)
	}
	return b.String()
}

// Styles of the parts of an answer.
var (
	styleCode   = Style{Color: Cyan}
	styleMarker = Style{Color: Cyan}
	styleLink   = Style{Attr: Underline, Color: Blue}
	styleDim    = Style{Attr: Dim}
	styleQuote  = Style{Attr: Italic}
)

// ruleWidth is the length of a thematic break: the renderer does not know
// the terminal's width, and a short rule reads as one in any of them.
const ruleWidth = 40

// kind is what a line is, once its first characters are known.
type kind uint8

const (
	kindUnknown   kind = iota
	kindText           // a paragraph, a heading, a list item, a quote: inline content
	kindFenceBody      // a line inside a fenced code block
	kindTable          // a table row, held until the table ends
	kindDone           // rendered whole (blank line, rule, fence line)
)

// Stream renders one answer as its pieces arrive.
type Stream struct {
	// visible makes the model's text safe to show.
	visible func(string) string

	// line is the raw text of the current line so far, without its newline;
	// done is how much of it was rendered.
	line string
	done int
	kind kind
	base Style // the style of the line's inline content

	fence *fence   // the open fenced code block, if any
	table []string // the rows held of the table being read

	out []Span
}

// fence is an open fenced code block.
type fence struct {
	char  byte
	n     int
	lexer *lexer // nil when the language is not known
	state lexState
}

// NewStream starts rendering an answer; visible makes a text from the
// model safe to show on a terminal (frontend.Visible) and is applied to
// every text before it is styled.
func NewStream(visible func(string) string) *Stream {
	return &Stream{visible: visible}
}

// Write renders piece and returns what can be shown of it now.
func (s *Stream) Write(piece string) []Span {
	for piece != "" {
		nl := strings.IndexByte(piece, '\n')
		if nl < 0 {
			s.line += piece
			s.step(false)
			break
		}
		s.line += piece[:nl]
		piece = piece[nl+1:]
		s.step(true)
		s.endLine(true)
	}
	return s.take()
}

// Close renders what is left: a construct still open is shown as written.
func (s *Stream) Close() []Span {
	if s.line != "" {
		s.step(true)
		s.endLine(false)
	}
	s.flushTable()
	return s.take()
}

func (s *Stream) take() []Span {
	out := s.out
	s.out = nil
	return out
}

func (s *Stream) emit(text string, st Style) {
	if text == "" {
		return
	}
	s.out = append(s.out, Span{Text: s.visible(text), Style: st})
}

// endLine closes the current line, with its newline when it had one.
func (s *Stream) endLine(newline bool) {
	if newline && s.kind != kindTable {
		s.out = append(s.out, Span{Text: "\n"})
	}
	s.line, s.done, s.kind, s.base = "", 0, kindUnknown, Style{}
}

// step renders what can be rendered of the current line; complete says
// the line has ended.
func (s *Stream) step(complete bool) {
	line := s.line
	if complete {
		line = strings.TrimSuffix(line, "\r")
	} else {
		line = wholeRunes(line)
	}
	if s.kind == kindUnknown {
		if !s.classify(line, complete) {
			return
		}
	}
	switch s.kind {
	case kindText:
		spans, n := inline(line, s.done, complete, s.base)
		for _, sp := range spans {
			s.emit(sp.Text, sp.Style)
		}
		s.done = n
	case kindFenceBody:
		if complete {
			s.fenceLine(line)
		}
	case kindTable:
		if complete {
			s.table = append(s.table, line)
		}
	}
}

// wholeRunes is s without a rune cut at its end, nor a carriage return
// that a newline may follow.
func wholeRunes(s string) string {
	for i := 1; i <= utf8.UTFMax && i <= len(s); i++ {
		if utf8.RuneStart(s[len(s)-i]) {
			if !utf8.FullRuneInString(s[len(s)-i:]) {
				s = s[:len(s)-i]
			}
			break
		}
	}
	return strings.TrimSuffix(s, "\r")
}

// classify decides what the line is from its first characters, renders
// its head (a list marker, a heading's level…) and says whether it could;
// it cannot before enough of the line has arrived.
func (s *Stream) classify(line string, complete bool) bool {
	if s.fence != nil {
		s.kind = kindFenceBody
		return true
	}
	indent := len(line) - len(strings.TrimLeft(line, " "))
	rest := line[indent:]
	if rest == "" {
		if !complete {
			return false
		}
		s.flushTable()
		s.kind = kindDone
		return true
	}
	if rest[0] == '|' {
		if !complete {
			return false
		}
		s.kind = kindTable
		return true
	}
	k, head, ok := lineHead(rest, complete)
	if !ok {
		return false
	}
	s.flushTable()
	lead := line[:indent]
	switch k {
	case headFence:
		n := run(rest, rest[0])
		s.fence = &fence{char: rest[0], n: n, lexer: lexerFor(strings.TrimSpace(rest[n:]))}
		s.emit(line, styleDim)
		s.kind = kindDone
	case headRule:
		s.emit(lead+strings.Repeat("─", ruleWidth), styleDim)
		s.kind = kindDone
	case headHeading:
		level := run(rest, '#')
		s.base = Style{Attr: Bold, Color: Magenta}
		if level == 1 {
			s.base = s.base.with(Underline)
		}
		s.emit(lead, Style{})
		s.kind, s.done = kindText, indent+head
	case headBullet:
		s.emit(lead, Style{})
		s.emit("•", styleMarker)
		s.emit(rest[1:head], Style{})
		s.kind, s.done = kindText, indent+head
	case headOrdered:
		s.emit(lead, Style{})
		s.emit(strings.TrimRight(rest[:head], " "), styleMarker)
		s.emit(rest[strings.IndexAny(rest, ".)")+1:head], Style{})
		s.kind, s.done = kindText, indent+head
	case headQuote:
		s.emit(lead, Style{})
		s.emit("│ ", styleDim)
		s.base = styleQuote
		s.kind, s.done = kindText, indent+head
	default:
		s.kind, s.done = kindText, 0
	}
	return true
}

// Kinds of line heads.
const (
	headText = iota
	headFence
	headRule
	headHeading
	headBullet
	headOrdered
	headQuote
)

// lineHead reads the head of a line's text after its indentation: what
// kind of line it is and where its content starts; ok is false while the
// characters that tell have not all arrived.
func lineHead(rest string, complete bool) (k, content int, ok bool) {
	c := rest[0]
	switch {
	case c == '#':
		n := run(rest, '#')
		switch {
		case n == len(rest) && !complete:
			return 0, 0, false
		case n <= 6 && n == len(rest):
			return headHeading, n, true
		case n <= 6 && rest[n] == ' ':
			return headHeading, n + 1, true
		}
	case c == '`' || c == '~':
		n := run(rest, c)
		if n >= 3 {
			if !complete {
				return 0, 0, false
			}
			if c == '~' || !strings.Contains(rest[n:], "`") {
				return headFence, len(rest), true
			}
		} else if n == len(rest) && !complete {
			return 0, 0, false
		}
	case c == '-' || c == '*' || c == '_' || c == '+':
		if strings.Trim(rest, string(c)+" ") == "" {
			// Only the marker and spaces so far: a rule or a list item.
			if !complete {
				return 0, 0, false
			}
			if c != '+' && strings.Count(rest, string(c)) >= 3 {
				return headRule, len(rest), true
			}
		}
		if c != '_' && len(rest) >= 2 && rest[1] == ' ' {
			return headBullet, 2, true
		}
	case c >= '0' && c <= '9':
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		switch {
		case n+2 > len(rest) && !complete:
			return 0, 0, false
		case n <= 9 && n+1 < len(rest) && (rest[n] == '.' || rest[n] == ')') && rest[n+1] == ' ':
			return headOrdered, n + 2, true
		}
	case c == '>':
		switch {
		case len(rest) == 1 && !complete:
			return 0, 0, false
		case len(rest) > 1 && rest[1] == ' ':
			return headQuote, 2, true
		}
		return headQuote, 1, true
	}
	return headText, 0, true
}

// run is the number of c that s starts with.
func run(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// fenceLine renders a whole line inside a fenced code block: the closing
// fence dim, any other line highlighted.
func (s *Stream) fenceLine(line string) {
	f := s.fence
	if t := strings.TrimLeft(line, " "); len(line)-len(t) < 4 && run(t, f.char) >= f.n && strings.TrimSpace(t[run(t, f.char):]) == "" {
		s.emit(line, styleDim)
		s.fence = nil
		return
	}
	if f.lexer == nil {
		s.emit(line, Style{})
		return
	}
	for _, sp := range f.lexer.line(line, &f.state) {
		s.emit(sp.Text, sp.Style)
	}
}
