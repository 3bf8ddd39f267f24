package line

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/rivo/uniseg"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// Options configure the line mode.
type Options struct {
	Session func(orchestrator.Sink) (*orchestrator.Session, error)
	// Banner is the start-up line, given the started session (whose MCP
	// servers it names).
	Banner func(*orchestrator.Session) string
	Stdin  io.ReadCloser
	Stdout io.Writer
	// Stderr gets the errors: a turn's, a refused command, a session that
	// cannot start.
	Stderr io.Writer
	// Terminal says stdin is a terminal: lines are edited and kept in
	// HistoryFile. Otherwise a failed turn makes the exit code 1.
	Terminal    bool
	HistoryFile string
	// DisplayHooks and DisplayCommands are the configuration's.
	DisplayHooks, DisplayCommands bool
	// PickSession opens the list of the folder's saved sessions once the
	// session started, as /resume alone does (mm --resume without an id).
	PickSession bool
}

// continuePrompt is the prompt of a line that goes on the one before.
const continuePrompt = "… "

// continued joins the lines that follow line while each ends with a
// backslash, with a line break in place of it: a question of several lines
// (a question, then an @path line) typed line by line.
func continued(in lineReader, line string) string {
	for {
		head, more := strings.CutSuffix(strings.TrimRight(line, " \t"), "\\")
		if !more {
			return line
		}
		head = strings.TrimRight(head, " \t")
		next, err := in.ReadLine(continuePrompt)
		if err != nil {
			return head
		}
		line = head + "\n" + next
	}
}

// completionSource is what a session says for the completion of @path and
// $name lines: where its paths start, and its skills.
type completionSource interface {
	Cwd() string
	Skills() []string
}

// lineCommands are the slash commands the line mode offers, and its keys.
func lineCommands() orchestrator.CommandSet {
	return orchestrator.CommandSet{
		Local: []string{orchestrator.CommandUsage, orchestrator.CommandHistory, orchestrator.CommandAbort, orchestrator.CommandExit},
		Keys: map[string]string{
			orchestrator.CommandAbort: "or Esc, or Ctrl-C",
			orchestrator.CommandExit:  "or Ctrl-D, or Ctrl-C twice on an empty line",
		},
		Footer: keysFooter,
	}
}

// keysFooter is the line mode's /help footer: its keys, and "!".
const keysFooter = `Esc or Ctrl-C cancels the running turn; a second Ctrl-C leaves. A line
typed while a turn runs is sent once it ends. !<command> runs a shell
command for you (in the sandbox); the model reads its output with your
next question.`

// interruptHint answers Ctrl-C on an empty prompt; a second one leaves.
const interruptHint = "(Ctrl-C again leaves; so do Ctrl-D and /exit)"

// Run runs the interactive line mode until /exit or the end of input and
// returns the exit code: 0, or 1 when stdin is not a terminal and a turn
// failed or a command was refused, so that a script sees it.
func Run(ctx context.Context, opts Options) int {
	return runLine(ctx, opts, func(sink orchestrator.Sink) (frontend.Session, string, error) {
		s, err := opts.Session(sink)
		if err != nil {
			return nil, "", err
		}
		return s, opts.Banner(s), nil
	})
}

