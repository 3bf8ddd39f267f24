package line

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// AskOptions configure mm --ask.
type AskOptions struct {
	Session func(orchestrator.Sink) (*orchestrator.Session, error)
	Agent   string
	// WithContext sends Transcript along (mm --ask-with-context).
	WithContext bool
	Transcript  string
	Stdout      io.Writer
	Stderr      io.Writer
	// StdoutTerminal says stdout is a terminal, where the answer is made
	// visible (frontend.Visible); a pipe or a file gets it as the agent
	// wrote it.
	StdoutTerminal bool
	// Consent asks the person at a terminal; nil when nobody can be asked.
	Consent func(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer
	// Format is what stdout gets: the answer (FormatText, the default) or
	// JSON.
	Format OutputFormat
	// Info is what the JSON output says of the run: its session, what was
	// resumed.
	Info RunInfo
}

// askSink streams the asked agent's answer to stdout, or holds it back, and
// sends everything else to stderr.
type askSink struct {
	mu    sync.Mutex
	agent string
	hold  bool
	wrote bool
	ended bool // the last text ended with a newline
	// toolSince says a tool call of the agent came after its last text: the
	// next text starts a line, as the asking agent reads it.
	toolSince bool
	stdout    io.Writer
	side      *renderer
	consent   func(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer
	// later keeps the notices that speak of the answer (a hook replaced it)
	// while it is held back, to follow it as they follow a streamed one.
	later []orchestrator.Event
}

func (a *askSink) Emit(ev orchestrator.Event) {
	if t, ok := ev.(orchestrator.Text); ok && t.Agent == a.agent {
		a.mu.Lock()
		defer a.mu.Unlock()
		if !a.hold {
			if a.toolSince && a.wrote && !a.ended {
				io.WriteString(a.stdout, "\n")
			}
			a.toolSince = false
			io.WriteString(a.stdout, t.Text)
			a.wrote = true
			a.ended = strings.HasSuffix(t.Text, "\n")
		}
		return
	}
	switch e := ev.(type) {
	case orchestrator.ToolStarted:
		a.sawTool(e.Agent)
	case orchestrator.ToolEnded:
		a.sawTool(e.Agent)
	}
	if n, ok := ev.(orchestrator.Notice); ok && n.Kind == orchestrator.NoticeInfo {
		a.mu.Lock()
		if a.hold {
			a.later = append(a.later, ev)
			a.mu.Unlock()
			return
		}
		a.mu.Unlock()
	}
	a.side.Emit(ev)
}

// lineOpen says a line of the answer or of stderr is unfinished.
func (a *askSink) lineOpen() bool {
	a.mu.Lock()
	open := !a.hold && a.wrote && !a.ended
	a.mu.Unlock()
	return open || a.side.lineOpen()
}

func (a *askSink) sawTool(agent string) {
	if agent == a.agent {
		a.mu.Lock()
		a.toolSince = true
		a.mu.Unlock()
	}
}

func (a *askSink) Consent(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	if a.consent == nil {
		return orchestrator.ConsentUnavailable
	}
	return a.consent(ctx, req)
}

// Ask runs one hand-off from the configured agent (mm --ask): the answer on
// stdout, streamed, or held back until the postAsk hooks ran when at least
// one is declared; "[ask: <message>]" on stderr and exit code 1 on a denial
// or failure.
func Ask(ctx context.Context, question string, opts AskOptions) int {
	opts.Stderr = newVisibleWriter(opts.Stderr)
	if opts.Format == FormatJSON || opts.Format == FormatStreamJSON {
		return askJSON(ctx, question, opts)
	}
	if opts.StdoutTerminal {
		opts.Stdout = newVisibleWriter(opts.Stdout)
	}
	sink := &askSink{
		agent:   opts.Agent,
		stdout:  opts.Stdout,
		side:    &renderer{out: opts.Stderr, side: opts.Stderr},
		consent: opts.Consent,
	}
	// While the agent works, a spinner on stderr when it is a terminal.
	sp := newSpinner(sink, sink.lineOpen, opts.Stderr)
	s, err := opts.Session(sp)
	if err != nil {
		sp.close()
		frontend.ReportError(opts.Stderr, err)
		return 1
	}
	defer s.Close()
	sink.mu.Lock()
	sink.hold = s.HoldsAskAnswer()
	sink.mu.Unlock()
	read, err := s.Ask(ctx, opts.Agent, question, opts.WithContext, opts.Transcript)
	sp.close()
	sink.mu.Lock()
	defer sink.mu.Unlock()
	defer func() {
		for _, ev := range sink.later {
			sink.side.Emit(ev)
		}
	}()
	if sink.wrote && !sink.ended {
		fmt.Fprintln(opts.Stdout)
	}
	if err != nil {
		fmt.Fprintf(opts.Stderr, "[ask: %v]\n", err)
		return 1
	}
	if sink.hold {
		fmt.Fprintln(opts.Stdout, strings.TrimRight(read, "\n"))
	} else if len(read) > 0 && !sink.wrote {
		// Nothing streamed (an empty answer with a hook's context): say what
		// the asking agent reads.
		fmt.Fprintln(opts.Stdout, strings.TrimRight(read, "\n"))
	}
	return 0
}

// askJSON is Ask with a JSON output format. With a postAsk hook declared
// the asked agent's text is held back from stream-json as it is from the
// text output: the result's answer is what the asking agent reads.
func askJSON(ctx context.Context, question string, opts AskOptions) int {
	j := newJSONSink(opts.Stdout, opts.Format, ModeAsk)
	j.consent = opts.Consent
	s, err := opts.Session(j)
	if err != nil {
		j.failed(err, 1, opts.Info)
		return 1
	}
	defer s.Close()
	j.mu.Lock()
	j.holdText = s.HoldsAskAnswer()
	j.mu.Unlock()
	j.begin(s, opts.Agent, opts.Info)
	read, err := s.Ask(ctx, opts.Agent, question, opts.WithContext, opts.Transcript)
	code := 0
	if err != nil {
		code = 1
	}
	j.finish(read, err, code, opts.Info)
	return code
}
