package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/frontend/markdown"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// style is how a transcript line is drawn.
type style uint8

const (
	stylePlain      style = iota
	styleDim              // notices, hook runs, the ⚙ block, call summaries, past consent questions
	styleQuestion         // the person's questions
	styleFailed           // failed and denied calls, a turn's error
	styleAsk              // a consent question waiting for its answer
	styleAskAdded         // a line a change adds, in a consent question
	styleAskRemoved       // a line a change removes, in a consent question
	styleAskHunk          // a change's "@@" line, in a consent question
)

// asking says st is a style of a consent question waiting for its answer.
func (st style) asking() bool {
	return st == styleAsk || st == styleAskAdded || st == styleAskRemoved || st == styleAskHunk
}

// changeStyle is the style of a consent question's line of a change.
func changeStyle(diff byte) style {
	switch diff {
	case '+':
		return styleAskAdded
	case '-':
		return styleAskRemoved
	case '@':
		return styleAskHunk
	}
	return styleAsk
}

// line is one line of the transcript, before wrapping.
type line struct {
	text string
	// hang starts each of its rows after the first when it wraps.
	hang  string
	style style
	// marks are the styles of parts of text (markdown), in order.
	marks []mark

	// rows caches the line wrapped to width w.
	rows []string
	w    int
}

// mark sets the style of a line's text from byte at on: sgr, or the
// line's own style when sgr is "".
type mark struct {
	at  int
	sgr string
}

// wrapped is the line's rows at width w.
func (l *line) wrapped(w int) []string {
	if l.rows == nil || l.w != w {
		l.rows, l.w = wrap(l.text, w, l.hang), w
		for i, r := range l.rows {
			l.rows[i] = strings.TrimRight(r, " ")
		}
		if len(l.marks) > 0 {
			l.paint()
		}
	}
	return l.rows
}

// paint puts the marks' styles into the wrapped rows: each row is a part
// of the text (after the hang, on the rows after the first), and starts
// in the style the text has there.
func (l *line) paint() {
	pos := 0
	for i, r := range l.rows {
		prefix := ""
		if i > 0 && strings.HasPrefix(r, l.hang) {
			prefix = l.hang
		}
		part := strings.TrimPrefix(r, prefix)
		start := strings.Index(l.text[pos:], part)
		if start < 0 {
			continue // not a part of the text as it is: left plain
		}
		start += pos
		end := start + len(part)
		var b strings.Builder
		b.WriteString(prefix)
		cur := "" // the style the text has at start
		for _, m := range l.marks {
			if m.at <= start {
				cur = m.sgr
			}
		}
		b.WriteString(cur)
		at := start
		for _, m := range l.marks {
			if m.at > start && m.at < end {
				b.WriteString(l.text[at:m.at])
				b.WriteString(sgrOr(m.sgr))
				at = m.at
			}
		}
		b.WriteString(l.text[at:end])
		l.rows[i] = b.String()
		pos = end
	}
}

// sgrOr is sgr, or the reset for the line's own style.
func sgrOr(sgr string) string {
	if sgr == "" {
		return sgrReset
	}
	return sgr
}

// transcript turns what happens in the session into lines. It mirrors the
// line mode's rendering, with the window's own forms where the reference
// asks for them (a call a hook denied is a failed call line).
type transcript struct {
	lines []*line

	displayHooks, displayCommands bool
	// markdown renders the answers (a terminal with colours); md renders
	// the open text.
	markdown bool
	md       *markdown.Stream

	// open says the last lines are text streaming from agent ("" for the
	// session's own model), begun at line head.
	open  bool
	agent string
	head  int
}

// add appends text as lines: the first starts with first, the others (and
// every wrapped row) with hang.
func (t *transcript) add(st style, first, hang, text string) {
	t.close()
	for i, part := range strings.Split(sanitize(text), "\n") {
		lead := hang
		if i == 0 {
			lead = first
		}
		t.lines = append(t.lines, &line{text: lead + part, hang: hang, style: st})
	}
}

