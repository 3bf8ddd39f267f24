package question

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// fenceState follows the ``` and ~~~ fences of a question, inside which no
// line is expanded: code pasted into a question (a Python decorator, a
// Java annotation) is sent as typed.
type fenceState struct {
	char byte // '`' or '~' while inside a fence, else 0
	n    int  // the opening fence's length
}

// inside reports whether line is part of a fence (its opening or closing
// line included), updating the state.
func (f *fenceState) inside(line string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return f.char != 0 // indented code, or text inside a fence
	}
	c, n := fenceRun(t)
	switch {
	case f.char == 0 && n >= 3:
		f.char, f.n = c, n
		return true
	case f.char != 0 && c == f.char && n >= f.n && strings.TrimSpace(t[n:]) == "":
		f.char = 0
		return true
	}
	return f.char != 0
}

// fenceRun is the character and length of the run of ` or ~ that starts t.
func fenceRun(t string) (byte, int) {
	if t == "" || t[0] != '`' && t[0] != '~' {
		return 0, 0
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	return t[0], n
}

// fenced writes text between two fences of backticks longer than any run of
// backticks in it, so that nothing in the text can close the fence.
func fenced(b *strings.Builder, text string) {
	longest, run := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		fmt.Fprintf(b, "%s\n%s", fence, fence)
		return
	}
	fmt.Fprintf(b, "%s\n%s\n%s", fence, text, fence)
}

// binary says why b is not text ("" when it is): a NUL byte, as git
// decides, or bytes that are not UTF-8.
func binary(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return fmt.Sprintf("a binary file (a NUL byte at offset %d)", i)
	}
	if !utf8.Valid(b) {
		return "not UTF-8 text"
	}
	return ""
}

// Fence is text between two fences of backticks that nothing in it can
// close: what a question brings in that is data, not the person's lines
// (a shell command's output).
func Fence(text string) string {
	var b strings.Builder
	fenced(&b, text)
	return b.String()
}
