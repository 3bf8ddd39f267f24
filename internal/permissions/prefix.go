package permissions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Prefixes are the rules an "always" answer to the bash command command
// adds: for each command in it, "bash: <program> <argument> *", the
// program and its first argument when that is shaped like a subcommand
// ("go test ./..." is "go test", "ls -la" is "ls", "cat notes.txt" is
// "cat"), once each, in the order they come. ok is
// false when such rules would not cover the command itself — a command
// with an assignment, a word made when it runs, a redirection to a file:
// then no "always" is offered, rather than one for all of bash.
func Prefixes(command string) (rules []Rule, ok bool) {
	l := readCommand(command)
	if l.unread || l.unsure || len(l.parts) == 0 {
		return nil, false
	}
	seen := map[string]bool{}
	for _, p := range l.parts {
		words, ok := prefixWords(p)
		if !ok {
			return nil, false
		}
		r, err := Parse("bash: "+strings.Join(words, " ")+" *", nil)
		if err != nil {
			return nil, false
		}
		if !seen[r.Pattern] {
			seen[r.Pattern] = true
			rules = append(rules, r)
		}
	}
	if !(Rules{Allow: rules}).Decide(Call{Tool: "bash", Subject: command}, Places{}).Allowed {
		return nil, false
	}
	return rules, true
}

// prefixWords are the words of p's prefix, quoted for a pattern.
func prefixWords(p part) ([]string, bool) {
	if p.opaque || len(p.words) == 0 {
		return nil, false
	}
	n := 1
	if len(p.words) > 1 && p.words[1].literal && subcommand(p.words[1].text) {
		n = 2
	}
	var out []string
	for _, w := range p.words[:n] {
		if !w.literal || w.text == "" || strings.Contains(w.text, "*") {
			return nil, false
		}
		q, err := quoteWord(w.text)
		if err != nil {
			return nil, false
		}
		out = append(out, q)
	}
	return out, true
}

// Prefix is the command a rule "bash: <prefix> *" names, for a person to
// read: "go test"; the pattern itself for any other rule.
func (r Rule) Prefix() string { return strings.TrimSuffix(r.Pattern, " *") }

// subcommand reports whether w is shaped like a subcommand (test, run,
// compose, build-all): a letter, then letters, digits, - and _. A flag, a
// path, a file's name or a value (x=1) is not one.
func subcommand(w string) bool {
	for i, c := range w {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '_'):
		default:
			return false
		}
	}
	return w != ""
}

// quoteWord is w as a pattern spells it: as it is when a shell reads it
// so (letters, digits, - _ . / + = : , @ %), else quoted for bash.
func quoteWord(w string) (string, error) {
	if strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+=:,@%") == "" && !strings.HasPrefix(w, "-") {
		return w, nil
	}
	return syntax.Quote(w, syntax.LangBash)
}
