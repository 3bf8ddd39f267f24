package tui

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// Options configure the window.
type Options struct {
	// Session starts the session, given the window's Sink.
	Session func(orchestrator.Sink) (*orchestrator.Session, error)
	// Banner is the top line, given the started session (whose MCP servers
	// it names); nil for none.
	Banner func(*orchestrator.Session) string
	// Stdin and Stdout must be the terminal. Stderr gets what is said
	// before the window opens: a configuration error, not a terminal.
	Stdin, Stdout *os.File
	Stderr        io.Writer
	// DisplayHooks and DisplayCommands are the configuration's.
	DisplayHooks, DisplayCommands bool
	// PickSession opens the list of the folder's saved sessions once the
	// window is up, as /resume alone does (mm --resume without an id).
	PickSession bool
}

// Run shows the window until the person leaves and returns the exit code:
// 0 when they leave, 1 when the session cannot start or the context ends
// it, 2 when stdin or stdout is not a terminal, 130 when they leave during
// a cancelled turn that does not end. The terminal is restored whatever
// happens, a panic included.
func Run(ctx context.Context, opts Options) int {
	t, err := openTerminal(opts.Stdin, opts.Stdout)
	if err != nil {
		fmt.Fprintf(opts.Stderr, "mm -tui: %v\n", err)
		return 2
	}
	msgs := make(chan any, 256)
	done := make(chan struct{})
	s, err := opts.Session(sink{msgs: msgs, done: done})
	if err != nil {
		frontend.ReportError(opts.Stderr, err)
		return 1
	}
	defer s.Close()
	// Before Close: what the session says while it closes waits for no one.
	defer close(done)

	w := newWindow(ctx, msgs, done, opts.DisplayHooks, opts.DisplayCommands)
	w.s, w.model = s, s.Model()
	w.colour = frontend.UseColour(os.Getenv)
	w.tr.markdown = w.colour
	if opts.Banner != nil {
		w.banner = opts.Banner(s)
	}
	w.scr.out = opts.Stdout
	for _, warning := range s.Warnings() {
		w.tr.notice("⚠ " + warning)
	}
	// A resumed session's scrollback holds the whole of it.
	w.showConversation()
	w.tr.notice("Type a question and press Enter; /help lists the commands.")
	if opts.PickSession {
		w.openPicker()
	}

	defer t.leave()
	if err := t.enter(); err != nil {
		t.leave()
		fmt.Fprintf(opts.Stderr, "mm -tui: %v\n", err)
		return 1
	}
	if err := t.start(); err != nil {
		t.leave()
		fmt.Fprintf(opts.Stderr, "mm -tui: %v\n", err)
		return 1
	}
	defer t.stop()

	code := w.run(t.keys, t.winch, t.stops, t.size)
	if p := w.panicked; p != nil {
		// The turn's goroutine panicked: raise it here, where the deferred
		// calls restore the terminal first.
		t.stop()
		t.leave()
		panic(fmt.Sprintf("%v\n\nin the turn's goroutine:\n%s", p.value, p.stack))
	}
	return code
}
