package frontend

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mm-agent/mm/internal/textcut"
	"github.com/mm-agent/mm/internal/visible"
	"github.com/mm-agent/mm/orchestrator"
)

// Visible makes text from a model, a tool, an MCP server or an asked agent
// safe to show on a terminal: every control character but newline and tab
// — C0, DEL, C1 — and the Unicode bidi controls, which reorder what a
// person reads, are written out as escapes ("\x1b", "\u202e") instead of
// being interpreted, and so is a byte that is not UTF-8. A carriage return
// before a newline goes quietly; anywhere else it could rewrite a line,
// and shows as "\r". Text that needs none of this is returned as it is.
// The escapes are internal/visible's.
//
// Every front end that draws on a terminal shows such text through it.
func Visible(s string) string {
	if !needsEscape(s) {
		return s
	}
	return string(appendVisible(nil, s))
}

// VisibleLine is Visible for text shown on one line, or in one cell of a
// table — a name, a folder, an id: a line break and a tab are written out
// too ("\n", "\t"), so that the text cannot forge a line of its own.
func VisibleLine(s string) string {
	return Visible(lineBreaks.Replace(s))
}

var lineBreaks = strings.NewReplacer("\n", `\n`, "\t", `\t`)

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f {
			return needsEscapeSlow(s[i:])
		}
	}
	return false
}

// needsEscapeSlow looks at s rune by rune: most bytes over 0x7f are of
// ordinary letters.
func needsEscapeSlow(s string) bool {
	for i, r := range s {
		if visible.Escape(r, s[i:]) != "" {
			return true
		}
	}
	return false
}

// appendVisible appends s, made visible, to dst.
func appendVisible(dst []byte, s string) []byte {
	for i, r := range s {
		if e := visible.Escape(r, s[i:]); e != "" {
			if r == '\r' && strings.HasPrefix(s[i:], "\r\n") {
				continue // a line ending, not an overwrite
			}
			dst = append(dst, e...)
			continue
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// ConsentQuestion is how a consent question is shown on a terminal, its
// text made visible: the question on one line ending with keys, or, when
// the command or input asked about has several lines, a head line and
// those lines indented (never joined: a person must see each line that
// will run) before the question.
func ConsentQuestion(req orchestrator.ConsentRequest, keys string) (head []string, question string) {
	if req.Question != "" {
		return askConsentQuestion(req, keys)
	}
	subject := req.Subject
	if req.Detail != "" {
		subject = req.Detail
	}
	subject = strings.TrimRight(subject, "\n")
	if !strings.Contains(subject, "\n") {
		return nil, Visible("Allow " + orchestrator.CallTitle(req.Agent, req.Tool, subject) + "? " + keys)
	}
	lines := strings.Split(subject, "\n")
	head = append(head, fmt.Sprintf("Allow %s, %d lines:", Visible(orchestrator.CallTitle(req.Agent, req.Tool, "")), len(lines)))
	for _, l := range lines {
		head = append(head, consentIndent+Visible(l))
	}
	return head, Visible("Allow these lines? " + keys)
}

// consentIndent sets a multi-line subject off from the question around it.
const consentIndent = "    "

// MaxConsentQuestion bounds, in characters, the question an ask_agent
// consent question shows: enough to read what is asked and spot an @path
// or a pasted secret in it, short enough that the keys stay on screen.
const MaxConsentQuestion = 400

// askConsentQuestion is the consent question of an ask_agent call: the
// agent, then the question it would send, line by line and made visible,
// cut past MaxConsentQuestion characters with a note.
func askConsentQuestion(req orchestrator.ConsentRequest, keys string) (head []string, question string) {
	subject := req.Subject
	if req.Detail != "" {
		subject = req.Detail
	}
	head = append(head, Visible("Allow "+orchestrator.CallTitle(req.Agent, req.Tool, subject))+", to ask:")
	shown, cut := textcut.Runes(strings.TrimRight(req.Question, "\n"), MaxConsentQuestion)
	for _, l := range strings.Split(shown, "\n") {
		head = append(head, consentIndent+Visible(l))
	}
	if cut > 0 {
		head = append(head, fmt.Sprintf("%s[the question goes on for %d more characters, not shown: the whole of it is sent]", consentIndent, cut))
	}
	return head, Visible("Allow this question? " + keys)
}