// runLine is Run with the session (and its banner) started by start: the
// orchestrator's, or a test's fake.
func runLine(ctx context.Context, opts Options, start func(orchestrator.Sink) (frontend.Session, string, error)) int {
	// Everything the line mode shows is for a person.
	opts.Stderr = newVisibleWriter(opts.Stderr)
	// What is typed while a turn runs is read too: /abort cancels it.
	gate := newTurnInput(ctx, opts.Stdin)
	watch := &turnWatch{in: gate}
	var in lineReader
	completer := &lineCompleter{}
	if opts.Terminal {
		tr, err := newTerminalReader(opts.HistoryFile, struct {
			io.Reader
			io.Closer
		}{gate, opts.Stdin}, opts.Stdout, completer)
		if err != nil {
			fmt.Fprintf(opts.Stderr, "mm: line editing unavailable (%v); reading plain lines\n", err)
			in = newPipeReader(gate)
		} else {
			in = tr
			watch.tty = newTurnTerminal(opts.Stdin)
		}
	} else {
		in = newPipeReader(gate)
	}
	defer in.Close()
	defer watch.close()

	opts.Stdout = newVisibleWriter(opts.Stdout)
	var inputMu sync.Mutex // a consent question and the prompt never read at once
	r := &renderer{out: opts.Stdout, side: opts.Stdout, errs: opts.Stderr, prefix: true, alwaysGear: true,
		displayHooks: opts.DisplayHooks, displayCommands: opts.DisplayCommands}
	r.useTerminal()
	r.consent = func(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
		inputMu.Lock()
		defer inputMu.Unlock()
		if watch.typing() {
			return askConsentTyped(ctx, watch, opts.Stdout, r.styled(opts.Stdout), req)
		}
		defer watch.pause()()
		return askConsent(in, opts.Stdout, !opts.Terminal, r.styled(opts.Stdout), req)
	}
	// The spinner while a turn waits, on a terminal; the usage for /usage.
	sp := newSpinner(r, r.lineOpen, opts.Stdout)
	defer sp.close()
	s, banner, err := start(sp)
	if err != nil {
		frontend.ReportError(opts.Stderr, err)
		return 1
	}
	defer s.Close()
	if c, ok := s.(completionSource); ok {
		completer.set(c.Cwd(), c.Skills())
	}
	completer.setWords(frontend.SlashWords(lineCommands().Words(), s.Commands()))
	fmt.Fprintln(opts.Stdout, banner)
	for _, w := range s.Warnings() {
		fmt.Fprintln(opts.Stdout, "⚠ "+w)
	}
	// A resumed session shows its last turns.
	r.showConversation(s, RecentTurns)

	l := &lineLoop{ctx: ctx, opts: opts, s: s, in: in, r: r, sp: sp, watch: watch, cmds: lineCommands()}
	if opts.PickSession {
		l.pick()
	}
	return l.loop()
}

// lineLoop is the line mode's loop over the person's lines, once its
// session started.
type lineLoop struct {
	ctx   context.Context
	opts  Options
	s     frontend.Session
	in    lineReader
	r     *renderer
	sp    *spinner
	watch *turnWatch
	cmds  orchestrator.CommandSet
	// failed says a turn failed or a command was refused.
	failed bool
}

// exit is the exit code once the person leaves: 1 when stdin is not a
// terminal and something failed, so that a script sees it.
func (l *lineLoop) exit() int {
	if l.failed && !l.opts.Terminal {
		return 1
	}
	return 0
}

// refuse says on stderr why a line was not carried out; a script sees it.
func (l *lineLoop) refuse(text string) {
	fmt.Fprintln(l.opts.Stderr, text)
	l.failed = true
}

// loop reads and carries out lines until the person leaves; it returns
// the exit code.
func (l *lineLoop) loop() int {
	// interrupted says the last prompt ended in Ctrl-C on an empty line:
	// a second one leaves, as in the window.
	interrupted := false
	for {
		line, err := l.in.ReadLine("› ")
		switch {
		case errors.Is(err, errInterruptEmpty) && interrupted:
			return l.exit()
		case errors.Is(err, errInterruptEmpty):
			interrupted = true
			fmt.Fprintln(l.opts.Stdout, interruptHint)
			continue
		case errors.Is(err, errInterrupt):
			interrupted = false // the line typed is dropped
			continue
		case err != nil:
			return l.exit()
		}
		interrupted = false
		line = continued(l.in, line)
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if leave, code := l.line(line); leave {
			return code
		}
	}
}

// line carries out one line: a command of the line mode, a shell command
// (!), or a question; leave says the line mode ends, with code.
func (l *lineLoop) line(line string) (leave bool, code int) {
	if cmd, ok := l.cmds.Find(line); ok {
		return l.command(cmd)
	}
	if command, ok := strings.CutPrefix(line, "!"); ok {
		return l.cancellable(func(ctx context.Context) error {
			if err := l.s.Shell(ctx, command); err != nil && ctx.Err() == nil {
				l.refuse("mm: " + err.Error())
			}
			return nil
		})
	}
	if refusal := frontend.UnknownCommand(line, l.cmds.Words(), l.s.Commands()); refusal != "" {
		l.refuse("mm: " + refusal)
		return false, 0
	}
	return l.cancellable(func(ctx context.Context) error { return l.s.PromptTyped(ctx, line) })
}

// cancellable runs f as a turn runs: Esc, Ctrl-C and /abort cancel it, a
// second Ctrl-C leaves (code 130). Its error, unless the person cancelled
// it, fails the line.
func (l *lineLoop) cancellable(f func(context.Context) error) (leave bool, code int) {
	var turnErr error
	quit := runCancellable(l.ctx, func(ctx context.Context, cancel context.CancelFunc) {
		l.watch.start(cancel)
		defer l.watch.end()
		// A turn the person cancelled did not fail.
		if err := f(ctx); ctx.Err() == nil {
			turnErr = err
		}
	})
	if quit {
		fmt.Fprintln(l.opts.Stdout)
		return true, 130
	}
	l.failed = l.failed || turnErr != nil
	return false, 0
}

