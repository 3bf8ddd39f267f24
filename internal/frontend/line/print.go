package line

import (
	"context"
	"fmt"
	"io"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// PrintOptions configure -p.
type PrintOptions struct {
	Session func(orchestrator.Sink) (*orchestrator.Session, error)
	Stdout  io.Writer
	Stderr  io.Writer
	// StdoutTerminal says stdout is a terminal: the answer is shown there
	// as everything else is, made visible (frontend.Visible); to a pipe or
	// a file it goes as the model wrote it.
	StdoutTerminal bool
	// DisplayHooks and DisplayCommands are the configuration's.
	DisplayHooks, DisplayCommands bool
	// Format is what stdout gets: the answer (FormatText, the default) or
	// JSON.
	Format OutputFormat
	// Info is what the JSON output says of the run: its session, what was
	// resumed.
	Info RunInfo
}

// Print runs one turn on question: the answer streams to stdout; tool lines,
// nested answers and hook failure reports go to stderr, so that stdout is the
// answer alone. With displayHooks or displayCommands, the ⚙ block follows
// the answer on stdout. Nobody can be asked for consent: calls that need it
// are refused. It returns the process's exit code.
func Print(ctx context.Context, question string, opts PrintOptions) int {
	opts.Stderr = newVisibleWriter(opts.Stderr)
	if opts.Format == FormatJSON || opts.Format == FormatStreamJSON {
		return printJSON(ctx, question, opts)
	}
	if opts.StdoutTerminal {
		opts.Stdout = newVisibleWriter(opts.Stdout)
	}
	r := &renderer{out: opts.Stdout, side: opts.Stderr, displayHooks: opts.DisplayHooks, displayCommands: opts.DisplayCommands}
	r.useTerminal()
	// The spinner goes where the tool lines go: stderr, when it is a
	// terminal.
	sp := newSpinner(r, r.lineOpen, opts.Stderr)
	defer sp.close()
	s, err := opts.Session(sp)
	if err != nil {
		frontend.ReportError(opts.Stderr, err)
		return 1
	}
	defer s.Close()
	for _, w := range s.Warnings() {
		fmt.Fprintln(opts.Stderr, "mm: "+w)
	}
	if err := s.PromptTyped(ctx, question); err != nil {
		return 1
	}
	return 0
}

// printJSON is Print with a JSON output format: stdout gets JSON alone,
// and stderr nothing.
func printJSON(ctx context.Context, question string, opts PrintOptions) int {
	j := newJSONSink(opts.Stdout, opts.Format, ModePrint)
	s, err := opts.Session(j)
	if err != nil {
		j.failed(err, 1, opts.Info)
		return 1
	}
	defer s.Close()
	j.begin(s, "", opts.Info)
	for _, w := range s.Warnings() {
		j.Emit(orchestrator.Notice{Kind: orchestrator.NoticeWarning, Text: "mm: " + w})
	}
	code := 0
	err = s.PromptTyped(ctx, question)
	if err != nil {
		code = 1
	}
	j.mu.Lock()
	answer := j.answer
	j.mu.Unlock()
	j.finish(answer, err, code, opts.Info)
	return code
}
