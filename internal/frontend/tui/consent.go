package tui

import (
	"unicode"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// Consent questions wait in w.consents, asked one at a time: the first is
// shown in the transcript and answered by one key; the answer is written
// after it.

// showConsent shows the first waiting question, scrolled into view.
func (w *window) showConsent() {
	w.shownAt = w.tr.consent(w.consents[0].req)
	w.scroll = 0
}

// consentKey answers the question shown when k is one of its keys
// (Escape is "no, this once") and reports whether it was.
func (w *window) consentKey(k key) bool {
	var a orchestrator.ConsentAnswer
	var word string
	switch {
	case k.kind == keyEscape:
		a, word = orchestrator.RejectOnce, "no"
	case k.kind != keyRune:
		// Ctrl-C cancels the turn, and with it the question.
		return k.kind != keyCtrlC
	default:
		switch unicode.ToLower(k.r) {
		case 'y':
			a, word = orchestrator.AllowOnce, "yes, once"
		case 'n':
			a, word = orchestrator.RejectOnce, "no"
		case 'a':
			a, word = orchestrator.AllowAlways, "always for "+w.consents[0].req.Tool
		case 'v':
			a, word = orchestrator.RejectAlways, "never for "+w.consents[0].req.Tool
		default:
			return true
		}
	}
	w.consents[0].reply <- a
	w.next(word)
	return true
}

// withdraw takes back a question nobody answered before its turn was
// cancelled.
func (w *window) withdraw(ask *consentAsk) {
	for i, c := range w.consents {
		if c != ask {
			continue
		}
		if i == 0 {
			w.next("cancelled")
			return
		}
		w.consents = append(w.consents[:i], w.consents[i+1:]...)
		return
	}
}

// next closes the question shown with answer and shows the following one.
func (w *window) next(answer string) {
	w.tr.answered(w.shownAt, answer)
	w.consents = w.consents[1:]
	if len(w.consents) > 0 {
		w.showConsent()
	}
}