// command carries out one of the line mode's commands.
func (l *lineLoop) command(cmd orchestrator.SlashCommand) (leave bool, code int) {
	switch {
	case cmd.Name == orchestrator.CommandExit:
		return true, l.exit()
	case cmd.Name == orchestrator.CommandUsage:
		fmt.Fprintln(l.opts.Stdout, l.sp.usage())
	case cmd.Name == orchestrator.CommandHistory:
		l.r.showConversation(l.s, 0)
	case cmd.Name == orchestrator.CommandAbort:
		// An /abort read while a turn runs cancels it (turnInput).
		fmt.Fprintln(l.opts.Stdout, "(no turn is running)")
	case cmd.Name == "resume" && cmd.Arg == "" && l.opts.Terminal:
		// From a pipe, a script names what it resumes: Run refuses it.
		l.pick()
	default:
		l.cmds.Run(cmd, l.s, l.reply)
	}
	return false, 0
}

// reply shows what a command the session carried out says: a command
// that could not be carried out is refused as an unknown one is, on
// stderr.
func (l *lineLoop) reply(ev orchestrator.Event) {
	if n, ok := ev.(orchestrator.Notice); ok && n.Kind == orchestrator.NoticeWarning {
		l.refuse(n.Text)
		return
	}
	l.sp.Emit(ev)
	if reply, ok := ev.(orchestrator.CommandReply); ok && reply.Command == "resume" {
		l.r.showConversation(l.s, RecentTurns)
	}
}

// runCancellable runs f with a context that the first Ctrl-C cancels; a
// second Ctrl-C during the same run asks to leave (quit is true).
func runCancellable(ctx context.Context, f func(context.Context, context.CancelFunc)) (quit bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	done := make(chan struct{})
	go func() { f(ctx, cancel); close(done) }()
	interrupts := 0
	for {
		select {
		case <-done:
			return false
		case <-sig:
			interrupts++
			if interrupts > 1 {
				return true
			}
			cancel()
		}
	}
}

// askConsent asks the person about one tool call; a change it shows is in
// colour when colour is set.
func askConsent(in lineReader, out io.Writer, echo, colour bool, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	head, q := frontend.ConsentQuestion(req, consentKeys(req))
	writeConsentHead(out, head, colour)
	prompt := q
	if !echo && uniseg.StringWidth(q) >= terminalWidth(out) {
		// A prompt wider than the terminal is redrawn on every key.
		prompt = "› "
	}
	for {
		if echo {
			fmt.Fprint(out, q)
		} else if prompt != q {
			fmt.Fprintln(out, strings.TrimSuffix(q, " › "))
		}
		line, err := in.ReadLine(prompt)
		if echo {
			fmt.Fprintln(out)
		}
		if err != nil {
			return orchestrator.RejectOnce
		}
		if a, ok := parseConsent(req, line); ok {
			return a
		}
	}
}

// Colours of a change's lines in a consent question.
const (
	sgrAdded   = "\x1b[32m"
	sgrRemoved = "\x1b[31m"
	sgrHunk    = "\x1b[36m"
)

// writeConsentHead writes the lines before a consent question, a change's
// in their colours when colour is set (they are visible already).
func writeConsentHead(out io.Writer, head []frontend.ConsentLine, colour bool) {
	for _, l := range head {
		sgr := ""
		switch l.Diff {
		case '+':
			sgr = sgrAdded
		case '-':
			sgr = sgrRemoved
		case '@':
			sgr = sgrHunk
		}
		if colour && sgr != "" {
			io.WriteString(underVisible(out), sgr+l.Text+sgrReset+"\n")
			continue
		}
		fmt.Fprintln(out, l.Text)
	}
}

// TerminalConsent asks the person at a terminal, reading answers from in
// and writing questions to out (mm --ask). Questions are asked one at a time.
func TerminalConsent(in io.Reader, out io.Writer) func(context.Context, orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	var mu sync.Mutex
	r := newPipeReader(in)
	colour := frontend.UseColour(os.Getenv) && isTerminal(out)
	return func(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
		mu.Lock()
		defer mu.Unlock()
		return askConsent(r, out, true, colour, req)
	}
}
