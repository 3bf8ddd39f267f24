package frontend

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/chzyer/readline"
)

// errInterrupt is Ctrl-C at a prompt.
var errInterrupt = errors.New("interrupted")

// lineReader reads the person's lines: with editing and history on a
// terminal, plainly from a pipe.
type lineReader interface {
	// ReadLine shows prompt and returns the line without its newline;
	// io.EOF at the end of input, errInterrupt on Ctrl-C.
	ReadLine(prompt string) (string, error)
	Close() error
}

type terminalReader struct{ rl *readline.Instance }

// newTerminalReader edits lines on the terminal, keeping them in
// historyFile ("" for none), which stays HistoryMode also after readline
// rewrites it (as a new file) to trim it.
func newTerminalReader(historyFile string, stdin io.ReadCloser, stdout io.Writer) (lineReader, error) {
	rl, err := readline.NewEx(&readline.Config{
		Prompt:            "› ",
		HistoryFile:       historyFile,
		InterruptPrompt:   "^C",
		EOFPrompt:         "",
		HistorySearchFold: true,
		Stdin:             stdin,
		Stdout:            stdout,
	})
	if err != nil {
		return nil, err
	}
	if historyFile != "" {
		if err := os.Chmod(historyFile, HistoryMode); err != nil {
			rl.Close()
			return nil, fmt.Errorf("keep the line history in %s: %w", historyFile, err)
		}
	}
	return &terminalReader{rl: rl}, nil
}

// HistoryMode is the line history's: what a person typed, a key pasted
// into a question among it, is theirs alone.
const HistoryMode = 0o600

func (t *terminalReader) ReadLine(prompt string) (string, error) {
	t.rl.SetPrompt(prompt)
	line, err := t.rl.Readline()
	switch {
	case errors.Is(err, readline.ErrInterrupt):
		return "", errInterrupt
	case err != nil:
		return "", err
	}
	return line, nil
}

func (t *terminalReader) Close() error { return t.rl.Close() }

// pipeReader reads lines from a pipe or a file; it shows no prompt, so that
// a script's output holds only what mm says.
type pipeReader struct{ sc *bufio.Scanner }

func newPipeReader(r io.Reader) lineReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	return &pipeReader{sc: sc}
}

func (p *pipeReader) ReadLine(string) (string, error) {
	if !p.sc.Scan() {
		if err := p.sc.Err(); err != nil {
			return "", err
		}
		return "", io.EOF
	}
	return strings.TrimRight(p.sc.Text(), "\r"), nil
}

func (p *pipeReader) Close() error { return nil }
