package strictyaml

import (
	"bytes"
	"errors"
	"strings"

	"gopkg.in/yaml.v3"
)

// ErrUnclosed is FrontMatter's error for front matter without its closing
// "---" line.
var ErrUnclosed = errors.New(`the front matter has no closing "---" line`)

// FrontMatter reads the YAML front matter text opens with, as a SKILL.md
// or a command file does: a "---" line (a byte order mark before it
// aside), the YAML, a "---" line. It returns the front matter parsed as
// Parse parses (nil when it is empty), at the file's line numbers, and the
// body after its closing line; found is false, with body the whole text,
// when text does not open with a "---" line. A carriage return ending a
// line is allowed.
func FrontMatter(text []byte) (root *yaml.Node, body []byte, found bool, err error) {
	text = bytes.TrimPrefix(text, []byte("\ufeff"))
	rest, ok := afterLine(text, "---")
	if !ok {
		return nil, text, false, nil
	}
	yamlText, body, closed := cutAtLine(rest, "---")
	if !closed {
		return nil, nil, true, ErrUnclosed
	}
	// A blank line in place of the opening "---", so that the parser's
	// line numbers are the file's.
	root, err = Parse(append([]byte("\n"), yamlText...))
	return root, body, true, err
}

// afterLine returns what follows the first line of b when that line is want
// (a carriage return and blanks before its newline aside).
func afterLine(b []byte, want string) ([]byte, bool) {
	line, rest, found := bytes.Cut(b, []byte("\n"))
	if !found || strings.TrimRight(string(line), " \t\r") != want {
		return nil, false
	}
	return rest, true
}

// cutAtLine returns what comes before the first line of b that is want,
// and what follows that line.
func cutAtLine(b []byte, want string) (before, after []byte, found bool) {
	for at := 0; at < len(b); {
		line, _, more := bytes.Cut(b[at:], []byte("\n"))
		if strings.TrimRight(string(line), " \t\r") == want {
			end := at + len(line)
			if more {
				end++
			}
			return b[:at], b[end:], true
		}
		if !more {
			break
		}
		at += len(line) + 1
	}
	return nil, nil, false
}
