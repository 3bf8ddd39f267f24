package line

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// fakeSession answers each question with its text, asking consent first
// for a question that starts with "run ".
type fakeSession struct {
	sink     orchestrator.Sink
	prompts  []string
	answers  []orchestrator.ConsentAnswer
	cleared  int
	commands []orchestrator.Command
	servers  []orchestrator.MCPStatus
	closed   bool
	// waiting, when set, hears that a "wait" turn began; that turn runs
	// until it is cancelled.
	waiting chan struct{}
	// choices are what /resume alone lists; resumed and shells what
	// /resume and "!" were given.
	choices []orchestrator.SavedSession
	resumed []string
	shells  []string
}

func (f *fakeSession) PromptTyped(ctx context.Context, text string) error {
	f.prompts = append(f.prompts, text)
	if cmd, ok := strings.CutPrefix(text, "run "); ok {
		a := f.sink.Consent(ctx, orchestrator.ConsentRequest{Tool: "bash", Subject: cmd, Detail: cmd, Always: &orchestrator.AlwaysOffer{For: "bash"}})
		f.answers = append(f.answers, a)
	}
	if text == "wait" {
		if f.waiting != nil {
			f.waiting <- struct{}{}
		}
		<-ctx.Done()
		f.sink.Emit(orchestrator.TurnEnded{Err: ctx.Err()})
		return ctx.Err()
	}
	if text == "fail" {
		err := errors.New("the model is gone")
		f.sink.Emit(orchestrator.TurnEnded{Err: err})
		return err
	}
	f.sink.Emit(orchestrator.Text{Text: "answer to " + text})
	f.sink.Emit(orchestrator.TurnEnded{Answer: "answer to " + text})
	return nil
}
func (f *fakeSession) Clear()                               { f.cleared++ }
func (f *fakeSession) MCPServers() []orchestrator.MCPStatus { return f.servers }
func (f *fakeSession) Commands() []orchestrator.Command     { return f.commands }
func (f *fakeSession) Warnings() []string                   { return nil }
func (f *fakeSession) SavedSessions() (string, error)       { return "", nil }
func (f *fakeSession) ResumeSaved(id string) (string, error) {
	f.resumed = append(f.resumed, id)
	return "resumed session " + id, nil
}
func (f *fakeSession) SavedChoices() ([]orchestrator.SavedSession, error) {
	return f.choices, nil
}
func (f *fakeSession) RenameSaved(string) (string, error) { return "", nil }
func (f *fakeSession) Model() string                      { return "fake/model" }
func (f *fakeSession) SwitchModel(ref string) (string, error) {
	return "model: " + ref, nil
}
func (f *fakeSession) Shell(ctx context.Context, command string) error {
	f.shells = append(f.shells, command)
	return nil
}
func (f *fakeSession) Close() error { f.closed = true; return nil }

// runFakeLine runs the line mode over f, fed input from a string (read
// between turns only), and returns its exit code, stdout and stderr.
func runFakeLine(t *testing.T, f *fakeSession, input string) (int, string, string) {
	t.Helper()
	return runFakeLineFrom(t, f, io.NopCloser(strings.NewReader(input)))
}

// runFakeLineFrom runs the line mode over f, reading stdin.
func runFakeLineFrom(t *testing.T, f *fakeSession, stdin io.ReadCloser) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	opts := Options{Stdin: stdin, Stdout: &stdout, Stderr: &stderr}
	code := runLine(context.Background(), opts, func(sink orchestrator.Sink) (frontend.Session, string, error) {
		f.sink = sink
		return f, "mm test | model: fake", nil
	})
	if !f.closed {
		t.Error("the session was not closed")
	}
	return code, stdout.String(), stderr.String()
}

// TestLineQuestion: a question is a turn; its answer streams after 🤖 and
// the ⚙ line closes it; the end of input leaves with 0.
func TestLineQuestion(t *testing.T) {
	f := &fakeSession{}
	code, stdout, stderr := runFakeLine(t, f, "hello\n")
	want := "mm test | model: fake\n🤖 answer to hello\n⚙ 0 command(s)\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("exit %d\nstdout %q\nwant   %q\nstderr %q", code, stdout, want, stderr)
	}
	if !slices.Equal(f.prompts, []string{"hello"}) {
		t.Errorf("prompts %q", f.prompts)
	}
}

