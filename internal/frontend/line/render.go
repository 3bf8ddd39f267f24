package line

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"golang.org/x/term"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/frontend/markdown"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// renderer is the Sink of the line mode and of -p: it writes the answer as it
// streams, one line per tool call, and the ⚙ block after each turn.
type renderer struct {
	mu sync.Mutex
	// out gets the answer; side gets tool lines, nested answers and reports
	// (the same writer in the line mode; stderr in -p); errs, when set, the
	// error that ended a turn (the line mode's stderr), else side does.
	out, side, errs io.Writer
	// prefix starts each piece of answer ("🤖 " in the line mode).
	prefix          bool
	displayHooks    bool
	displayCommands bool
	// alwaysGear prints the ⚙ line after every turn (line mode); otherwise
	// only when something is displayed under it.
	alwaysGear bool
	consent    func(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer

	// segment is the agent whose text is being written ("" for ours), and
	// open says a line of text is unfinished on w.
	segment string
	open    io.Writer
	// atLineStart says the text written last ended with a newline.
	atLineStart bool
	// wrote says some answer text went to out in this turn.
	wrote bool
	// md renders the segment's text as markdown, on a writer with colours;
	// nil on any other.
	md *markdown.Stream
	// wrap breaks the segment's text at spaces, on a terminal; nil on any
	// other writer.
	wrap *wrapper

	// styleOut and styleSide say out and side are terminals that get
	// colours (useTerminal): the renderer then makes text visible itself
	// and writes to the terminal under the visibleWriter, so that its own
	// escapes go through.
	styleOut, styleSide, styleErrs bool
}

// Select Graphic Rendition sequences of the line mode's colours.
const (
	sgrReset = "\x1b[0m"
	sgrDim   = "\x1b[2m"
	sgrRed   = "\x1b[31m"
)

// useTerminal turns on colours, and markdown for the answers, for each of
// r's writers that is a terminal, unless the environment forbids them
// (frontend.UseColour).
func (r *renderer) useTerminal() {
	if !frontend.UseColour(os.Getenv) {
		return
	}
	r.styleOut, r.styleSide = isTerminal(r.out), isTerminal(r.side)
	r.styleErrs = r.errs != nil && isTerminal(r.errs)
}

// isTerminal says w is a terminal (under its visibleWriter, if any).
func isTerminal(w io.Writer) bool {
	f, ok := underVisible(w).(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// underVisible is the writer a visibleWriter writes to; w when it is not one.
func underVisible(w io.Writer) io.Writer {
	if vw, ok := w.(visibleWriter); ok {
		return vw.w
	}
	return w
}

// styled says w is one of r's writers that gets colours.
func (r *renderer) styled(w io.Writer) bool {
	return w == r.out && r.styleOut || w == r.side && r.styleSide || w == r.errs && r.styleErrs
}

// say writes the line s to w, painted with sgr when w gets colours; s is
// made visible either way (by w's visibleWriter when it has no colours).
func (r *renderer) say(w io.Writer, sgr, s string) {
	if !r.styled(w) || sgr == "" {
		io.WriteString(w, s+"\n")
		return
	}
	io.WriteString(underVisible(w), sgr+frontend.Visible(s)+sgrReset+"\n")
}

func (r *renderer) Consent(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	if r.consent == nil {
		return orchestrator.ConsentUnavailable
	}
	r.mu.Lock()
	r.closeLine()
	r.mu.Unlock()
	return r.consent(ctx, req)
}

// closeLine ends an unfinished line of text.
func (r *renderer) closeLine() {
	if r.md != nil {
		if text := markdown.ANSI(r.md.Close()); text != "" {
			io.WriteString(underVisible(r.open), r.wrapped(text))
			r.atLineStart = strings.HasSuffix(text, "\n")
		}
		r.md = nil
	}
	if r.wrap != nil {
		io.WriteString(underVisible(r.open), r.wrap.flush())
		r.wrap = nil
	}
	if r.open != nil && !r.atLineStart {
		fmt.Fprintln(r.open)
	}
	r.open = nil
}

// wrapped is what of s can be written now: all of it, or, when the
// segment's writer is a terminal, s broken into the terminal's rows with
// the word it ends in held back.
func (r *renderer) wrapped(s string) string {
	if r.wrap == nil {
		return s
	}
	return r.wrap.write(s)
}

// startWrap wraps the segment's text when w is a terminal.
func (r *renderer) startWrap(w io.Writer) {
	r.wrap = nil
	if terminalWidth(w) > 0 {
		r.wrap = &wrapper{width: func() int { return terminalWidth(w) }}
	}
}

func (r *renderer) Emit(ev orchestrator.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e := ev.(type) {
	case orchestrator.Text:
		w := r.out
		if e.Agent != "" {
			w = r.side
		}
		if r.open == nil || r.segment != e.Agent || r.open != w {
			r.closeLine()
			r.segment = e.Agent
			r.startWrap(w)
			switch {
			case e.Agent != "":
				io.WriteString(w, r.wrapped(fmt.Sprintf("🤖 %s: ", e.Agent)))
			case r.prefix:
				io.WriteString(w, r.wrapped("🤖 "))
			}
			if r.styled(w) {
				r.md = markdown.NewStream(frontend.Visible)
			}
			r.atLineStart = false
		}
		text := e.Text
		if r.md != nil {
			// Made visible in the stream, before its own escapes.
			text = markdown.ANSI(r.md.Write(text))
			io.WriteString(underVisible(w), r.wrapped(text))
		} else if r.wrap != nil {
			// Made visible before its width is counted.
			io.WriteString(w, r.wrapped(frontend.Visible(text)))
		} else {
			io.WriteString(w, text)
		}
		// A piece that ends a line leaves nothing to close; the segment goes
		// on until another one starts.
		r.open = w
		if text != "" {
			r.atLineStart = strings.HasSuffix(text, "\n")
		}
		if e.Agent == "" {
			r.wrote = true
		}
	case orchestrator.ToolStarted:
		r.closeLine()
		r.say(r.side, sgrDim, frontend.Indent(e.Agent)+"🔧 "+orchestrator.CallTitle(e.Agent, e.Name, e.Subject))
	case orchestrator.ToolEnded:
		switch {
		case e.Status == orchestrator.ToolDenied && e.DeniedBy == "hook":
			r.closeLine()
			r.say(r.side, sgrDim, frontend.Indent(e.Agent)+"🪝 "+e.Name+" "+e.Summary)
		case e.Status == orchestrator.ToolDenied:
			r.closeLine()
			r.say(r.side, sgrRed, frontend.Indent(e.Agent)+"⛔ "+orchestrator.CallTitle(e.Agent, e.Name, e.Subject)+" "+e.Summary)
		case e.Status == orchestrator.ToolFailed && e.Summary != "":
			r.closeLine()
			r.say(r.side, sgrRed, frontend.Indent(e.Agent)+"✗ "+orchestrator.CallTitle(e.Agent, e.Name, "")+": "+frontend.FirstLine(e.Summary))
		case e.Summary != "":
			r.closeLine()
			r.say(r.side, sgrDim, frontend.Indent(e.Agent)+"  "+e.Summary)
		}
	case orchestrator.Notice:
		r.closeLine()
		sgr := sgrDim
		if e.Kind == orchestrator.NoticeHookFailure {
			sgr = sgrRed
		}
		r.say(r.side, sgr, e.Text)
	case orchestrator.CommandReply:
		r.closeLine()
		fmt.Fprintln(r.out, e.Text)
	case orchestrator.UserText:
		// A question of a conversation shown again, as it was typed.
		r.closeLine()
		r.say(r.out, "", "› "+strings.ReplaceAll(e.Text, "\n", "\n  "))
	case orchestrator.Compressed:
		r.closeLine()
		r.say(r.side, sgrDim, e.Line())
	case orchestrator.HookRan:
		// Listed under the ⚙ line at the end of the turn.
	case orchestrator.TurnEnded:
		r.endTurn(e)
	case orchestrator.ModelStarted, orchestrator.Compressing, orchestrator.AskStarted, orchestrator.AskEnded:
		// Waits: the spinner shows them on a terminal (spinner.Emit). A
		// hand-off's lines are the asked agent's text and calls.
	}
}

func (r *renderer) endTurn(e orchestrator.TurnEnded) {
	r.closeLine()
	if e.Err != nil {
		w := r.side
		if r.errs != nil {
			w = r.errs
		}
		r.say(w, sgrRed, fmt.Sprintf("mm: %v", e.Err))
	}
	hooks := e.Hooks
	if !r.displayHooks {
		hooks = nil
	}
	showCommands := r.displayCommands && len(e.Commands) > 0
	if r.alwaysGear || len(hooks) > 0 || showCommands {
		r.say(r.out, sgrDim, fmt.Sprintf("⚙ %d command(s)", len(e.Commands)))
		if r.displayCommands {
			for _, c := range e.Commands {
				r.say(r.out, sgrDim, "  $ "+c)
			}
		}
		for _, h := range hooks {
			r.say(r.out, sgrDim, "  "+h)
		}
	}
	r.segment, r.wrote = "", false
}
