package frontend

import (
	"fmt"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/textcut"
)

// Limits of what a consent question shows. Past them it says how much it
// does not show; the call acts on all of it.
const (
	// MaxConsentQuestion bounds, in characters, the question an ask_agent
	// consent question shows: enough to read what is asked and spot an
	// @path or a pasted secret in it, short enough that the keys stay on
	// screen.
	MaxConsentQuestion = 400
	// MaxConsentArguments bounds, in characters, the arguments shown of a
	// tool mm does not decode itself: about a screenful of wrapped lines.
	MaxConsentArguments = 2000
	// MaxConsentLines bounds the lines of a change shown (a diff, a new
	// file's first lines): a screenful, with the question still on it.
	MaxConsentLines = 40
	// maxDiffBytes is the largest side of a change that is diffed: a diff
	// costs more than linear time, and a change that large is not read
	// line by line before approving it anyway.
	maxDiffBytes = 4 << 20
)

// ConsentLine is one line of a consent question's head, made visible.
type ConsentLine struct {
	Text string
	// Diff is '+', '-' or '@' for a line of a change that adds, removes
	// or starts a hunk (a terminal colours it); 0 for any other line.
	Diff byte
}

// ConsentQuestion is how a consent question is shown on a terminal, its
// text made visible: the question on one line ending with keys, or a head
// of lines before it — each line of a command of several (never joined: a
// person must see each line that will run), the question an ask_agent
// call sends and what goes along, the change a file tool makes, the whole
// arguments of a tool mm does not decode itself.
func ConsentQuestion(req orchestrator.ConsentRequest, keys string) (head []ConsentLine, question string) {
	switch {
	case req.Question != "":
		return askConsentQuestion(req, keys)
	case req.Change != nil:
		return changeConsentQuestion(req, keys)
	case req.Arguments != "":
		return argumentsConsentQuestion(req, keys)
	}
	subject := strings.TrimRight(whole(req), "\n")
	if !strings.Contains(subject, "\n") {
		return nil, Visible("Allow " + orchestrator.CallTitle(req.Agent, req.Tool, subject) + "? " + keys)
	}
	lines := strings.Split(subject, "\n")
	head = append(head, ConsentLine{Text: fmt.Sprintf("Allow %s, %d lines:", Visible(orchestrator.CallTitle(req.Agent, req.Tool, "")), len(lines))})
	for _, l := range lines {
		head = append(head, ConsentLine{Text: consentIndent + Visible(l)})
	}
	return head, Visible("Allow these lines? " + keys)
}

// whole is the subject of req uncut.
func whole(req orchestrator.ConsentRequest) string {
	if req.Detail != "" {
		return req.Detail
	}
	return req.Subject
}

// titled is the head line naming req's call and its subject on one line.
func titled(req orchestrator.ConsentRequest) string {
	return "Allow " + orchestrator.CallTitle(req.Agent, req.Tool, strings.Join(strings.Fields(whole(req)), " "))
}

// consentIndent sets a multi-line subject off from the question around it.
const consentIndent = "    "

// askConsentQuestion is the consent question of an ask_agent call: the
// agent, then the question it would send, line by line and made visible,
// cut past MaxConsentQuestion characters with a note, then what goes along.
func askConsentQuestion(req orchestrator.ConsentRequest, keys string) (head []ConsentLine, question string) {
	head = append(head, ConsentLine{Text: Visible(titled(req)) + ", to ask:"})
	shown, cut := textcut.Runes(strings.TrimRight(req.Question, "\n"), MaxConsentQuestion)
	for _, l := range strings.Split(shown, "\n") {
		head = append(head, ConsentLine{Text: consentIndent + Visible(l)})
	}
	if cut > 0 {
		head = append(head, ConsentLine{Text: fmt.Sprintf("%s[the question goes on for %d more characters, not shown: the whole of it is sent]", consentIndent, cut)})
	}
	if req.Along != "" {
		head = append(head, ConsentLine{Text: consentIndent + "[" + Visible(req.Along) + "]"})
	}
	return head, Visible("Allow this question? " + keys)
}

