package frontend

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mm-agent/mm/orchestrator"
)

// renderer is the Sink of the line mode and of -p: it writes the answer as it
// streams, one line per tool call, and the ⚙ block after each turn.
type renderer struct {
	mu sync.Mutex
	// out gets the answer; side gets tool lines, nested answers and reports
	// (the same writer in the line mode; stderr in -p).
	out, side io.Writer
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
	if r.open != nil && !r.atLineStart {
		fmt.Fprintln(r.open)
	}
	r.open = nil
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
			switch {
			case e.Agent != "":
				fmt.Fprintf(w, "🤖 %s: ", e.Agent)
			case r.prefix:
				fmt.Fprint(w, "🤖 ")
			}
		}
		io.WriteString(w, e.Text)
		// A piece that ends a line leaves nothing to close; the segment goes
		// on until another one starts.
		r.open = w
		r.atLineStart = strings.HasSuffix(e.Text, "\n")
		if e.Agent == "" {
			r.wrote = true
		}
	case orchestrator.ToolStarted:
		r.closeLine()
		fmt.Fprintf(r.side, "%s🔧 %s\n", Indent(e.Agent), orchestrator.CallTitle(e.Agent, e.Name, e.Subject))
	case orchestrator.ToolEnded:
		switch {
		case e.Status == orchestrator.ToolDenied && e.DeniedBy == "hook":
			r.closeLine()
			fmt.Fprintf(r.side, "%s🪝 %s %s\n", Indent(e.Agent), e.Name, e.Summary)
		case e.Status == orchestrator.ToolDenied:
			r.closeLine()
			fmt.Fprintf(r.side, "%s⛔ %s %s\n", Indent(e.Agent), orchestrator.CallTitle(e.Agent, e.Name, e.Subject), e.Summary)
		case e.Status == orchestrator.ToolFailed && e.Summary != "":
			r.closeLine()
			fmt.Fprintf(r.side, "%s✗ %s: %s\n", Indent(e.Agent), orchestrator.CallTitle(e.Agent, e.Name, ""), firstLine(e.Summary))
		case e.Summary != "":
			r.closeLine()
			fmt.Fprintf(r.side, "%s  %s\n", Indent(e.Agent), e.Summary)
		}
	case orchestrator.Notice:
		r.closeLine()
		fmt.Fprintln(r.side, e.Text)
	case orchestrator.HookRan:
		// Listed under the ⚙ line at the end of the turn.
	case orchestrator.TurnEnded:
		r.endTurn(e)
	}
}

func (r *renderer) endTurn(e orchestrator.TurnEnded) {
	r.closeLine()
	if e.Err != nil {
		fmt.Fprintf(r.side, "mm: %v\n", e.Err)
	}
	hooks := e.Hooks
	if !r.displayHooks {
		hooks = nil
	}
	showCommands := r.displayCommands && len(e.Commands) > 0
	if r.alwaysGear || len(hooks) > 0 || showCommands {
		fmt.Fprintf(r.out, "⚙ %d command(s)\n", len(e.Commands))
		if r.displayCommands {
			for _, c := range e.Commands {
				fmt.Fprintf(r.out, "  $ %s\n", c)
			}
		}
		for _, h := range hooks {
			fmt.Fprintf(r.out, "  %s\n", h)
		}
	}
	r.segment, r.wrote = "", false
}

// Indent is the margin of an asked agent's lines in a terminal: two spaces
// per level of the ask chain ("expert/checker" is two levels).
func Indent(agent string) string {
	if agent == "" {
		return ""
	}
	return strings.Repeat("  ", strings.Count(agent, "/")+1)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
