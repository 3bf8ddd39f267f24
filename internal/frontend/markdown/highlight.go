package markdown

import (
	"slices"
	"strings"
)

// Styles of code tokens.
var (
	styleKeyword = Style{Color: Magenta}
	styleString  = Style{Color: Green}
	styleComment = Style{Attr: Italic, Color: Grey}
	styleNumber  = Style{Color: Cyan}
	styleLiteral = Style{Color: Yellow}
)

// lexer highlights the code of one family of languages, a line at a time:
// keywords, literals, strings, comments and numbers. It is a small
// highlighter of its own: chroma's lexers package registers its 270
// lexers when mm starts (about 7 ms and 2.7 MB, more than the rest of mm's
// initialisers together), and mm -p would pay for it at every start.
type lexer struct {
	keywords, literals []string
	// lineComment starts a comment to the end of the line; blockOpen and
	// blockClose wrap one that may span lines.
	lineComment           []string
	blockOpen, blockClose string
	// quotes are the string delimiters; multiline those whose strings may
	// span lines (Go's and JavaScript's backquote, Python's triple quotes).
	quotes    string
	multiline []string
}

// lexState is what a line leaves open for the next one: a block comment or
// a string that spans lines.
type lexState struct {
	comment bool
	str     string // the closing delimiter of the open string
}

// lexerFor is the lexer of a fenced block's language (its info string's
// first word), nil for a language it does not know.
func lexerFor(info string) *lexer {
	lang, _, _ := strings.Cut(strings.ToLower(info), " ")
	cLike := func(keywords ...string) *lexer {
		return &lexer{keywords: keywords, literals: []string{"true", "false", "null", "nil", "NULL", "nullptr", "undefined", "this", "self"},
			lineComment: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: `"'`}
	}
	switch lang {
	case "go", "golang":
		l := cLike("break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct", "switch", "type", "var")
		l.quotes, l.multiline = "\"'`", []string{"`"}
		return l
	case "js", "javascript", "jsx", "ts", "typescript", "tsx", "mjs":
		l := cLike("async", "await", "break", "case", "catch", "class", "const", "continue", "default", "delete", "do", "else", "export", "extends", "finally", "for", "from", "function", "if", "import", "in", "instanceof", "interface", "let", "new", "of", "return", "switch", "throw", "try", "type", "typeof", "var", "void", "while", "yield")
		l.quotes, l.multiline = "\"'`", []string{"`"}
		return l
	case "rust", "rs":
		return cLike("as", "async", "await", "break", "const", "continue", "crate", "else", "enum", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static", "struct", "trait", "type", "unsafe", "use", "where", "while")
	case "c", "h", "cpp", "c++", "cc", "hpp", "java", "kotlin", "kt", "cs", "csharp", "swift":
		return cLike("auto", "break", "case", "catch", "class", "const", "continue", "default", "do", "else", "enum", "extern", "final", "for", "fun", "func", "if", "import", "include", "namespace", "new", "package", "private", "protected", "public", "return", "static", "struct", "switch", "template", "throw", "try", "typedef", "union", "using", "val", "var", "virtual", "void", "volatile", "while")
	case "python", "py", "python3":
		return &lexer{keywords: []string{"and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"},
			literals: []string{"True", "False", "None", "self"}, lineComment: []string{"#"}, quotes: `"'`, multiline: []string{`"""`, `'''`}}
	case "sh", "bash", "shell", "zsh", "console", "shellsession":
		return &lexer{keywords: []string{"case", "do", "done", "elif", "else", "esac", "export", "fi", "for", "function", "if", "in", "local", "return", "then", "until", "while"},
			lineComment: []string{"#"}, quotes: `"'`}
	case "json", "jsonc":
		return &lexer{literals: []string{"true", "false", "null"}, lineComment: []string{"//"}, quotes: `"`}
	case "yaml", "yml":
		return &lexer{literals: []string{"true", "false", "null", "yes", "no", "on", "off", "~"}, lineComment: []string{"#"}, quotes: `"'`}
	}
	return nil
}

// line highlights one line of code, carrying what it leaves open in st.
func (l *lexer) line(s string, st *lexState) []Span {
	var spans []Span
	add := func(text string, style Style) {
		if text != "" {
			spans = append(spans, Span{Text: text, Style: style})
		}
	}
	i := 0
	for i < len(s) {
		switch {
		case st.comment:
			end := strings.Index(s[i:], l.blockClose)
			if end < 0 {
				add(s[i:], styleComment)
				return spans
			}
			add(s[i:i+end+len(l.blockClose)], styleComment)
			i += end + len(l.blockClose)
			st.comment = false
		case st.str != "":
			end := stringEnd(s[i:], st.str)
			if end < 0 {
				add(s[i:], styleString)
				return spans
			}
			add(s[i:i+end], styleString)
			i += end
			st.str = ""
		case l.blockOpen != "" && strings.HasPrefix(s[i:], l.blockOpen):
			add(l.blockOpen, styleComment)
			i += len(l.blockOpen)
			st.comment = true
		case slices.ContainsFunc(l.lineComment, func(c string) bool { return strings.HasPrefix(s[i:], c) && commentStarts(s, i) }):
			add(s[i:], styleComment)
			return spans
		case strings.IndexByte(l.quotes, s[i]) >= 0:
			q := s[i : i+1]
			for _, m := range l.multiline {
				if strings.HasPrefix(s[i:], m) {
					q = m
				}
			}
			add(q, styleString)
			i += len(q)
			st.str = q
			if !slices.Contains(l.multiline, q) {
				// A string that does not span lines ends with its line.
				end := stringEnd(s[i:], q)
				if end < 0 {
					end = len(s) - i
				}
				add(s[i:i+end], styleString)
				i += end
				st.str = ""
			}
		case isWordByte(s[i]):
			j := i
			for j < len(s) && (isWordByte(s[j]) || s[j] == '.' && j > i && isDigit(s[i])) {
				j++
			}
			w := s[i:j]
			switch {
			case isDigit(w[0]):
				add(w, styleNumber)
			case slices.Contains(l.keywords, w):
				add(w, styleKeyword)
			case slices.Contains(l.literals, w):
				add(w, styleLiteral)
			default:
				add(w, Style{})
			}
			i = j
		default:
			j := i + 1
			for j < len(s) && !isWordByte(s[j]) && strings.IndexByte(l.quotes, s[j]) < 0 && s[j] != '/' && s[j] != '#' {
				j++
			}
			add(s[i:j], Style{})
			i = j
		}
	}
	return spans
}

// stringEnd is the index just after the closing quote q in s, skipping
// backslash escapes; -1 when the line has none.
func stringEnd(s, q string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && q != "`" {
			i++
			continue
		}
		if strings.HasPrefix(s[i:], q) {
			return i + len(q)
		}
	}
	return -1
}

// commentStarts says a comment marker at s[i] starts a comment: a # must
// begin a word (a shell's ${#x} or a URL's #anchor does not).
func commentStarts(s string, i int) bool {
	return s[i] != '#' || i == 0 || s[i-1] == ' ' || s[i-1] == '\t'
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c >= 0x80
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
