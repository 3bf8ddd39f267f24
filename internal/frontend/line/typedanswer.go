package line

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// askConsentTyped asks a consent question at the terminal while the turn's
// watch reads it: the question is written once, whatever its width (a line
// editor given a prompt wider than the terminal redraws it on every key),
// and the answer is the first line typed after it, echoed and edited by the
// terminal. What was typed before the question and what follows the answer
// stay for the next prompt. The end of the turn (Ctrl-C, /abort) or of the
// input refuses the call.
func askConsentTyped(ctx context.Context, w *turnWatch, out io.Writer, colour bool, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	head, q := frontend.ConsentQuestion(req, consentKeys(req))
	writeConsentHead(out, head, colour)
	for {
		fmt.Fprint(out, q)
		line, ok := w.typedAnswer(ctx)
		if !ok {
			fmt.Fprintln(out)
			return orchestrator.RejectOnce
		}
		if a, ok := parseConsent(req, line); ok {
			return a
		}
	}
}

// typing says a consent question can read its answer through the watch: a
// turn is watched on a terminal.
func (w *turnWatch) typing() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.tty == nil || w.stop == nil {
		return false
	}
	w.in.mu.Lock()
	defer w.in.mu.Unlock()
	return w.in.reading
}

// typedAnswer is the next line typed, with the terminal echoing it.
func (w *turnWatch) typedAnswer(ctx context.Context) (string, bool) {
	ch := w.in.startAsking()
	w.tty.answering()
	defer w.tty.quiet()
	return w.in.waitAnswer(ctx, ch)
}

// startAsking makes the watch keep what comes from now on apart, for
// waitAnswer.
func (t *turnInput) startAsking() chan string {
	t.mu.Lock()
	defer t.mu.Unlock()
	ch := make(chan string, 1)
	if !t.reading {
		close(ch)
		return ch
	}
	t.asking, t.answer = ch, nil
	return ch
}

// waitAnswer waits for the line startAsking asked for; false at the end of
// ctx or of the input.
func (t *turnInput) waitAnswer(ctx context.Context, ch chan string) (string, bool) {
	select {
	case line, ok := <-ch:
		return line, ok
	case <-ctx.Done():
		t.mu.Lock()
		if t.asking == ch {
			t.asking, t.answer = nil, nil
		}
		t.mu.Unlock()
		return "", false
	}
}

// takeAnswer gives the asker the first whole line of what came since it
// asked, and puts what follows it back with what is pending; an /abort line
// cancels the turn instead. t.mu is held.
func (t *turnInput) takeAnswer(abort func()) {
	for t.asking != nil {
		i := lineEnd(t.answer)
		if i < 0 {
			return
		}
		line, rest := typedLine(t.answer[:i+1]), t.answer[i+1:]
		if line == abortLine {
			t.answer = rest
			abort()
			continue
		}
		t.asking <- line
		t.pending = append(t.pending, rest...)
		t.asking, t.answer = nil, nil
	}
}

// endAsking tells the asker no answer comes; t.mu is held.
func (t *turnInput) endAsking() {
	if t.asking != nil {
		close(t.asking)
		t.asking, t.answer = nil, nil
	}
}

// consentKeys ends a consent question: the answers and their keys — the
// "always" answer and its saved form when they are offered.
func consentKeys(req orchestrator.ConsentRequest) string {
	keys := "[y] yes once  [n] no  "
	if always := frontend.ConsentAlways(req); always != "" {
		keys += "[a] " + always + "  "
	}
	if req.Always != nil && req.Always.SaveTo != "" {
		keys += "[s] always, saved to " + req.Always.SaveTo + "  "
	}
	return keys + fmt.Sprintf("[v] never for %s › ", req.Tool)
}

// parseConsent is the answer a line gives to req; false when it gives
// none (the question is asked again): an answer that is not offered is
// none.
func parseConsent(req orchestrator.ConsentRequest, line string) (orchestrator.ConsentAnswer, bool) {
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return orchestrator.AllowOnce, true
	case "n", "no":
		return orchestrator.RejectOnce, true
	case "a", "always":
		return orchestrator.AllowAlways, req.Always != nil
	case "s", "save":
		return orchestrator.AllowAlwaysSaved, req.Always != nil && req.Always.SaveTo != ""
	case "v", "never":
		return orchestrator.RejectAlways, true
	}
	return orchestrator.RejectOnce, false
}