// TestLineHelp: /help prints the line mode's list of the registry's
// commands; /help with more words is a question.
func TestLineHelp(t *testing.T) {
	f := &fakeSession{}
	code, stdout, stderr := runFakeLine(t, f, "/help\n")
	want := `mm test | model: fake
Type a question and press Enter. Commands:
  /ask <agent> <question>              ask another agent
  /ask-<agent> <question>              the same
  /ask-with-context-<agent> <question> ask, sending this conversation along
  /mcp                                 list the MCP servers and their tools
  /usage                               the tokens of the last turn and of the session
  /clear                               forget the conversation
  /compact                             compress the conversation now, to fit the model's window
  /model <provider>/<model>            switch the model for the rest of the session (alone: show it)
  /sessions                            list this folder's saved sessions
  /resume [<id or name>]               go on with a saved session (alone: pick it from a list)
  /rename <name>                       name this session: mm --resume <name> goes on with it
  /history                             show the whole conversation again
  /abort                               cancel the running turn (or Esc, or Ctrl-C)
  /help                                this list
  /exit, /quit                         leave (or Ctrl-D, or Ctrl-C twice on an empty line)
Esc or Ctrl-C cancels the running turn; a second Ctrl-C leaves. A line
typed while a turn runs is sent once it ends. !<command> runs a shell
command for you (in the sandbox); the model reads its output with your
next question.
`
	if code != 0 || stdout != want || stderr != "" || len(f.prompts) > 0 {
		t.Errorf("exit %d, prompts %q\nstdout:\n%s\nwant:\n%s\nstderr %q", code, f.prompts, stdout, want, stderr)
	}
}

// TestLineCommands: /clear clears the session, /mcp lists its servers,
// /usage reports the turns' tokens, /exit leaves before the next line.
func TestLineCommands(t *testing.T) {
	f := &fakeSession{servers: []orchestrator.MCPStatus{{Name: "fs", Tools: []string{"fs__read"}}}}
	code, stdout, stderr := runFakeLine(t, f, "/clear\n/mcp\n/usage\n/help me\n/exit\nnever read\n")
	want := "mm test | model: fake\n(conversation cleared)\nfs: 1 tool(s)\n  fs__read\n" +
		"(no turn yet: /usage shows the tokens of the last turn)\n🤖 answer to /help me\n⚙ 0 command(s)\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("exit %d\nstdout %q\nwant   %q\nstderr %q", code, stdout, want, stderr)
	}
	if f.cleared != 1 || !slices.Equal(f.prompts, []string{"/help me"}) {
		t.Errorf("cleared %d times, prompts %q; want once and the question", f.cleared, f.prompts)
	}
}

// TestLineUnknownCommand: a slash word that is no command is refused on
// stderr, naming the commands (the session's /ask… ones by agent), and
// never reaches the session; from a pipe the exit code is then 1. A path
// is a question.
func TestLineUnknownCommand(t *testing.T) {
	f := &fakeSession{commands: []orchestrator.Command{{Name: "ask"}, {Name: "ask-expert"}, {Name: "ask-with-context-expert"}}}
	code, stdout, stderr := runFakeLine(t, f, "/hlep\n/etc/hosts?\n")
	wantErr := "mm: unknown command /hlep (known: /ask, /ask-expert, /ask-with-context-expert, /mcp, /usage, /clear, /compact, /model, /sessions, /resume, /rename, /history, /abort, /help, /exit) (did you mean \"/help\"?); to ask the model about it, start the line with another word\n"
	wantOut := "mm test | model: fake\n🤖 answer to /etc/hosts?\n⚙ 0 command(s)\n"
	if code != 1 || stdout != wantOut || stderr != wantErr {
		t.Errorf("exit %d\nstdout %q\nwant   %q\nstderr %q\nwant   %q", code, stdout, wantOut, stderr, wantErr)
	}
	if !slices.Equal(f.prompts, []string{"/etc/hosts?"}) {
		t.Errorf("prompts %q, want the path alone", f.prompts)
	}
}

