package permissions

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// commandLine is a bash command line as the rules read it: the simple
// commands it runs, wherever they are — after ;, &&, ||, |, & or a line
// break, inside $( ), backticks, <( ), a subshell, a function or a loop.
type commandLine struct {
	parts []part
	// unread is set when the line does not parse as bash: no allow covers
	// it, and deny rules read its crude split (crudeParts).
	unread bool
	// unsure is set when the line does what no rule can read: a
	// redirection that writes a file (> f, >> f, &> f; not /dev/null nor a
	// descriptor), or an expansion that runs text as a command
	// (${x@P}). No allow covers it.
	unsure bool
}

// part is one simple command: its words, as the program receives them
// when they are literal.
type part struct {
	words []word
	// opaque is set for a command no allow covers: one with assignments
	// (x=1, PATH=… go test), a declaration (export, declare, local, …).
	opaque bool
}

// word is one word of a command.
type word struct {
	text string
	// literal says text is the word the program receives; else the word
	// is made when it runs ($VAR, $(…), globs aside) and text is empty.
	literal bool
}

// readCommand reads a bash command line.
func readCommand(command string) commandLine {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return commandLine{unread: true, parts: crudeParts(command)}
	}
	var l commandLine
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			p := part{opaque: len(n.Assigns) > 0}
			for _, w := range n.Args {
				p.words = append(p.words, readWord(w))
			}
			l.parts = append(l.parts, p)
		case *syntax.DeclClause:
			l.parts = append(l.parts, part{words: []word{{text: n.Variant.Value, literal: true}}, opaque: true})
		case *syntax.Redirect:
			if writesFile(n) {
				l.unsure = true
			}
		case *syntax.ParamExp:
			if n.Exp != nil && n.Exp.Op == syntax.OtherParamOps {
				l.unsure = true // ${x@P} expands the value as a prompt: $(…) in it runs
			}
		}
		return true
	})
	return l
}

// readWord is w as the program receives it, when it is literal: plain
// text, backslashes, '…' and "…" without expansions inside.
func readWord(w *syntax.Word) word {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "{") && syntax.SplitBraces(&syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: p.Value}}}) {
				return word{} // r{m,x} is two words: rm rx
			}
			b.WriteString(unescape(p.Value, false))
		case *syntax.SglQuoted:
			if p.Dollar {
				return word{} // $'\x72m': escapes decoded when it runs
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return word{} // $"…": translated when it runs
			}
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return word{}
				}
				b.WriteString(unescape(lit.Value, true))
			}
		default:
			return word{}
		}
	}
	return word{text: b.String(), literal: true}
}

// unescape removes the backslashes bash removes: before any character
// outside quotes, before $ ` " \ inside double quotes.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (!quoted || strings.IndexByte("$`\"\\", s[i+1]) >= 0) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// writesFile reports whether r writes a file: > f, >> f, >| f, &> f,
// &>> f, <> f, >& f — not a descriptor (2>&1, >&-) nor /dev/null.
func writesFile(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut, syntax.DplOut:
	default:
		return false
	}
	target := readWord(r.Word)
	switch {
	case !target.literal:
		return true
	case target.text == "/dev/null", target.text == "-":
		return false
	case r.Op == syntax.DplOut:
		return strings.Trim(target.text, "0123456789") != "" || target.text == ""
	}
	return true
}

// crudeParts cuts a line that does not parse as bash at every character
// that may end or start a command, for deny rules to read: a line bash
// might run all the same is not let through by a parser's strictness.
func crudeParts(command string) []part {
	var parts []part
	for _, seg := range strings.FieldsFunc(command, func(r rune) bool { return strings.ContainsRune(";&|\n()`${}<>", r) }) {
		var p part
		for _, f := range strings.Fields(seg) {
			p.words = append(p.words, word{text: strings.Trim(f, `'"\`), literal: true})
		}
		if len(p.words) > 0 {
			parts = append(parts, p)
		}
	}
	return parts
}

// commandPattern reads a bash rule's pattern: one command of plain words,
// as a shell reads them (quotes group, backslashes escape); * stands for
// any words (as a word of its own) or any characters (inside a word).
func commandPattern(pattern string) ([]string, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(pattern), "")
	if err != nil {
		return nil, fmt.Errorf("not a command bash reads: %s", shortParseError(err))
	}
	if len(f.Stmts) != 1 {
		return nil, errors.New("a pattern is one command: write one rule for each")
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	switch {
	case st.Background || st.Negated || st.Coprocess:
		return nil, errors.New("a pattern is one command, without & or !")
	case len(st.Redirs) > 0:
		return nil, errors.New("a pattern holds no redirection (>, <): a command that writes a file is always asked about")
	case !ok:
		return nil, errors.New("a pattern is one command of plain words, without ;, &&, ||, | or a compound command")
	case len(call.Assigns) > 0:
		return nil, errors.New("a pattern starts with the program, not an assignment (x=1)")
	}
	words := make([]string, len(call.Args))
	for i, a := range call.Args {
		w := readWord(a)
		if !w.literal {
			return nil, fmt.Errorf("%q is made by the shell when it runs ($, `, $( ), {a,b}): write the words as the command spells them", wordSource(pattern, a))
		}
		words[i] = w.text
	}
	if words[0] == "*" && len(words) == 1 {
		return nil, errors.New(`"*" alone is every command: write "bash" for that`)
	}
	return words, nil
}

// wordSource is the text of w in src.
func wordSource(src string, w *syntax.Word) string {
	start, end := int(w.Pos().Offset()), int(w.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return ""
	}
	return src[start:end]
}

// shortParseError is a parser's error without its "line:column: " when the
// pattern is one line.
func shortParseError(err error) string {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return pe.Text
	}
	return err.Error()
}

// program is the name a deny rule compares a command's first word with:
// its last path element, so that /bin/rm is rm.
func program(w string) string { return path.Base(w) }
