package tui

import (
	"unicode"

	"github.com/mm-agent/mm/internal/frontend"
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
		req := w.consents[0].req
		switch unicode.ToLower(k.r) {
		case 'y':
			a, word = orchestrator.AllowOnce, "yes, once"
		case 'n':
			a, word = orchestrator.RejectOnce, "no"
		case 'a':
			a, word = orchestrator.AllowAlways, frontend.ConsentAlways(req)
		case 's':
			a, word = orchestrator.AllowAlwaysSaved, frontend.ConsentSaved(req)
		case 'v':
			a, word = orchestrator.RejectAlways, "never for "+frontend.Visible(req.Tool)
		default:
			return true
		}
		if word == "" {
			return true // an answer the question does not offer
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

// consentKeys end a consent question in the window: one key an answer,
// the "always" answer and its saved form when they are offered.
func consentKeys(req orchestrator.ConsentRequest) string {
	keys := "[y] once [n] no "
	if always := frontend.ConsentAlways(req); always != "" {
		keys += "[a] " + always + " "
	}
	if req.Always != nil && req.Always.SaveTo != "" {
		keys += "[s] saved to " + req.Always.SaveTo + " "
	}
	return keys + "[v] never"
}

// consentStatus is the status line's hint while req is asked.
func consentStatus(req orchestrator.ConsentRequest) string {
	s := "allow this call? y once · n no · "
	if req.Always != nil {
		s += "a always · "
	}
	if req.Always != nil && req.Always.SaveTo != "" {
		s += "s always, saved · "
	}
	return s + "v never · Esc no"
}
