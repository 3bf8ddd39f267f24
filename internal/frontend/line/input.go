package line

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/chzyer/readline"

	"github.com/mm-agent/mm/internal/frontend"
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
// Tab completes an @path or $name line through complete.
func newTerminalReader(historyFile string, stdin io.ReadCloser, stdout io.Writer, complete *lineCompleter) (lineReader, error) {
	rl, err := readline.NewEx(&readline.Config{
		AutoComplete:      complete,
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

// lineCompleter completes the line mode's @path and $name lines (Complete)
// and its slash words (CompleteCommand), once the session says where its
// paths start, which skills it has and which commands.
type lineCompleter struct {
	mu     sync.Mutex
	cwd    string
	skills []string
	words  []string
}

// setWords is called once the session has started: the slash words.
func (c *lineCompleter) setWords(words []string) {
	c.mu.Lock()
	c.words = words
	c.mu.Unlock()
}

// set is called once the session has started.
func (c *lineCompleter) set(cwd string, skills []string) {
	c.mu.Lock()
	c.cwd, c.skills = cwd, skills
	c.mu.Unlock()
}

// Do is readline's completion: the rests of the candidates, and how many
// characters before the cursor they continue.
func (c *lineCompleter) Do(line []rune, pos int) ([][]rune, int) {
	c.mu.Lock()
	cwd, skills, words := c.cwd, c.skills, c.words
	c.mu.Unlock()
	rests, matched := frontend.CompleteCommand(string(line[:pos]), words)
	if rests == nil && cwd != "" {
		rests, matched = frontend.Complete(string(line[:pos]), cwd, skills)
	}
	if rests == nil {
		return nil, 0
	}
	out := make([][]rune, len(rests))
	for i, r := range rests {
		out[i] = []rune(r)
	}
	return out, len([]rune(matched))
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