// close ends the streaming text: a piece ending with a newline left an
// empty line open, which goes.
func (t *transcript) close() {
	if !t.open {
		return
	}
	if t.md != nil {
		t.spans(t.md.Close())
		t.md = nil
	}
	t.open = false
	last := len(t.lines) - 1
	if last > t.head && t.lines[last].text == t.lines[last].hang {
		t.lines = t.lines[:last]
	}
}

// question shows what the person sent, after a blank line.
func (t *transcript) question(text string) {
	if len(t.lines) > 0 {
		t.add(stylePlain, "", "", "")
	}
	t.add(styleQuestion, "› ", "  ", text)
}

// notice shows dim lines of the window's own: a command's output, a
// session warning. Each line keeps its own margin.
func (t *transcript) notice(text string) {
	for _, l := range strings.Split(text, "\n") {
		t.add(styleDim, "", "  ", l)
	}
}

// event shows one event of the session.
func (t *transcript) event(ev orchestrator.Event) {
	switch e := ev.(type) {
	case orchestrator.Text:
		t.text(e.Agent, e.Text)
	case orchestrator.ToolStarted:
		in := frontend.Indent(e.Agent)
		t.add(stylePlain, in+"🔧 ", in+"   ", orchestrator.CallTitle(e.Agent, e.Name, e.Subject))
	case orchestrator.ToolEnded:
		t.toolEnded(e)
	case orchestrator.Notice:
		// A hook's failure report, a replaced answer: as they happen.
		t.add(styleDim, "", "   ", e.Text)
	case orchestrator.CommandReply:
		t.notice(e.Text)
	case orchestrator.UserText:
		// A question of a conversation shown again.
		t.question(e.Text)
	case orchestrator.Compressed:
		t.add(styleDim, "", "  ", e.Line())
	case orchestrator.HookRan:
		// Listed under the ⚙ line when the turn ends (TurnEnded.Hooks,
		// which leaves out the runs outside a turn).
	case orchestrator.TurnEnded:
		t.turnEnded(e)
	case orchestrator.ModelStarted, orchestrator.Compressing, orchestrator.AskStarted, orchestrator.AskEnded:
		// Waits: the status line shows them (window.message gives every
		// event to Progress too). A hand-off's lines are the asked
		// agent's text and calls.
	}
}

// text appends a piece of streamed answer. A new agent, or text after any
// other line, starts a new paragraph under 🤖.
func (t *transcript) text(agent, s string) {
	in := frontend.Indent(agent)
	hang := in + "   "
	if !t.open || t.agent != agent {
		head := in + "🤖 "
		if agent != "" {
			head += agent + ": "
		}
		t.add(stylePlain, head, hang, "")
		t.open, t.agent, t.head = true, agent, len(t.lines)-1
		if t.markdown {
			t.md = markdown.NewStream(frontend.Visible)
		}
	}
	if t.md != nil {
		t.spans(t.md.Write(s))
		return
	}
	parts := strings.Split(sanitize(s), "\n")
	last := t.lines[len(t.lines)-1]
	last.text += parts[0]
	last.rows = nil
	for _, p := range parts[1:] {
		t.lines = append(t.lines, &line{text: hang + p, hang: hang})
	}
}

// spans appends rendered markdown to the open text.
func (t *transcript) spans(spans []markdown.Span) {
	hang := frontend.Indent(t.agent) + "   "
	for _, sp := range spans {
		if sp.Text == "\n" {
			t.lines = append(t.lines, &line{text: hang, hang: hang})
			continue
		}
		last := t.lines[len(t.lines)-1]
		// Already visible: only the tabs are left to turn into spaces.
		text := strings.ReplaceAll(sp.Text, "\t", "    ")
		if sgr := sp.Style.SGR(); sgr != "" {
			n := len(last.marks)
			if n >= 2 && last.marks[n-1] == (mark{at: len(last.text)}) && last.marks[n-2].sgr == sgr {
				// The style goes on from the piece before.
				last.marks[n-1].at += len(text)
			} else {
				last.marks = append(last.marks, mark{at: len(last.text), sgr: sgr}, mark{at: len(last.text) + len(text)})
			}
		}
		last.text += text
		last.rows = nil
	}
}

