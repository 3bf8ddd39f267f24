package tui

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// session is what the window uses of an orchestrator session: what every
// interactive front end uses.
type session = frontend.Session

// input is what the terminal reader read, or why it stopped.
type input struct {
	b   []byte
	err error
}

// turnDone says the turn's goroutine is over; panic holds what it panicked
// with, to be raised again once the terminal is restored.
type turnDone struct{ panic *turnPanic }

type turnPanic struct {
	value any
	stack []byte
}

// window is the state of the screen, owned by the goroutine running run.
type window struct {
	s      session
	banner string
	model  string
	tr     transcript
	ed     editor
	dec    decoder
	scr    screen

	msgs chan any
	done chan struct{}

	// ctx is the parent of every turn's context.
	ctx context.Context
	// running says a turn's goroutine runs; cancel cancels its context, and
	// cancelled says it was.
	running   bool
	cancel    context.CancelFunc
	cancelled bool
	// consents are the questions waiting, the first one shown; shownAt is
	// its last transcript line.
	consents []*consentAsk
	shownAt  int

	// scroll is how many rows the transcript is scrolled up from the
	// bottom; total is its row count at the last draw (at totalWidth), to
	// keep the view in place while text arrives below it.
	scroll, total, totalWidth int
	// hint replaces the status line's help until the next key.
	hint string
	// continued are the lines of a question typed so far, each ended with
	// a backslash (continueLine).
	continued []string

	// colour says the window may use colours (frontend.UseColour): not
	// with NO_COLOR.
	colour bool

	// quit ends run with exit; leaving waits for the turn to end first.
	quit, leaving bool
	exit          int
	panicked      *turnPanic

	// prog follows what the turn waits on and the turns' usage, for the
	// status line; now is the clock it reads.
	prog frontend.Progress
	now  func() time.Time
}

func newWindow(ctx context.Context, msgs chan any, done chan struct{}, displayHooks, displayCommands bool) *window {
	w := &window{ctx: ctx, msgs: msgs, done: done, now: time.Now}
	w.tr.displayHooks, w.tr.displayCommands = displayHooks, displayCommands
	return w
}

// run is the window's loop: it handles what arrives and redraws after each
// batch, until the person leaves; it returns the exit code. keys are the
// terminal's input, winch its resizes (size reads the new size), stops the
// signals that end the window.
func (w *window) run(keys <-chan input, winch, stops <-chan os.Signal, size func() (int, int)) int {
	w.scr.resize(size())
	w.draw()
	stop := w.ctx.Done()
	// While a turn waits, the status line's elapsed time moves.
	tick := time.NewTicker(statusTick)
	defer tick.Stop()
	for !w.quit {
		select {
		case <-stop:
			stop = nil
			w.leave(1)
		case in, ok := <-keys:
			if !ok || in.err != nil {
				keys = nil
				w.leave(0)
				break
			}
			for _, k := range w.dec.feed(in.b) {
				w.key(k)
			}
		case <-tick.C:
			if !w.running {
				continue
			}
		case <-winch:
			w.scr.resize(size())
		case <-stops:
			if w.leaving {
				w.quit = true
			}
			w.leave(1)
		case m := <-w.msgs:
			w.message(m)
			// Take what else is waiting before drawing: a streaming answer
			// arrives in many small pieces.
			for i := 0; i < 512 && len(w.msgs) > 0 && !w.quit; i++ {
				w.message(<-w.msgs)
			}
		}
		if !w.quit {
			w.draw()
		}
	}
	return w.exit
}

// message handles one message from the session's side.
func (w *window) message(m any) {
	switch m := m.(type) {
	case orchestrator.Event:
		w.prog.Observe(m, w.now())
		w.tr.event(m)
	case *consentAsk:
		w.consents = append(w.consents, m)
		if len(w.consents) == 1 {
			w.showConsent()
		}
	case consentGone:
		w.withdraw(m.ask)
	case turnDone:
		w.running, w.cancelled = false, false
		if w.cancel != nil {
			w.cancel()
			w.cancel = nil
		}
		if m.panic != nil {
			w.panicked = m.panic
			w.quit, w.exit = true, 2
		}
		if w.leaving {
			w.quit = true
		}
	}
}

