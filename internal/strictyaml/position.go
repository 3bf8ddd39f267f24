package strictyaml

import (
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// PosError is an error at a line (and, for a syntax error, a column) of a
// file. Its text is the message alone: whoever names the file writes the
// position in front of it, as a compiler does ("agent.yaml:8: hooks…"), so
// that the message stays whole however many prefixes ("hooks.preToolCall[0]:
// ") the callers add.
type PosError struct {
	Line, Column int // from 1; Column 0: not known
	Err          error
	// Excerpt is, for a syntax error, the lines shown under the message:
	// the source line made visible, a caret under the column and a hint
	// (see excerpt); "" for any other error.
	Excerpt string
}

func (e *PosError) Error() string { return e.Err.Error() }
func (e *PosError) Unwrap() error { return e.Err }

// At gives err the line of n, unless err has a position already: the
// innermost one is the most precise. A nil err stays nil.
func At(n *yaml.Node, err error) error {
	if err == nil || n == nil || n.Line < 1 {
		return err
	}
	if line, _ := Position(err); line > 0 {
		return err
	}
	return &PosError{Line: n.Line, Err: err}
}

// Errorf is fmt.Errorf's error at the line of n.
func Errorf(n *yaml.Node, format string, a ...any) error {
	return At(n, fmt.Errorf(format, a...))
}

// Position is the line and column err is at; 0, 0 when it has none. A
// position inside a *FileError is that file's, not err's.
func Position(err error) (line, column int) {
	for ; err != nil; err = errors.Unwrap(err) {
		switch e := err.(type) {
		case *PosError:
			return e.Line, e.Column
		case *FileError:
			return 0, 0
		}
	}
	return 0, 0
}

// Excerpt is the excerpt of the syntax error err is, as Position finds its
// position: "" when it has none.
func Excerpt(err error) string {
	for ; err != nil; err = errors.Unwrap(err) {
		switch e := err.(type) {
		case *PosError:
			return e.Excerpt
		case *FileError:
			return ""
		}
	}
	return ""
}

// Located is err's text with its position in front, as
// "<file>:<line>[:<column>]: <message>", or "<file>: <message>" without one.
func Located(file string, err error) string {
	return Place(file, err) + ": " + err.Error()
}

// Report is Located, with a syntax error's excerpt on the lines under it:
// a problem a session lists among its warnings.
func Report(file string, err error) string {
	r := Located(file, err)
	if ex := Excerpt(err); ex != "" {
		r += "\n" + ex
	}
	return r
}

// Place is "<file>:<line>[:<column>]" for err, or file alone.
func Place(file string, err error) string {
	line, col := Position(err)
	switch {
	case line > 0 && col > 0:
		return fmt.Sprintf("%s:%d:%d", file, line, col)
	case line > 0:
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

// DecodeError is the error of decoding a node into Go values, at its line:
// yaml.v3 writes "yaml: unmarshal errors:\n  line 4: cannot unmarshal …";
// this keeps the first problem's message, "cannot unmarshal …".
func DecodeError(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) || len(te.Errors) == 0 {
		return errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	return atLine(te.Errors[0])
}

// FileError is an error in a file that mm read because another one named
// it (a script model's, named by a configuration): a config error names
// this file, and the line in it, rather than the one that led to it.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return Located(e.Path, e.Err) }
func (e *FileError) Unwrap() error { return e.Err }
