package line

import (
	"context"
	"io"
	"os"
	"sync"
	"time"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// spinnerTick is how often the spinner is redrawn: the elapsed time shows
// tenths of a second, and ten short writes a second cost nothing even on a
// slow link.
const spinnerTick = 100 * time.Millisecond

// spinnerFrames turn once a second.
var spinnerFrames = [...]string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// eraseLine takes the cursor back to the line's start and clears it.
const eraseLine = "\r\x1b[K"

// spinner is a Sink that keeps the turns' Progress (for /usage) and, on
// a terminal, shows what the turn waits on ("⠋ asking expert… 3.2 s") while
// nothing else is written. It passes every event and question on to the
// Sink it wraps, erasing its own line first, so that it never mixes with
// text.
type spinner struct {
	inner orchestrator.Sink
	// open says the inner Sink has an unfinished line on the terminal: the
	// spinner waits until it is finished.
	open func() bool
	// tty is the terminal, under any visibleWriter; nil when the spinner
	// only counts (not a terminal).
	tty io.Writer

	mu     sync.Mutex
	prog   frontend.Progress
	shown  bool
	paused int // consent questions being asked

	stop chan struct{}
	done chan struct{}
}

// newSpinner wraps inner. It draws only when w is a terminal that can
// take it (not TERM=dumb): nothing of it reaches a pipe. close ends it.
func newSpinner(inner orchestrator.Sink, open func() bool, w io.Writer) *spinner {
	s := &spinner{inner: inner, open: open}
	if isTerminal(w) && os.Getenv("TERM") != "dumb" {
		s.tty = underVisible(w)
		s.stop, s.done = make(chan struct{}), make(chan struct{})
		go s.loop()
	}
	return s
}

func (s *spinner) loop() {
	defer close(s.done)
	t := time.NewTicker(spinnerTick)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case now := <-t.C:
			s.mu.Lock()
			s.draw(now)
			s.mu.Unlock()
		}
	}
}

// draw shows the wait as of now, or clears the line when there is none;
// the caller holds mu.
func (s *spinner) draw(now time.Time) {
	line := s.prog.Waiting(now)
	if line == "" || s.paused > 0 || s.open() {
		s.erase()
		return
	}
	shown := spinnerFrame(now.Sub(s.prog.Since())) + " " + frontend.Visible(line)
	if w := terminalWidth(s.tty); w > 0 {
		// A line the terminal wraps is not erased whole by the next frame.
		shown = cutWidth(shown, w-1)
	}
	io.WriteString(s.tty, eraseLine+shown+"\x1b[K")
	s.shown = true
}

// spinnerFrame is the frame shown after elapsed. A tick delivered late
// carries a time from before a wait begun since: a negative elapsed shows
// the first frame.
func spinnerFrame(elapsed time.Duration) string {
	return spinnerFrames[max(0, int(elapsed/spinnerTick))%len(spinnerFrames)]
}

// erase clears the spinner's line if it is shown; the caller holds mu.
func (s *spinner) erase() {
	if s.shown {
		io.WriteString(s.tty, eraseLine)
		s.shown = false
	}
}

// close stops the spinner and erases its line.
func (s *spinner) close() {
	if s.stop == nil {
		return
	}
	close(s.stop)
	<-s.done
	s.mu.Lock()
	s.erase()
	s.mu.Unlock()
}

// usage is /usage's report.
func (s *spinner) usage() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prog.UsageReport()
}

func (s *spinner) Emit(ev orchestrator.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.erase()
	s.prog.Observe(ev, time.Now())
	s.inner.Emit(ev)
}

func (s *spinner) Consent(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	s.mu.Lock()
	s.erase()
	s.paused++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.paused--
		s.mu.Unlock()
	}()
	return s.inner.Consent(ctx, req)
}

// lineOpen says r has an unfinished line of text.
func (r *renderer) lineOpen() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.open != nil && !r.atLineStart
}
