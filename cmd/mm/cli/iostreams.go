package cli

import (
	"context"
	"errors"
	"io"
	"os"

	"golang.org/x/term"
)

// streams are what a command reads, writes and asks of the world around
// it: the standard streams, whether each is a terminal, the environment and
// the working directory. main runs mm with systemStreams; a test gives
// buffers, an environment of its own and a folder, and runs a command
// in-process, without building the binary.
type streams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// InTerminal, OutTerminal and ErrTerminal say which of the three is a
	// terminal.
	InTerminal, OutTerminal, ErrTerminal bool
	// Getenv and Environ read the environment; Environ is what the
	// processes mm starts inherit.
	Getenv  func(string) string
	Environ func() []string
	// Getwd is the working directory.
	Getwd func() (string, error)
	// LineIn is stdin for the line mode, as a reader the end of ctx
	// interrupts, and the function that closes it; nil when In is read as
	// it is.
	LineIn func(ctx context.Context) (io.ReadCloser, func())
}

// systemStreams are mm's own standard streams, environment and working
// directory.
func systemStreams() *streams {
	s := &streams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		InTerminal:  term.IsTerminal(int(os.Stdin.Fd())),
		OutTerminal: term.IsTerminal(int(os.Stdout.Fd())),
		ErrTerminal: term.IsTerminal(int(os.Stderr.Fd())),
		Getenv:      os.Getenv,
		Environ:     os.Environ,
		Getwd:       os.Getwd,
		LineIn:      lineInput,
	}
	return s
}

// lineIn is stdin for the line mode and the function that closes it.
func (s *streams) lineIn(ctx context.Context) (io.ReadCloser, func()) {
	if s.LineIn != nil {
		return s.LineIn(ctx)
	}
	return io.NopCloser(s.In), func() {}
}

// terminalFiles are In and Out as the files the window draws on; an error
// when they are not files.
func (s *streams) terminalFiles() (in, out *os.File, err error) {
	in, okIn := s.In.(*os.File)
	out, okOut := s.Out.(*os.File)
	if !okIn || !okOut {
		return nil, nil, errors.New("stdin and stdout must be a terminal; use mm for the line mode or mm -p")
	}
	return in, out, nil
}