// TestLineConsent: a tool call's consent question is asked on stdout and
// answered by the next line; a line that is no answer asks again.
func TestLineConsent(t *testing.T) {
	f := &fakeSession{}
	code, stdout, stderr := runFakeLine(t, f, "run ls\nmaybe\na\nrun rm x\nn\n")
	q := func(cmd string) string {
		return "Allow bash: " + cmd + "? [y] yes once  [n] no  [a] always for bash  [v] never for bash › \n"
	}
	want := "mm test | model: fake\n" +
		q("ls") + q("ls") + "🤖 answer to run ls\n⚙ 0 command(s)\n" +
		q("rm x") + "🤖 answer to run rm x\n⚙ 0 command(s)\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr %q", code, stdout, want, stderr)
	}
	if want := []orchestrator.ConsentAnswer{orchestrator.AllowAlways, orchestrator.RejectOnce}; !slices.Equal(f.answers, want) {
		t.Errorf("answers %v, want %v", f.answers, want)
	}
}

// TestLineFailedTurn: a failed turn's error is on stderr and, from a
// pipe, makes the exit code 1 once the input ends.
func TestLineFailedTurn(t *testing.T) {
	f := &fakeSession{}
	code, _, stderr := runFakeLine(t, f, "fail\nhello\n")
	if code != 1 || !strings.Contains(stderr, "the model is gone") || !slices.Equal(f.prompts, []string{"fail", "hello"}) {
		t.Errorf("exit %d, stderr %q, prompts %q; want 1, the error, both turns", code, stderr, f.prompts)
	}
}

// TestLineSessionError: a session that cannot start is reported, exit 1.
func TestLineSessionError(t *testing.T) {
	var stdout, stderr bytes.Buffer
	opts := Options{Stdin: io.NopCloser(strings.NewReader("hello\n")), Stdout: &stdout, Stderr: &stderr}
	code := runLine(context.Background(), opts, func(orchestrator.Sink) (frontend.Session, string, error) {
		return nil, "", errors.New("no model server")
	})
	if code != 1 || stdout.String() != "" || stderr.String() != "mm: no model server\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// TestLineAbort: /abort read while a turn runs cancels it, whether it was
// typed before the turn began or while it runs; the lines around it are
// read as before: a consent answer by its question, the next question
// after the turn. Read with no turn running, it says so.
func TestLineAbort(t *testing.T) {
	t.Run("typed ahead", func(t *testing.T) {
		f := &fakeSession{}
		code, stdout, stderr := runFakeLinePipe(t, f, "/abort\nwait\n/abort\nrun ls\ny\n")
		want := "mm test | model: fake\n(no turn is running)\n⚙ 0 command(s)\n" +
			"Allow bash: ls? [y] yes once  [n] no  [a] always for bash  [v] never for bash › \n🤖 answer to run ls\n⚙ 0 command(s)\n"
		if code != 0 || stdout != want || stderr != "mm: context canceled\n" {
			t.Errorf("exit %d\nstdout %q\nwant   %q\nstderr %q", code, stdout, want, stderr)
		}
		if !slices.Equal(f.prompts, []string{"wait", "run ls"}) || !slices.Equal(f.answers, []orchestrator.ConsentAnswer{orchestrator.AllowOnce}) {
			t.Errorf("prompts %q, answers %v", f.prompts, f.answers)
		}
	})
	t.Run("typed while the turn runs", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		f := &fakeSession{waiting: make(chan struct{})}
		var stdout, stderr bytes.Buffer
		done := make(chan int)
		go func() {
			opts := Options{Stdin: r, Stdout: &stdout, Stderr: &stderr}
			done <- runLine(context.Background(), opts, func(sink orchestrator.Sink) (frontend.Session, string, error) {
				f.sink = sink
				return f, "mm test | model: fake", nil
			})
		}()
		io.WriteString(w, "wait\n")
		<-f.waiting
		io.WriteString(w, "/abort\nnext\n")
		w.Close()
		code := <-done
		want := "mm test | model: fake\n⚙ 0 command(s)\n🤖 answer to next\n⚙ 0 command(s)\n"
		if code != 0 || stdout.String() != want || !slices.Equal(f.prompts, []string{"wait", "next"}) {
			t.Errorf("exit %d, prompts %q\nstdout %q\nwant   %q\nstderr %q", code, f.prompts, stdout.String(), want, stderr.String())
		}
	})
}

// runFakeLinePipe is runFakeLine fed from a pipe, as a script feeds mm:
// its reads can be interrupted, so lines are read while a turn runs.
func runFakeLinePipe(t *testing.T, f *fakeSession, input string) (int, string, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		io.WriteString(w, input)
		w.Close()
	}()
	return runFakeLineFrom(t, f, r)
}