func (t *transcript) toolEnded(e orchestrator.ToolEnded) {
	in := frontend.Indent(e.Agent)
	title := orchestrator.CallTitle(e.Agent, e.Name, e.Subject)
	out := e.Summary
	if out == "" {
		out = e.Output
	}
	switch {
	case e.Status == orchestrator.ToolDenied && e.DeniedBy == "hook":
		t.add(styleFailed, in+"🪝 ", in+"   ", title+" — denied by a hook")
		t.output(in+"   ", out)
	case e.Status == orchestrator.ToolDenied:
		t.add(styleFailed, in+"⛔ ", in+"   ", title+" — denied")
		t.output(in+"   ", out)
	case e.Status == orchestrator.ToolFailed && e.Summary != "":
		t.add(styleFailed, in+"✗ ", in+"  ", title+": "+frontend.FirstLine(e.Summary))
	case e.Summary != "":
		t.add(styleDim, in+"   ", in+"   ", e.Summary)
	}
}

// output shows the first line of what a refused call's model reads, under
// its title.
func (t *transcript) output(margin, out string) {
	if out = frontend.FirstLine(out); out != "" {
		t.add(styleDim, margin, margin, out)
	}
}

// turnEnded closes a turn: its error, then the ⚙ line, the displayCommands
// list and one notice per hook run.
func (t *transcript) turnEnded(e orchestrator.TurnEnded) {
	t.close()
	if e.Err != nil {
		t.add(styleFailed, "", "   ", "mm: "+e.Err.Error())
	}
	// The ⚙ block is one colour, as in the line mode: the hook runs under
	// it are notices, dim, and so are the ⚙ line and the commands.
	t.add(styleDim, "", "  ", fmt.Sprintf("⚙ %d command(s)", len(e.Commands)))
	if t.displayCommands {
		for _, c := range e.Commands {
			t.add(styleDim, "  $ ", "    ", c)
		}
	}
	if t.displayHooks {
		for _, h := range e.Hooks {
			t.add(styleDim, "  ", "     ", h)
		}
	}
}

// consent shows a consent question and returns its last line, where the
// answer will be written.
func (t *transcript) consent(req orchestrator.ConsentRequest) int {
	head, q := frontend.ConsentQuestion(req, consentKeys(req))
	lead := ""
	for _, l := range head {
		t.add(changeStyle(l.Diff), lead, "  ", l.Text)
		lead = "  "
	}
	t.add(styleAsk, lead, "  ", q)
	return len(t.lines) - 1
}

// answered writes the answer after the consent question ending at line
// last and dims the question.
func (t *transcript) answered(last int, answer string) {
	l := t.lines[last]
	l.text += " → " + answer
	l.rows = nil
	for i := last; i >= 0 && t.lines[i].style.asking(); i-- {
		t.lines[i].style = styleDim
	}
}

// total is the number of rows of the transcript wrapped to width.
func (t *transcript) total(width int) int {
	n := 0
	for _, l := range t.lines {
		n += len(l.wrapped(width))
	}
	return n
}

// view returns the rows of the transcript wrapped to width that show in a
// view of height rows scrolled up from the bottom by scroll rows (which
// must leave a full view: at most total-height), with their styles.
func (t *transcript) view(width, height, scroll int) (rows []string, styles []style) {
	// Walk up from the bottom: the visible rows are usually the last ones.
	skip := scroll
	for i := len(t.lines) - 1; i >= 0 && len(rows) < height; i-- {
		l := t.lines[i]
		w := l.wrapped(width)
		for j := len(w) - 1; j >= 0 && len(rows) < height; j-- {
			if skip > 0 {
				skip--
				continue
			}
			rows = append(rows, w[j])
			styles = append(styles, l.style)
		}
	}
	slices.Reverse(rows)
	slices.Reverse(styles)
	return rows, styles
}