// startTurn sends text to the session in a goroutine of its own.
func (w *window) startTurn(text string) {
	ctx, cancel := context.WithCancel(w.ctx)
	w.running, w.cancel, w.cancelled = true, cancel, false
	w.scroll = 0
	go func() {
		var p *turnPanic
		defer func() {
			select {
			case w.msgs <- turnDone{panic: p}:
			case <-w.done:
			}
		}()
		defer func() {
			if r := recover(); r != nil {
				p = &turnPanic{value: r, stack: debug.Stack()}
			}
		}()
		w.s.PromptTyped(ctx, text)
	}()
}

// cancelTurn cancels the running turn: the session ends it and reports
// "cancelled".
func (w *window) cancelTurn() {
	if w.running && !w.cancelled {
		w.cancel()
		w.cancelled = true
	}
}

// leave ends the window with code, once the running turn (cancelled) is
// over.
func (w *window) leave(code int) {
	w.exit = code
	if !w.running {
		w.quit = true
		return
	}
	w.leaving = true
	w.cancelTurn()
}

// key handles one key press.
func (w *window) key(k key) {
	if w.quit || (w.leaving && k.kind != keyCtrlC) {
		// Keys typed after the way out (in the same read) start nothing.
		return
	}
	w.hint = ""
	switch k.kind {
	case keyPgUp:
		w.scroll += max(w.scr.viewHeight()-1, 1)
		return
	case keyPgDn:
		w.scroll = max(w.scroll-max(w.scr.viewHeight()-1, 1), 0)
		return
	case keyCtrlL:
		w.scr.invalidate()
		return
	}
	if len(w.consents) > 0 && w.consentKey(k) {
		return
	}
	switch k.kind {
	case keyEscape:
		if w.running {
			w.cancelTurn()
		} else {
			w.scroll = 0
		}
	case keyCtrlC:
		switch {
		case w.running && w.cancelled:
			// A turn that does not end when cancelled: leave anyway.
			w.quit, w.exit = true, 130
		case w.running:
			w.cancelTurn()
		case !w.ed.empty():
			w.ed.clear()
		default:
			w.leave(0)
		}
	case keyCtrlD:
		if w.ed.empty() {
			w.leave(0)
		} else {
			w.ed.edit(key{kind: keyDelete})
		}
	case keyEnter:
		w.enter()
	case keyTab:
		w.complete()
	default:
		w.ed.edit(k)
	}
}

// complete is Tab: the text before the cursor, when it starts a slash
// word (frontend.CompleteCommand), an @path or a $name line
// (frontend.Complete), gets what every candidate shares; when that is
// nothing, the status line lists the candidates until the next key.
func (w *window) complete() {
	before := string(w.ed.buf[:w.ed.pos])
	rests, matched := frontend.CompleteCommand(before, frontend.SlashWords(commands().Words(), w.s.Commands()))
	if src, ok := w.s.(interface {
		Cwd() string
		Skills() []string
	}); ok && rests == nil {
		rests, matched = frontend.Complete(before, src.Cwd(), src.Skills())
	}
	if common := frontend.CommonPrefix(rests); common != "" {
		for _, r := range common {
			w.ed.edit(key{kind: keyRune, r: r})
		}
		return
	}
	if len(rests) > 1 {
		names := make([]string, len(rests))
		for i, r := range rests {
			names[i] = matched + r
		}
		w.hint = frontend.Visible(strings.Join(names, "  "))
	}
}

// statusTick is how often the status line is redrawn while a turn runs:
// its elapsed time shows tenths of a second.
const statusTick = 100 * time.Millisecond

// status is the status line's text.
func (w *window) status() string {
	s := " "
	if w.scroll > 0 {
		s += fmt.Sprintf("↑%d rows, PgDn · ", w.scroll)
	}
	s += w.model + " · "
	switch {
	case w.hint != "":
		return s + w.hint
	case len(w.consents) > 0:
		return s + consentStatus(w.consents[0].req)
	case w.leaving:
		return s + "leaving once the turn ends · Ctrl-C leaves now"
	case w.cancelled:
		return s + "cancelling… · Ctrl-C again leaves now"
	case w.running:
		if wait := w.prog.Waiting(w.now()); wait != "" {
			return s + frontend.Visible(wait) + " · Esc cancels"
		}
		return s + "running · Esc cancels"
	}
	if u, ok := w.prog.LastUsage(); ok {
		return s + "idle · Enter sends · /help · Ctrl-D leaves · " + frontend.UsageLine(u)
	}
	return s + "idle · Enter sends · PgUp/PgDn scroll · /help · Ctrl-D leaves"
}
