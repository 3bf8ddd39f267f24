package permissions

import (
	"slices"
	"strings"
)

// Rules are an agent's rules: the calls that run without a question, the
// calls that never run.
type Rules struct {
	Allow, Deny []Rule
}

// Call is a tool call as the rules read it.
type Call struct {
	Tool string
	// Subject is, whole, bash's command, ask_agent's agent, load_skill's
	// skill; "" for other tools.
	Subject string
	// Path is a file tool's file, absolute.
	Path string
}

// Places say where a path pattern starts: a relative one in Cwd (the
// session's working folder), one starting with ~/ in Home.
type Places struct{ Cwd, Home string }

// Decision is what the rules say of a call.
type Decision struct {
	// Deny is the first deny rule that names the call; nil when none does.
	Deny *Rule
	// Allowed says the allow rules cover the call (and no deny names it).
	Allowed bool
}

// Decide reads c against the rules: a deny that names it wins over any
// allow; an allow covers a bash command only when it covers each command
// in it, a file only as it is named and as its links lead.
func (rs Rules) Decide(c Call, at Places) Decision {
	var s callSubject
	switch subjects[c.Tool] {
	case commandSubject:
		s.line = readCommand(c.Subject)
		s.named = denyParts(s.line.parts, 0)
	case pathSubject:
		s.paths = filePaths(c.Path)
	}
	for i, r := range rs.Deny {
		if r.Tool == c.Tool && r.denies(c, &s, at) {
			return Decision{Deny: &rs.Deny[i]}
		}
	}
	return Decision{Allowed: allows(rs.Allow, c, &s, at)}
}

// callSubject is a call's subject, read once for every rule.
type callSubject struct {
	line commandLine
	// named are the commands a deny rule reads: the line's, and those of
	// the scripts it gives a shell.
	named []part
	paths []string
}

// denies reports whether the deny rule r names c.
func (r Rule) denies(c Call, s *callSubject, at Places) bool {
	if r.Pattern == "" {
		return true
	}
	switch subjects[r.Tool] {
	case commandSubject:
		for _, p := range s.named {
			if r.names(p) {
				return true
			}
		}
		return false
	case pathSubject:
		for _, p := range s.paths {
			if r.coversPath(p, at) {
				return true
			}
		}
		return false
	}
	return glob(r.Pattern, c.Subject)
}

// allows reports whether the allow rules cover c.
func allows(rules []Rule, c Call, s *callSubject, at Places) bool {
	some := func(f func(r Rule) bool) bool {
		for _, r := range rules {
			if r.Tool == c.Tool && (r.Pattern == "" || f(r)) {
				return true
			}
		}
		return false
	}
	switch subjects[c.Tool] {
	case commandSubject:
		l := s.line
		if some(func(Rule) bool { return false }) {
			return true // a rule of the whole tool, "bash": every command
		}
		if l.unread || l.unsure || len(l.parts) == 0 {
			return false
		}
		for _, p := range l.parts {
			if p.opaque || !some(func(r Rule) bool { return r.covers(p) }) {
				return false
			}
		}
		return true
	case pathSubject:
		for _, p := range s.paths {
			if !some(func(r Rule) bool { return r.coversPath(p, at) }) {
				return false
			}
		}
		return len(s.paths) > 0
	}
	return some(func(r Rule) bool { return glob(r.Pattern, c.Subject) })
}

// covers reports whether the bash pattern of r covers the command p, word
// for word from its program on.
func (r Rule) covers(p part) bool { return matchWords(r.words, p.words, false) }

// names reports whether the bash pattern of r names the command p: from
// its program on, the program compared by its name (/bin/rm is rm), or
// from the command a runner's arguments give (sudo rm …, find … -exec rm …).
func (r Rule) names(p part) bool {
	for _, at := range starts(p.words) {
		if matchWords(r.words, p.words[at:], true) {
			return true
		}
	}
	return false
}

// runners are programs that run the command their arguments name: a deny
// rule is looked for at each of their words, so that "sudo -u root rm -rf
// /" is named by a deny of "rm -rf *".
var runners = map[string]bool{
	"sudo": true, "doas": true, "env": true, "command": true, "builtin": true,
	"exec": true, "nohup": true, "nice": true, "ionice": true, "time": true,
	"timeout": true, "stdbuf": true, "setsid": true, "xargs": true, "watch": true,
	"chroot": true, "unbuffer": true, "strace": true, "flock": true, "chrt": true,
	"taskset": true, "caffeinate": true,
}