// TestLineAbortRegularFile: a stdin that cannot be read while a turn runs
// (a string, a regular file) is read between turns: /abort then finds no
// turn running.
func TestLineAbortRegularFile(t *testing.T) {
	f := &fakeSession{}
	code, stdout, _ := runFakeLine(t, f, "hello\n/abort\n")
	want := "mm test | model: fake\n🤖 answer to hello\n⚙ 0 command(s)\n(no turn is running)\n"
	if code != 0 || stdout != want {
		t.Errorf("exit %d\nstdout %q\nwant   %q", code, stdout, want)
	}
}

// TestLineShell: a line starting with "!" runs a shell command for the
// person, through the session, never as a question.
func TestLineShell(t *testing.T) {
	f := &fakeSession{}
	code, _, stderr := runFakeLine(t, f, "!git status\n! ls -a\n")
	if code != 0 || stderr != "" || len(f.prompts) > 0 || !slices.Equal(f.shells, []string{"git status", " ls -a"}) {
		t.Errorf("exit %d, stderr %q, prompts %q, shells %q", code, stderr, f.prompts, f.shells)
	}
}

// TestLinePick: mm --resume without an id lists the folder's sessions,
// numbered, and resumes the one whose number is typed; a number off the
// list asks again; Enter alone resumes none. (/resume alone does the same
// on a terminal: the pty tests.)
func TestLinePick(t *testing.T) {
	f := &fakeSession{choices: []orchestrator.SavedSession{
		{ID: "1m8rp0pc0qje", Age: "3 h ago", Turns: 4, First: "fix the build"},
		{ID: "1m8rp48m14s5", Name: "docs", Age: "2 days ago", Turns: 1, First: "write the \x1b[2Jdocs"},
		{ID: "1m8rp48tzmd2", Age: "5 days ago", Problem: "…/1m8rp48tzmd2.jsonl:3: not a session line"},
	}}
	var out, errOut bytes.Buffer
	opts := Options{Stdin: io.NopCloser(strings.NewReader("7\n2\n")), Stdout: &out, Stderr: &errOut, PickSession: true}
	code := runLine(context.Background(), opts, func(sink orchestrator.Sink) (frontend.Session, string, error) {
		f.sink = sink
		return f, "mm test | model: fake", nil
	})
	stdout, stderr := out.String(), errOut.String()
	want := `mm test | model: fake
Saved sessions of this folder, the latest first:
  1. 3 h ago · 4 turns · fix the build
  2. docs · 2 days ago · 1 turn · write the \x1b[2Jdocs
  3. 5 days ago · cannot be resumed: …/1m8rp48tzmd2.jsonl:3: not a session line
("7" is not a number of the list: give one from 1 to 3)
resumed session 1m8rp48m14s5
`
	if code != 0 || stdout != want || stderr != "" || !slices.Equal(f.resumed, []string{"1m8rp48m14s5"}) {
		t.Errorf("exit %d, resumed %q\nstdout:\n%s\nwant:\n%s\nstderr %q", code, f.resumed, stdout, want, stderr)
	}
}

// TestEscapeKeys: while a turn runs, an ESC that begins no key's sequence
// is the Escape key, taken out; an arrow key's sequence stays for the next
// prompt; an ESC that ends what was read waits for what follows.
func TestEscapeKeys(t *testing.T) {
	tests := []struct {
		in, rest    string
		found, held bool
	}{
		{"\x1b", "", false, true},
		{"ab\x1b", "ab", false, true},
		{"\x1b/abort\n", "/abort\n", true, false},
		{"\x1b[A\x1bOB", "\x1b[A\x1bOB", false, false},
		{"x\x1b\x1b[C", "x\x1b[C", true, false},
	}
	for _, tc := range tests {
		rest, found, held := escapeKeys([]byte(tc.in))
		if string(rest) != tc.rest || found != tc.found || held != tc.held {
			t.Errorf("escapeKeys(%q) = %q, %v, %v; want %q, %v, %v", tc.in, rest, found, held, tc.rest, tc.found, tc.held)
		}
	}
	if got := typedLine([]byte("\x1b[A\x1b[B/abort\r")); got != "/abort" {
		t.Errorf("typedLine after arrow keys = %q", got)
	}
}
