package cli

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// hookWord is one word of a hook's command as sh would read it: quotes
// removed, variables expanded. ok is false for a word this reading does
// not follow (a glob, a command substitution, a variable it does not
// know): mm check says nothing of it.
type hookWord struct {
	text string
	ok   bool
}

// commandWords reads the first simple command of command, as sh -c would:
// its words, up to an operator, a newline or the end, with the leading
// NAME=value assignments left out. lookup gives a variable's value, false
// for one the run's value of which check cannot know. It stops at the
// first word it cannot delimit (an unclosed quote, $( … )).
func commandWords(command string, lookup func(string) (string, bool)) []hookWord {
	var words []hookWord
	rest := command
	for {
		w, tail, more := nextWord(rest, lookup)
		if !more {
			return words
		}
		rest = tail
		if len(words) == 0 && w.ok {
			if name, _, isAssign := strings.Cut(w.text, "="); isAssign && validEnvName(name) {
				continue
			}
		}
		words = append(words, w)
	}
}

// nextWord splits the first word off s. more is false at the end of the
// simple command: the end of s, an operator, a newline, or a word whose
// end cannot be found.
func nextWord(s string, lookup func(string) (string, bool)) (w hookWord, rest string, more bool) {
	s = strings.TrimLeft(s, " \t")
	if s == "" {
		return hookWord{}, "", false
	}
	if s[0] == '(' || s[0] == '{' {
		// A subshell or a group: a compound command.
		return hookWord{text: s[:1], ok: true}, s[1:], true
	}
	var b strings.Builder
	ok := true
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			return hookWord{b.String(), ok}, s[i:], true
		case strings.IndexByte("\n|&;<>()", c) >= 0:
			if b.Len() == 0 && ok {
				return hookWord{}, "", false
			}
			return hookWord{b.String(), ok}, s[i:], true
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return hookWord{}, "", false
			}
			b.WriteString(s[i+1 : i+1+end])
			i += 1 + end
		case c == '"':
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				return hookWord{}, "", false
			}
			part := s[i+1 : i+1+end]
			if strings.ContainsAny(part, "`\\") {
				ok = false // an escape, a substitution: not followed
			} else if text, known := expandVars(part, lookup); known {
				b.WriteString(text)
			} else {
				ok = false
			}
			i += 1 + end
		case c == '$':
			n := varEnd(s[i:])
			if n == 0 {
				if strings.HasPrefix(s[i:], "$(") {
					return hookWord{}, "", false
				}
				ok = false
				continue
			}
			if text, known := expandVars(s[i:i+n], lookup); known {
				b.WriteString(text)
			} else {
				ok = false
			}
			i += n - 1
		case strings.IndexByte("`*?[]{}~\\", c) >= 0:
			ok = false
		default:
			b.WriteByte(c)
		}
	}
	return hookWord{b.String(), ok}, "", true
}

// varEnd is the length of the variable reference s begins with ($NAME or
// ${NAME}); 0 for anything else ($1, $@, ${X:-y}, $(…)).
func varEnd(s string) int {
	if m := varRef().FindString(s); m != "" {
		return len(m)
	}
	return 0
}

// varRef is made at its first use: mm's start pays for no regexp it may
// not need (inittrace_test.go).
var varRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\$(?:\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)`)
})

// expandVars replaces each $NAME and ${NAME} of s by lookup's value;
// known is false when one has none, or when s holds another expansion.
func expandVars(s string, lookup func(string) (string, bool)) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			b.WriteByte(s[i])
			continue
		}
		n := varEnd(s[i:])
		if n == 0 {
			return "", false
		}
		v, known := lookup(strings.Trim(s[i+1:i+n], "{}"))
		if !known {
			return "", false
		}
		b.WriteString(v)
		i += n - 1
	}
	return b.String(), true
}

// interpreterOptions are, for a program whose first operand is a script
// file it runs, the options that may come before it: options that take no
// value and do not read the program from elsewhere. Any other option
// (python3 -m, node -e, sh -c, -W value) leaves the command unread. ok is
// false for a program that is no such interpreter.
func interpreterOptions(prog string) (options []string, ok bool) {
	switch prog {
	case "sh", "bash", "dash", "zsh", "ksh":
		return []string{"-e", "-u", "-x", "-v", "-eu", "-ex", "-eux"}, true
	case "node", "nodejs":
		return []string{"--no-warnings", "--no-deprecation", "--enable-source-maps", "--trace-warnings", "--trace-uncaught", "--experimental-strip-types"}, true
	case "python", "python2", "python3", "pypy3":
		return []string{"-u", "-B", "-E", "-I", "-O", "-OO", "-s", "-S", "-b", "-q"}, true
	case "ruby":
		return []string{"-w"}, true
	case "perl":
		return []string{"-w", "-T"}, true
	case "php", "lua":
		return nil, true
	}
	if v, ok := strings.CutPrefix(prog, "python3."); ok && v != "" && strings.Trim(v, "0123456789") == "" {
		return interpreterOptions("python3")
	}
	return nil, false
}

// scriptOf is the script file a command's words run: the first operand of
// an interpreter (node, python3, sh, …), found after the options that
// take no value, or after --. ok is false for a command that runs no
// script this reading knows of.
func scriptOf(words []hookWord) (script string, ok bool) {
	if len(words) < 2 || !words[0].ok {
		return "", false
	}
	prog := words[0].text
	if i := strings.LastIndexByte(prog, '/'); i >= 0 {
		prog = prog[i+1:]
	}
	options, isInterpreter := interpreterOptions(prog)
	if !isInterpreter {
		return "", false
	}
	for i, w := range words[1:] {
		switch {
		case !w.ok:
			return "", false
		case w.text == "--":
			if i+2 < len(words) && words[i+2].ok && words[i+2].text != "" {
				return words[i+2].text, true
			}
			return "", false
		case strings.HasPrefix(w.text, "-"):
			if !slices.Contains(options, w.text) {
				return "", false
			}
		case w.text == "":
			return "", false
		default:
			return w.text, true
		}
	}
	return "", false
}
