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
			orchestrator.CommandAbort: "or Ctrl-C",
			orchestrator.CommandExit:  "or Ctrl-D",
		},
		Footer: "Ctrl-C cancels the running turn; a second Ctrl-C leaves. A line typed\nwhile a turn runs waits for its end.",
	}
}

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

	cmds := lineCommands()
	// failed says a turn failed or a command was refused.
	failed := false
	exit := func() int {
		if failed && !opts.Terminal {
			return 1
		}
		return 0
	}
	for {
		line, err := in.ReadLine("› ")
		switch {
		case errors.Is(err, errInterrupt):
			fmt.Fprintln(opts.Stdout, "(Ctrl-D or /exit leaves)")
			continue
		case err != nil:
			return exit()
		}
		line = continued(in, line)
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if cmd, ok := cmds.Find(line); ok {
			switch cmd.Name {
			case orchestrator.CommandExit:
				return exit()
			case orchestrator.CommandUsage:
				fmt.Fprintln(opts.Stdout, sp.usage())
			case orchestrator.CommandHistory:
				r.showConversation(s, 0)
			case orchestrator.CommandAbort:
				// An /abort read while a turn runs cancels it (turnInput).
				fmt.Fprintln(opts.Stdout, "(no turn is running)")
			default:
				cmds.Run(cmd, s, func(ev orchestrator.Event) {
					// A command that could not be carried out is refused as
					// an unknown one is: on stderr, and a script sees it.
					if n, ok := ev.(orchestrator.Notice); ok && n.Kind == orchestrator.NoticeWarning {
						fmt.Fprintln(opts.Stderr, n.Text)
						failed = true
						return
					}
					sp.Emit(ev)
					if reply, ok := ev.(orchestrator.CommandReply); ok && reply.Command == "resume" {
						r.showConversation(s, RecentTurns)
					}
				})
			}
			continue
		}
		if refusal := frontend.UnknownCommand(line, cmds.Words(), s.Commands()); refusal != "" {
			fmt.Fprintln(opts.Stderr, "mm: "+refusal)
			failed = true
			continue
		}
		var turnErr error
		quit := runCancellable(ctx, func(ctx context.Context, cancel context.CancelFunc) {
			watch.start(cancel)
			defer watch.end()
			// A turn the person cancelled did not fail.
			if err := s.PromptTyped(ctx, line); ctx.Err() == nil {
				turnErr = err
			}
		})
		if quit {
			fmt.Fprintln(opts.Stdout)
			return 130
		}
		failed = failed || turnErr != nil
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
