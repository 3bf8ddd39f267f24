package question

import (
	"os"
	"strings"
	"unicode"
)

// An @path inside a sentence ("explain @src/main.go please") brings in the
// file or folder it names, after the question, when it names one that
// exists: the sentence stays as typed, and an @ that names nothing (an
// e-mail's, "@bob") is text. It is a word of its own — at the start of a
// line or after white space or an opening bracket or quote, so that
// "me@example.com" and `@Override` in backticks are text — and the
// punctuation that may end a sentence after it (".", ",", ")") is not part
// of the path unless the path with it exists.

// inlineMention is one @path found inside a line: as typed, and the path.
type inlineMention struct {
	typed, path string
}

// sentenceEnd is what may follow a path in a sentence and is left out of
// it when the path with it does not exist.
const sentenceEnd = `.,;:!?)]}'"`

// opensWord is what may come right before an @ that starts a path.
const opensWord = `([{"'`

// inlineMentions are the @paths of line, in order.
func inlineMentions(line string) []inlineMention {
	var out []inlineMention
	for i := 0; i < len(line); i++ {
		if line[i] != '@' || i > 0 && !startsWord(line[i-1]) {
			continue
		}
		rest := line[i+1:]
		if p, ok := strings.CutPrefix(rest, `"`); ok {
			end := strings.IndexByte(p, '"')
			if end > 0 {
				out = append(out, inlineMention{typed: line[i : i+end+3], path: p[:end]})
				i += end + 2
			}
			continue
		}
		end := strings.IndexFunc(rest, unicode.IsSpace)
		if end < 0 {
			end = len(rest)
		}
		if end > 0 {
			out = append(out, inlineMention{typed: line[i : i+1+end], path: rest[:end]})
		}
		i += end
	}
	return out
}

func startsWord(b byte) bool {
	return b == ' ' || b == '\t' || strings.IndexByte(opensWord, b) >= 0
}

// existing is the path of m that names an existing file or folder — the
// word as typed, else without the punctuation that ends it — and its
// absolute form; ok is false when neither exists, or names what mm does
// not read (a named pipe, a device): the word is text.
func (m inlineMention) existing(opts Options) (p, abs string, ok bool) {
	for _, p := range []string{m.path, strings.TrimRight(m.path, sentenceEnd)} {
		if p == "" {
			continue
		}
		abs := resolve(p, opts)
		if fi, err := os.Stat(abs); err == nil && (fi.Mode().IsRegular() || fi.IsDir()) {
			return p, abs, true
		}
	}
	return "", "", false
}

// expandInline is what the @paths inside the sentences of lines (the
// question's lines, those in a fence or that are an @path or $name line
// themselves left out) bring in, one block each, in the order first named;
// seen holds the absolute paths already brought in, by an @path line or an
// earlier mention. A file that exists but cannot be brought in (a binary
// file, no permission) is an *Error naming the word as typed.
func expandInline(lines []string, skip []bool, opts Options, seen map[string]bool) ([]string, error) {
	var blocks []string
	for i, line := range lines {
		if skip[i] || !strings.Contains(line, "@") {
			continue
		}
		for _, m := range inlineMentions(line) {
			p, abs, ok := m.existing(opts)
			if !ok || seen[abs] {
				continue
			}
			seen[abs] = true
			out, err := expandPath(p, opts)
			if err != nil {
				return nil, &Error{Line: "@" + p, Msg: err.Error()}
			}
			blocks = append(blocks, out)
		}
	}
	return blocks, nil
}