// argumentsConsentQuestion is the consent question of a call of a tool mm
// does not decode itself: its whole arguments, never a part picked out.
func argumentsConsentQuestion(req orchestrator.ConsentRequest, keys string) (head []ConsentLine, question string) {
	// The title names the call by the agent's title when an agent relays
	// it (Detail), never by a subject picked out of the arguments.
	head = append(head, ConsentLine{Text: Visible(titled(orchestrator.ConsentRequest{Agent: req.Agent, Tool: req.Tool, Detail: req.Detail})) + ", with these arguments:"})
	shown, cut := textcut.Runes(req.Arguments, MaxConsentArguments)
	for _, l := range strings.Split(shown, "\n") {
		head = append(head, ConsentLine{Text: consentIndent + Visible(l)})
	}
	if cut > 0 {
		head = append(head, ConsentLine{Text: fmt.Sprintf("%s[the arguments go on for %d more characters, not shown: all of them are sent]", consentIndent, cut)})
	}
	return head, Visible("Allow these arguments? " + keys)
}

// changeConsentQuestion is the consent question of a file tool's call: the
// change it makes, as a unified diff, or a new file's first lines.
func changeConsentQuestion(req orchestrator.ConsentRequest, keys string) (head []ConsentLine, question string) {
	c := req.Change
	title := Visible(titled(req))
	var lines []ConsentLine
	switch {
	case c.Created && c.New == "":
		head = append(head, ConsentLine{Text: title + ", a new empty file"})
	case c.Created:
		head = append(head, ConsentLine{Text: fmt.Sprintf("%s, a new file of %s (%s):", title, plural(lineCount(c.New), "line"), regularfile.FormatSize(int64(len(c.New))))})
		lines = added(c.New)
	case c.OldSize >= 0 || len(c.Old) > maxDiffBytes || len(c.New) > maxDiffBytes:
		size := c.OldSize
		if size < 0 {
			size = int64(len(c.Old))
		}
		head = append(head, ConsentLine{Text: fmt.Sprintf("%s, replacing its %s (too large to compare) with %s (%s):", title, regularfile.FormatSize(size), plural(lineCount(c.New), "line"), regularfile.FormatSize(int64(len(c.New))))})
		lines = added(c.New)
	case c.Old == c.New:
		head = append(head, ConsentLine{Text: title + ", leaving it as it is (the new content is the file's own)"})
	default:
		head = append(head, ConsentLine{Text: title + ", to make this change:"})
		lines = diffLines(c.Old, c.New)
	}
	if len(lines) > MaxConsentLines {
		more := len(lines) - MaxConsentLines
		lines = append(lines[:MaxConsentLines], ConsentLine{Text: fmt.Sprintf("[the change goes on for %s, not shown: all of it is written]", plural(more, "more line"))})
	}
	return append(head, lines...), Visible("Allow this change? " + keys)
}

// lineCount counts the lines of s, a last one without a newline too.
func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// added is content as the added lines of a diff.
func added(content string) []ConsentLine {
	var out []ConsentLine
	for l := range strings.Lines(content) {
		out = append(out, ConsentLine{Text: "+" + Visible(strings.TrimSuffix(l, "\n")), Diff: '+'})
	}
	return out
}

// diffLines is the unified diff from old to new, its hunks only: the head
// line names the file.
func diffLines(old, new string) []ConsentLine {
	d, err := udiff.ToUnified("", "", old, udiff.Lines(old, new), udiff.DefaultContextLines)
	if err != nil {
		return added(new) // inconsistent edits: cannot happen with Lines'
	}
	var out []ConsentLine
	for i, l := range strings.Split(strings.TrimSuffix(d, "\n"), "\n") {
		if i < 2 {
			continue // "--- " and "+++ ": the head line names the file
		}
		var kind byte
		if l != "" && strings.ContainsRune("+-@", rune(l[0])) {
			kind = l[0]
		}
		out = append(out, ConsentLine{Text: Visible(l), Diff: kind})
	}
	return out
}