// execFlags are find's flags whose following words are a command.
var execFlags = map[string]bool{"-exec": true, "-execdir": true, "-ok": true, "-okdir": true}

// starts are where a command may start in ws: at its program, and after
// a runner, at each word that follows.
func starts(ws []word) []int {
	at := []int{0}
	if len(ws) == 0 || !ws[0].literal {
		return at
	}
	switch prog := program(ws[0].text); {
	case runners[prog]:
		for i := 1; i < len(ws); i++ {
			at = append(at, i)
		}
	case prog == "find":
		for i := 1; i+1 < len(ws); i++ {
			if ws[i].literal && execFlags[ws[i].text] {
				at = append(at, i+1)
			}
		}
	}
	return at
}

// maxNesting bounds how deep deny rules read scripts given to a shell
// (bash -c '…', eval …): a script in a script in a script is read, which
// no honest command needs more of.
const maxNesting = 4

// shells are the programs whose -c argument is a script.
var shells = map[string]bool{"bash": true, "sh": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "busybox": true}

// denyParts are parts and, read as command lines, the scripts they give
// a shell (bash -c '…', sh -c, eval): a deny rule names a command there
// too.
func denyParts(parts []part, depth int) []part {
	if depth >= maxNesting {
		return parts
	}
	out := slices.Clone(parts)
	for _, p := range parts {
		if script, ok := scriptOf(p); ok {
			out = append(out, denyParts(readCommand(script).parts, depth+1)...)
		}
	}
	return out
}

// scriptOf is the script p gives a shell to run: bash -c '<script>' (the
// word after a flag holding c), or eval's words joined.
func scriptOf(p part) (string, bool) {
	ws := p.words
	if len(ws) < 2 || !ws[0].literal {
		return "", false
	}
	prog := program(ws[0].text)
	if prog == "eval" {
		var texts []string
		for _, w := range ws[1:] {
			if !w.literal {
				return "", false
			}
			texts = append(texts, w.text)
		}
		return strings.Join(texts, " "), true
	}
	if !shells[prog] {
		return "", false
	}
	for i := 1; i+1 < len(ws); i++ {
		f := ws[i].text
		if ws[i].literal && strings.HasPrefix(f, "-") && !strings.HasPrefix(f, "--") && strings.Contains(f, "c") && ws[i+1].literal {
			return ws[i+1].text, true
		}
	}
	return "", false
}

// matchWords reports whether the pattern's words match ws: a word "*"
// stands for any words, none included; any other is a glob of one word,
// which a word made when the command runs never matches. With byName,
// the first word is compared by its program's name when the pattern's
// first word names no folder.
func matchWords(pat []string, ws []word, byName bool) bool {
	return wildcard(len(pat), len(ws),
		func(i int) bool { return pat[i] == "*" },
		func(i, j int) bool {
			if !ws[j].literal {
				return false
			}
			text := ws[j].text
			if byName && i == 0 && j == 0 && !strings.Contains(pat[0], "/") {
				text = program(text)
			}
			return glob(pat[i], text)
		})
}

// glob reports whether s matches pattern, where * stands for any
// characters and every other character for itself.
func glob(pattern, s string) bool {
	return wildcard(len(pattern), len(s),
		func(i int) bool { return pattern[i] == '*' },
		func(i, j int) bool { return pattern[i] == s[j] })
}

// wildcard matches n items against a pattern of m, whose star items match
// any run of items and whose other items match one item when eq says so:
// the greedy match with one backtrack point, in O(m·n).
func wildcard(m, n int, star func(i int) bool, eq func(i, j int) bool) bool {
	i, j := 0, 0
	si, sj := -1, 0
	for j < n {
		switch {
		case i < m && star(i):
			si, sj = i, j
			i++
		case i < m && eq(i, j):
			i++
			j++
		case si >= 0:
			i, sj = si+1, sj+1
			j = sj
		default:
			return false
		}
	}
	for i < m && star(i) {
		i++
	}
	return i == m
}
